"""A configuration a GM got wrong is one line in the CLI's error form, naming the file and the
option, for every command: never a traceback, never a value silently accepted that fails
later (issue 22). Each case goes through ``shenshi status`` (offline: no forum is asked)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from shenshi.cli import main
from shenshi.config import load_config
from shenshi.errors import ERROR_PREFIX

CONFIG = """\
[forum]
engine = "discuz"
base_url = "http://127.0.0.1:9/"
username = "神的使者"
password_env = "SHENSHI_TEST_NOPASSWORD"

[game]
name = "坏配置"
ruleset = "game6-10"
board = 3
vote_thread = 2
start = "2026-12-01T20:00"
players_file = "players.toml"

[daemon]
database = "sqlite:///g.sqlite3"
"""
ROLES = ["killer", "killer", "seer", "binder", "curser", "blesser", "commoner", "commoner", "commoner", "commoner"]


def players(uids: list[object] | None = None) -> str:
    uids = uids or list(range(11, 21))
    rows = []
    for n, (role, uid) in enumerate(zip(ROLES, uids, strict=True)):
        shown = f'"{uid}"' if isinstance(uid, str) else str(uid)
        rows.append(f'[[player]]\nname = "玩家{n}"\nuid = {shown}\nrole = "{role}"\n')
    return "\n".join(rows)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "players.toml").write_text(players(), encoding="utf-8")
    (tmp_path / "shenshi.toml").write_text(CONFIG, encoding="utf-8")
    return tmp_path


def one_line(capsys, folder: Path, *args: str) -> str:
    """The command's only line of output (stderr), after exit code 2."""
    code = main([*args] or ["status", "--config", str(folder / "shenshi.toml")])
    out, err = capsys.readouterr()
    assert code == 2, out + err
    assert "Traceback" not in err and err.count("\n") == 1, err
    assert err.startswith(ERROR_PREFIX)
    return err.strip()


def test_the_valid_configuration_works_offline(folder: Path, capsys) -> None:
    assert main(["status", "--config", str(folder / "shenshi.toml")]) == 0
    assert "坏配置" in capsys.readouterr().out


CASES = [
    # (what, how the text changes, the option named, words of the reason)
    ("board three", ("board = 3", 'board = "three"'), "[game] board", '"three"'),
    ("a thread -3", ("vote_thread = 2", "vote_thread = -3"), "[game] vote_thread", "-3"),
    ("empty username", ('username = "神的使者"', 'username = "  "'), "[forum] username", "用户名是空的"),
    ("a URL without a host", ('base_url = "http://127.0.0.1:9/"', 'base_url = "http://"'), "[forum] base_url", "主机名"),
    ("a port out of range", ('base_url = "http://127.0.0.1:9/"', 'base_url = "http://x:99999/"'), "[forum] base_url", "端口"),
    ("timeout 1e400", ('password_env = "SHENSHI_TEST_NOPASSWORD"', 'password_env = "X"\ntimeout = 1e400'), "[forum] timeout", "inf"),
    ("min_interval nan", ('password_env = "SHENSHI_TEST_NOPASSWORD"', 'password_env = "X"\nmin_interval = nan'), "[forum] min_interval", "nan"),
    ("poll_interval of a year", ('database = "sqlite:///g.sqlite3"', 'database = "sqlite:///g.sqlite3"\npoll_interval = 31536000'), "[daemon] poll_interval", "最多"),
    ("summon_hours x", ('players_file = "players.toml"', 'players_file = "players.toml"\n[game.rules]\nsummon_hours = "x"'), "[game.rules] summon_hours", '"x"'),
    ("negative hours", ('players_file = "players.toml"', 'players_file = "players.toml"\n[game.rules]\nrunoff_hours = -2'), "[game.rules] runoff_hours", "-2"),
    ("hours of nan", ('players_file = "players.toml"', 'players_file = "players.toml"\n[game.rules]\nrunoff_hours = nan'), "[game.rules] runoff_hours", "nan"),
    ("an unknown rules key", ('players_file = "players.toml"', 'players_file = "players.toml"\n[game.rules]\nsumon_hours = 3'), "[game.rules] sumon_hours", '"summon_hours"'),
    ("another ruleset's key", ('players_file = "players.toml"', 'players_file = "players.toml"\n[game.rules]\nkiller_order = ["玩家0", "玩家1"]'), "[game.rules] killer_order", "不认识"),
    ("an unknown key", ("[daemon]", "[daemon]\npoll_intervall = 3"), "[daemon] poll_intervall", "poll_interval"),
]


