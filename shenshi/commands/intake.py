"""``shenshi intake --batch CASES.jsonl``: run intake on JSON-lines cases (see docs/intake.md).

Writes one JSON line per case to standard output. A malformed line gives an error record
``{"id", "error": "line N: …"}`` in its place and the same line on standard error; the other
cases still run, and the exit status is 1 if any line was malformed (0 otherwise).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from shenshi.commands import add_config_option
from shenshi.errors import UserError

NAME = "intake"
HELP = "像守护进程那样读帖子和私信（批量：输入、输出都是 JSON 行）"
ORDER = 40
DESCRIPTION = (
    "shenshi intake --batch 用例.jsonl：对 JSON 行格式的用例逐条运行读取（见 docs/intake.md），每条用例在标准输出"
    "写一行 JSON。格式不对的一行在它的位置写一条错误记录 {\"id\", \"error\": \"line N: …\"}，标准错误里也写同一行；"
    "其余用例照常运行。有格式不对的行时退出码为 1，否则为 0。"
)


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``intake`` sub-command."""
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION)
    parser.add_argument(
        "--batch", metavar="CASES.jsonl", required=True,
        help="JSON 行格式的用例文件（写 - 表示从标准输入读）",
    )  # fmt: skip
    parser.add_argument(
        "--receipts", action="store_true", help="每行输出里附上会提出的回执"
    )
    parser.add_argument(
        "--output", "-o", type=Path, default=None, help="写到这个文件，而不是标准输出"
    )
    add_config_option(parser)
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Run every case of ``args.batch``; return 1 if any line was malformed."""
    from shenshi.intake.batch import run_lines

    if args.batch == "-":
        lines = sys.stdin
    else:
        path = Path(args.batch)
        if not path.is_file():
            raise UserError(f"no such cases file: {path}")
        try:
            # JSON lines end at \n only (a U+2028 inside a text is not a line break)
            lines = path.read_text(encoding="utf-8").split("\n")
        except UnicodeDecodeError as exc:
            raise UserError(
                f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start})"
            ) from None
    sink = args.output.open("w", encoding="utf-8") if args.output else sys.stdout
    failed = 0
    try:
        for obj, error in run_lines(lines, with_receipts=args.receipts):
            line = json.dumps(obj, ensure_ascii=False)
            # a lone surrogate has no UTF-8 form: write it as its JSON escape (\ud800)
            sink.write(line.encode("utf-8", "backslashreplace").decode("utf-8") + "\n")
            if error:
                failed += 1
                print(f"shenshi intake: {error}", file=sys.stderr)
    finally:
        if args.output:
            sink.close()
    return 1 if failed else 0
