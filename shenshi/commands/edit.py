"""``shenshi edit ID``: change an announcement's text before it is sent."""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
from pathlib import Path

from shenshi.commands import add_config_option
from shenshi.errors import UserError

NAME = "edit"
HELP = "修改待审公告/私信的内容（--text、--file 或 $EDITOR）"
# What ``shenshi edit --help`` says (the GM's words; the docstring is the code's).
DESCRIPTION = 'shenshi edit 编号：发出前修改公告/私信的内容。'
ORDER = 33


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION)
    add_config_option(parser)
    parser.add_argument("id", type=int, metavar="编号", help="公告/私信的编号（shenshi review 里的 #N）")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--text", metavar="文字", help="新内容")
    group.add_argument("--file", type=Path, metavar="文件", help="从文件读新内容")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from shenshi.commands._common import open_service, print_said, text_of_file
    from shenshi.daemon.gm_commands import edit_text, editable

    service = open_service(args)
    current = editable(service, args.id)  # before the editor opens
    if args.text is not None:
        text = args.text
    elif args.file is not None:
        text = text_of_file(args.file)
    else:
        text = _with_editor(current.text)
    return print_said(edit_text(service, args.id, text))


def _with_editor(text: str) -> str:
    editor = os.environ.get("EDITOR")
    if not editor:
        raise UserError("没有设置 $EDITOR：请用 --text \"新内容\" 或 --file 文件")
    fd, path = tempfile.mkstemp(suffix=".txt")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        subprocess.run([editor, path], check=True)
        return Path(path).read_text(encoding="utf-8")
    finally:
        os.unlink(path)
