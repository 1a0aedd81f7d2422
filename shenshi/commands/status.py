"""``shenshi status``: the game as the GM needs it, on the forum's clock.

The next deadline and what it is for; the vote as it stands (each candidate's voters and the
posts they voted in, who has not voted, how many votes decide); who has not acted at night;
the announcement waiting for you to publish; the living as the players know them; the alerts
you have not acknowledged (``shenshi ack ID…``); failed sends; activity; whether the daemon
is polling. ``--json`` prints the same model for scripts and exits 1 when the daemon has not
polled the forum successfully for three poll intervals (a health check); with several games
(``--games DIR``) and no ``--game`` it checks every game and exits 1 if any is stale.
"""

from __future__ import annotations

import argparse
import json
from datetime import datetime
from typing import TYPE_CHECKING

from shenshi.commands import add_config_option
from shenshi.commands._layout import listing, table, terminal_width, wrap

if TYPE_CHECKING:
    from shenshi.daemon.status import GameStatus, NightActions, VoteStanding

NAME = "status"
HELP = "查看游戏：下一个截止时间、票数、谁还没行动、待发布的内容、提醒"
# What ``shenshi status --help`` says (the GM's words; the docstring is the code's).
DESCRIPTION = 'shenshi status：天神需要看的游戏情况，按论坛时间。下一个截止时间和它截止的是什么；当前票数（每个候选人的投票人和投票所在的帖子、谁还没投、几票决定）；夜里谁还没行动；等你发布的公告；玩家们知道的存活名单；还没确认的提醒（shenshi ack 编号）；发送失败的内容；活跃度；守护进程是否在读论坛。--json 给脚本输出同样的内容，守护进程超过三个轮询间隔没读到论坛时退出码为 1（健康检查）；配置了几局（--games 文件夹）又没写 --game 时检查每一局。'
ORDER = 20


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add ``shenshi status [--json]``."""
    parser = subparsers.add_parser(NAME, help=HELP, description=DESCRIPTION)
    add_config_option(parser)
    parser.add_argument("--json", action="store_true",
                        help="以 JSON 输出；守护进程没在读论坛时退出码为 1")  # fmt: skip
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Print the status (text, or JSON with the health check's exit code). ``--json`` with
    several games and no ``--game`` checks them all: a JSON list, exit 1 if any is unhealthy."""
    from shenshi.commands._common import configs_of, open_game
    from shenshi.daemon.status import build_status, to_json
    from shenshi.games import pick_game

    configs = configs_of(args)
    every = args.json and args.game is None and len(configs) > 1
    statuses = []
    for config in configs if every else [pick_game(configs, args.game)]:
        service = open_game(config, args)
        try:
            statuses.append(build_status(service))
        finally:
            service.close()
    healthy = all(s.health.ok for s in statuses)
    if every:
        print(json.dumps([to_json(s) for s in statuses], ensure_ascii=False, indent=1))
        return 0 if healthy else 1
    if args.json:
        print(json.dumps(to_json(statuses[0]), ensure_ascii=False, indent=1))
        return 0 if healthy else 1
    print("\n".join(render(statuses[0], terminal_width())))
    return 0


def _t(at: datetime | None, now: datetime | None = None) -> str:
    """A forum time: ``12-02 20:15``; within the same day as ``now``: ``20:15``."""
    if at is None:
        return "—"
    if now is not None and at.date() == now.date():
        return at.strftime("%H:%M")
    return at.strftime("%m-%d %H:%M")


