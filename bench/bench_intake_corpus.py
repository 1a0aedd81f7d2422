"""Benchmark: intake's speed over the corpus (``tests/intake/corpus/*.jsonl``).

Every case's context, post or PM is built first; then each round reads every case once with
the daemon's own entry points (``read_post`` / ``read_pm`` / ``read_post_edit``). Prints, per
corpus file and in all, the texts read per second and the commands they yielded per second
(CPU time of this process, the best of several rounds: the machine is shared). Figures only,
no assertions.

    python bench/bench_intake_corpus.py [FILE.jsonl …]   # default: every corpus file
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from shenshi.intake.batch import case_reader
from shenshi.intake.model import IntakeResult

CORPUS = Path(__file__).resolve().parents[1] / "tests/intake/corpus"
ROUNDS = 7


def load(path: Path) -> list[Callable[[], IntakeResult]]:
    """The ready readings of every case of one corpus file."""
    with path.open(encoding="utf-8") as f:
        return [case_reader(json.loads(line)) for line in f if line.strip()]


def best_round(readers: list[Callable[[], IntakeResult]]) -> tuple[float, int]:
    """The fastest of ``ROUNDS`` rounds over ``readers`` (seconds) and the commands one yields."""
    for read in readers:  # warm the caches (name index, folding) as a running daemon has them
        read()
    best, commands = float("inf"), 0
    for _ in range(ROUNDS):
        start = time.process_time()
        commands = sum(len(read().commands) for read in readers)
        best = min(best, time.process_time() - start)
    return best, commands


def main(argv: list[str]) -> None:
    paths = [Path(a) for a in argv] or sorted(CORPUS.glob("*.jsonl"))
    total_s, total_texts, total_cmds = 0.0, 0, 0
    print(f"best of {ROUNDS} rounds")
    for path in paths:
        readers = load(path)
        seconds, commands = best_round(readers)
        total_s += seconds
        total_texts += len(readers)
        total_cmds += commands
        print(
            f"{path.name:24} {len(readers):5} texts  {len(readers) / seconds:8.0f} texts/s"
            f"  {commands / seconds:8.0f} commands/s"
        )
    print(
        f"{'all':24} {total_texts:5} texts  {total_texts / total_s:8.0f} texts/s"
        f"  {total_cmds / total_s:8.0f} commands/s"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
