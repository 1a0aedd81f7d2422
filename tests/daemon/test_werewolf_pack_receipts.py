"""wolfadv W16: two wolves sent different targets; each was told 「已收到：今晚杀人 X…可更改」 as
if his own target stood, though the pack has one kill: the last target any wolf sent (RES-W7).
A wolf's receipt says so."""

from __future__ import annotations

from tests.daemon.helpers import announcements, post, werewolf_night_one
from tests.daemon.test_stream import _fed


def test_each_wolf_is_told_the_pack_shares_one_kill(tmp_path) -> None:
    svc, clock = werewolf_night_one(tmp_path, {"werewolf": "43"})
    wolves = [s.name for s in svc.referee.state.seats if s.role == "werewolf"]
    villagers = [s.name for s in svc.referee.state.seats if s.team == "village"]
    _fed(svc, post(wolves[0], f"杀 {villagers[1]}", 49.25, tid="43"))
    _fed(svc, post(wolves[1], f"杀 {villagers[2]}", 49.3, tid="43"))
    receipts = {a.destination: a.text for a in announcements(svc) if a.kind == "receipt" and a.destination in wolves}
    assert set(receipts) == set(wolves[:2]), receipts
    for text in receipts.values():
        assert "狼人共用一次杀人" in text and "最后提交的目标为准" in text, text
