"""``shenshi demo``: a whole game on a loopback sandbox forum, played by scripted players.

The sandbox (Discuz! or phpwind) runs in this process on 127.0.0.1; the roles are dealt with
the seed; the players play the ruleset's script (with the mistakes people make) on an
accelerated clock; the daemon runs in review mode and every proposal is approved at once, as
a GM would with ``shenshi approve``. At the end it prints each step, the deaths, executions,
the winner, how many announcements went out and how many alerts were raised, and where the
database and the dry-run log are (``--output``, default ``./demo-output/RULESET-ENGINE``).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
from datetime import datetime
from pathlib import Path

from shenshi.commands import add_config_option
from shenshi.errors import UserError

FROZEN = 1e-9  # the demo's clock after the game: stopped at its end

NAME = "demo"
HELP = "在本机沙盒论坛上演示一整局脚本化的游戏，并打印经过"
ORDER = 90
DESCRIPTION = (
    "shenshi demo：在本机的沙盒论坛（Discuz! 或 phpwind，只在 127.0.0.1 上）演示一整局：按种子发身份，"
    "脚本化的玩家照规则的剧本玩（也会犯常见的错误），时钟加速；守护进程在审核模式下运行，每条提议都立即批准"
    "（就像天神一条条批准）。结束时打印每一步、出局、处决、胜方、发出多少公告、提醒多少条，以及数据库和演练日志"
    "所在的位置（--output，默认 ./demo-output/规则-引擎）。"
)

OUTPUT = Path("demo-output")
LEFTOVERS = (
    "shenshi.sqlite3",
    "shenshi-dryrun.log",
    "shenshi-dryrun.jsonl",
    "shenshi.toml",
    "clock.txt",
    "rehearsal-clock.json",
)


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``shenshi demo`` to the CLI."""
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION)
    add_config_option(parser)
    parser.add_argument(
        "--ruleset", default="game6-10", help="演示哪种规则的一局（默认：game6-10）"
    )
    parser.add_argument(
        "--engine",
        choices=("discuz", "phpwind"),
        default="discuz",
        help="论坛引擎（默认：discuz）",
    )
    parser.add_argument(
        "--seed", type=int, default=1, help="发身份和玩家行为用的随机种子（默认：1）"
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=None,
        metavar="DIR",
        help="文件写到哪里（默认：./demo-output/规则-引擎）",
    )
    parser.add_argument(
        "--speed", type=float, default=3600.0, metavar="X",
        help="论坛时间每过一秒真实时间走多少秒（另外会直接跳到下一件事；默认：3600）",
    )  # fmt: skip
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Play the game and print its summary; exit 1 if it differs from the script's outcome."""
    from shenshi.demo.game import play
    from shenshi.demo.record import expected_outcome, summary
    from shenshi.demo.script import available
    from shenshi.rulesets.registry import RULESETS, find_ruleset

    logging.basicConfig(level=logging.ERROR, format="%(levelname)s %(name)s: %(message)s")
    registered = {r.name for r in RULESETS}
    playable = [name for name in available() if name in registered]
    with contextlib.suppress(KeyError):  # an alias (g6-10, ww…) plays the same demo
        args.ruleset = find_ruleset(args.ruleset).name
    if args.ruleset not in playable:
        raise UserError(f"规则 {args.ruleset} 没有演示（可以用：{'、'.join(playable)}）")
    if args.speed <= 0:
        raise UserError(f"--speed must be positive, got {args.speed}")
    output = args.output or OUTPUT / f"{args.ruleset}-{args.engine}"
    _clear(output)
    print(
        f"shenshi demo: {args.ruleset} on a {args.engine} sandbox, seed {args.seed}; files in {output}/"
    )
    print(f"  roles dealt with seed demo-{args.seed}; the daemon runs in review mode and the demo")
    print("  approves every proposal at once, as a GM would with `shenshi approve`")
    shown: set[str] = set()

    def progress(director) -> None:
        for post in director.players.world.forum.visible_posts(director.players.world.vote_thread):
            if (
                post.author_uid != director.players.world.gm_uid
                or post.first
                or str(post.pid) in shown
            ):
                continue
            shown.add(str(post.pid))
            title = post.text.strip().splitlines()[0]
            print(f"  {post.posted_at:%m-%d %H:%M} (forum time)  the GM posts {title}", flush=True)

    game = play(args.ruleset, args.engine, seed=args.seed, workdir=output, clock="accelerated",
                factor=args.speed, hooks=[progress])  # fmt: skip
    print()
    print(summary(game.forum_record, game.tally, log=game.log_path, database=game.database,
                  seconds=game.seconds, mistakes=game.players.made))  # fmt: skip
    expected = expected_outcome(game.script)
    # chess32 and werewolf publish the camp of the dead, not the cause of death
    causes = find_ruleset(args.ruleset).profile(game.script.rules).clock.death_causes_public
    published = expected_outcome(game.script, published=True).comparable(causes)
    same = game.forum_record.comparable(causes) == published
    stored = game.stored_record.comparable() == expected.comparable()
    _keep_the_games_clock(game.config_path, game.world.forum.clock())
    print(f"  inspect:     shenshi status --config {game.config_path}")
    if same and stored and game.direction.finished:
        print("  the outcome is the one the script's intended actions give ✓")
        return 0
    print("  !! the outcome differs from the script's expected outcome")
    return 1


def _keep_the_games_clock(config: Path, end: datetime) -> None:
    """``shenshi status`` on the finished demo reads the game's clock stopped at its end (a
    rehearsal clock file the configuration names), not today's date."""
    from shenshi.rehearsal import RehearsalClock

    text = config.read_text(encoding="utf-8")
    if "clock_file" in text or "[daemon]\n" not in text:
        return
    path = config.parent / "rehearsal-clock.json"
    RehearsalClock.start(path, FROZEN, at=end)
    config.write_text(text.replace("[daemon]\n", f'[daemon]\nclock_file = "{path}"\n', 1), encoding="utf-8")


def _clear(output: Path) -> None:
    """Remove the files of an earlier demo in ``output`` (a new game needs a new database)."""
    output.mkdir(parents=True, exist_ok=True)
    for name in (*LEFTOVERS, "daemon.stderr"):
        path = output / name
        if path.exists():
            path.unlink()
