"""One truth about a substitute (issue 20; RULES.md "The substitute's own clocks"): he plays his
seat from the moment the GM brings him in, and the command's answer, ``shenshi status`` and the
README say so in the same words; the status's players table shows him in the seat, with his
posts (not those of the player who left)."""

from __future__ import annotations

from pathlib import Path

from shenshi.commands.status import render
from shenshi.daemon import gm_text
from shenshi.daemon.gm_commands import substitute
from shenshi.daemon.status import build_status
from tests.daemon.helpers import at, post, started
from tests.daemon.test_status import feed

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_command_status_and_readme_say_he_plays_the_seat_at_once(tmp_path) -> None:
    svc, clock = started(tmp_path)
    feed(svc, post("kk_大侠", "大家好", 0.1, tid="9"))
    said = substitute(svc, "kk_大侠", "路人甲", offline=True)
    plays = gm_text.substitute_plays("路人甲", "kk_大侠")
    assert said.lines[0] == f"路人甲 接替 kk_大侠 的座位，立即生效：{plays}"
    clock.set(at(1))
    feed(svc, post("路人甲", "我是替补，接替 kk_大侠。", 0.9, tid="9"))
    feed(svc, post("路人甲", "先看看大家怎么说。", 0.95, tid="9"))
    status = build_status(svc)
    text = "\n".join(render(status, 400))
    assert not [s for s in ("结算时生效", "结束时入座", "结算时入座") if s in text + "\n".join(said.lines)]
    assert [(s.new, s.entering) for s in status.substitutes] == [("路人甲", True)]  # the seat keeps its name
    assert f"替补：路人甲 接替 kk_大侠（{plays}）" in text
    [row] = [a for a in status.activity if a.name == "kk_大侠"]
    assert row.played_by == "路人甲" and row.posts == 2  # his posts, not those of the one who left
    assert any(line.startswith("kk_大侠（替补 路人甲）") and " 2 " in f" {line} " for line in text.splitlines()), text
    readme = " ".join(README.read_text(encoding="utf-8").split())
    assert "A substitute plays his seat at once" in readme and gm_text.SUBSTITUTE_PLAYS.split("{")[0] in readme
