"""Scripted players: people playing a whole game through the sandbox forum's control API.

The players read the forum as people do: a step begins when the GM (神的使者) publishes the
previous step's result in the vote thread (night 1 or day 1 at the player list); a day goes
to its runoff (生死投票 / 第二轮) when the GM's tally says so; the game ends at 【游戏结束】.
Within a step each player does what the script says, at seeded random times: night actions by
PM to the GM (werewolf: replies in the role's 功能树洞), kill declarations of the scripted
length, ballots in the vote thread or delegated by PM, last words, analysis and chat.

They also make the mistakes people make, each at least once per game and none of them able to
change the outcome under the rules (RULES.md; DESIGN.md "Nothing is guessed"):

=============  ==============================================================================
``typo``       a ballot whose name is misspelt (an alert, no ballot), corrected by a new post
``fullwidth``  a name written in full-width letters (Ｔｏｍ＿２), which still resolves
``quote``      a ballot quoting another player's ballot ([quote] BBCode): quotes never count
``edit``       a ballot edited to another name after a poll saw it: the first-seen text counts
``late_pm``    a night action PM'd after the night's result was published (outside the window;
               werewolf: a 功能树洞 reply after its night phase's deadline)
``stranger``   a night action PM'd by someone who is not a player
=============  ==============================================================================

Usage::

    players = ScriptedPlayers(world, script, seed=7)
    players.observe()                          # read the GM's posts: step changes
    players.act(clock(), last_poll=t)          # do what is due
    players.next_due()                         # when something is next due (None: waiting)
"""

from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from shenshi.adapters.sandbox import bbcode
from shenshi.adapters.sandbox.timefmt import discuz_absolute
from shenshi.demo import texts
from shenshi.demo.record import NEXT_ROUND, step_title
from shenshi.demo.script import Act, GameScript, Step, Vote
from shenshi.demo.world import World
from shenshi.intake.lexicon import COMMAND_WORDS
from shenshi.rulesets.base import Phase, PlayerSpec
from shenshi.rulesets.profile import SkillChannel
from shenshi.rulesets.registry import find_ruleset
from shenshi.wording import Templates

MISTAKES = ("typo", "fullwidth", "quote", "edit", "late_pm", "stranger")

# The command words the players write (the forms in the rule posts).
VERB = COMMAND_WORDS


@dataclass(frozen=True)
class Pace:
    """When players act, in hours after a step begins (a ruleset's rhythm)."""

    night_first: float = 0.5  # first night PMs
    night_spread: float = 4.0  # … spread over this many hours
    vote_opens: float = 0.0  # the vote opens this long after the day begins
    vote_spread: float = 5.0
    runoff_spread: float = 3.0
    second_phase: float = 3.5  # werewolf 夜晚2: after 夜晚1 closed (+3 h by default)


PACES = {
    "game5": Pace(vote_opens=0.0),
    "game6-8": Pace(vote_opens=12.0),
    "game6-10": Pace(vote_opens=12.0),
    "game6-13": Pace(vote_opens=12.0),
    "chess32": Pace(vote_opens=0.0),
    "werewolf": Pace(vote_opens=0.0, night_spread=2.0),
}


@dataclass
class Move:
    """One thing one player does on the forum."""

    at: datetime
    who: str
    kind: str  # post | pm | edit | quote
    text: str = ""
    where: str = "vote"  # vote | discussion | chat | a werewolf role thread id
    mistake: str = ""
    key: str = ""  # names a post so that a later move can edit or quote it
    ref: str = ""  # the key of the post this move edits or quotes
    after_poll: bool = False  # wait until a poll has seen ``ref``
    done: bool = False


@dataclass
class Progress:
    """Where the players think the game is (from what the GM published)."""

    index: int = 0  # the script step in play
    round: int = 1  # the day's round in play (1, 2 runoff, 3 summon)
    started: datetime | None = None
    finished: bool = False
    seen: set[int] = field(default_factory=set)  # GM post ids already read


