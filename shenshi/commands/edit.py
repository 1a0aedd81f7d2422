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
HELP = "edit a proposed announcement's text (--text, --file, or $EDITOR)"
ORDER = 33


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help=HELP, description=__doc__)
    add_config_option(parser)
    parser.add_argument("id", type=int, metavar="ID")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--text", help="the new text")
    group.add_argument("--file", type=Path, help="read the new text from a file")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from shenshi.commands._common import gm_log, open_service, outbox_item
    from shenshi.daemon.gm_text import STATES, outbox_refusal, publish_hint
    from shenshi.store.outbox import TRANSITIONS, OutboxAction

    service = open_service(args)
    with service.store.snapshot() as uow:
        try:
            current = outbox_item(service, uow, args.id)
        except UserError as exc:
            raise UserError(f"#{args.id}：{exc}") from None
    if OutboxAction.EDIT not in TRANSITIONS[current.state]:  # before the editor opens
        raise UserError(f"#{args.id}：{outbox_refusal('edit', current.state.value)}")
    if args.text is not None:
        text = args.text
    elif args.file is not None:
        try:
            text = args.file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UserError(f"--file {args.file}：读不了（{exc.__class__.__name__}）；没有改动") from None
    else:
        text = _with_editor(current.text)
    if not text.strip():
        raise UserError("新内容是空的：没有改动")
    if text == current.text:
        print(f"#{args.id} 内容没有变化，没有改动")
        return 0
    with service.store.transaction() as uow:
        a = uow.outbox.edit(args.id, text)
    state = STATES.get(a.state.value, a.state.value)
    gm_log(service, "edit", f"#{a.id} 改为：\n{text}")
    again = "（改过的内容要重新批准）" if current.state.value == "approved" else ""
    private = a.destination_kind.value != "thread"
    print(f"#{a.id} 已修改（{state}）{again}；{publish_hint(service.config.daemon.mode, a.id, private)}")
    return 0


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
