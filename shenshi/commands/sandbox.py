"""``shenshi sandbox``: serve a loopback Discuz! or phpwind forum for rehearsals (沙盒论坛).

Rehearse a whole game in minutes (演练)::

    shenshi sandbox --rehearsal rehearsal/ --clock-factor 120      # terminal 1: the forum
    cd rehearsal && export SHENSHI_DEMO_PASSWORD=GmPass_2024       # terminal 2: you, the GM
    shenshi check-config && shenshi deal && shenshi run             # dry-run: nothing is sent
    shenshi status; shenshi review; shenshi published ID            # terminal 3, as you go

``--rehearsal DIR`` opens the game's threads (player list and vote thread, discussion, chat;
werewolf: one 功能树洞 per role) and writes ``DIR/shenshi.toml`` (dry-run mode, roles left to
``shenshi deal``). ``--clock-factor X`` runs the forum's clock X times faster and keeps it in a
clock file (``DIR/rehearsal-clock.json``, or ``--clock-file``) that the written configuration
names (``[daemon] clock_file``), so ``shenshi run``, ``status``, ``published``… use the same time.

Logging in as a player: open the printed URL in a browser and use the login link at the top
(Discuz!: URL/member.php?mod=logging&action=login; phpwind: URL/login.php). The accounts:
神的使者 (the GM) password GmPass_2024; the players 小明 阿杰 Tom_2 白色的猫 老王 Lily99 夜行者
kk_大侠 月光 Rex with the passwords Player_pw1 … Player_pw10 in that order (phpwind keeps names
in lower case: tom_2, lily99, rex); a spectator 路人甲 with Stranger_pw0 (--rehearsal); admin
Admin_pw0. Players post in the game threads and send night actions as PMs to 神的使者 (werewolf:
replies in their 功能树洞), as on a real forum. Use a private browser window per player, since
a browser keeps one login per site.
"""

from __future__ import annotations

import argparse
import os
from datetime import datetime, time, timedelta
from pathlib import Path

from shenshi.commands import add_config_option
from shenshi.errors import UserError

