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


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``intake`` sub-command."""
    parser = subparsers.add_parser(NAME, help=HELP, description=__doc__)
    parser.add_argument(
        "--batch", metavar="CASES.jsonl", required=True,
        help="JSON-lines file of cases ('-' for standard input)",
    )  # fmt: skip
    parser.add_argument(
        "--receipts", action="store_true", help="add the proposed receipts to each output line"
    )
    parser.add_argument(
        "--output", "-o", type=Path, default=None, help="write here instead of standard output"
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
