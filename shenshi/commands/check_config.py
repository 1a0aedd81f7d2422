"""``shenshi check-config``: read the configuration, connect, log in, find the threads and the
inbox, and say plainly what is wrong.

Offline: the password source, the players and their roles (ids or Chinese names, e.g. 占卜者)
against the role mix the ruleset deals. With the forum: the address and the engine, the login,
the board, the vote thread, the player-list and role threads, the inbox, the players' uids.
Each problem names the option to fix (``[forum] base_url: connection refused``).
"""

from __future__ import annotations

import argparse

from shenshi.commands import add_config_option

NAME = "check-config"
HELP = "check the configuration against the forum (login, board, threads, inbox, players)"
ORDER = 5


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help=HELP, description=__doc__)
    add_config_option(parser)
    parser.add_argument(
        "--offline", action="store_true", help="check the file only; do not connect"
    )
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from shenshi.bootstrap import make_forum
    from shenshi.commands._common import config_of
    from shenshi.daemon.checks import check_forum, check_offline
    from shenshi.daemon.game_checks import check_composition, check_login, check_threads

    config = config_of(args)
    results = list(check_offline(config)) + list(check_composition(config))
    if not args.offline and all(r.ok for r in results):
        forum = make_forum(config)
        login = check_login(config, forum)
        if login.ok:
            results += list(check_forum(config, forum)) + list(check_threads(config, forum))
        else:
            results.append(login)
    for r in results:
        print(f"{'ok  ' if r.ok else 'FAIL'} {r.what}: {r.detail}")
    failed = [r for r in results if not r.ok]
    print("all good" if not failed else f"{len(failed)} problem(s)")
    return 1 if failed else 0
