"""The entry points: one post or one PM in, commands / alerts / receipts out.

Pure functions over a :class:`~shenshi.intake.context.GameContext`: no clock, no database, no
network. Identity is the forum uid when the context has uids (the daemon), the display name
otherwise (the batch tool).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from shenshi.intake import receipts
from shenshi.intake.actions import (
    is_skill,
    last_words_from_post,
    resolve_conflicts,
    validate_action,
)
from shenshi.intake.ballots import validate_ballots
from shenshi.intake.collect import Collector, identify, name_index
from shenshi.intake.context import (
    CHAT_THREAD,
    DAY,
    DISCUSSION_THREAD,
    GAME_THREAD,
    NIGHT,
    ROLE_THREAD,
    SIGNIN,
    SIGNIN_THREAD,
    UNKNOWN_TIME,
    VOTE_THREAD,
    GameContext,
    PlayerInfo,
)
from shenshi.intake.grammar import (
    SELF,
    NameRef,
    Parsed,
    cast_as_a_ballot,
    command_word,
    read_actions,
    read_lone_name,
    read_possible_ballot,
    read_votes,
)
from shenshi.intake.model import SIGN_IN, IntakeCommand, IntakeResult
from shenshi.intake.speech import is_content_free, long_quotes, maddened_violations
from shenshi.intake.text import Folded, fold, scrub, strip_bbcode
from shenshi.records import Post, PrivateMessage
from shenshi.rulesets.profile import LastWordsPost, SkillChannel


def read_pm(ctx: GameContext, pm: PrivateMessage) -> IntakeResult:
    """Read one PM to the GM: night actions, kill declarations, delegated votes, last words.

    A PM sent before the game started belongs to no game of this GM account and yields nothing.
    A player's PM that holds no command (a question, thanks, a remark) is an alert for the GM
    to read (``not_a_command``); at night a PM of only a player's name is the action of a role
    with one power. A PM from someone who is not a player yields a ``not_a_player`` alert only
    if it holds a command.
    """
    pm = replace(pm, sender=scrub(pm.sender), text=scrub(pm.text))
    if ctx.is_gm(pm.sender, pm.sender_uid) or _before_the_game(ctx, pm.sent_at):
        return IntakeResult()
    text, _quotes, hidden = strip_bbcode(pm.text)
    sender = identify(ctx, pm.sender, pm.sender_uid)
    parsed = read_actions(
        text, name_index(ctx), kill_posts=ctx.profile.kill_post is not None,
        author_keys=_author_keys(ctx, sender, pm.sender),
    )  # fmt: skip
    out = Collector(ctx, sender, pm.sent_at, receipts_on=ctx.receipts)
    if sender is None:
        if parsed:
            out.alert(
                "not_a_player", "alert_not_a_player_pm", author=pm.sender, uid=pm.sender_uid,
                command=parsed[0].verb,
            )  # fmt: skip
        return out.result()
    if hidden and read_actions(hidden, name_index(ctx)):
        out.alert("unclosed_quote", text=_excerpt(hidden))
    if not parsed:
        parsed = _lone_name(ctx, sender, text)
    if not parsed:
        if not hidden:
            out.alert("not_a_command", text=_excerpt(text))
        return out.result()
    for p in parsed:
        if ctx.profile.skills.channel is not SkillChannel.PM and (
            (is_skill(p) and set(p.intents) & ctx.powers_of(sender))
            or p.intents[0] in _TREE_HOLE_ONLY
        ):
            out.alert(
                "wrong_channel", "alert_wrong_channel_pm", verb=p.verb,
                reason_template="reason_wrong_channel_pm",
            )  # fmt: skip
            continue
        validate_action(out, p)
        if p.unread is not None:  # a declaration alone after an unread command word
            out.alert("unread_command", word=p.unread, text=_excerpt(text))
    resolve_conflicts(out)
    return out.result()


def read_gm_entry(ctx: GameContext, actor: str, text: str, at: datetime) -> IntakeResult:
    """An action the GM enters for ``actor`` (``shenshi override action``: what intake could
    not read), written as the player would write it (``杀 老王``, ``炮打 X 炮架子 Y``) and
    validated as his own PM or 功能树洞 reply would be, sent at ``at``: his powers,
    the window, the targets, the declaration. No receipt: the GM tells the player himself."""
    sender = ctx.player(actor)
    out = Collector(ctx, sender, at, receipts_on=False)
    if sender is None:
        return out.result()
    parsed = read_actions(
        text, name_index(ctx), kill_posts=ctx.profile.kill_post is not None,
        author_keys=_author_keys(ctx, sender, actor),
    )  # fmt: skip
    for p in parsed:
        validate_action(out, p)
    resolve_conflicts(out)
    return out.result()


# Replies that belong in the 功能树洞 where skills do (werewolf [WW:L116, L183, L185]).
_TREE_HOLE_ONLY = frozenset({"last_words", "speed_up", "slow_down"})


def _before_the_game(ctx: GameContext, t: datetime) -> bool:
    """Whether a PM stamped ``t`` was sent before the game started: its whole minute lies before
    the start (PM times are shown to the minute; the player gets the benefit of the doubt)."""
    if ctx.started is None or t == UNKNOWN_TIME:
        return False
    return t + timedelta(minutes=1) <= ctx.started


def _lone_name(ctx: GameContext, sender: PlayerInfo, text: str) -> list[Parsed]:
    """A PM holding only a player's name, at night, from a role with one power: that power."""
    if ctx.phase.kind not in (NIGHT, SIGNIN) or ctx.profile.skills.channel is not SkillChannel.PM:
        return []
    powers = sorted(ctx.powers_of(sender) - ctx.profile.skills.night0 - ctx.profile.skills.day)
    ref = read_lone_name(text, name_index(ctx))
    if ref is None or len(powers) != 1:
        return []
    word = ctx.info.action_name(powers[0])
    declaration = "" if powers[0] in _kill_skills(ctx) else None
    return [Parsed((powers[0],), word, 0, ref, declaration=declaration)]


