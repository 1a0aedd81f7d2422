"""``shenshi console``: the GM console, a local web page beside the daemon.

It shows the game as ``shenshi status`` does (phase, deadlines, the vote with its ballots,
who has not acted), the review queue with each announcement's text and evidence, the alerts,
the players with their activity, the timeline, and takes every decision the CLI takes
(approve, edit, reject, published, ack, substitute, override): the same operations, written to
the dry-run log as given in the console. It reads the store ``shenshi run`` writes, while the
daemon runs; it never reads the forum itself.

It listens on 127.0.0.1 (``--host`` to change it: anyone who can reach the port and has the
token can act as the GM). The token is kept in ``shenshi-console-token`` beside the database
(mode 0600); on a terminal the address with the token is shown once; a browser keeps a cookie
after its first visit. Several ``--config`` (or ``--games DIR``) serve several games; the page
lists every game of the store.
"""

from __future__ import annotations

import argparse

NAME = "console"
HELP = "天神控制台：在本机网页上跟进游戏、做决定"
# What ``shenshi console --help`` says (the GM's words; the docstring is the code's).
DESCRIPTION = 'shenshi console：天神控制台，守护进程旁的本机网页。\n\n它显示 shenshi status 的全部内容（阶段、截止时间、投票和选票、谁还没行动）、待审的公告和私信（内容和依据）、提醒、玩家和活跃度、时间线，并能做命令行能做的每个决定（批准、修改、放弃、已发布、确认提醒、替补、更正）：同样的操作，在演练日志里记为控制台所做。它读 shenshi run 写的数据库，守护进程运行时也可以用；它自己从不读论坛。\n\n它只在 127.0.0.1 上监听（--host 可改：能连到这个端口又有令牌的人都能以天神身份操作）。令牌保存在数据库旁的 shenshi-console-token（权限 0600）；在终端上会显示一次带令牌的地址；浏览器第一次访问后用 cookie 记住。写几个 --config（或 --games 文件夹）就管几局。'
ORDER = 22


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``shenshi console [--config PATH]… [--games DIR [--game NAME]] [--host H] [--port P]``."""
    from shenshi.commands import add_config_option

    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION)
    add_config_option(parser)
    add_address_options(parser)
    parser.set_defaults(func=run)
    return parser


def add_address_options(parser: argparse.ArgumentParser, prefix: str = "") -> None:
    """``--host`` and ``--port`` of the console (``prefix``: ``console-`` for ``shenshi run``)."""
    from shenshi.console.server import DEFAULT_HOST, DEFAULT_PORT

    parser.add_argument(f"--{prefix}host", default=DEFAULT_HOST, metavar="地址",
                        help=f"控制台的地址（默认 {DEFAULT_HOST}：只有本机能打开）")  # fmt: skip
    parser.add_argument(f"--{prefix}port", type=int, default=DEFAULT_PORT, metavar="端口",
                        help=f"控制台的端口（默认 {DEFAULT_PORT}；0：任选一个空闲端口）")  # fmt: skip


def run(args: argparse.Namespace) -> int:
    """Open the games (every one configured, or ``--game NAME``), serve the console until Ctrl-C."""
    from shenshi.commands._common import configs_of, open_game
    from shenshi.games import pick_game

    configs = configs_of(args)
    if args.game is not None:
        configs = [pick_game(configs, args.game)]
    services = []
    try:
        for config in configs:
            services.append(open_game(config, args))
        console, sock = _prepare(services, args.host, args.port)
        announce(console)
        from shenshi.console.server import serve

        serve(console, sock)
    finally:
        for service in services:
            service.close()
    print("shenshi：控制台已停止")
    return 0


def _prepare(services, host: str, port: int):  # type: ignore[no-untyped-def]
    from shenshi.console.server import prepare
    from shenshi.errors import UserError

    try:
        return prepare(services, host, port)
    except OSError as exc:
        raise UserError(listen_refused(host, port, exc, "--host", "--port")) from None


def listen_refused(host: str, port: int, exc: OSError, host_option: str, port_option: str) -> str:
    """Why the console cannot listen, and the option that changes it (a port already taken:
    ``--port``; an address this machine does not have: ``--host``)."""
    import errno
    import socket

    if exc.errno == errno.EADDRINUSE:
        return (f"控制台的端口 {port} 已被占用（{host}:{port}，也许另一个 shenshi console 在运行）："
                f"用 {port_option} 换一个端口，如 {port_option} {port + 1}（{port_option} 0：任意空闲端口）")  # fmt: skip
    if exc.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT) or isinstance(exc, socket.gaierror):
        return f"控制台不能监听 {host}:{port}：本机没有这个地址（{exc.strerror or exc}）；用 {host_option} 改地址"
    return f"控制台不能监听 {host}:{port}：{exc.strerror or exc}（{host_option}、{port_option} 可改地址和端口）"


def announce(console) -> None:  # type: ignore[no-untyped-def]
    """Say where the console is: with the token on an interactive terminal (shown once per
    start, never to a log), else where the token is kept."""
    import sys

    from shenshi.console.server import is_loopback

    print(f"shenshi: 控制台 {console.url}/（Ctrl-C 停止）")
    if sys.stdout.isatty():
        print(f"在浏览器中打开：{console.url}/?token={console.key.token}")
        print("（这个地址只显示这一次；之后浏览器会记住登录）")
    else:
        print(f"令牌在 {console.key_file}（只有你能读）：用 {console.url}/?token=<令牌> 打开")
    if not is_loopback(console.address.split("//")[1].rsplit(":", 1)[0].strip("[]")):
        print("注意：控制台监听的不是本机地址，能连上这个端口并有令牌的人都能以天神身份操作")


def start_beside_daemon(args: argparse.Namespace, fleet) -> object:  # type: ignore[no-untyped-def]
    """``shenshi run --console``: the console of the daemon's games on a thread, each on its own
    offline service over that game's store and clock; ``None`` without ``--console``."""
    from shenshi.bootstrap import bootstrap
    from shenshi.console.server import serve_in_background

    if not getattr(args, "console", False):
        return None
    services = [bootstrap(d.config, store=d.store, clock=d.clock, forum=False) for d in fleet.services]
    for service in services:
        service.start()
    try:
        # the daemon beside it keeps the mode it started with (the file's may have changed since)
        console = serve_in_background(services, args.console_host, args.console_port, follow_mode=False)
    except OSError as exc:
        from shenshi.errors import UserError

        raise UserError(listen_refused(args.console_host, args.console_port, exc,
                                       "--console-host", "--console-port")) from None  # fmt: skip
    announce(console)
    return console
