"""``shenshi inspect``: parse a saved forum page or API answer, without a network.

For operators debugging a forum and for tests::

    shenshi inspect thread --engine discuz viewthread_p3.html --now "2026-11-29 18:42"
    shenshi inspect inbox --engine phpwind pm_inbox.html
    shenshi inspect conversation --engine discuz api_mypm_view.json

Times the page shows only relatively ("3 天前") are resolved against ``--now`` (default: the
file's modification time), in the forum's zone ``--tz`` (default Asia/Shanghai).
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path

from shenshi.adapters import errors
from shenshi.adapters.inspecting import KINDS, dumps, inspect_bytes
from shenshi.adapters.text import DEFAULT_TZ, zone
from shenshi.commands import add_config_option
from shenshi.errors import UserError

NAME = "inspect"
HELP = "解析保存下来的论坛页面或接口回答，打印读到的内容（排查论坛问题用）"
ORDER = 80
DESCRIPTION = """shenshi inspect：不联网，解析保存下来的论坛页面或接口回答（排查论坛问题和测试用），例如：

    shenshi inspect thread --engine discuz viewthread_p3.html --now "2026-11-29 18:42"
    shenshi inspect inbox --engine phpwind pm_inbox.html
    shenshi inspect conversation --engine discuz api_mypm_view.json

页面上只有相对时间（"3 天前"）的，按 --now 换算（默认：文件的修改时间），用论坛时区 --tz（默认 Asia/Shanghai）。
"""


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``inspect KIND --engine E FILE [--now TIME] [--tz ZONE]``."""
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=KINDS, help="文件里是什么（帖子页、收件箱、对话、版块）")
    parser.add_argument("file", type=Path, help="保存下来的 HTML 页面、ajax 的 XML 回答或 Discuz 接口的 JSON")
    parser.add_argument("--engine", required=True, choices=("discuz", "phpwind"), help="论坛引擎")
    parser.add_argument("--now", default=None, metavar="TIME", help="相对时间按这个时间换算（ISO 8601 格式；默认：文件的修改时间）")
    parser.add_argument("--tz", default=DEFAULT_TZ, metavar="ZONE", help=f"论坛时区（默认 {DEFAULT_TZ}）")
    parser.add_argument("--charset", default=None, help="页面没有声明编码时用的编码")
    add_config_option(parser)
    parser.set_defaults(func=run)
    return parser


def parse_now(value: str | None, path: Path, tz) -> datetime:  # type: ignore[no-untyped-def]
    """``--now`` as an aware datetime (naive values are in the forum's zone)."""
    if value is None:
        return datetime.fromtimestamp(path.stat().st_mtime, tz)
    try:
        moment = datetime.fromisoformat(value.strip().replace("/", "-"))
    except ValueError as exc:
        raise UserError(f"--now: {value!r} is not a time (use e.g. 2026-11-29T18:42:00+08:00)") from exc
    return moment if moment.tzinfo else moment.replace(tzinfo=tz)


def run(args: argparse.Namespace) -> int:
    """Print the parse of ``args.file`` as JSON; one line and exit 2 when it cannot be parsed."""
    try:
        tz = zone(args.tz)
    except (KeyError, ValueError) as exc:
        raise UserError(f"--tz: unknown time zone {args.tz!r}") from exc
    try:
        data = args.file.read_bytes()
    except OSError as exc:
        raise UserError(f"cannot read {args.file}: {exc.strerror or exc}") from exc
    now = parse_now(args.now, args.file, tz)
    try:
        found = inspect_bytes(args.kind, args.engine, data, tz=tz, now=now, charset=args.charset)
    except (errors.ForumError, ValueError) as exc:
        reason = " ".join(str(exc).split())
        raise UserError(f"cannot parse {args.file} as a {args.engine} {args.kind}: {type(exc).__name__}: {reason}") from exc
    sys.stdout.write(dumps(found) + "\n")
    return 0