def _kill_skills(ctx: GameContext) -> frozenset[str]:
    post = ctx.profile.kill_post
    return post.skills if post is not None else frozenset()


def _excerpt(text: str, limit: int = 60) -> str:
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= limit else one_line[: limit - 1] + "…"


def _thread_kind(ctx: GameContext, post: Post) -> str:
    if post.tid in ctx.role_threads:
        return ROLE_THREAD
    return ctx.threads.get(post.tid, ctx.other_threads)


def _author_keys(ctx: GameContext, player: PlayerInfo | None, author: str) -> tuple[str, ...]:
    keys = {fold(author)}
    if player is not None:
        keys.add(fold(player.name))
        keys.update(fold(n) for n, canon in ctx.nicknames.items() if canon == player.name)
    return tuple(sorted(keys, key=len, reverse=True))


def read_post(ctx: GameContext, post: Post) -> IntakeResult:
    """Read one thread post: a ballot, a sign-in, last words, a 功能树洞 skill reply, and the
    single-post speech rules (maddened speech, dead or spectator posts, empty posts).

    ``post.text`` is the author's own text; quotes (``post.quotes``) are never read for votes.
    A player's post in the vote thread or a 功能树洞 that holds a command word but in which
    nothing could be read is an ``unread_command`` alert (nothing is dropped in silence).
    """
    post = replace(
        post, author=scrub(post.author), text=scrub(post.text),
        quotes=tuple(replace(q, author=scrub(q.author or "") or None, text=scrub(q.text))
                     for q in post.quotes),
    )  # fmt: skip
    if ctx.is_gm(post.author, post.author_uid):
        return IntakeResult()
    sender = identify(ctx, post.author, post.author_uid)
    kind = _thread_kind(ctx, post)
    out = Collector(ctx, sender, post.posted_at, receipts_on=ctx.receipts)
    if kind == ROLE_THREAD:
        _role_thread_post(out, post)
        return out.result()
    # A forum with BBCode switched off shows the tags raw; quotes never count, at any depth.
    own_text, _, hidden = strip_bbcode(post.text)
    ballots = read_votes(own_text, name_index(ctx), _author_keys(ctx, sender, post.author))
    if kind in (DISCUSSION_THREAD, CHAT_THREAD):
        # Where ballots do not count, one naming nobody (今天投他, 我的票已经投给…了), asked
        # (要不要投X？) or said as an intention (我想投X) is talk.
        ballots = [b for b in ballots if cast_as_a_ballot(b)]
    if sender is None:  # (where spectators may not post at all, that is the alert, ballot or not)
        if ctx.profile.speech.spectators and kind in (GAME_THREAD, VOTE_THREAD, DISCUSSION_THREAD):
            out.alert("spectator_post", author=post.author)
        elif ballots:
            out.alert("not_a_player", "alert_not_a_player_post", author=post.author)
        elif kind == SIGNIN_THREAD or ctx.phase.kind == SIGNIN:  # a substitute not yet entered
            out.alert("not_a_player", "alert_not_a_player_signin", author=post.author)
        return out.result()
    if kind == SIGNIN_THREAD or ctx.phase.kind == SIGNIN:
        if sender.alive:
            out.commands.append(IntakeCommand(SIGN_IN, sender.name, None, out.base_extra()))
        return out.result()
    if not ballots and sender.name in ctx.phase.maddened:
        ballots = _maddened_ballot(ctx, post.text)
    _speech_rules(out, post, kind, ballots)
    out.doing = "vote"  # what follows is about a ballot
    if hidden and read_votes(hidden, name_index(ctx)):
        out.alert("unclosed_quote", text=_excerpt(hidden))
    # Where talk is, a skill may be a claim (recheck): only a 加速/减速 reply is misplaced there,
    # or, at night, a short post that is the sender's own command (gmattack3 F8: 「占卜 夜行者」 in
    # the discussion thread lost the night's divination in silence).
    # (werewolf's skills are replies in the 功能树洞, and its night talk may name them: talk)
    at_night = (ctx.phase.kind == NIGHT and ctx.profile.skills.channel is SkillChannel.PM
                and len(own_text.strip()) <= MISPLACED_AT_NIGHT)  # fmt: skip
    misplaced = kind in (VOTE_THREAD, GAME_THREAD, DISCUSSION_THREAD, CHAT_THREAD) and not hidden and _action_in_the_open(
        out, own_text, post.author, skills=kind == VOTE_THREAD or at_night
    )  # fmt: skip
    if not ballots:
        if misplaced:
            return out.result()
        if not hidden and kind == VOTE_THREAD and _may_vote(ctx, sender):
            possible = read_possible_ballot(own_text, name_index(ctx))
            if possible is not None:  # (the player it names is the GM's likely pick)
                named = possible[1]
                out.alert("possible_ballot", text=_excerpt(own_text), suggestions=(named,) if named else ())
            else:
                _unread_command(out, own_text, ballots_only=True)
        return out.result()
    if kind in (DISCUSSION_THREAD, CHAT_THREAD):
        # A stray ballot (D-I: only the vote thread counts): the GM may count it (the player
        # it names is the alert's target), and the daemon tells the voter while the round is open.
        stray = ballots[0]
        out.doing = "abstain" if stray.intents == ("abstain",) else "vote"
        named = stray.target.player if stray.target is not None else None
        named = sender.name if named == SELF else named
        out.alert("vote_wrong_thread", ballot=_ballot_words(stray), target=named)
        return out.result()
    validate_ballots(out, ballots)
    return out.result()


