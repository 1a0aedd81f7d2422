"""``shenshi message 玩家 文字``: the GM's own PM to a player (an answer to his question, a
word about the game), written in shenshi instead of on the forum (newcomer2 F19: the console
said 「私信回复 月光」 and sent the GM to the forum).

It is proposed in the dry-run log like every PM shenshi sends, and approved at once: the GM
wrote it, that is its review. In review and live mode the daemon sends it at its next cycle,
paced like the rest, and a failed send is an alert as any; in dry-run mode nothing is sent and
the GM sends it by hand (it is recognised, as every approved PM is). It changes nothing in the
game: no event, no receipt; it goes to the one written to, even once a substitute took his seat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shenshi.daemon.gm_commands import Said, gm_log, outbox_action
from shenshi.daemon.gm_names import SPACES
from shenshi.daemon.hints import replied
from shenshi.errors import UserError

if TYPE_CHECKING:
    from shenshi.daemon.service import GameService

# A PM longer than this is refused before it is proposed (phpwind's and Discuz's default limit
# for a message's body is far above it; a GM's reply is a few lines).
LONGEST = 5000


def recipient(service: GameService, written: str) -> str:
    """The forum name of whom the GM writes to: anyone who plays or played in this game (one
    who left his seat, a substitute entering), read as the GM's other commands read names
    (spaces and ``@`` dropped, case and full width folded, nicknames). Anyone else is refused:
    a PM to someone outside the game is not the game's, and goes on the forum."""
    from shenshi.intake.names import NameIndex

    token = written.strip(SPACES).lstrip("@").strip(SPACES)
    with service.store.snapshot() as uow:
        played = [p.name for p in uow.games.players(service.game_id, current_only=False)]
    state = service.referee.state
    names = list(dict.fromkeys([*(s.name for s in state.seats), *played, *dict(state.pending_substitutions).values()]))
    if token in names:
        return token
    nicknames = {alias: name for name, aliases in service.config.game.nicknames.items() for alias in aliases}
    index = NameIndex(names, nicknames)
    found = index.resolve(token) if token else None
    if found is not None and found.player:
        return found.player
    if found is not None and found.ambiguous:
        raise UserError(f"收信人「{written}」可指 {'、'.join(found.ambiguous)}：请写全名；没有发出")
    close = index.suggest(token) if token else ()
    near = f"（相近：{'、'.join(close)}）" if close else ""
    raise UserError(f"收信人「{written}」不是本局玩家{near}：只能给本局的玩家（包括已离开的、替补）写私信；"
                    f"别人请在论坛上直接私信；没有发出")  # fmt: skip


def message(service: GameService, to: str, text: str, by: str = "") -> Said:
    """``shenshi message 玩家 文字``: propose the GM's PM ``text`` to ``to`` and approve it
    (see the module's docstring); an empty or overlong text, or someone outside the game, is
    refused and nothing is proposed."""
    who = recipient(service, to)
    body = text.strip()
    if not body:
        raise UserError(f"给 {who} 的私信是空的：shenshi message {who} 文字（或 --file 文件）；没有发出")
    if len(body) > LONGEST:
        raise UserError(f"给 {who} 的私信有 {len(body)} 字，太长（最多 {LONGEST} 字）：请分几条写；没有发出")
    key = service.propose_message(who, body)
    with service.store.snapshot() as uow:
        a = uow.outbox.by_key(service.game_id, key)
    assert a is not None  # (just proposed, or the same one proposed this second)
    if a.state.value != "proposed":  # (the same command again in the same second)
        return Said((f"给 {who} 的这条私信已经写好（#{a.id}），没有再写一次",), ids=(a.id,))
    gm_log(service, "message", f"私信 {who}（#{a.id}，{len(body)} 字）", by)
    approved = outbox_action(service, "approve", [a.id], by)
    service.resolve_alerts([replied(who, a.id)])  # what he asked is answered
    lines = (f"已写好给 {who} 的私信 #{a.id}（{len(body)} 字）", *approved.lines)
    return Said(lines, approved.refused, (a.id,), hints=approved.hints, cli=approved.cli)