NAME = "sandbox"
HELP = "在本机开一个 Discuz!/phpwind 沙盒论坛用于演练（账号、登录见 --help）"
ORDER = 80
DESCRIPTION = """shenshi sandbox：在本机（127.0.0.1）开一个 Discuz! 或 phpwind 沙盒论坛，用来演练。

几分钟演练一整局：

    shenshi sandbox --rehearsal rehearsal/ --clock-factor 120      # 终端 1：论坛
    cd rehearsal && export SHENSHI_DEMO_PASSWORD=GmPass_2024       # 终端 2：你，天神
    shenshi check-config && shenshi deal && shenshi run             # 演练模式：什么都不发送
    shenshi status; shenshi review; shenshi published ID            # 终端 3，边玩边用

--rehearsal 目录 开好这一局的帖子（游戏者名单和投票帖、讨论帖、聊天帖；狼人杀：每个身份一个功能树洞），
并写出 目录/shenshi.toml（演练模式，身份留给 shenshi deal 发）。--clock-factor X 让论坛时钟快 X 倍，
时间记在一个时钟文件里（目录/rehearsal-clock.json，或 --clock-file），写出的配置会指向它
（[daemon] clock_file），所以 shenshi run、status、published… 用的是同一个时间。

以玩家身份登录：在浏览器里打开打印出的地址，用页面顶部的登录链接（Discuz!：地址/member.php?mod=logging&action=login；
phpwind：地址/login.php）。账号：神的使者（天神）密码 GmPass_2024；玩家 小明 阿杰 Tom_2 白色的猫 老王 Lily99 夜行者
kk_大侠 月光 Rex，密码依次为 Player_pw1 … Player_pw10（phpwind 的名字是小写：tom_2、lily99、rex）；
旁观者 路人甲，密码 Stranger_pw0（--rehearsal 时）；管理员 Admin_pw0。玩家在游戏帖里发帖，夜间行动用私信发给
神的使者（狼人杀：在自己的功能树洞里回帖），和真论坛一样。每个玩家用一个单独的无痕窗口：浏览器对一个网站只保持一个登录。
"""


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``shenshi sandbox`` to the CLI."""
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    add_config_option(parser)
    parser.add_argument(
        "--engine",
        choices=("discuz", "phpwind"),
        default="discuz",
        help="模仿哪种论坛引擎的页面和接口（默认：discuz）",
    )
    parser.add_argument(
        "--port", type=int, default=0, help="在 127.0.0.1 上用的端口（默认：系统随便给一个空闲端口）"
    )
    parser.add_argument(
        "--seed",
        choices=("none", "demo"),
        default="demo",
        help="demo：建好天神、十名玩家和版块「杀人游戏」（默认）；none：空论坛",
    )
    parser.add_argument(
        "--charset",
        choices=("utf-8", "gbk"),
        default="utf-8",
        help="页面编码；gbk 只用于 phpwind（默认：utf-8）",
    )
    parser.add_argument(
        "--db",
        default=None,
        metavar="PATH",
        help="把论坛的数据存在这个 SQLite 文件里（默认：只在内存里）",
    )
    parser.add_argument(
        "--clock-factor",
        type=float,
        default=1.0,
        metavar="X",
        help="论坛时钟比真实时间快 X 倍（默认：1）",
    )
    parser.add_argument(
        "--clock-file",
        type=Path,
        default=None,
        metavar="PATH",
        help="通过这个文件共用时钟（用 --clock-factor 时默认 rehearsal-clock.json，"
        "给了 --rehearsal 就放在那个目录里）",
    )
    parser.add_argument(
        "--rehearsal",
        type=Path,
        default=None,
        metavar="DIR",
        help="开好一局的帖子，并为演练写出 目录/shenshi.toml",
    )
    parser.add_argument(
        "--ruleset", default="game6-10", help="演练用的规则（默认：game6-10）"
    )
    parser.add_argument(
        "--session-ttl",
        type=float,
        default=None,
        metavar="MINUTES",
        help="登录在论坛时间过了这么多分钟后失效（默认：按 cookie 的有效期）",
    )
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Start the sandbox, print its URL and accounts, serve until interrupted."""
    from shenshi.adapters.sandbox import SandboxForum, SandboxServer, seed_demo
    from shenshi.clock import system_clock
    from shenshi.rehearsal import DEFAULT_FILE, RehearsalClock

    if args.charset == "gbk" and args.engine != "phpwind":
        raise UserError(
            "--charset gbk is only for --engine phpwind (Discuz X3.5 captures are UTF-8)"
        )
    if args.clock_factor <= 0:
        raise UserError(f"--clock-factor must be positive, got {args.clock_factor}")
    clock_file = args.clock_file
    if clock_file is None and (args.clock_factor != 1 or args.rehearsal is not None):
        clock_file = (args.rehearsal or Path()) / DEFAULT_FILE
    clock = system_clock
    if clock_file is not None:
        clock_file.parent.mkdir(parents=True, exist_ok=True)
        # a rehearsal opens its game as GMs do, in the evening: whatever the hour here, the
        # first night (werewolf night 0, until 06:00) is a whole night (gmattack W1)
        clock = RehearsalClock.start(clock_file, args.clock_factor, at=_evening() if args.rehearsal else None)
    ttl = timedelta(minutes=args.session_ttl) if args.session_ttl else None
    if args.rehearsal is not None:
        world, accounts = _rehearsal_world(args, clock)
        forum = world.forum
    else:
        forum = SandboxForum(
            args.engine, clock=clock, charset=args.charset, db_path=args.db, session_ttl=ttl
        )
        accounts = seed_demo(forum) if args.seed == "demo" and not forum.users else []
    try:
        server = SandboxServer(forum, port=args.port)
    except OSError as exc:
        raise UserError(f"无法在 127.0.0.1:{args.port} 上监听（{exc.strerror}）：端口被占用的话，用 --port 换一个") from exc
    print(f"sandbox {args.engine} forum at {server.base_url}", flush=True)
    for name, password, uid in accounts:
        print(f"  uid {uid:<3} {name}  password {password}")
    if accounts:
        print("  board 杀人游戏 fid 3; log in with the link at the top of any page")
    if clock_file is not None:
        print(f"  {clock.describe()}; clock file {clock_file}", flush=True)  # type: ignore[attr-defined]
    if args.rehearsal is not None:
        _write_rehearsal_config(args, world, server.base_url, clock_file)
    print("Ctrl-C stops it.", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


def _evening() -> datetime:
    """Today's 20:00 on the sandbox forum's clock (UTC+8, as both captured forums show)."""
    from shenshi.adapters.sandbox.state import FORUM_TZ

    return datetime.combine(datetime.now(FORUM_TZ).date(), time(20, 0), tzinfo=FORUM_TZ)


def _rehearsal_world(args: argparse.Namespace, clock):  # type: ignore[no-untyped-def]
    """The demo cast and a game's threads for ``--ruleset``, on ``clock``."""
    from shenshi.demo.script import load_script
    from shenshi.demo.world import build_world, cast_for
    from shenshi.rulesets.registry import find_ruleset

    try:
        ruleset = find_ruleset(args.ruleset).name
        script = cast_for(load_script(ruleset), args.engine)
    except (KeyError, FileNotFoundError):
        raise UserError(f"规则 {args.ruleset} 没有演练用的座位表") from None
    world = build_world(script, args.engine, clock, clock(), charset=args.charset)
    forum = world.forum
    accounts = [
        (u.name, u.password, u.uid) for u in sorted(forum.users.values(), key=lambda u: u.uid)
    ]
    return world, accounts


def _write_rehearsal_config(
    args: argparse.Namespace, world, base_url: str, clock_file: Path | None
) -> None:  # type: ignore[no-untyped-def]
    """``DIR/shenshi.toml`` for the rehearsal (dry-run, roles to deal), mode 0600."""
    from shenshi.demo import tomlfile
    from shenshi.demo.world import PASSWORD_ENV, game_config

    folder: Path = args.rehearsal.resolve()
    folder.mkdir(parents=True, exist_ok=True)
    raw = game_config(world, base_url, folder, mode="dry-run", roles=False,
                      daemon={"poll_interval": 600, "fast_poll_interval": 120, "fast_poll_window": 3600})  # fmt: skip
    # the game's name reaches the players (《…》 in every role PM): in their words (newcomer2 F14)
    from shenshi.rulesets.registry import find_ruleset

    raw["game"]["name"] = f"演练·{find_ruleset(world.script.ruleset).info.chinese}"
    if clock_file is not None:
        raw["daemon"]["clock_file"] = str(clock_file.resolve())
    path = folder / "shenshi.toml"
    path.write_text(tomlfile.dumps(raw), encoding="utf-8")
    os.chmod(path, 0o600)
    gm = world.forum.user(world.gm)
    print(f"  rehearsal: {path} (dry-run; vote thread {world.vote_thread}, discussion "
          f"{world.discussion}, chat {world.chat})")  # fmt: skip
    print(
        f"  next, in another terminal: cd {folder} && export {PASSWORD_ENV}={gm.password} && "
        "shenshi check-config && shenshi deal && shenshi run",
        flush=True,
    )
