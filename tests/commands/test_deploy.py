"""The service files in deploy/ (docs/service.md): the unit runs a command shenshi accepts, reads
the password from the environment file the example shows, and the health check is the status
command's JSON form."""

from __future__ import annotations

import configparser
import shlex
from pathlib import Path

from shenshi.cli import build_parser

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(DEPLOY / name, encoding="utf-8")
    return parser


def command(name: str) -> list[str]:
    argv = shlex.split(unit(name)["Service"]["ExecStart"])
    assert argv[0].endswith("/bin/shenshi")
    return argv[1:]


def test_the_service_runs_every_game_of_a_folder_and_stops_on_sigterm() -> None:
    args = build_parser().parse_args(command("shenshi.service"))
    assert args.command == "run" and args.games == Path("/etc/shenshi/games") and not args.once
    service = unit("shenshi.service")["Service"]
    assert service["KillSignal"] == "SIGTERM" and service["UMask"] == "0077"
    assert service["EnvironmentFile"] == "/etc/shenshi/shenshi.env"


def test_the_environment_file_holds_the_password_only() -> None:
    lines = [line for line in (DEPLOY / "shenshi.env.example").read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]  # fmt: skip
    assert [line.split("=", 1)[0] for line in lines] == ["SHENSHI_FORUM_PASSWORD"]
    assert "password_env" in (DEPLOY.parent / "docs" / "service.md").read_text(encoding="utf-8")


def test_the_health_check_is_the_status_commands_json_for_every_game() -> None:
    args = build_parser().parse_args(command("shenshi-health.service"))
    assert args.command == "status" and args.json and args.game is None and args.games
    assert "deploy/" in (DEPLOY.parent / "README.md").read_text(encoding="utf-8")
