"""``shenshi simulate FILE.json``: replay a rules scenario and print its results as JSON."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from shenshi.commands import add_config_option
from shenshi.errors import UserError

NAME = "simulate"
HELP = "用规则核心跑一个场景文件（scenarios/FORMAT.md）"
ORDER = 80
DESCRIPTION = "shenshi simulate 场景.json：用规则核心重放一个规则场景文件，把结果以 JSON 打印出来。"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION)
    parser.add_argument("file", type=Path, metavar="FILE.json", help="场景文件（格式见 scenarios/FORMAT.md）")
    add_config_option(parser)
    parser.set_defaults(func=run)
    return parser


def load_scenario(path: Path) -> dict:
    """Read a scenario file; a missing or malformed file is a :class:`UserError`."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None


def simulate(document: dict) -> dict:
    """The printed object of ``shenshi simulate`` for a parsed scenario."""
    from shenshi.rulesets.scenario import ScenarioError, run_scenario

    try:
        return run_scenario(document)
    except ScenarioError as exc:
        raise UserError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    result = simulate(load_scenario(args.file))
    print(json.dumps(result, ensure_ascii=False, indent=1))
    return 0
