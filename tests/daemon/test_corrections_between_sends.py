"""Two cases the proposals property found (issue 20), pinned: a GM correction made in another
process between two of the daemon's sends, and a void notice after a substitution."""

from __future__ import annotations

import pytest

from shenshi.daemon import gm_commands
from tests.daemon.helpers import UIDS
from tests.daemon.test_proposals_property import BENCH, DECLARATION, _pm, _post, check, start


@pytest.fixture
def game(tmp_path):
    saved = dict(UIDS)
    UIDS.update({name: str(200 + i) for i, name in enumerate(BENCH)})
    g = start(tmp_path)
    try:
        yield g
    finally:
        g.svc.close()
        UIDS.clear()
        UIDS.update(saved)


def hours(game) -> float:
    from tests.daemon.helpers import START

    return (game.clock() - START).total_seconds() / 3600


def wait(game, h: float) -> None:
    game.clock.advance(hours=h)
    game.svc.tick()
    game.publish()


def test_a_substitution_made_while_the_round_result_is_sent_says_the_runoffs_close(game) -> None:
    """The GM's process proposed the substitution post not knowing the daemon had just sent
    the tie that opens the runoff: it said 「下一轮投票改为从上一轮结果公布起持续 36 小时」 when
    the runoff's close was already fixed. The daemon derives it again before anything is sent."""
    game.svc.tick()  # night 1 opens
    wait(game, 25)  # night 1 over
    wait(game, 15)  # day 1's vote is open
    game.feed(_post("小明", "投票：夜行者", hours(game)))
    game.feed(_post("月光", "投票：老王", hours(game)))
    game.clock.advance(hours=22)  # past the close: a tie, a runoff
    game.svc.tick()
    game.inject.append(lambda: gm_commands.substitute(game.gm, "老王", BENCH[0], uid=UIDS[BENCH[0]]))
    game.publish()  # the result goes out, the GM substitutes between two sends
    check(game)


def test_a_void_after_the_seat_changed_hands_tells_nobody_who_never_had_the_receipt(game) -> None:
    """A killer's receipts went out, the GM voided the kill, then a substitute took the seat:
    the void notice to the leaver is moot, and the substitute (who never had a receipt) was
    proposed one naming a kill 「杀 替补1」 nobody made."""
    game.svc.tick()  # night 1 opens
    wait(game, 0.5)
    killer = next(s.name for s in game.state.seats if s.role == "killer")
    game.feed(_pm(killer, f"杀 小明\n{DECLARATION}", hours(game)))
    game.publish()  # the receipt goes out (live)
    game.gm.read_corrections()
    gm_commands.correct(game.gm, "void", [killer, "kill"])
    gm_commands.substitute(game.gm, killer, BENCH[0], uid=UIDS[BENCH[0]])
    game.publish()
    with game.svc.store.snapshot() as uow:
        everything = uow.outbox.announcements(game.svc.game_id)
    assert not [a for a in everything if a.destination == BENCH[0] and "作废" in a.text]
    check(game)