@pytest.mark.parametrize(("change", "option", "words"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_bad_value_is_one_line_naming_the_file_and_the_option(folder: Path, capsys, change, option, words) -> None:
    path = folder / "shenshi.toml"
    path.write_text(CONFIG.replace(*change), encoding="utf-8")
    line = one_line(capsys, folder)
    assert line.startswith(f"{ERROR_PREFIX}{path}: {option}: ") and words in line, line


@pytest.mark.parametrize(("uids", "words"), [(["abc", *range(12, 21)], '"abc"'), ([-3, *range(12, 21)], "-3"),
                                            ([11, 11, *range(13, 21)], "uid 都是 11")])  # fmt: skip
def test_a_bad_or_shared_uid_is_refused_naming_the_players_file(folder: Path, capsys, uids, words) -> None:
    (folder / "players.toml").write_text(players(uids), encoding="utf-8")
    line = one_line(capsys, folder)
    assert f"{folder / 'shenshi.toml'}: [game] players_file: players.toml:" in line and words in line, line


def test_a_configuration_that_is_not_utf8_names_its_line(folder: Path, capsys) -> None:
    path = folder / "shenshi.toml"
    path.write_bytes(CONFIG.encode("utf-8").replace("坏配置".encode(), "坏配置".encode("gbk")))  # saved as GBK
    line = one_line(capsys, folder)
    assert line.startswith(f"{ERROR_PREFIX}{path}: 第 8 行不是 UTF-8 编码") and "0xbb" in line, line
    (folder / "players.toml").write_bytes(players().encode("gbk"))
    path.write_text(CONFIG, encoding="utf-8")
    line = one_line(capsys, folder)
    assert "[game] players_file" in line and "players.toml" in line and "不是 UTF-8" in line, line


def test_two_players_whose_names_read_alike_are_refused(folder: Path, capsys) -> None:
    """``rex`` and ``ＲＥＸ`` are one name to intake (case and width folded): a ballot for
    either could not be told apart, so the players list is refused (issue 22's adversary, F-5)."""
    text = (folder / "players.toml").read_text(encoding="utf-8")
    names = re.findall(r'name = "([^"]+)"', text)
    (folder / "players.toml").write_text(text.replace(f'"{names[0]}"', '"rex"').replace(f'"{names[1]}"', '"ＲＥＸ"'),
                                         encoding="utf-8")  # fmt: skip
    line = one_line(capsys, folder)
    assert "rex 和 ＲＥＸ 读起来是同一个名字" in line and "players" in line, line


def test_files_saved_with_a_byte_order_mark_are_read(folder: Path) -> None:
    """Windows Notepad saves UTF-8 with a byte-order mark: the configuration and the players
    file read as without it (the adversary of issue 22 got "not valid TOML … line 1, column 1")."""
    path = folder / "shenshi.toml"
    path.write_bytes(b"\xef\xbb\xbf" + CONFIG.encode("utf-8"))
    (folder / "players.toml").write_bytes(b"\xef\xbb\xbf" + players().encode("utf-8"))
    config = load_config(path)
    assert config.game.name and len(config.game.players) == 10


@pytest.mark.skipif(importlib.util.find_spec("MySQLdb") is not None, reason="a MySQL driver is installed here")
def test_mysql_without_its_driver(folder: Path, capsys) -> None:
    path = folder / "shenshi.toml"
    path.write_text(CONFIG.replace("sqlite:///g.sqlite3", "mysql://gm:pw@127.0.0.1/shenshi"), encoding="utf-8")
    line = one_line(capsys, folder)
    assert line.startswith(f"{ERROR_PREFIX}{path}: [daemon] database: ") and "MySQLdb" in line
    assert "pip install mysqlclient" in line and "pw" not in line.split("database:")[1].replace("pip", "")


def test_postgresql_down_and_an_unknown_database(folder: Path, capsys) -> None:
    pytest.importorskip("psycopg")
    path = folder / "shenshi.toml"
    path.write_text(CONFIG.replace("sqlite:///g.sqlite3", "postgresql+psycopg://gm:Secret_pw_9@127.0.0.1:1/x"),
                    encoding="utf-8")  # fmt: skip
    line = one_line(capsys, folder)
    assert line.startswith(f"{ERROR_PREFIX}{path}: [daemon] database: 连不上数据库 ") and "127.0.0.1" in line
    assert "Secret_pw_9" not in line
    path.write_text(CONFIG.replace("sqlite:///g.sqlite3", "oracle9://x"), encoding="utf-8")
    assert "不认识这种数据库" in one_line(capsys, folder)
    path.write_text(CONFIG.replace("sqlite:///g.sqlite3", "not a url"), encoding="utf-8")
    assert "不是数据库网址" in one_line(capsys, folder)


def test_every_command_says_it_the_same_way(folder: Path, capsys) -> None:
    path = folder / "shenshi.toml"
    path.write_text(CONFIG.replace("board = 3", 'board = "three"'), encoding="utf-8")
    for command in (["status"], ["review"], ["replay"], ["games"], ["run", "--once"], ["check-config"]):
        line = one_line(capsys, folder, *command, "--config", str(path))
        assert line.startswith(f"{ERROR_PREFIX}{path}: [game] board: "), (command, line)


def test_a_good_rules_table_loads(folder: Path) -> None:
    path = folder / "shenshi.toml"
    path.write_text(CONFIG.replace('players_file = "players.toml"',
                                   'players_file = "players.toml"\n[game.rules]\nrunoff_hours = 6\nsummon_hours = 12.5'),
                    encoding="utf-8")  # fmt: skip
    assert dict(load_config(path).game.rules) == {"runoff_hours": 6, "summon_hours": 12.5}


# Words a Chinese reason may hold: the option and file names it points at, and a few terms.
LATIN_ALLOWED = re.compile(r'"[^"]*"|\[[^\]]*\]\s*[\w.]*|\b(?:TOML|ISO|UTF|GBK|http|https|chmod|players_file|'
                           r"password_env|password_file|config\.example\.toml|docs/templates\.md|[\w.]+\.toml|"
                           r"true|false|game6-10|inf|nan)\b|：[\w、]+）$")  # fmt: skip
MORE_CASES = [
    ('engine = "discuz"', 'engine = "vbulletin"'),
    ('base_url = "http://127.0.0.1:9/"', 'base_url = "ftp://x/"'),
    ('start = "2026-12-01T20:00"', 'start = "tomorrow"'),
    ("[daemon]", '[daemon]\nmode = "auto"'),
    ("[daemon]", "[daemon]\npoll_interval = 0"),
    ("[daemon]", '[daemon]\nearly_close = "yes"'),
    ("vote_thread = 2\n", ""),
    ("[daemon]", "[daemonn]"),
    ('ruleset = "game6-10"', 'ruleset = "mafia"'),
    ("[daemon]", '[game.nicknames]\n"小明" = 3\n[daemon]'),
    ("[daemon]", '[templates]\nfoo = "x"\n[daemon]'),
    ("[daemon]", '[notify]\non = ["x"]\n[daemon]'),
    ("[daemon]", '[notify]\nconsole_url = "ftp://x"\n[daemon]'),
    ('players_file = "players.toml"', 'players_file = "nope.toml"'),
    ('name = "坏配置"', 'name = "坏配置"\nreceipts = "no"'),
    ('password_env = "SHENSHI_TEST_NOPASSWORD"', 'password = "x"'),
    ('password_env = "SHENSHI_TEST_NOPASSWORD"', 'password_env = "X"\ntimezone = "Mars/Olympus"'),
    ('password_env = "SHENSHI_TEST_NOPASSWORD"', 'password_env = "X"\ncharset = "klingon"'),
    ("board = 3", "board = 3 3"),
]


@pytest.mark.parametrize("change", [c[1] for c in CASES] + MORE_CASES, ids=str)
def test_the_reason_is_chinese(folder: Path, capsys, change) -> None:
    """Issue 23: after the file and the option, the reason is said in Chinese (quoted values,
    option and file names aside)."""
    path = folder / "shenshi.toml"
    path.write_text(CONFIG.replace(*change), encoding="utf-8")
    line = one_line(capsys, folder)
    reason = line.removeprefix(f"{ERROR_PREFIX}{path}: ").replace(str(folder), "")
    if "TOML（" in reason:  # the TOML reader's own detail follows where it stopped
        reason = reason.split("列：")[0]
    words = LATIN_ALLOWED.sub("", reason)
    assert not re.search(r"[A-Za-z]{3,}", words), line
    assert re.search(r"[\u4e00-\u9fff]", reason), line


def test_players_file_problems_are_chinese(folder: Path, capsys) -> None:
    for text, words in [('[[player]]\nname = "甲"\n[[player]]\nname = "甲"\n', "玩家 甲 列了两次"),
                        ('[[player]]\nname = ""\n', "第 1 个玩家: name: 名字是空的"),
                        ('[[player]]\nuid = 3\n', "第 1 个玩家: name: 缺少（必填）"),
                        ('[[player]]\nname = "甲"\nrole = "狼"\n', '玩家 甲："狼" 不是 game6-10 的角色')]:  # fmt: skip
        (folder / "players.toml").write_text(text, encoding="utf-8")
        assert words in one_line(capsys, folder)


def test_a_missing_configuration_says_so(tmp_path: Path, capsys) -> None:
    code = main(["status", "--config", str(tmp_path / "absent.toml")])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(ERROR_PREFIX) and "absent.toml" in err and "Traceback" not in err
    words = LATIN_ALLOWED.sub("", err.replace(str(tmp_path / "absent.toml"), "").replace("shenshi 出错", ""))
    assert not re.search(r"[A-Za-z]{3,}", re.sub(r"--(?:config|games)", "", words)), err