# A post in a discussion or chat thread at night of at most this many characters that opens
# with the sender's own command was meant as that command (a claim tells more).
MISPLACED_AT_NIGHT = 40
_LEADING = " \t\r\n\u3000:：,，.。!！【[(（"  # what may come before a command that opens a line
_TALK = ("我", "今晚", "今天", "明天", "明晚", "昨晚", "昨天")  # 「我今晚占卜 X」 tells a plan


def _action_in_the_open(out: Collector, text: str, author: str, skills: bool = True) -> bool:
    """A power of the sender's role (or a werewolf 加速/减速) that opens a post in the vote
    thread, where it does not count: ``wrong_channel``, and his receipt says where it goes
    (wolfadv W5). Only the holder's own powers, written as a command: a villager's 「杀了他」
    or a seer's 「今晚我验 X」 in the middle of his talk is talk."""
    ctx, sender = out.ctx, out.sender
    assert sender is not None
    tree_hole = ctx.profile.skills.channel is not SkillChannel.PM
    if not tree_hole and not ctx.powers_of(sender):
        return False  # no power of his to misplace (and a long post is not read twice)
    parsed = read_actions(
        text, name_index(ctx), kill_posts=ctx.profile.kill_post is not None,
        author_keys=_author_keys(ctx, sender, author),
    )  # fmt: skip
    folded = fold(text)
    for p in parsed:
        if not _opens_its_line(folded, p.pos):  # 「今晚我验 X」: a plan told in the open
            continue  # (is talk: a command opens its line)
        own = skills and is_skill(p) and set(p.intents) & ctx.powers_of(sender) and not p.verb.lstrip("【[").startswith(_TALK)
        if own or (tree_hole and p.intents[0] in _TREE_HOLE_ONLY):
            where = "_tree_hole" if tree_hole else ""
            out.alert(
                "wrong_channel", f"alert_wrong_channel_post{where}", verb=p.verb,
                reason_template=f"reason_wrong_channel_post{where}",
            )  # fmt: skip
            return True
    return False


