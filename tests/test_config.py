"""The configuration file: every problem is one message that names the option and says what is
expected; relative paths are relative to the file; secrets never come from the file."""

from __future__ import annotations

import os
import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from shenshi.config import ConfigError, load_config, parse_config

EXAMPLE = Path(__file__).parents[1] / "config.example.toml"


def raw_config(**sections: dict[str, Any]) -> dict[str, Any]:
    """A valid configuration as parsed TOML, with ``sections`` merged over it."""
    raw: dict[str, Any] = {
        "forum": {"engine": "discuz", "base_url": "http://bbs.example/", "username": "神的使者"},
        "game": {
            "ruleset": "game6-10", "board": 3, "vote_thread": 2, "start": "2026-12-01T20:00",
            "players": [{"name": "小明", "uid": 3, "role": "seer"}, {"name": "阿杰"}],
        },
    }  # fmt: skip
    for name, table in sections.items():
        raw[name] = {**raw.get(name, {}), **table} if isinstance(table, dict) else table
    return raw


def refused(tmp_path: Path, raw: dict[str, Any]) -> str:
    with pytest.raises(ConfigError) as caught:
        parse_config(raw, tmp_path)
    return str(caught.value)


def test_a_valid_configuration_has_the_documented_defaults(tmp_path: Path) -> None:
    config = parse_config(raw_config(), tmp_path)
    f, g, d = config.forum, config.game, config.daemon
    assert (f.engine, f.base_url, f.charset, f.timezone) == ("discuz", "http://bbs.example/", None, "Asia/Shanghai")
    assert (f.min_interval, f.timeout, f.use_mobile_api) == (2.0, 30.0, "auto")
    assert (g.board, g.vote_thread, g.name) == ("3", "2", "shenshi game")
    assert g.start == datetime(2026, 12, 1, 20, 0, tzinfo=f.tz)
    assert [(p.name, p.uid, p.role) for p in g.players] == [("小明", "3", "seer"), ("阿杰", None, None)]
    assert (d.mode, d.poll_interval, d.early_close) == ("dry-run", 120.0, True)
    assert d.database == f"sqlite:///{tmp_path / 'shenshi.sqlite3'}"
    assert d.log == tmp_path / "shenshi-dryrun.log"
    assert config.templates == {}


def test_values_are_normalised(tmp_path: Path) -> None:
    raw = raw_config(
        forum={"base_url": "https://bbs.example/bbs", "charset": "gbk", "min_interval": 1},
        game={"start": "2026-12-01T20:00+00:00", "counted_threads": [5, "6"], "nicknames": {"小明": "明明"}},
    )
    config = parse_config(raw, tmp_path)
    assert config.forum.base_url == "https://bbs.example/bbs/" and config.forum.charset == "gbk"
    assert config.forum.min_interval == 1.0
    assert config.game.start.utcoffset() == timedelta(0)
    assert config.game.counted_threads == ("5", "6")
    assert config.game.nicknames == {"小明": ("明明",)}


@pytest.mark.parametrize(
    ("sections", "message"),
    [
        ({"forum": {"engine": "vbulletin"}}, '[forum] engine: 应为 "discuz" 或 "phpwind"，得到 "vbulletin"'),
        ({"forum": {"base_url": "ftp://bbs.example/"}}, '[forum] base_url: 应为 http:// 或 https:// 开头的网址，得到 "ftp://bbs.example/"'),
        ({"forum": {"timezone": "Mars/Olympus"}}, '[forum] timezone: 不认识的时区 "Mars/Olympus"'),
        ({"forum": {"password": "hunter2"}}, "[forum] password: 密码不要写在配置文件里"),
        ({"game": {"start": "tomorrow"}}, '[game] start: 应为 ISO 格式的时间（如 "2026-12-01T20:00"），得到 "tomorrow"'),
        ({"daemon": {"mode": "auto"}}, '[daemon] mode: 应为 "dry-run" 或 "review" 或 "live"，得到 "auto"'),
        ({"daemon": {"poll_interval": 0}}, "[daemon] poll_interval: 应为大于 0 的秒数"),
        ({"game": {"nicknames": {"小明": 3}}}, "[game] nicknames.小明: 应为名字的列表"),
        ({"game": {"players": []}}, "[game] players: 没有玩家（给出 players_file，或 players 列表）"),
    ],
)
def test_a_wrong_value_is_named_with_what_is_expected(tmp_path: Path, sections: dict, message: str) -> None:
    assert message in refused(tmp_path, raw_config(**sections))


