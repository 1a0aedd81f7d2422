"""Why a summoned ballot does not count (D-4, D-I, RES-A35), as the rules core tells the GM:
the notes are GM-only (log_only), so scenarios do not print them; the daemon shows them beside
a day's result. (adversary5 B4: both cases read "投票人已出局".)"""

from __future__ import annotations

import copy
import json
from pathlib import Path

from shenshi.rulesets.base import Report
from shenshi.rulesets.scenario import play_scenario

OWN = Path(__file__).parent / "scenarios" / "own"
BASE = json.loads((OWN / "g610-own-01-summon-goes-back-to-an-earlier-night.json").read_text("utf-8"))


def ballots(votes: dict[str, str]) -> list[dict[str, str]]:
    return [{"voter": v, "target": t} for v, t in votes.items()]


def summoned_notes(summon: dict) -> tuple[dict, list[tuple[str, str]]]:
    """Night 1 kills C1, day 1 executes C4, night 2 kills C2 (no bind), both rounds of day 2
    tie S and K2 3:3, and the summoning gets ``summon``: day 2's result and the rules core's
    notes on the summoned ballots."""
    document = copy.deepcopy(BASE)
    document["steps"] = document["steps"][:3]
    document["steps"][2]["actions"] = [{"actor": "K1", "action": "kill", "target": "C2"}]
    tie = {"K1": "S", "K2": "S", "C3": "S", "S": "K2", "B": "K2", "Cu": "K2"}
    document["steps"].append(
        {"phase": "day", "n": 2, "votes": ballots(tie | {"Bl": "C3"}), "runoff_votes": ballots(tie), "summon": summon}
    )
    run = play_scenario(document)
    report = Report()
    for event in run.events:
        report = report.merge(event.report)
    notes = [(n.who, n.rule) for n in report.daemon if "summon" in n.rule]
    return run.results["day2"], notes


def test_a_summoned_victims_second_ballot_is_d_i_not_an_exit() -> None:
    result, notes = summoned_notes({"online": ["C2"], "votes": ballots({"C2": "K2"}) + ballots({"C2": "S"})})
    assert result["executed"] == "K2"  # his first ballot
    assert notes == [("C2", "summoned_twice")]


def test_an_earlier_nights_victim_is_not_counted_when_the_later_nights_came_online() -> None:
    result, notes = summoned_notes({"online": [], "votes": ballots({"C1": "S"}) + ballots({"C2": "K2"})})
    assert result["executed"] == "K2"  # RES-A35: night 2's victim C2 decides
    assert notes == [("C1", "summoned_later_night")]


def test_a_living_players_summoned_ballot_is_not_summoned() -> None:
    result, notes = summoned_notes({"online": ["C2"], "votes": ballots({"K1": "K2"}) + ballots({"C2": "S"})})
    assert result["executed"] == "S"
    assert notes == [("K1", "not_summoned")]