def _opens_its_line(folded: str, pos: int) -> bool:
    """Whether only spaces, brackets and punctuation (``_LEADING``) stand before ``pos`` on its
    line (looked at backwards from ``pos``: a long line of commands is not read again for each)."""
    i = pos - 1
    while i >= 0 and folded[i] != "\n" and folded[i] in _LEADING:
        i -= 1
    return i < 0 or folded[i] == "\n"


def _unread_command(out: Collector, text: str, ballots_only: bool) -> None:
    """An ``unread_command`` alert when a text in which nothing was read, and nothing alerted,
    holds one of the lexicon's command words (in the vote thread: a ballot word)."""
    word = command_word(text, ballots_only, name_index(out.ctx))
    if word is not None and not out.alerts:
        out.alert("unread_command", word=word, text=_excerpt(text))


def _may_vote(ctx: GameContext, sender: PlayerInfo) -> bool:
    """Whether the sender could be casting a ballot now (a vote is open, or no phase is known)."""
    phase = ctx.phase
    if not sender.alive and sender.name not in phase.summoned:
        return False
    return phase.kind is None or (phase.kind == DAY and phase.vote_round is not None)


def _speech_rules(out: Collector, post: Post, kind: str, ballots: list[Parsed]) -> None:
    """Single-post rules: dead players' posts and last words, maddened speech, chess posting."""
    ctx, sender = out.ctx, out.sender
    assert sender is not None
    profile = ctx.profile
    if not sender.alive:
        granted = sender.name in (ctx.phase.last_words_granted or ()) and not ballots
        written = profile.last_words.post
        if granted and written is LastWordsPost.WHOLE:
            last_words_from_post(
                out, Parsed(("last_words",), "遗言", 0, declaration=post.text.strip())
            )
            return
        if granted and written is LastWordsPost.MARKED:
            found = [
                p for p in read_actions(post.text, name_index(ctx)) if p.intents == ("last_words",)
            ]
            if found:
                last_words_from_post(out, found[0])
            return
        if profile.speech.dead_posts and kind != CHAT_THREAD:
            out.alert("dead_post")
        return
    if sender.name in ctx.phase.sent_off and not ballots:
        out.alert("sent_off", "alert_sent_off_post")
        return
    if sender.name in ctx.phase.maddened:
        bad = maddened_violations(post.text, _ballot_spans(post.text, ballots))
        if bad:
            out.alert("maddened_speech", chars=bad[:20])
    if profile.speech.content and kind not in (CHAT_THREAD,):
        if not ballots and is_content_free(post.text, bool(post.quotes)):
            out.alert("content_free_post")
        others = tuple(
            q.text for q in post.quotes
            if not (q.author and (ctx.is_gm(q.author, None) or fold(q.author) == fold(sender.name)
                                  or fold(q.author) == fold(post.author)))
        )  # fmt: skip  # one's own words and the GM's are not another player's post
        lengths = long_quotes(others)
        if lengths:
            out.alert("long_quote", chars=max(lengths))


def _ballot_spans(text: str, ballots: list[Parsed]) -> list[tuple[int, int]]:
    """Where the ballots are written in ``text`` (vote word through target name)."""
    folded = Folded.of(text)
    spans = []
    for b in ballots:
        start = folded.origin[b.pos] if b.pos < len(folded.origin) else len(text)
        name = b.target.written if b.target else ""
        at = text.find(name, start) if name else -1
        end = at + len(name) if at >= 0 else start + len(b.verb)
        spans.append((start, end))
    return spans


