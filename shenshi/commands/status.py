"""``shenshi status``: phase, deadline, players, votes so far, pending actions, alerts, activity."""

from __future__ import annotations

import argparse

from shenshi.commands import add_config_option

NAME = "status"
HELP = "show the game: phase, deadline, votes, pending actions, alerts, activity"
ORDER = 20


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help=HELP, description=__doc__)
    add_config_option(parser)
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from shenshi.commands._common import fmt_time, open_service

    service = open_service(args)
    tz = service.config.forum.tz
    s = service.status()
    console = Console()
    step = f"{s.phase} {s.number}" + (f", round {s.round}" if s.round else "")
    console.print(f"[bold]{s.game}[/bold] ({s.ruleset}, {s.mode}): {step}; next deadline {fmt_time(s.deadline, tz)}")
    if s.winner:
        console.print(f"[bold]winner: {s.winner}[/bold]")
    console.print(f"living ({len(s.living)}): {'、'.join(s.living)}")
    if s.dead:
        console.print(f"dead ({len(s.dead)}): {'、'.join(s.dead)}")
    if s.ballots:
        console.print("ballots: " + "，".join(f"{v}→{t}" for v, t in s.ballots))
    if s.pending:
        console.print("pending actions (secret): " + "，".join(f"{a} {act} {t or ''}" for a, act, t in s.pending))
    console.print(f"proposed announcements waiting: {s.proposed} (shenshi review)")
    for alert in s.alerts:
        console.print(f"[red]alert[/red] {alert}")
    table = Table(title="activity (posts in the last 24 h)")
    table.add_column("player")
    table.add_column("posts", justify="right")
    table.add_column("last post")
    for name, posts, last in s.activity:
        table.add_row(name, str(posts), fmt_time(last, tz))
    console.print(table)
    return 0
