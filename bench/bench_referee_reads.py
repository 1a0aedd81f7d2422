"""Benchmark: night PMs read through the referee (intake, the rules core, receipts, the alerts'
causes) during one open night of a game6-10, with the early close off and on.

    python bench/bench_referee_reads.py [--pms 600] [--rounds 5]

Prints the PMs read per second (CPU time, best of ``--rounds``). Issue 20 added the receipts'
honesty about an early close and every alert's cause to this path; run it on the base commit
too (copy this file there) to see what that costs. With the early close on the night ends once
everything is in and the later PMs take the refusal's path, so the two lines are not the same
work: compare each with its own line on the base commit.
"""

from __future__ import annotations

import argparse
import random
import time
from datetime import datetime, timedelta
from itertools import count
from zoneinfo import ZoneInfo

from shenshi.config import GameConfig, PlayerEntry
from shenshi.daemon.announce import Templates
from shenshi.daemon.referee import Clockwork, Referee
from shenshi.records import PrivateMessage
from shenshi.rulesets.base import PlayerSpec
from shenshi.rulesets.registry import find_ruleset

TZ = ZoneInfo("Asia/Shanghai")
START = datetime(2026, 12, 1, 20, 0, tzinfo=TZ)
ROLES = ["killer", "killer", "seer", "binder", "curser", "blesser", "commoner", "commoner", "commoner",
         "commoner"]  # fmt: skip
WORDS = {"killer": "杀", "seer": "占卜", "binder": "束魂", "curser": "诅咒", "blesser": "庇佑", "commoner": "祈祷"}
DECLARATION = "那一夜风雨交加，雷声在远处的山谷里回荡。" * 6


def night(early_close: bool) -> Referee:
    rules = find_ruleset("game6-10")
    names = [f"玩家{i}" for i in range(len(ROLES))]
    specs = [PlayerSpec(n, r, rules.info.roles[r].team) for n, r in zip(names, ROLES, strict=True)]
    game = GameConfig(ruleset="game6-10", board="3", vote_thread="2", start=START,
                      players=tuple(PlayerEntry(s.name, None, s.role, s.team) for s in specs))  # fmt: skip
    ref = Referee(rules, game, rules.new_game(specs), game_key="g1", templates=Templates(), tz=TZ,
                  early_close=early_close)  # fmt: skip
    ref.tick(START + timedelta(minutes=1), Clockwork())
    return ref


def pms(n: int, seed: int = 7) -> list[PrivateMessage]:
    rng = random.Random(seed)
    ids = count(1)
    out = []
    for i in range(n):
        who = rng.randrange(len(ROLES))
        target = f"玩家{rng.randrange(len(ROLES))}"
        text = f"{WORDS[ROLES[who]]} {target}"
        if ROLES[who] == "killer":
            text += f"\n杀人宣言：{DECLARATION}"
        at = START + timedelta(minutes=2 + i)
        k = next(ids)
        out.append(PrivateMessage(str(k), f"c{who}", f"玩家{who}", None, "神的使者", "2", at, text))
    return out


def best(rounds: int, n: int, early_close: bool) -> float:
    times = []
    for _ in range(rounds):
        ref, batch = night(early_close), pms(n)
        started = time.process_time()
        for i, pm in enumerate(batch):
            ref.read_pm(pm, str(i + 1))
        times.append(time.process_time() - started)
    return n / min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pms", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    for early in (False, True):
        rate = best(args.rounds, args.pms, early)
        print(f"early_close={'on ' if early else 'off'}: {rate:,.0f} PMs/s ({args.pms} PMs, best of {args.rounds})")


if __name__ == "__main__":
    main()
