"""``shenshi sandbox``: serve a loopback Discuz! or phpwind forum for rehearsals (沙盒论坛)."""

from __future__ import annotations

import argparse
from datetime import timedelta

from shenshi.commands import add_config_option
from shenshi.errors import UserError

NAME = "sandbox"
HELP = "serve a loopback Discuz!/phpwind forum for rehearsals and the demo"
ORDER = 80


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``shenshi sandbox`` to the CLI."""
    parser = subparsers.add_parser(NAME, help=HELP, description=__doc__)
    add_config_option(parser)
    parser.add_argument("--engine", choices=("discuz", "phpwind"), default="discuz",
                        help="which forum engine's wire format to speak (default: discuz)")
    parser.add_argument("--port", type=int, default=0,
                        help="port on 127.0.0.1 (default: an ephemeral port)")
    parser.add_argument("--seed", choices=("none", "demo"), default="demo",
                        help="'demo' creates the GM, ten players and the board 杀人游戏 (default)")
    parser.add_argument("--charset", choices=("utf-8", "gbk"), default="utf-8",
                        help="page charset; gbk only for phpwind (default: utf-8)")
    parser.add_argument("--db", default=None, metavar="PATH",
                        help="keep the forum's state in this SQLite file (default: memory)")
    parser.add_argument("--clock-factor", type=float, default=1.0, metavar="X",
                        help="run the forum clock X times faster than real time (default: 1)")
    parser.add_argument("--session-ttl", type=float, default=None, metavar="MINUTES",
                        help="end logins after this many forum minutes (default: cookie lifetime)")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Start the sandbox, print its URL and accounts, serve until interrupted."""
    from shenshi.adapters.sandbox import AcceleratedClock, SandboxForum, SandboxServer, seed_demo
    from shenshi.clock import system_clock

    if args.charset == "gbk" and args.engine != "phpwind":
        raise UserError("--charset gbk is only for --engine phpwind (Discuz X3.5 captures are UTF-8)")
    if args.clock_factor <= 0:
        raise UserError(f"--clock-factor must be positive, got {args.clock_factor}")
    clock = system_clock if args.clock_factor == 1 else AcceleratedClock(system_clock(), args.clock_factor)
    ttl = timedelta(minutes=args.session_ttl) if args.session_ttl else None
    forum = SandboxForum(args.engine, clock=clock, charset=args.charset, db_path=args.db,
                         session_ttl=ttl)
    accounts = seed_demo(forum) if args.seed == "demo" and not forum.users else []
    try:
        server = SandboxServer(forum, port=args.port)
    except OSError as exc:
        raise UserError(f"cannot listen on 127.0.0.1:{args.port}: {exc.strerror}") from exc
    print(f"sandbox {args.engine} forum at {server.base_url}", flush=True)
    for name, password, uid in accounts:
        print(f"  uid {uid:<3} {name}  password {password}")
    if accounts:
        print("  board 杀人游戏 fid 3")
    print("Ctrl-C stops it.", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0