@pytest.mark.parametrize(
    ("sections", "where", "seen"),
    [
        ({"forum": {"min_interval": "2s"}}, "[forum] min_interval", "2s"),
        ({"forum": {"timeout": True}}, "[forum] timeout", "True"),
        ({"game": {"receipts": "yes"}}, "[game] receipts", "yes"),
        ({"game": {"ruleset": "game7"}}, "[game] ruleset", "game7"),
        ({"forum": {"use_mobile_api": "maybe"}}, "[forum] use_mobile_api", "maybe"),
        ({"game": {"substitutes": ["甲", True]}}, "[game] substitutes: 第 2 项", "True"),
        ({"game": {"rules": 3}}, "[game.rules]", "3"),
    ],
)
def test_a_wrong_type_names_the_option_and_what_was_seen(tmp_path: Path, sections: dict, where: str, seen: str) -> None:
    message = refused(tmp_path, raw_config(**sections))
    assert message.startswith(where + ":") and "应为" in message and seen in message


def test_a_missing_option_is_named(tmp_path: Path) -> None:
    raw = raw_config()
    del raw["game"]["vote_thread"]
    assert "[game] vote_thread: 缺少（必填）" in refused(tmp_path, raw)
    raw = raw_config()
    del raw["forum"]["username"]
    assert "[forum] username: 缺少（必填）" in refused(tmp_path, raw)


def test_a_section_that_is_not_a_table_is_named(tmp_path: Path) -> None:
    assert "[game]: 应为表" in refused(tmp_path, raw_config(game=3))


def test_unknown_sections_templates_and_options_are_refused(tmp_path: Path) -> None:
    assert "bogus" in refused(tmp_path, raw_config(bogus={"x": 1}))
    assert "no_such_template" in refused(tmp_path, raw_config(templates={"no_such_template": "x"}))
    assert "cutoff" in refused(tmp_path, raw_config(daemon={"cutoff": 3}))


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ([{"name": "小明"}, {"uid": 4}], "第 2 个玩家: name: 缺少（必填）"),
        ([{"name": "小明"}, {"name": "小明"}], "玩家 小明 列了两次"),
        ([{"name": "小明", "rank": 1}], "rank"),
    ],
)
def test_players_are_checked(tmp_path: Path, players: list, message: str) -> None:
    text = refused(tmp_path, raw_config(game={"players": players}))
    assert text.startswith("[game] players") and message in text


