"""The command line's own words (issue 23): ``shenshi --help``, each GM command's ``--help``
(``override``'s table with ``count-pm``, ``check-config``, ``replay``…) and argparse's refusals
are Chinese like the rest; the help is wrapped by its width on the terminal."""

from __future__ import annotations

import re
import unicodedata

import pytest

from shenshi.cli import build_parser, main, wrap
from shenshi.errors import ERROR_PREFIX

GM_COMMANDS = ("check-config", "run", "deal", "games", "status", "ack", "console", "review", "approve", "reject",
               "edit", "published", "substitute", "override", "replay")  # fmt: skip
# What a Chinese help may still spell in Latin letters: commands, options and their values,
# files, and the names of things the GM types or sees as they are.
ALLOWED = re.compile(
    r"[\w.*/-]+\.(?:toml|json|md)|--?[\w-]+|shenshi(?:\s+[\w-]+)?|\[[\w.]+\](?: \w+)?|\$EDITOR|"
    r"\b(?:JSON|SIGTERM|Ctrl-C|cookie|uid|id|ISO|UTF-8|TOML|http|https|Discuz!?|phpwind|httpx|alembic|apscheduler|"
    r"base_url|clock_file|name|PM|Rex|action|void|execute|cancel-execution|exit|answered|penalty|send-off|sheriff|"
    r"extra-divination|ballot|count-pm|RES-\w+|A-S2|[\w-]+-token|scenarios/FORMAT)\b|\d{4}-\d\d-\d\dT\d\d:\d\d"
)


def help_of(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as done:
        main([*argv, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


def english(text: str) -> list[str]:
    return re.findall(r"[A-Za-z]{3,}", ALLOWED.sub("", text))


def test_the_top_help_is_chinese(capsys) -> None:
    text = help_of(capsys)
    assert text.startswith("用法：shenshi") and "选项" in text and "显示这段说明后退出" in text
    commands = build_parser()._subparsers._group_actions[0]  # type: ignore[union-attr]
    for listed in commands._choices_actions:  # every command is described in Chinese, and listed
        assert listed.dest in text and re.sub(r"\s", "", listed.help) in re.sub(r"\s", "", text), listed.dest
        assert re.search(r"[\u4e00-\u9fff]", listed.help) and not english(listed.help), listed.help


@pytest.mark.parametrize("command", GM_COMMANDS)
def test_a_gm_commands_help_is_chinese(capsys, command) -> None:
    text = help_of(capsys, command)
    assert text.startswith(f"用法：shenshi {command}"), text
    assert "usage:" not in text and "options:" not in text and "positional arguments" not in text
    assert not english(text), (command, english(text), text)


def test_override_help_names_count_pm_in_the_gms_words(capsys) -> None:
    text = help_of(capsys, "override")
    row = text.split("count-pm", 1)[1].split("\n\n")[0]
    assert "pm_game_unknown" not in text and "不知属于哪一局的私信" in row and "--game 局名" in row
    for name in ("action", "void", "ballot", "count-pm", "extra-divination"):
        assert f"  {name} " in text, name


@pytest.mark.parametrize("columns", [60, 80, 120])
def test_the_help_fits_the_terminal(capsys, monkeypatch, columns) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    for command in ("check-config", "replay", "status", "run"):
        text = help_of(capsys, command)
        for line in text.split("\n\n", 1)[1].splitlines():  # the usage lines are argparse's own
            width = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)
            assert width <= columns or " " not in line.strip(), (command, line)


def test_wrapping_keeps_options_whole_and_no_line_starts_with_a_comma() -> None:
    lines = wrap("离线（--offline）时检查密码从哪里来，玩家和他们的身份；" * 3, 24)
    assert all("--offline" in line or "offline" not in line for line in lines)
    assert not any(line[0] in "，；）" for line in lines) and all(not line.endswith("（") for line in lines)


@pytest.mark.parametrize(("argv", "words"), [
    (["override"], "缺少：更正"),
    (["override", "bogus"], "更正：没有 'bogus' 这一项"),
    (["status", "--bogus"], "不认识的参数：--bogus"),
    (["approve", "--config"], "--config 后面要写一个值"),
])  # fmt: skip
def test_a_command_line_mistake_is_said_in_chinese(capsys, argv, words) -> None:
    with pytest.raises(SystemExit) as done:
        main(argv)
    err = capsys.readouterr().err
    assert done.value.code == 2 and err.startswith("用法：shenshi")
    last = err.strip().splitlines()[-1]
    assert last.startswith(ERROR_PREFIX) and words in last, err


# Three Latin words in a row (``default: an ephemeral port``): an English sentence or phrase.
SENTENCE = re.compile(r"[A-Za-z]{2,}(?:[\s,;:'()]+[A-Za-z]{2,}){2,}")
EXAMPLE = re.compile(r"^\s*(?:shenshi\s|cd\s)")  # a command line shown as an example


def every_command() -> list[str]:
    commands = build_parser()._subparsers._group_actions[0]  # type: ignore[union-attr]
    return sorted(commands.choices)


def english_sentences(text: str) -> list[str]:
    """The lines of a help that say something in English: the usage block, example command
    lines, option names, metavars and the names ``ALLOWED`` lists aside."""
    body = text.split("\n\n", 1)[1]  # the usage lines are argparse's own layout
    found = []
    for line in body.splitlines():
        if EXAMPLE.match(line):
            continue
        words = ALLOWED.sub("", re.sub(r"\{[^}]*\}|\b[A-Z][A-Z_.0-9]+\b", "", line))
        found += SENTENCE.findall(words)
    return found


def test_every_command_is_checked() -> None:
    assert set(GM_COMMANDS) < set(every_command())
    assert {"demo", "inspect", "intake", "sandbox", "simulate"} <= set(every_command())


@pytest.mark.parametrize("command", every_command())
def test_every_commands_help_says_its_sentences_in_chinese(capsys, command) -> None:
    """Developer commands too (demo, inspect, intake, sandbox, simulate): each sentence and
    each option's help in Chinese, only option names, metavars and examples left as typed."""
    text = help_of(capsys, command)
    assert text.startswith(f"用法：shenshi {command}"), text
    assert not english_sentences(text), (command, english_sentences(text))
    described = text.split("\n\n")[1]
    assert re.search(r"[\u4e00-\u9fff]", described), (command, described)
