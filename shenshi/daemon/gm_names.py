"""What the GM types in a command, read as intake reads the players: a player's name
(``seat_name``) and an action (``action_id``). Used by the GM's commands
(:mod:`shenshi.daemon.gm_commands`), so the CLI and the console read them alike."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shenshi.errors import UserError

if TYPE_CHECKING:
    from shenshi.daemon.service import GameService

SPACES = " \t\u3000\u00a0"  # a trailing full-width space is as easy to type as an ASCII one


def seat_name(service: GameService, written: str, what: str = "玩家") -> str:
    """The player of this game ``written`` means, as the GM types it: surrounding spaces
    (full-width too) and ``@`` dropped, full-width letters, case and traditional characters
    folded, nicknames known (intake's name resolution); a substitute still entering names the
    seat he plays (by its holder's name, as the rules core knows it until the step ends). A
    name that fits nobody, or several, is refused with the close names and the list of
    players."""
    from shenshi.daemon.referee import stand_ins
    from shenshi.intake.names import NameIndex

    state = service.referee.state
    # a substitute entering at the step's end plays his seat already, under its holder's name
    # (a seat that went out while he was entering too: he answers for it, recheck R7a)
    acting = stand_ins(state)
    names = [s.name for s in state.seats]
    nicknames = {alias: name for name, aliases in service.config.game.nicknames.items()
                 for alias in aliases}  # fmt: skip
    index = NameIndex([*names, *acting], nicknames)
    token = written.strip(SPACES).lstrip("@").strip(SPACES)
    leaving = {old: new for new, old in acting.items()}
    if token in leaving:  # he left: the seat is his substitute's (gmattack A1)
        raise UserError(f"{what}「{written}」已离开，座位已由替补 {leaving[token]} 接替：请写 {leaving[token]}；没有改动")
    if token in names:
        return token
    found = index.resolve(token) if token else None
    if found is not None and found.player:
        return acting.get(found.player, found.player)
    if found is not None and found.ambiguous:
        raise UserError(f"{what}「{written}」可指 {'、'.join(found.ambiguous)}：请写全名；没有改动")
    with service.store.snapshot() as uow:
        seats = {p.name: p.seat for p in uow.games.players(service.game_id)}
        left = [p for p in uow.games.players(service.game_id, current_only=False)
                if p.left_at is not None and p.name == token]  # fmt: skip
    now_at = next((name for name, seat in seats.items() if left and seat == left[0].seat), None)
    if now_at and left[0].replaced_by is None and now_at not in service.referee.successors.values():
        # he was entering when the seat went out (RES-A18): he never held it (gmattack3 F6)
        raise UserError(f"{what}「{written}」接替的座位（{now_at}）在他入座前已出局，他没有入座：这个座位已不在游戏中；没有改动")
    if now_at:
        raise UserError(f"{what}「{written}」的座位已由 {now_at} 接替：请写 {now_at}；没有改动")
    close = index.suggest(token) if token else ()
    near = f"（相近：{'、'.join(close)}）" if close else ""
    raise UserError(f"{what}「{written}」不是本局玩家{near}；本局玩家：{'、'.join(names)}；没有改动")


def action_id(service: GameService, written: str) -> str:
    """The action id ``written`` means: an id (``kill``) or its Chinese word (``杀``); one this
    ruleset does not have is refused with the list of its actions."""
    from shenshi.intake.text import fold
    from shenshi.rulesets.catalog import ACTION_NAMES

    info = service.ruleset.info
    actions = sorted({p for role in info.roles.values() for p in role.powers})
    token = fold(written.strip(SPACES))
    for action in actions:
        if token in {fold(action), fold(info.action_name(action)), fold(ACTION_NAMES.get(action, action))}:
            return action
    listed = "、".join(f"{info.action_name(a)}（{a}）" for a in actions)
    raise UserError(f"「{written}」不是本局的行动；可用：{listed}；没有改动")