def render(s: GameStatus, width: int) -> list[str]:
    """The status as lines of at most ``width`` cells (names never split across lines)."""
    from shenshi.daemon import gm_text

    names = [*s.living, *s.dead]
    out: list[str] = []
    add = out.extend
    add(wrap(f"《{s.game}》 {s.ruleset_name} · {gm_text.MODE.get(s.mode, s.mode)}", width, names))
    add(wrap(f"现在 {s.now:%Y-%m-%d %H:%M}（{s.timezone}）  {s.step}", width, names))
    if s.winner:
        add(
            wrap(
                f"游戏结束：{s.winner_name} 获胜" if s.winner != "draw" else "游戏结束：和棋",
                width,
                names,
            )
        )
    if s.deadline is not None:
        d = s.deadline
        add(wrap(f"下一个截止：{d.label} {_t(d.at)}（还有 {gm_text.left(d.seconds_left)}）", width))
    for d in s.deadlines:
        if d is not s.deadline and d.seconds_left <= 0:
            add(wrap(f"已到期：{d.label} {_t(d.at)}（下次轮询时处理）", width))
        elif d is not s.deadline:
            add(wrap(f"  之后：{d.label} {_t(d.at)}（还有 {gm_text.left(d.seconds_left)}）", width))
    if s.next and not any(w.opens_next_step for w in s.waiting):
        due = s.deadlines and s.deadlines[0].seconds_left <= 0
        add(wrap(f"{'下次轮询时' if due else '到时'}：{s.next}", width, names, "  "))
    add(_waiting_lines(s, width, names))
    add(_to_send_lines(s, width))
    out.append("")
    add(listing(f"存活（{len(s.living)}，玩家所知）：", list(s.living_shown), width))
    if s.dead:
        add(listing(f"出局（{len(s.dead)}）：", list(s.dead), width))
    if s.unannounced_deaths:
        add(listing("已结算、尚未公布的出局（只有你知道）：", list(s.unannounced_deaths), width))
    if s.marks:
        add(listing("标记（玩家所知）：", [f"{s.characters.get(m.name, m.name)} {m.words}" for m in s.marks], width, "；"))
    for sub in (x for x in s.substitutes if x.entering):
        names_too = [*names, sub.new]
        add(wrap(f"替补：{sub.new} 接替 {sub.old}（{gm_text.substitute_plays(sub.new, sub.old)}）"
                 + (f"；{sub.moved}" if sub.moved else ""), width, names_too, "  "))  # fmt: skip
    if s.sign_in is not None and s.sign_in.missing:
        si = s.sign_in
        add(wrap(f"签到（在帖子 {si.thread} 回帖，{_t(si.closes)} 截止；之后未签到的会被提议自动退出）："
                 f"已签到 {len(si.signed)}/{len(si.signed) + len(si.missing)}", width))  # fmt: skip
        add(listing("未签到：", list(si.missing), width))
    if s.vote is not None:
        out.append("")
        out += _vote_lines(s.vote, s.now, width, names)
    if s.night is not None:
        out.append("")
        out += _night_lines(s.night, s.now, width, names)
    if s.alerts:
        out.append("")
        solved = len(s.alerts) - len(s.open_alerts)
        also = f"，{solved} 条已自行解决" if solved else ""
        add(wrap(f"提醒（{len(s.open_alerts)} 条待处理{also}；看完后 shenshi ack ID…）", width))
        rows = []
        for a in s.alerts:
            text = a.message
            if a.evidence is not None:
                text += f"\n证据：{a.evidence}"
            if a.resolution is not None:
                text += f"\n已解决：{a.resolution}"
            elif a.hint:
                text += f"\n下一步：{a.hint}"
            rows.append((f"#{a.id}", _t(a.at, s.now), a.name, text))
        add(table(("编号", "时间", "类型", "内容"), rows, width, names))
    if s.failed:
        out.append("")
        add(wrap("发送失败（会自动重试；shenshi review 查看）：", width))
        add(
            table(
                ("编号", "去向", "论坛的原因"),
                [(f"#{f.id}", f.where, f.error) for f in s.failed],
                width,
                names,
            )
        )
    if s.activity:
        out.append("")
        activity = [(gm_text.seat_played(a.name, a.played_by), str(a.posts), _t(a.last_post, s.now))
                    for a in s.activity]  # fmt: skip
        add(table(("玩家", "24小时发帖", "最后发帖"), activity, width, names))
    out.append("")
    h = s.health
    if h.ok and h.sending:
        add(wrap(f"守护进程：正在按论坛的发帖间隔发送（还有 {h.sending} 条），发完后再读论坛；"
                 f"上次读取 {_t(h.last_poll, s.now)}", width))  # fmt: skip
    elif h.ok:
        add(wrap(f"守护进程：上次成功读取论坛 {_t(h.last_poll, s.now)}", width))
    else:
        add(wrap(f"!! 守护进程：{h.problem}", width))
    return out