def _maddened_ballot(ctx: GameContext, text: str) -> list[Parsed]:
    """A maddened character may write only the vote target's name (and the allowed sounds):
    a post whose only words are one player's name is that character's ballot [WW:L129]."""
    folded = Folded.of(text)
    found = name_index(ctx).find_all(folded)
    names = {m.player for _, m in found}
    if len(names) != 1 or None in names:
        return []
    spans = [(folded.origin[pos], folded.origin[m.end - 1] + 1) for pos, m in found]
    if maddened_violations(text, spans):
        return []
    pos, first = found[0]
    written = folded.original_slice(pos, first.end)
    return [Parsed(("vote",), written, pos, NameRef(written, first.player))]


def _role_thread_post(out: Collector, post: Post) -> None:
    """A reply in a werewolf 功能树洞: skills (with 确定), last words, speed-up. A reply with no
    command in one's own (one-owner) tree-hole is a note for the host (``not_a_command``); in a
    shared one (the wolves') it is the team's talk."""
    ctx, sender = out.ctx, out.sender
    owners = ctx.role_threads.get(post.tid, frozenset())
    text, _, hidden = strip_bbcode(post.text)
    parsed = read_actions(
        text, name_index(ctx), kill_posts=ctx.profile.kill_post is not None,
        author_keys=_author_keys(ctx, sender, post.author),
    )  # fmt: skip
    if sender is None:
        if parsed:
            out.alert("not_a_player", "alert_not_a_player_thread", author=post.author, command=parsed[0].verb)
        return
    if owners and sender.name not in owners:
        if parsed:
            out.alert(
                "wrong_channel", "alert_wrong_channel_thread", verb=parsed[0].verb,
                reason_template="reason_wrong_channel_thread",
            )  # fmt: skip
        return
    if hidden and read_actions(hidden, name_index(ctx)):
        out.alert("unclosed_quote", text=_excerpt(hidden))
    if not parsed and sender.name in ctx.phase.maddened:
        # A maddened character's speech is restricted in his 功能树洞 too [WW:L129]; his skill
        # replies are commands, not speech. His allowed sounds are no note for the host.
        bad = maddened_violations(text, [])
        if bad:
            out.alert("maddened_speech", chars=bad[:20])
        return
    if not parsed:
        if hidden:
            return
        if len(owners) <= 1:
            out.alert("not_a_command", text=_excerpt(text))
        else:  # the team's talk in a shared tree-hole, unless it holds a command word
            _unread_command(out, text, ballots_only=False)
        return
    for p in parsed:
        if p.intents[0] in ("delegate_vote", "delegate_abstain"):
            vote = receipts.verb(ctx, "vote")
            out.alert(
                "wrong_channel", "alert_wrong_channel_ballot_thread", verb=vote,
                reason_template="reason_wrong_channel_ballot",
            )  # fmt: skip
            continue
        validate_action(out, p)
    resolve_conflicts(out)


def read_post_edit(ctx: GameContext, first_seen: Post, revision: Post) -> IntakeResult:
    """A later revision of a post: the first-seen text counts; a revision that changes a
    ballot or an action is shown to the GM with both versions (``edited_vote``)."""
    before = read_post(ctx, first_seen)
    after = read_post(ctx, revision)

    def key(r: IntakeResult) -> list[tuple]:
        # (every name the command takes: 金箭's second lover too, gmattack2 F5)
        return [(c.action, c.target, c.extra.get("platform"), c.extra.get("target2")) for c in r.commands]

    if key(before) == key(after) and [a.kind for a in before.alerts] == [
        a.kind for a in after.alerts
    ]:
        return IntakeResult()
    sender = identify(ctx, revision.author, revision.author_uid)
    out = Collector(ctx, sender, revision.edited.at if revision.edited else revision.posted_at)
    old = first_seen.text.strip().replace("\n", " ⏎ ")
    new = revision.text.strip().replace("\n", " ⏎ ")
    out.alert("edited_vote", author=revision.author, pid=revision.pid, old=old, new=new)
    return out.result()


def _ballot_words(ballot: Parsed) -> str:
    """A ballot as the GM reads it quoted: its word and whom it names (投票 Rex, 弃权)."""
    target = ballot.target
    named = (target.player or target.written) if target is not None else ""
    return f"{ballot.verb} {named}".strip() if named else ballot.verb