def test_relative_paths_are_relative_to_the_configuration_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "conf").mkdir()
    (tmp_path / "conf" / "players.toml").write_text('[[player]]\nname = "小明"\nuid = 3\n', encoding="utf-8")
    path = tmp_path / "conf" / "shenshi.toml"
    path.write_text(
        '[forum]\nengine = "phpwind"\nbase_url = "http://bbs.example/"\nusername = "gm"\n'
        'password_file = "secret"\ncookies_file = "cookies.txt"\n'
        '[game]\nruleset = "game5"\nboard = 3\nvote_thread = 2\nstart = "2026-12-01T20:00"\n'
        'players_file = "players.toml"\n'
        '[daemon]\ndatabase = "sqlite:///game.sqlite3"\nlog = "logs/dry.log"\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    config = load_config(path)
    here = tmp_path / "conf"
    assert config.forum.password_file == here / "secret" and config.forum.cookies_file == here / "cookies.txt"
    assert [p.name for p in config.game.players] == ["小明"]
    assert config.daemon.database == f"sqlite:///{here / 'game.sqlite3'}"
    assert config.daemon.log == here / "logs" / "dry.log"


def test_a_players_file_is_checked_and_named(tmp_path: Path) -> None:
    (tmp_path / "players.toml").write_text('[[player]]\nname = "小明"\n[[player]]\nname = "小明"\n', encoding="utf-8")
    raw = raw_config()
    del raw["game"]["players"]
    raw["game"]["players_file"] = "players.toml"
    assert "players.toml" in refused(tmp_path, raw) and "列了两次" in refused(tmp_path, raw)
    raw["game"]["players_file"] = "absent.toml"
    assert re.search(r"\[game\] players_file: .*absent\.toml", refused(tmp_path, raw))


def test_the_password_file_must_be_private(tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    secret.write_text("hunter2\n", encoding="utf-8")
    os.chmod(secret, 0o644)
    config = parse_config(raw_config(forum={"password_file": "secret"}), tmp_path)
    with pytest.raises(ConfigError, match=r"\[forum\] password_file: .* 别人也能读；请运行 chmod 600"):
        config.forum.login_password()
    os.chmod(secret, 0o600)
    assert config.forum.login_password() == "hunter2"


def test_the_password_comes_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = parse_config(raw_config(forum={"password_env": "SHENSHI_TEST_CONFIG_PW"}), tmp_path)
    monkeypatch.delenv("SHENSHI_TEST_CONFIG_PW", raising=False)
    assert config.forum.login_password() is None
    monkeypatch.setenv("SHENSHI_TEST_CONFIG_PW", "hunter2")
    assert config.forum.login_password() == "hunter2"
    assert "hunter2" not in repr(config)


def test_the_example_configuration_loads_and_documents_every_option(tmp_path: Path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    (tmp_path / "players.toml").write_text('[[player]]\nname = "甲"\nrole = "seer"\n', encoding="utf-8")
    path = tmp_path / "shenshi.toml"
    path.write_text(text, encoding="utf-8")
    config = load_config(path)
    assert config.forum.engine == "discuz" and config.daemon.mode == "dry-run"
    documented = set(re.findall(r"^#?\s*([a-z_]+) = ", text, re.M))
    documented |= set(re.findall(r"^\[game\.([a-z_]+)\]", text, re.M))  # [game.rules], [game.nicknames]
    for section in (config.forum, config.game, config.daemon):
        options = {name for name in type(section).__dataclass_fields__ if not name.startswith("_")}
        undocumented = options - documented - {"password", "path"}
        assert not undocumented, f"config.example.toml does not document {sorted(undocumented)}"


@pytest.mark.parametrize(
    ("sections", "message"),
    [
        ({"game": {"vote_thred": 2}}, '[game] vote_thred: 不认识的选项；是不是 "vote_thread"？'),
        ({"forum": {"pasword_env": "PW"}}, '[forum] pasword_env: 不认识的选项；是不是 "password_env"？'),
        ({"daemon": {"poll_intervall": 60}}, '[daemon] poll_intervall: 不认识的选项；是不是 "poll_interval"？'),
        ({"deamon": {"mode": "live"}}, '不认识的配置节 [deamon]；是不是 "daemon"？'),
        ({"game": {"players": [{"name": "小明", "rol": "seer"}]}}, '[game] players: 第 1 个玩家: rol: 不认识的选项；是不是 "role"？'),
        ({"templates": {"no_deaht": "x"}}, '[templates] no_deaht: 不认识的模板；是不是 "no_death"？'),
        ({"daemon": {"cutoff": 3}}, "[daemon] cutoff: 不认识的选项（config.example.toml 列出了每个选项）"),
    ],
)
def test_an_unknown_key_is_refused_with_the_close_one(tmp_path: Path, sections: dict, message: str) -> None:
    assert message in refused(tmp_path, raw_config(**sections))


def test_a_typo_beside_a_missing_option_names_both(tmp_path: Path) -> None:
    raw = raw_config(game={"vote_thred": 2})
    del raw["game"]["vote_thread"]
    lines = refused(tmp_path, raw).splitlines()
    assert "[game] vote_thread: 缺少（必填）" in lines
    assert '[game] vote_thred: 不认识的选项；是不是 "vote_thread"？' in lines


def test_unknown_tables_and_keys_of_a_players_file_are_refused(tmp_path: Path) -> None:
    (tmp_path / "players.toml").write_text('[[players]]\nname = "小明"\n', encoding="utf-8")
    raw = raw_config()
    del raw["game"]["players"]
    raw["game"]["players_file"] = "players.toml"
    assert 'players.toml: players: 不认识的选项；是不是 "player"？' in refused(tmp_path, raw)