class ScriptedPlayers:
    """Plays ``script`` on ``world``'s forum; one seed gives one game."""

    def __init__(
        self,
        world: World,
        script: GameScript,
        seed: int = 0,
        *,
        mistakes: tuple[str, ...] = MISTAKES,
        pace: Pace | None = None,
        templates: Templates | None = None,
    ) -> None:
        self.world = world
        self.templates = templates or Templates()  # the GM's posts are read through them
        self.forum = world.forum
        self.script = script
        self.seed = seed
        self.pace = pace or PACES.get(script.ruleset, Pace())
        self.progress = Progress()
        self.moves: list[Move] = []
        self.posts: dict[str, int] = {}  # move key → pid
        self.posted_at: dict[str, datetime] = {}
        self.made: list[tuple[str, str, str]] = []  # (mistake, step label, what)
        self.wanted = set(mistakes)
        self.alive = set(script.names)
        self.bound: set[str] = set()
        self.maddened: set[str] = set()  # werewolf: may post only the name they vote for
        self.unannounced_end: datetime | None = None  # a step that ends with no post of its own
        self.ruleset = find_ruleset(script.ruleset)
        self.profile = self.ruleset.profile(script.rules)
        self.second_phase = self.profile.skills.second_phase()  # werewolf 夜晚2: the witch
        self.log: list[str] = []  # what the players did, for reading a failed test
        self._schedule_step(world.start)

    @property
    def _replies(self) -> bool:
        """Skills are replies in the role's 功能树洞 (werewolf), not PMs to the GM."""
        return self.profile.skills.channel is SkillChannel.ROLE_THREAD

    # -- reading the forum ---------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.progress.finished

    @property
    def step(self) -> Step | None:
        p = self.progress
        return self.script.steps[p.index] if p.index < len(self.script.steps) else None

    def observe(self) -> None:
        """Read the GM's new posts in the vote thread; a published result moves the game on."""
        for post in self.forum.visible_posts(self.world.vote_thread):
            if post.pid in self.progress.seen or post.author_uid != self.world.gm_uid or post.first:
                continue
            self.progress.seen.add(post.pid)
            self._read_result(post.text, post.posted_at)

    def _read_result(self, text: str, at: datetime) -> None:
        step = self.step
        if step is None:
            return
        t = self.templates
        if step_title(t, text.lstrip().split("\n", 1)[0]) != step.label:
            return
        self.alive -= {n for n in self.script.expected[step.label].deaths if n in text}
        if step.phase == "night":  # the bound survivor may not vote today (被束魂)
            self.bound = {n for n in self.alive if t.search("bound", text, name=n) is not None}
        madness = self.script.expected[step.label].madness
        self.maddened = (self.maddened if madness is None else set(madness)) & self.alive  # 癫狂
        if t.search("winner", text) is not None or t.search("draw", text) is not None:
            self.progress.finished = True
            self.log.append(f"{at:%m-%d %H:%M} game over seen")
            return
        next_round = NEXT_ROUND + ("final_tally",)  # a runoff, round 2, or 招魂
        if step.phase == "day" and any(t.search(w, text) is not None for w in next_round):
            self.progress.round += 1
            self._schedule_round(step, at)
            return
        if (
            step.phase == "day"
            and self.progress.round < 3
            and step.summon_votes
            and not any(t.search(w, text) is not None for w in ("executed", "executed_camp", "no_execution"))
        ):
            self.progress.round = 3
            self._schedule_round(step, at)
            return
        self._next_step(at)

    def _next_step(self, at: datetime) -> None:
        self.progress.index += 1
        self.progress.round = 1
        if self.step is not None:
            self._schedule_step(at)

    # -- acting ----------------------------------------------------------------------------------

    def next_due(self) -> datetime | None:
        """When the next move is due (``None``: waiting for the GM)."""
        pending = [m.at for m in self.moves if not m.done]
        if self.unannounced_end is not None:
            pending.append(self.unannounced_end)
        return min(pending) if pending else None

    def act(self, now: datetime, last_poll: datetime | None = None) -> int:
        """Do every move due at ``now``; edits wait until a poll after their post."""
        if self.unannounced_end is not None and now >= self.unannounced_end:
            end, self.unannounced_end = self.unannounced_end, None
            self._next_step(end)  # werewolf: day 1 opens at 06:00 after night 0, unannounced
        done = 0
        for move in sorted(
            (m for m in self.moves if not m.done and m.at <= now), key=lambda m: m.at
        ):
            if move.after_poll:
                seen = self.posted_at.get(move.ref)
                if seen is None or last_poll is None or last_poll <= seen:
                    continue
            self._do(move, now)
            move.done = True
            done += 1
        return done

    def _do(self, move: Move, now: datetime) -> None:
        who = self.world.account(move.who)
        if move.kind == "pm":
            self.forum.send_pm(who, self.world.gm, move.text, at=now)
        elif move.kind == "edit":
            self.forum.edit_post(self.posts[move.ref], move.text, by=who)
        else:
            text = move.text
            if move.kind == "quote":
                text = self._quote(self.posts[move.ref]) + move.text
            post = self.forum.post(who, self.world.thread(move.where), text, at=now)
            if move.key:
                self.posts[move.key] = post.pid
                self.posted_at[move.key] = now
        note = f" [{move.mistake}]" if move.mistake else ""
        self.log.append(f"{now:%m-%d %H:%M} {move.who} {move.kind}{note}: {move.text[:40]!r}")

    def _quote(self, pid: int) -> str:
        """The engine's quote BBCode for post ``pid`` (what the quote button pre-fills)."""
        quoted = self.forum.get_post(pid)
        author = self.forum.users[quoted.author_uid].name
        body = bbcode.strip_bbcode(quoted.text)[:200]
        if self.forum.engine == "discuz":
            stamp = discuz_absolute(quoted.posted_at, seconds=False)
            return bbcode.discuz_quote_bbcode(author, pid, quoted.tid, stamp, body) + "\n"
        return bbcode.phpwind_quote_bbcode(author, pid, quoted.tid, body, self.forum.base_url)

    # -- planning a step --------------------------------------------------------------------------

    def _rng(self, *parts: object) -> random.Random:
        return random.Random("|".join(map(str, (self.seed, *parts))))

    def _schedule_step(self, start: datetime) -> None:
        step = self.step
        assert step is not None
        self.progress.started = start
        if step.phase == "night":
            self._plan_night(step, start)
            if not self.profile.clock.announced(step.phase, step.n):  # werewolf night 0
                self.unannounced_end = self._closes(step, start)
        else:
            self._plan_day(step, start)

    def _closes(self, step: Step, start: datetime) -> datetime:
        """When a step that opened at ``start`` closes by the ruleset's clock."""
        seats = [PlayerSpec(s.name, s.role, s.team, True, s.addons) for s in self.script.seats]
        state = self.ruleset.new_game(seats, self.script.rules)
        return self.ruleset.phase_times(state, Phase(step.phase), step.n, start).closes

    def _schedule_round(self, step: Step, at: datetime) -> None:
        votes = step.runoff_votes if self.progress.round == 2 else step.summon_votes
        rng = self._rng(step.label, "round", self.progress.round)
        self._plan_talk(step, at, rng, self.pace.runoff_spread)
        for i, v in enumerate(votes):
            delay = timedelta(hours=rng.uniform(0.2, self.pace.runoff_spread))
            self._ballot(step, v, at + delay, f"{step.label}.r{self.progress.round}.{i}", rng)

    def _at(self, start: datetime, rng: random.Random, first: float, spread: float) -> datetime:
        return start + timedelta(hours=first + rng.uniform(0, spread))

    def _plan_night(self, step: Step, start: datetime) -> None:
        rng = self._rng(step.label)
        pace = self.pace
        if step.n == 1 and self.profile.clock.sign_in is not None:
            for name in self.script.names:  # 签到: reply to the player list
                self.moves.append(
                    Move(self._at(start, rng, 0.1, 2.0), name, "post", "签到", "vote")
                )
        for act in step.actions:
            if act.action in self.second_phase:  # the witch, once she has her 【通灵】 list
                at = self._at(start, rng, pace.second_phase, 1.5)
            else:
                at = self._at(start, rng, pace.night_first, pace.night_spread)
            text = self._action_text(act, rng)
            if self._should("fullwidth", rng) and act.target and _has_ascii(act.target):
                text = text.replace(act.target, _fullwidth(act.target), 1)
                self._made("fullwidth", step, f"{act.actor}: {act.action} {_fullwidth(act.target)}")
            self.moves.append(self._night_move(act, at, text))
        if self._should("stranger", rng) and step.actions:
            victim = step.actions[0].target or self.script.names[0]
            at = self._at(start, rng, pace.night_first, pace.night_spread)
            self.moves.append(
                Move(at, self.world.stranger, "pm", f"杀 {victim}", mistake="stranger")
            )
            self._made("stranger", step, f"{self.world.stranger}: 杀 {victim}")
        if self._replies and step.n >= 1 and self._should("late_pm", rng):
            self._late_reply(step, start, rng)
        self._plan_talk(step, start, rng, pace.night_spread + 2)

    def _night_move(self, act: Act, at: datetime, text: str) -> Move:
        if self._replies:
            return Move(at, act.actor, "post", text, self.world.role_thread_of(act.actor))
        return Move(at, act.actor, "pm", text)

    def _action_text(self, act: Act, rng: random.Random) -> str:
        verb = VERB[act.action]
        text = f"{verb} {act.target}"
        if act.platform:
            text += f"，炮架子：{act.platform}"
        if act.target2:
            text = f"{verb} {act.target}、{act.target2}"
        if act.declaration_chars:
            post = self.profile.kill_post
            label = post.label if post is not None else "杀人宣言"
            body = texts.declaration(rng, act.declaration_chars, act.target or "")
            text += f"\n{label}：\n{body}"
        if act.confirm:
            text += "\n确定"
        return text

    def _plan_day(self, step: Step, start: datetime) -> None:
        rng = self._rng(step.label)
        pace = self.pace
        for lw in step.last_words:
            at = start + timedelta(minutes=rng.uniform(5, 60))
            self.moves.append(
                Move(at, lw.author, "post", texts.last_words(rng, lw.accused), "vote")
            )
        self._plan_talk(step, start, rng, pace.vote_opens + 2)
        for i, v in enumerate(step.votes):
            at = self._at(start, rng, pace.vote_opens + 0.3, pace.vote_spread)
            self._ballot(step, v, at, f"{step.label}.r1.{i}", rng)
        self._plan_ballot_mistakes(step, rng)
        if not self._replies and self._should("late_pm", rng):
            self._late_pm(step, start, rng)

    def _ballot(self, step: Step, v: Vote, at: datetime, key: str, rng: random.Random) -> None:
        if v.via == "pm_delegate":
            self.moves.append(Move(at, v.voter, "pm", f"委托投票：{v.target}"))
            return
        if v.voter in self.maddened:  # 癫狂: the name alone [WW:L129]
            self.moves.append(Move(at, v.voter, "post", v.target, "vote", key=key))
            return
        text = "弃权" if v.target == "ABSTAIN" else f"投票：{v.target}"
        if rng.random() < 0.4:
            text += "\n" + texts.analysis(rng, sorted(self.alive))
        self.moves.append(Move(at, v.voter, "post", text, "vote", key=key))

    def _plan_ballot_mistakes(self, step: Step, rng: random.Random) -> None:
        """Edit, typo, full-width and quote, each on a different first-round ballot of a player
        who may vote (not the announced bound survivor)."""
        named = [
            m for m in self.moves
            if m.key.startswith(f"{step.label}.r1.") and m.text.startswith("投票：") and m.who not in self.bound
        ]  # fmt: skip
        named.sort(key=lambda m: m.at)
        target_of = {m.key: m.text.split("\n")[0][len("投票：") :] for m in named}
        if self._should("edit", rng) and named:
            m = named.pop(0)  # the earliest: the round is surely still open a poll later
            other = next(
                (n for n in sorted(self.alive) if n not in (target_of[m.key], m.who)), None
            )
            if other is not None:
                edit = Move(m.at + timedelta(minutes=15), m.who, "edit", f"投票：{other}",
                            mistake="edit", ref=m.key, after_poll=True)  # fmt: skip
                self.moves.append(edit)
                self._made(
                    "edit",
                    step,
                    f"{m.who}: 投票：{target_of[m.key]} edited to 投票：{other} after a poll",
                )
        rng.shuffle(named)
        if self._should("typo", rng) and named:
            m = named.pop()
            wrong = _misspelt(target_of[m.key], self.script.names, rng)
            self.moves.append(Move(m.at, m.who, "post", f"投票：{wrong}", "vote", mistake="typo"))
            m.at += timedelta(minutes=rng.uniform(20, 50))
            self._made("typo", step, f"{m.who}: 投票：{wrong}, then 投票：{target_of[m.key]}")
        if self._should("fullwidth", rng):
            m = next((m for m in named if _has_ascii(target_of[m.key])), None)
            if m is not None:
                named.remove(m)
                wide = _fullwidth(target_of[m.key])
                m.text = m.text.replace(target_of[m.key], wide, 1)
                self._made("fullwidth", step, f"{m.who}: 投票：{wide}")
        if self._should("quote", rng) and len(named) >= 2:
            pairs = [(a, b) for a in named for b in named if a.at < b.at]
            differ = [(a, b) for a, b in pairs if target_of[a.key] != target_of[b.key]]
            quoted, quoter = (differ or pairs)[0]
            quoter.kind, quoter.ref = "quote", quoted.key
            quoter.at = max(quoter.at, quoted.at + timedelta(minutes=10))
            what = f"{quoter.who} quotes {quoted.who}'s ballot, then votes {target_of[quoter.key]}"
            self._made("quote", step, what)

    def _late_pm(self, step: Step, start: datetime, rng: random.Random) -> None:
        """A night action sent once the night's result is out (the window has closed)."""
        night = next((s for s in self.script.steps if s.phase == "night" and s.actions), None)
        if night is None:
            return
        acts = [
            a
            for a in night.actions
            if a.actor in self.alive and a.action not in ("kill", "cannon_kill")
        ]
        if not acts:
            return
        act = rng.choice(acts)
        target = next((n for n in sorted(self.alive) if n != act.actor), act.target)
        text = f"{VERB[act.action]} {target}"
        at = start + timedelta(hours=rng.uniform(0.5, 2.0))
        self.moves.append(Move(at, act.actor, "pm", text, mistake="late_pm"))
        self._made("late_pm", step, f"{act.actor}: {text} during {step.label}")

    def _late_reply(self, step: Step, start: datetime, rng: random.Random) -> None:
        """Werewolf: a skill replied in the 功能树洞 after its night phase's deadline."""
        acts = [a for a in step.actions if a.action not in self.second_phase and a.action != "kill"]
        if not acts:
            return
        act = rng.choice(acts)
        target = next(
            (n for n in sorted(self.alive) if n not in (act.actor, act.target)), act.target
        )
        text = f"{VERB[act.action]} {target}"
        at = self._at(start, rng, self.pace.second_phase, 1.0)
        self.moves.append(
            Move(
                at, act.actor, "post", text, self.world.role_thread_of(act.actor), mistake="late_pm"
            )
        )
        self._made("late_pm", step, f"{act.actor}: {text} after 夜晚1 closed")

    def _plan_talk(self, step: Step, start: datetime, rng: random.Random, spread: float) -> None:
        """Analysis in the discussion thread (every living player, each step: nobody lurks 48 h)
        and some chat (灌水) in the chat thread."""
        speakers = sorted(self.alive - self.maddened)
        talkative = rng.sample(speakers, k=len(speakers) // 3)
        for name in speakers + talkative:
            text = texts.analysis(rng, [n for n in speakers if n != name] or speakers)
            at = self._at(start, rng, 0.2, spread)
            self.moves.append(Move(at, name, "post", text, "discussion"))
        for name in rng.sample(speakers, k=min(len(speakers), 2)):
            at = self._at(start, rng, 0.2, spread)
            self.moves.append(Move(at, name, "post", texts.chat(rng), "chat"))

    # -- mistakes ------------------------------------------------------------------------------------

    def _should(self, mistake: str, rng: random.Random) -> bool:
        """Make ``mistake`` now? Once per game at least: the first chance is always taken."""
        if mistake not in self.wanted:
            return False
        if not any(m == mistake for m, _, _ in self.made):
            return True
        return rng.random() < 0.1

    def _made(self, mistake: str, step: Step, what: str) -> None:
        self.made.append((mistake, step.label, what))


def _has_ascii(name: str) -> bool:
    return any(ch.isascii() and ch.isalnum() for ch in name)


def _fullwidth(name: str) -> str:
    """Ｔｏｍ＿２: ASCII letters, digits and ``_`` in their full-width forms."""
    return "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in name)


_LOOKALIKE = {"明": "眀", "王": "玉", "杰": "木", "月": "目", "光": "先", "猫": "描", "侠": "峡",
              "夜": "液", "行": "衍", "者": "着", "白": "百", "色": "巴", "老": "考", "大": "太"}  # fmt: skip


def _misspelt(name: str, names: tuple[str, ...], rng: random.Random) -> str:
    """``name`` with one character wrong, holding no player's name (so it resolves to none)."""
    folded = [unicodedata.normalize("NFKC", n).casefold() for n in names]
    for _ in range(50):
        i = rng.randrange(len(name))
        ch = name[i]
        if ch in _LOOKALIKE:
            new = _LOOKALIKE[ch]
        elif ch.isascii() and ch.isalpha():
            new = rng.choice([c for c in "abcdefghijklmnopqrstuvwxyz" if c != ch.lower()])
        elif ch.isdigit():
            new = str((int(ch) + 1) % 10)
        else:
            new = rng.choice(_FILLERS)
        wrong = name[:i] + new + name[i + 1 :]
        key = unicodedata.normalize("NFKC", wrong).casefold()
        if not any(n in key for n in folded):
            return wrong
    raise ValueError(f"cannot misspell {name!r} without naming another player")


_FILLERS = "甲乙丙丁戊己庚辛壬癸"
