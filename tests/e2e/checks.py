"""What every end-to-end game must show, whatever happened to the forum or the daemon."""

from __future__ import annotations

import os
import re
import stat
from collections import Counter

from shenshi.demo.game import GameRun
from shenshi.demo.record import expected_outcome

# Alerts that a played script must raise, one per mistake of that kind.
MISTAKE_ALERTS = {
    "typo": "unknown_name",
    "edit": "edited_vote",
    "late_pm": "pm_window",
    "stranger": "not_a_player",
}
LATE = {"werewolf": "phase_deadline"}  # a 功能树洞 reply after its night phase's deadline
# Alerts that would mean a player's intended action was misread or refused, or a page was
# misread (a bug).
NEVER = {"vote_conflict", "not_in_phase", "no_vote_open", "dead_target", "conditional_vote", "wrong_channel",
         "ambiguous_name", "vote_wrong_thread", "thread_changed", "unparsable_page", "maddened_speech",
         "dead_post", "wrong_phase", "locked", "lurk", "signin"}  # fmt: skip
TITLE = re.compile(r"^【第\d+(?:夜结果|天投票结果)】")


def assert_as_scripted(run: GameRun) -> None:
    """The outcome is the script's, as the forum publishes it and as the daemon stored it."""
    expected = expected_outcome(run.script)
    published = expected_outcome(run.script, published=True)
    causes = run.script.ruleset not in ("chess32", "werewolf")  # they publish no cause of death
    assert run.direction.finished, f"the game did not end: {run.players.log[-5:]}"
    assert run.forum_record.comparable(causes) == published.comparable(causes)
    assert run.stored_record.comparable() == expected.comparable()
    assert run.forum_record.winner == run.script.winner


def assert_nothing_lost_or_doubled(run: GameRun, reference: GameRun | None = None) -> None:
    """Every announcement went out exactly once; with a reference run of the same seed, the
    same events (no ballot or action lost or counted twice) and the same messages."""
    assert run.tally.left == 0, "announcements were never sent"
    assert len(run.gm_posts) == len(set(run.gm_posts)), "the GM posted something twice"
    titles = Counter(TITLE.match(p).group(0) for p in run.gm_posts if TITLE.match(p))
    runoffs = {s.label for s in run.forum_record.steps if s.runoff}
    for title, n in titles.items():
        assert n == 1 or (n == 2 and "天" in title), (title, n)
    published = expected_outcome(run.script, published=True).steps
    assert sum(titles.values()) == len(published) + len(runoffs)
    if reference is not None:
        assert run.events == reference.events
        ours, theirs = (
            Counter(_timeless(pm) for pm in run.gm_pms if not _UNREAD_NOTICE.search(pm[1])),
            Counter(_timeless(pm) for pm in reference.gm_pms if not _UNREAD_NOTICE.search(pm[1])),
        )
        assert ours == theirs, (
            sorted((ours - theirs).elements()),
            sorted((theirs - ours).elements()),
        )
        ours, theirs = (
            Counter(_timeless_text(p) for p in run.gm_posts),
            Counter(_timeless_text(p) for p in reference.gm_posts),
        )
        assert ours == theirs, (
            sorted((ours - theirs).elements()),
            sorted((theirs - ours).elements()),
        )


def assert_mistakes_read_right(run: GameRun) -> None:
    """Each kind of mistake was made, raised its alert (and only it), and changed nothing."""
    made = Counter(kind for kind, _, _ in run.players.made)
    assert set(made) == {"typo", "fullwidth", "quote", "edit", "late_pm", "stranger"}
    for mistake, alert in MISTAKE_ALERTS.items():
        if mistake == "late_pm":
            alert = LATE.get(run.script.ruleset, alert)
        assert run.tally.alert_kinds.get(alert, 0) == made[mistake], (alert, run.tally.alert_kinds)
    assert not NEVER & set(run.tally.alert_kinds), run.tally.alert_kinds


def assert_files_private(run: GameRun) -> None:
    """The dry-run log (it holds roles and actions) and the configuration are mode 0600."""
    for path in (run.log_path, run.log_path.with_suffix(".jsonl"), run.config_path):
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600, path


def daemon_errors(run: GameRun) -> list[str]:
    """ERROR lines the daemon subprocess wrote (a killed daemon writes none of its own)."""
    path = run.workdir / "daemon.stderr"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    return [
        line for line in text.splitlines() if line.startswith(("ERROR", "CRITICAL", "Traceback"))
    ]


# What a fault may rightly change in a PM: a time the clock derives from when a step was
# published (a refusal's "最早 12-09 12:08": the day opened later after the fault), and a joint
# kill's declaration note (a read delayed by the fault brings the partner's PM in the same read:
# "杀人宣言已由 月光 提交" instead of "未收到杀人宣言…请在截止前补交").
_CLOCK_TIME = re.compile(r"\d\d-\d\d \d\d:\d\d")
# A receipt sent before its step settled early promises a change until the close; one still
# unsent when it settled says it cannot change any more (a fault moves sends against the close).
_RECEIPT_TAIL = re.compile(
    r"(?:结算前可更改（行动全部到齐后会提前结算）|天神答复前可更改|(?:行动已全部到齐，)?本阶段已(?:提前)?结算，不能再更改)"
)
# The PM telling a voter his unreadable ballot was not counted goes out only while he has not
# voted again: a fault that delays the read of his next ballot rightly lets it out.
_UNREAD_NOTICE = re.compile(r"发在投票帖的投票没有计入")
_DECLARATION_NOTE = re.compile(
    r"（(?:杀人宣言已由 [^）]+ 提交|未收到杀人宣言)）([^。]*)(?:。提醒：请在截止前补交杀人宣言，否则本次杀人作废)?"
)


def _timeless(pm: tuple[str, str]) -> tuple[str, str]:
    """A PM as compared with the clean run's (see above)."""
    who, text = pm
    return who, _timeless_text(text)


def _timeless_text(text: str) -> str:
    """A post or PM's text as compared with the clean run's: its clock times (the vote's
    opening post names when it opens and closes), a receipt's tail and a declaration note."""
    text = _RECEIPT_TAIL.sub("（结算前后）", _CLOCK_TIME.sub("…", text))
    return _DECLARATION_NOTE.sub(r"（杀人宣言）\1", text)
