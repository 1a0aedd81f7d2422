"""The ``shenshi`` command line.

Each sub-command is a module of :mod:`shenshi.commands` that defines ``NAME``, ``HELP`` and
``register(subparsers) -> argparse.ArgumentParser`` (the parser's default ``func(args) -> int``
runs it). Modules are discovered, so adding a command means adding one module.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import re
import sys
from collections.abc import Sequence

from shenshi import __version__, commands
from shenshi.errors import ERROR_PREFIX, UserError


def _command_modules() -> list:
    found = []
    for info in pkgutil.iter_modules(commands.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        if hasattr(module, "register"):
            found.append(module)
    return sorted(found, key=lambda m: (getattr(m, "ORDER", 50), m.NAME))


class _ChineseUsage(argparse.HelpFormatter):
    """``用法：`` where argparse writes ``usage:``; Chinese text wrapped by its width on the
    terminal (a character of it is two columns) and never inside an option's name."""

    def add_usage(self, usage, actions, groups, prefix=None):  # type: ignore[no-untyped-def]
        super().add_usage(usage, actions, groups, "用法：" if prefix is None else prefix)

    def _split_lines(self, text: str, width: int) -> list[str]:
        if isinstance(self, argparse.RawTextHelpFormatter):
            return super()._split_lines(text, width)
        return wrap(" ".join(text.split()), width)

    def add_argument(self, action: argparse.Action) -> None:
        super().add_argument(action)
        if action.help is not argparse.SUPPRESS:  # the names' column as wide as they show
            shown = columns(self._format_action_invocation(action)) + self._current_indent
            self._action_max_length = max(self._action_max_length, shown)

    def _format_action(self, action: argparse.Action) -> str:
        # argparse pads an option's name by its length; a Chinese value name is wider on screen.
        text = super()._format_action(action)
        invocation = self._format_action_invocation(action)
        extra = columns(invocation) - len(invocation)
        if extra > 0:
            text = re.sub(rf"^(\s*{re.escape(invocation)}  ) {{{extra}}}", r"\1", text, count=1)
        return text

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if isinstance(self, argparse.RawDescriptionHelpFormatter):
            return super()._fill_text(text, width, indent)
        paragraphs = [" ".join(p.split()) for p in text.split("\n\n")]
        return "\n\n".join("\n".join(indent + line for line in wrap(p, width - len(indent))) for p in paragraphs)


# A run of printable ASCII (a word, an option) or one character, with the opening marks before
# it and the closing marks after it (a line neither ends with 「（」 nor starts with 「，」).
_TOKEN = re.compile(r"[（「『“]*(?:[\x21-\x7e]+|\S)[，。；：、）」』”？！]*|\s")


def columns(text: str) -> int:
    """How many terminal columns ``text`` takes (a CJK character takes two)."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` terminal columns, broken between words or
    characters (see :data:`_TOKEN`)."""
    lines, line, used = [], "", 0
    for token in _TOKEN.findall(text):
        size = columns(token)
        if used + size > width and line.strip():
            lines.append(line.rstrip())
            line, used = "", 0
            if token.isspace():
                continue
        line += token
        used += size
    if line.strip():
        lines.append(line.rstrip())
    return lines


# argparse's own refusals, in the GM's words (the rest of the message is the option or value).
_REFUSALS = (
    (re.compile(r"the following arguments are required: (.+)"), r"缺少：\1"),
    (re.compile(r"unrecognized arguments: (.+)"), r"不认识的参数：\1"),
    (re.compile(r"argument (\S+): invalid choice: (.+?) \(choose from (.+)\)"), r"\1：没有 \2 这一项（可以用：\3）"),
    (re.compile(r"argument (\S+): expected one argument"), r"\1 后面要写一个值"),
    (re.compile(r"argument (\S+): expected at least one argument"), r"\1 后面至少要写一个值"),
    (re.compile(r"argument (\S+): invalid \w+ value: (.+)"), r"\1：\2 不是有效的值"),
    (re.compile(r"argument (\S+): not allowed with argument (.+)"), r"\1 不能和 \2 一起用"),
    (re.compile(r"argument (\S+): ignored explicit argument (.+)"), r"\1 不带值（多写了 \2）"),
    (re.compile(r"one of the arguments (.+) is required"), r"\1 要写其中一个"),
)


def argparse_words(message: str) -> str:
    """An argparse refusal (``the following arguments are required: ID``) in Chinese."""
    for pattern, words in _REFUSALS:
        if pattern.fullmatch(message):
            return pattern.sub(words, message)
    return message


class Parser(argparse.ArgumentParser):
    """argparse in the GM's words: 用法／参数／选项 and the ``-h`` line in Chinese (every
    sub-command's parser is one too), and a mistake on the command line in the CLI's one-line
    error form (:data:`~shenshi.errors.ERROR_PREFIX`) after the usage."""

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self._positionals.title = "参数"
        self._optionals.title = "选项"
        for action in self._actions:
            if isinstance(action, argparse._HelpAction):
                action.help = "显示这段说明后退出"

    def _get_formatter(self) -> argparse.HelpFormatter:
        kind = self.formatter_class
        chinese = type(f"Chinese{kind.__name__}", (_ChineseUsage, kind), {})  # type: ignore[arg-type]
        return chinese(prog=self.prog)

    def error(self, message: str):  # type: ignore[no-untyped-def]
        self.print_usage(sys.stderr)
        self.exit(2, f"{ERROR_PREFIX}{self.prog}：{argparse_words(message)}\n")


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, with every discovered sub-command."""
    parser = Parser(
        prog="shenshi",
        description="神使：在 phpwind 或 Discuz! 论坛旁主持版杀（论坛杀人游戏）。"
        "每个命令的用法：shenshi 命令 --help。"
        "每个命令都接受的 --config、--games、--game 写在命令名之前或之后都可以"
        "（shenshi --config 文件 status 即 shenshi status --config 文件）；前后都写时，以命令名之后的为准。",
    )
    parser.add_argument("--version", action="version", version=f"shenshi {__version__}", help="显示版本号后退出")
    commands.add_config_option(parser, before_command=True)
    sub = parser.add_subparsers(dest="command", metavar="命令")
    for module in _command_modules():
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the process exit code."""
    parser = build_parser()
    args = commands.take_options_before_command(parser.parse_args(argv))
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except UserError as exc:
        print(f"{ERROR_PREFIX}{exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # ``shenshi status | head``: the reader left, nothing to report
        _quiet_stdout()
        return 0


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's final flush does not fail again."""
    import contextlib
    import os

    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