def _waiting_lines(s: GameStatus, width: int, names: list[str]) -> list[str]:
    """The announcement the game waits for, then the other unpublished ones grouped by kind
    (ten 未签到 posts are one line)."""
    from shenshi.commands._common import id_ranges
    from shenshi.daemon import gm_text
    from shenshi.daemon.hints import publish_advice

    lines: list[str] = []
    groups: dict[tuple[str, str], list[int]] = {}
    for w in s.waiting:
        if w.state == "unconfirmed":  # each waits for its own confirmation
            lines += wrap(f"待你确认的{w.what}：#{w.id}：{w.hint}", width, names, "  ")
        elif w.opens_next_step:
            what = f"{w.what}，{gm_text.STATES.get(w.state, w.state)}"
            final = "（玩家要看到它才知道游戏结束）" if s.winner else \
                "（按规则投票已开放、选票已计入，玩家要看到它才知道）" if w.kind == "vote_opened" else ""
            who = "守护进程发出" if not w.hints else "你发布"  # (live, or approved: the daemon sends it)
            if w.state == "rejected":  # (dropped: nothing moves on until it is out, gmattack3 F2)
                who = "你发布"
            lines += wrap(f"等待{who} #{w.id}（{what}）{final}：{w.hint}", width, names, "  ")
        else:
            groups.setdefault((w.what, w.state), []).append(w.id)
    for (what, state), ids in groups.items():
        how = publish_advice(s.mode, ids, state=state).text()
        lines += wrap(f"尚未发布的{what}：#{id_ranges(ids)}：{how}", width, names, "  ")
    return lines


def _to_send_lines(s: GameStatus, width: int) -> list[str]:
    """The PMs (and other proposals) waiting for the GM, with their ids, as the mode wants."""
    from shenshi.commands._common import id_ranges

    if s.mode == "dry-run" and s.to_send:
        return wrap(f"要你手动发出的私信：{len(s.to_send)} 条 #{id_ranges(s.to_send)}（shenshi review "
                    "看内容；你发出的私信会被自动认出）", width, (), "  ")  # fmt: skip
    if s.mode == "review" and s.proposed:
        posts = "；帖子见上" if len(s.to_send) < s.proposed else ""
        pms = f"；私信：shenshi approve {id_ranges(s.to_send)}" if s.to_send else ""
        return wrap(f"待审：{s.proposed} 条（shenshi review 看内容{posts}）{pms}", width, (), "  ")
    return []


def _voter(seat: str, v: VoteStanding) -> str:
    """A voter: his seat's name, and the substitute who plays it while he enters."""
    from shenshi.daemon import gm_text

    return gm_text.seat_played(seat, v.played_by.get(seat, ""))


def _vote_lines(v: VoteStanding, now: datetime, width: int, names: list[str]) -> list[str]:
    voted = len(v.electorate) - len(v.not_voted)
    when = f"{_t(v.opens)} 开始，{_t(v.closes)} 截止" if v.opens else "尚未开始"
    head = f"{v.name}（{when}）：已投 {voted}/{len(v.electorate)}" + (f"，{v.decisive} 票过半即可确定" if v.decisive else "")
    lines = wrap(head, width, names)
    if v.decided:
        lines += wrap(f"  {v.decided} 已无法被追上", width, names)
        if v.why_open:
            lines += wrap(f"  {v.why_open}", width, names, "  ")
    rows = []
    for c in v.tally:
        voters = "、".join(
            _voter(b.voter, v) + ("（天神补记）" if b.via == "gm"
                                  else f"（{b.evidence.label.split(' → ')[-1]}）" if b.evidence else "")
            for b in c.voters
        )  # fmt: skip
        rows.append((_voter(c.name, v), _votes(c.votes), voters or "—"))  # (a candidate seat a substitute plays too)
    lines += table(("候选人", "票数", "投票人（帖子）"), rows, width, names)
    if v.abstained:
        lines += listing("弃权：", [b.voter for b in v.abstained], width)
    if v.not_voted:
        shown = [f"{n}（替补 {v.played_by[n]} 投）" if n in v.played_by else n for n in v.not_voted]
        lines += listing("未投票：", shown, width)
    return lines


def _night_lines(n: NightActions, now: datetime, width: int, names: list[str]) -> list[str]:
    lines = wrap("夜间行动（保密，只给你看）：", width)
    rows = [
        (a.words, _t(a.at, now), a.evidence.label.split(" → ")[-1] if a.evidence else "—")
        for a in n.submitted
    ]
    lines += table(("行动", "时间", "来源"), rows, width, names) if rows else ["  （还没有收到）"]
    for words, names in n.still_to_send:
        lines += listing(f"还没提交「{words}」：", list(names), width)
    for trouble in n.troubles:
        lines += wrap(f"!! {trouble}", width, names, "   ")
    return lines


def _votes(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
