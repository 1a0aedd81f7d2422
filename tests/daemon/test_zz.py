from tests.daemon.test_summoning import *  # noqa
from tests.daemon.helpers import alerts, UIDS
from shenshi.daemon import gm_commands
def test_x(tmp_path, monkeypatch):
    monkeypatch.setitem(UIDS, "路人甲", "77")
    svc, clock = day_one(tmp_path, victim="Rex")
    tied_runoff(svc, clock)
    publish(svc, "round_result", clock)
    svc.tick()
    print(svc.referee.times().rounds[3])
    clock.advance(hours=1)
    said = gm_commands.substitute(svc, "阿杰", "路人甲", uid="77")
    print("\n".join(said.lines))
    print(svc.referee.times().rounds[3])
    for a in announcements(svc, PENDING):
        if a.kind in ("role", "substitution"): print("AN", a.kind, a.destination, a.text)
