"""The intake corpus: real texts from the captured forum pages, texts written as players
write, and the cases an adversarial black-box test found failing (``adversary.jsonl``, each
expectation judged against RULES.md), each with its game context and the expected commands and
alert kinds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shenshi.intake import ALERT_KINDS, lexicon
from shenshi.intake.batch import run_case
from tests.intake.corpus_check import check_case, check_matching

CORPUS = Path(__file__).parent / "corpus"


def _load(name: str) -> list[dict]:
    with (CORPUS / name).open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


CAPTURED = _load("captured.jsonl")
WRITTEN = _load("written.jsonl")
ADVERSARY = _load("adversary.jsonl")
# Issue 24: cases of each phrasing class (and the issue's own examples), and the held-out corpus
# a reader who had not read the grammar wrote for it (first scored 344/378 on b5fd0e2); a case
# whose written expectation the spec does not support carries the judgement in ``judged``.
CLASSES = _load("classes-i24.jsonl")
FRESH = _load("fresh-i24.jsonl")
# The attack corpus an adversary who had not read the grammar wrote for issue 24 (first scored
# 469/556 on main before the fix rounds), and the cases of each class the fixers wrote for it in
# other words. A case the reader still gets wrong carries ``known_failure`` (with the reason) and
# is an expected failure that must keep failing until it is fixed; a case whose expectation
# RULES.md or docs/intake.md does not support carries ``judged``.
ATTACK = _load("attack-i24.jsonl")
ATTACK_CLASSES = _load("classes-i24-attack.jsonl")
# Texts of the attack round from which no command can be read and whose alert kind the rules
# leave open: each must give no command and exactly one alert (never silence).
ONE_ALERT = _load("probe-one-alert-i24.jsonl")
# The leftovers of issue 24, each class in the fixer's own words: a correction inside one post
# or PM, a bare change right after a cannon's platform, a word of choice with a particle (就他了：X),
# and a hostile round around them (names that are command words: 改成, 投票君; quotes, @, full
# width, reasons in brackets). 39 of the 102 read as expected on 860a283, before the fixes.
LEFTOVERS = _load("classes-i24c.jsonl")
ALL = CAPTURED + WRITTEN


def _check(case: dict) -> None:
    check_case(case)


def _params(cases: list[dict]) -> list:
    """``cases`` as test parameters, a ``known_failure`` case as a strict expected failure."""
    return [
        pytest.param(
            c,
            id=c["id"],
            marks=[pytest.mark.xfail(strict=True, reason=c["known_failure"]["why"])]
            if "known_failure" in c
            else [],
        )
        for c in cases
    ]


@pytest.mark.parametrize("case", CAPTURED, ids=[c["id"] for c in CAPTURED])
def test_captured_case(case: dict) -> None:
    _check(case)


@pytest.mark.parametrize("case", WRITTEN, ids=[c["id"] for c in WRITTEN])
def test_written_case(case: dict) -> None:
    _check(case)


@pytest.mark.parametrize("case", ADVERSARY, ids=[c["id"] for c in ADVERSARY])
def test_adversary_case(case: dict) -> None:
    _check(case)


@pytest.mark.parametrize("case", CLASSES, ids=[c["id"] for c in CLASSES])
def test_phrasing_class_case(case: dict) -> None:
    _check(case)


@pytest.mark.parametrize("case", FRESH, ids=[c["id"] for c in FRESH])
def test_fresh_case(case: dict) -> None:
    _check(case)


@pytest.mark.parametrize("case", _params(ATTACK))
def test_attack_case(case: dict) -> None:
    _check(case)


@pytest.mark.parametrize("case", _params(ATTACK_CLASSES))
def test_attack_class_case(case: dict) -> None:
    _check(case)


@pytest.mark.parametrize("case", LEFTOVERS, ids=[c["id"] for c in LEFTOVERS])
def test_leftover_class_case(case: dict) -> None:
    _check(case)


def test_every_leftover_class_has_ten_cases_and_the_attack_forty() -> None:
    per_class: dict[str, int] = {}
    for c in LEFTOVERS:
        per_class[c["source"].split("/")[1]] = per_class.get(c["source"].split("/")[1], 0) + 1
    assert {"self-correction", "platform-change", "ballot-hint", "attack"} <= set(per_class)
    assert all(n >= 10 for n in per_class.values()) and per_class["attack"] >= 40, per_class


@pytest.mark.parametrize("case", ONE_ALERT, ids=[c["id"] for c in ONE_ALERT])
def test_unreadable_command_raises_one_alert(case: dict) -> None:
    result = run_case(case)
    assert result.commands == () and len(result.alerts) == 1, (result.commands, result.alerts)


def test_every_attack_class_has_ten_cases_of_its_own() -> None:
    per_class: dict[str, int] = {}
    for c in ATTACK_CLASSES:
        per_class[c["source"].split("/")[1]] = per_class.get(c["source"].split("/")[1], 0) + 1
    assert len(per_class) >= 9 and all(n >= 10 for n in per_class.values()), per_class


def test_the_attack_corpus_is_kept_whole() -> None:
    assert len(ATTACK) == 556
    assert all(c["source"] == "attack-i24" for c in ATTACK)
    assert len({c["id"] for c in ATTACK + ATTACK_CLASSES}) == len(ATTACK) + len(ATTACK_CLASSES)
    for c in ATTACK + ATTACK_CLASSES:
        if "judged" in c:
            assert c["judged"]["why"] and "expected_by_writer" in c["judged"], c["id"]
        if "known_failure" in c:
            assert c["known_failure"]["why"], c["id"]


def test_every_phrasing_class_has_ten_cases_of_its_own() -> None:
    per_class: dict[str, int] = {}
    for c in CLASSES:
        per_class[c["source"].split("/")[1]] = per_class.get(c["source"].split("/")[1], 0) + 1
    classes = {"lookalike", "reason", "change", "framing", "agreement", "platform", "silent", "withdrawal",
               "self_by_other_name"}
    assert classes <= set(per_class), per_class
    assert all(per_class[k] >= 10 for k in classes), per_class


def test_the_fresh_corpus_is_kept_whole() -> None:
    assert len(FRESH) >= 300
    assert all(c["source"] == "fresh-i24" for c in FRESH)
    assert len({c["id"] for c in FRESH}) == len(FRESH)
    judged = [c for c in FRESH if "judged" in c]
    assert all(c["judged"]["why"] and c["judged"]["expected_by_writer"] for c in judged)


def test_the_adversary_cases_cover_every_class_of_fault() -> None:
    classes = {c["source"].split("/")[1] for c in ADVERSARY}
    assert classes == set("ABCDEFGHIJKLM"), classes
    assert len({c["id"] for c in ADVERSARY}) == len(ADVERSARY) >= 200


def test_corpus_size_and_provenance() -> None:
    assert len(ALL) >= 300
    assert len(CAPTURED) * 3 >= len(ALL), "at least a third of the corpus comes from captured pages"
    assert all(c["source"].startswith(("discuz-x3.5/", "phpwind-8.7/")) for c in CAPTURED)
    assert len({c["id"] for c in ALL}) == len(ALL)


def test_every_alert_kind_is_covered() -> None:
    from tests.intake.phrasings import cases
    from tests.intake.probes import cases as probes

    everything = ALL + ADVERSARY + CLASSES + FRESH + ATTACK + ATTACK_CLASSES + cases() + probes()
    seen = {kind for c in everything for kind in c["expect"]["alerts"]}
    assert set(ALERT_KINDS) - seen == set()


def test_corpus_cases_are_not_all_silent() -> None:
    with_commands = sum(1 for c in ALL if c["expect"]["commands"])
    silent = sum(1 for c in ALL if not c["expect"]["commands"] and not c["expect"]["alerts"])
    assert with_commands >= 150 and silent >= 50


# A power of one's own role (or a werewolf 加速/减速) written in the vote thread, where it does
# not count (wolfadv W5: 同意第1天加速 posted there was dropped in silence): wrong_channel, and
# the receipt says where it goes; the same words from a player without the power, or in the
# discussion thread, are talk.
STRAYS = _load("classes-stray.jsonl")


@pytest.mark.parametrize("case", STRAYS, ids=[c["id"] for c in STRAYS])
def test_a_power_in_the_vote_thread_is_told_where_it_goes(case: dict) -> None:
    _check(case)


# Newcomer N-9: a ballot-like phrase after a lead-in clause (想了很久，就他了：X) was dropped in
# silence, while the phrase alone is possible_ballot. N-11: a reason after a ballot that names
# another player (投票：X，Rex 验出来的) made it a vote_conflict. Each class in varied wording over
# the rulesets, with the cases that must not change (``-keep``: a real ballot after a lead-in,
# talk, two bare names, a list, a change of mind, alternatives, a ballot or a condition in the
# clause after). 31 of the 65 read as expected on 6072ff6, before the fix (the 30 ``-keep``
# cases and one reason after an @-mention); of the lead-in test below, 56 of its 160.
LEADIN_REASON = _load("classes-leadin-reason.jsonl")


@pytest.mark.parametrize("case", LEADIN_REASON, ids=[c["id"] for c in LEADIN_REASON])
def test_a_lead_in_or_a_reason_naming_another_player_changes_nothing(case: dict) -> None:
    _check(case)


def test_every_lead_in_and_reason_class_has_twelve_cases_and_its_negatives() -> None:
    per_class: dict[str, int] = {}
    for c in LEADIN_REASON:
        per_class[c["source"].split("/")[1]] = per_class.get(c["source"].split("/")[1], 0) + 1
    assert set(per_class) == {"leadin", "leadin-keep", "reason", "reason-keep"}, per_class
    assert all(n >= 12 for n in per_class.values()), per_class
    assert {c["ruleset"] for c in LEADIN_REASON} >= {"game5", "game6-10", "chess32", "werewolf"}
    assert len({c["id"] for c in LEADIN_REASON}) == len(LEADIN_REASON)


_LEAD_INS = (
    "想了很久，", "纠结了半天，", "综合来看，", "算了，", "唉……", "说实话我也拿不准。", "看了一圈大家的发言\n",
    "嗯，思来想去，",
)  # fmt: skip
# The ballot-like phrases of the leftovers (就他了：X, 选了X, 锁了，X …, and 就他了 / 选了A和B, which
# stay silent) and real ballots, in their game5 context.
_PHRASES = [c for c in LEFTOVERS if c["source"] == "i24c/ballot-hint"] + [
    {**LEFTOVERS[0], "text": text}
    for text in ("投票：老王", "我投阿杰，理由：划水", "弃权", "投他", "别投Rex", "同上", "+1", "Rex")
]


def _read(case: dict) -> tuple[list, list]:
    result = run_case(case)
    return [(c.action, c.target) for c in result.commands], [a.kind for a in result.alerts]


@pytest.mark.parametrize("lead_in", _LEAD_INS)
@pytest.mark.parametrize("phrase", _PHRASES, ids=[c["text"] for c in _PHRASES])
def test_a_lead_in_clause_never_changes_what_a_vote_thread_post_gives(phrase: dict, lead_in: str) -> None:
    """Whatever the phrase alone gives (a ballot, possible_ballot, one alert, or nothing), the
    same phrase after a lead-in clause gives it too: never silence where the phrase alerts."""
    assert _read({**phrase, "text": lead_in + phrase["text"]}) == _read(phrase)


# An alternative offered after a comma or another break (投票：阿杰，或者Rex / 占卜：老王，要么Rex /
# 投票：A 要么B / 投票：A⏎或者B) was dropped and the first name counted in silence, as were the names
# listed after a correction (投票：老王，还是阿杰或者Rex吧 / 更正：阿杰、Rex) and a choice that is no
# player's name after 或者 (投票：阿杰或者他 / 投票：Rex或者弃权). Each in varied wording over the
# rulesets (ballots, PMs, 功能树洞 replies, a kill with its declaration, cannons' targets and
# platforms, delegations), with the cases that must not change (``keep``: a change of mind
# 还是Rex吧, 或许 / 或者说 / 要不然 opening a remark or a reason, the same player offered twice,
# 要不要改成Y, alternatives already read, a name offered after another command). None of the 42
# offered, corrected or inline cases read as expected on 6f97419, before the fix; the 20 ``keep``
# cases did.
ALTERNATIVES_AFTER_COMMA = _load("classes-alternatives-after-comma.jsonl")


@pytest.mark.parametrize(
    "case", ALTERNATIVES_AFTER_COMMA, ids=[c["id"] for c in ALTERNATIVES_AFTER_COMMA]
)
def test_an_alternative_offered_after_a_comma_counts_nothing(case: dict) -> None:
    _check(case)


def test_every_alternative_class_has_its_cases_and_its_negatives() -> None:
    per_class: dict[str, int] = {}
    for c in ALTERNATIVES_AFTER_COMMA:
        per_class[c["source"].split("/")[1]] = per_class.get(c["source"].split("/")[1], 0) + 1
    assert set(per_class) == {"offered", "corrected", "inline", "keep"}, per_class
    assert per_class["offered"] >= 12 and per_class["keep"] >= 12, per_class
    rulesets = {c["ruleset"] for c in ALTERNATIVES_AFTER_COMMA}
    assert rulesets >= {"game5", "game6-10", "chess32", "werewolf"}
    offered = [c for c in ALTERNATIVES_AFTER_COMMA if c["source"].endswith("offered")]
    assert {c["channel"] for c in offered} == {"post", "pm"} and any(c.get("role_thread") for c in offered)
    assert len({c["id"] for c in ALTERNATIVES_AFTER_COMMA}) == len(ALTERNATIVES_AFTER_COMMA)


@pytest.mark.parametrize("lead", lexicon.ALTERNATIVE_LEADS)
@pytest.mark.parametrize("between", ["，", "；", "。", "……", " ", "\n", "、", "~"])
def test_each_alternative_lead_after_any_break_offers_another(lead: str, between: str) -> None:
    """Each lexicon lead, after each kind of break, offers the name after it: a ballot and a PM
    command both give ``alternatives`` and nothing counts."""
    ballot = {**ALTERNATIVES_AFTER_COMMA[0], "text": f"投票：阿杰{between}{lead}Rex"}
    seer = next(c for c in ALTERNATIVES_AFTER_COMMA if c["from"] == "糖糖")
    divine = {**seer, "text": f"占卜：阿杰{between}{lead}Rex"}
    assert _read(ballot) == ([], ["alternatives"])
    assert _read(divine) == ([], ["alternatives"])


@pytest.mark.parametrize("link", lexicon.ALTERNATIVE_LEAD_LINKS)
def test_a_link_after_an_alternative_lead_offers_the_name_after_it(link: str) -> None:
    ballot = {**ALTERNATIVES_AFTER_COMMA[0], "text": f"投票：阿杰，要么{link}Rex吧"}
    assert _read(ballot) == ([], ["alternatives"])


# A conclusion before a single name in the vote thread (结论：X, 最终决定：X, 综上所述：X, 锁定X) is
# a possible ballot for the GM, never silence (recheck: eight such phrasings gave nothing).
CONCLUSIONS = _load("classes-conclusion.jsonl")


@pytest.mark.parametrize("case", CONCLUSIONS, ids=[c["id"] for c in CONCLUSIONS])
def test_a_conclusion_naming_one_player_is_a_possible_ballot(case: dict) -> None:
    _check(case)


# A second held-out corpus (fresh-f2, 335 cases), written for issue 24 by a reader who had not
# read the grammar or the earlier corpora, from RULES.md and the docs alone; scored 315/335 as
# first written. What it found is fixed by class; a case the reader still gets wrong is a strict
# expected failure with its reason, and a case whose expectation was judged against the docs
# keeps what the writer first expected.
FRESH_F2 = _load("fresh-f2.jsonl")
# Ten or more cases of each class fresh-f2 found, in other words and rulesets.
F2_CLASSES = _load("classes-f2.jsonl")


@pytest.mark.parametrize("case", _params(FRESH_F2))
def test_second_fresh_case(case: dict) -> None:
    _check(case)


@pytest.mark.parametrize("case", F2_CLASSES, ids=[c["id"] for c in F2_CLASSES])
def test_second_fresh_class_case(case: dict) -> None:
    _check(case)


def test_the_second_fresh_corpus_is_kept_whole_and_its_classes_have_ten_cases() -> None:
    assert len(FRESH_F2) >= 300 and len({c["id"] for c in FRESH_F2}) == len(FRESH_F2)
    assert all(c["source"] == "fresh-f2" for c in FRESH_F2)
    assert all(c["judged"]["why"] and "was" in c["judged"] for c in FRESH_F2 if "judged" in c)
    assert sum("known_failure" in c for c in FRESH_F2) <= 3
    per_class: dict[str, int] = {}
    for c in F2_CLASSES:
        per_class[c["source"].split("/")[1]] = per_class.get(c["source"].split("/")[1], 0) + 1
    fixed = {"particle-emoji", "conjunction", "verb-change", "mention-greeting", "next-line", "offered-change",
             "pack-subject", "seer-unit", "successor-twice", "pronoun", "out-wish"}
    assert all(per_class.get(k, 0) >= 10 for k in fixed), per_class


# The classes fresh-f2 found, written again by a third reader who had not read the grammar
# (235 cases, 12+ per class and 68 of the reader's own; 203 first, then fixed by class: a
# question word then an emoji, two mentions, more out-wishes, a particle after 弃权, …).
VARIANTS = _load("variants-f2.jsonl")


@pytest.mark.parametrize("case", _params(VARIANTS))
def test_class_variant_case(case: dict) -> None:
    _check(case)


def test_the_variants_are_kept_whole() -> None:
    assert len(VARIANTS) >= 230 and len({c["id"] for c in VARIANTS}) == len(VARIANTS)
    assert sum("known_failure" in c for c in VARIANTS) <= 4


# A third held-out corpus (fresh-f3, 548 cases over the six rulesets and every channel), written
# by a reader who had read neither the grammar nor the earlier corpora: first scored 522/538 of
# the cases it counts (527/535 once its expectations were judged against the docs). A case whose
# reading the docs leave open is kept with ``counted: false`` and not asserted. Its classes,
# probed in other words by the same reader (classes-f3: 21/64 first): a change of mind after a
# lead-in of thought (再想了想还是X: silent, the old target stood), a declaration written before
# the 杀 line, a reconsideration (重新考虑了一下：X), the latest line named (以最后一条为准), a
# ballot with 我/把 inside (这一票我投给X), chess32's round names, 弃权算了, a cancel line between
# two commands.
FRESH_F3 = [c for c in _load("fresh-f3.jsonl") if c.get("counted", True)]
F3_CLASSES = [c for c in _load("classes-f3.jsonl") if c.get("counted", True)]


@pytest.mark.parametrize("case", _params(FRESH_F3))
def test_third_fresh_case(case: dict) -> None:
    check_matching(case)


@pytest.mark.parametrize("case", _params(F3_CLASSES))
def test_third_fresh_class_case(case: dict) -> None:
    check_matching(case)


# Ten or more cases of each class fresh-f3 found, in our own words, rulesets and channels
# (76 of the 84 read otherwise before the fix), and of the one gmattack3 found (F8: a night
# command posted in a discussion or chat thread, where PM rulesets read it as talk, with three
# that stay talk).
F3_OWN = _load("classes-f3-own.jsonl")


@pytest.mark.parametrize("case", F3_OWN, ids=[c["id"] for c in F3_OWN])
def test_third_fresh_class_own_case(case: dict) -> None:
    _check(case)


def test_the_third_fresh_corpus_is_kept_whole_and_its_classes_have_ten_cases() -> None:
    every = _load("fresh-f3.jsonl")
    assert len(every) >= 500 and len({c["id"] for c in every}) == len(every)
    assert sum("known_failure" in c for c in every) == 0
    per_class: dict[str, int] = {}
    for c in F3_OWN:
        per_class[c["source"].split("/")[1]] = per_class.get(c["source"].split("/")[1], 0) + 1
    classes = {"thought-again", "declaration-first", "reconsidered", "latest-named", "ballot-word-order",
               "chess-round-name", "resigned", "cancel-between", "night-thread-command"}
    assert set(per_class) == classes and all(n >= 10 for n in per_class.values()), per_class
