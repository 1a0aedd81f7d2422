"""recheck2 N4: a GM exit of the last killer ended the game at once, with no way back and no
substitute for the seat. A correction that would end the game is said first and changes
nothing; the note offers the confirmation (and a substitute) as buttons, and the confirmation
ends it."""

from __future__ import annotations

import re

from shenshi.console.app import CSRF_FIELD
from tests.console.test_app import form, note


def test_an_exit_that_would_end_the_game_is_confirmed_from_the_note(client, key, game) -> None:
    note(client, form(client, key, "/g/1/override", what="exit", arg0="夜行者", reason="本人申请退出"))
    assert game.referee.state.outcome is None
    page = note(client, form(client, key, "/g/1/override", what="exit", arg0="老王", reason="本人申请退出",
                             back="/g/1/corrections"))  # fmt: skip
    said = page.split('class="note')[1]
    assert "这会让游戏立即结束" in said and game.referee.state.outcome is None
    assert "shenshi " not in said.split("<form")[0]  # the buttons, not commands to type (recheck3 F4)
    assert game.referee.state.is_alive("老王")
    confirm = said.split("确认退出并结束游戏")[0].rsplit("<form", 1)[1]
    assert 'value="--ends-game="' in confirm and 'value="--reason=本人申请退出"' in confirm
    assert 'name="command" value="substitute"' in said  # the other way: a substitute for the seat
    data = dict(re.findall(r'name="(command|back)" value="([^"]*)"', confirm))
    data["arg"] = re.findall(r'name="arg" value="([^"]*)"', confirm)
    data["option"] = re.findall(r'name="option" value="([^"]*)"', confirm)
    done = note(client, client.post("/g/1/hint", data={CSRF_FIELD: key.csrf, **data}))
    assert game.referee.state.outcome is not None, done
    assert "老王 退出游戏" in done
