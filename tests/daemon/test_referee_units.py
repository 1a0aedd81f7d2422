"""Every answer and every published text addressed to a unit comes from that unit's own
submissions (issue 16): roles that exist in both chess camps, joint units of family A, several
werewolf seers. The rules core names whom an answer is about and whose kill post a death
publishes; the referee only writes it out."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from shenshi.daemon.announce import Templates
from shenshi.daemon.referee import Clockwork, Referee
from shenshi.demo.script import load_script
from shenshi.records import Post
from shenshi.rulesets.base import Phase, PlayerSpec
from shenshi.rulesets.registry import find_ruleset
from tests.daemon.helpers import TZ, at, chess_referee, config, pm

POST = "深夜，{who}潜入了{target}的营帐，" + "刀光一闪，营帐里再无声息，" * 12  # ≥150 characters


def chess_night(tmp_path) -> Referee:
    """A chess32 referee with night 1 open (opened at 25 h, dawn at 49 h, deadline 48:50)."""
    ref = chess_referee(tmp_path)
    ref.tick(at(0), Clockwork())
    ref.tick(at(24), Clockwork())
    ref.tick(at(25), Clockwork({"g1:day1:public": at(25)}))
    assert ref.state.phase is Phase.NIGHT
    return ref


def dawn(ref: Referee, hours: float):
    out = ref.tick(at(hours), Clockwork())
    assert ref.state.phase is Phase.DAWN
    return out


def test_each_horse_pair_is_told_about_its_own_check(tmp_path) -> None:
    ref = chess_night(tmp_path)
    for i, (horse, target, hours) in enumerate(
        [
            ("Tom_2", "萧何", 26),
            ("白色的猫", "萧何", 26.5),
            ("樊哙", "小明", 27),
            ("张良", "小明", 27.5),
        ]
    ):
        assert ref.read_pm(pm(horse, f"查证 {target}", hours), f"c{i}").events
    out = dawn(ref, 49)
    checks = {d.destination: d.text for d in out.drafts if d.kind == "check"}
    assert "萧何 是 汉方的车" in checks["Tom_2"] and "萧何" in checks["白色的猫"]
    assert "小明 是 楚方的车" in checks["樊哙"] and "小明" in checks["张良"]


def test_the_kill_post_published_is_the_successful_kills_not_a_later_failed_one(tmp_path) -> None:
    ref = chess_night(tmp_path)
    general = POST.format(who="项羽", target="韩信")
    cannon = POST.format(who="曹参", target="韩信").replace("刀光", "炮火")
    inputs = [
        pm("项羽", f"杀 韩信\n杀人帖：\n{general}", 26),
        pm("小明", "禁锢 曹参", 26.5),  # 楚's chariot imprisons 汉's cannon: its kill fails
        pm("曹参", f"炮打 韩信，炮架子：彭越\n杀人帖：\n{cannon}", 27),  # later, on the same victim
    ]
    for i, message in enumerate(inputs):
        assert ref.read_pm(message, f"k{i}").events
    out = dawn(ref, 49)
    public = next(d for d in out.drafts if d.channel == "thread")
    assert "韩信 死亡" in public.text
    assert "项羽潜入了韩信的营帐" in public.text and "炮火" not in public.text


GAME6_13 = [
    ("甲", "alliance_killer"), ("乙", "alliance_killer"), ("丙", "independent_killer"),
    ("丁", "seer"), ("戊", "seer"), ("己", "binder"), ("庚", "binder"), ("辛", "curser"),
    ("壬", "blesser"), ("子", "commoner"), ("丑", "commoner"), ("寅", "commoner"), ("卯", "commoner"),
]  # fmt: skip


def game6_13(tmp_path) -> Referee:
    cfg = config(tmp_path, "game6-13", GAME6_13)
    rules = find_ruleset("game6-13")
    state = rules.new_game([PlayerSpec(n, r, rules.info.roles[r].team) for n, r in GAME6_13])
    ref = Referee(rules, cfg.game, state, game_key="g1", templates=Templates(), tz=TZ)
    ref.tick(at(0), Clockwork())
    assert ref.state.phase is Phase.NIGHT
    return ref


def test_the_joint_seers_are_both_told_about_the_units_divination(tmp_path) -> None:
    ref = game6_13(tmp_path)
    assert ref.read_pm(pm("丁", "占卜 甲", 1), "d0").events
    assert ref.read_pm(pm("戊", "占卜 甲", 2), "d1").events
    out = dawn(ref, 24)
    answers = {d.destination: d.text for d in out.drafts if d.kind == "divination"}
    assert set(answers) == {"丁", "戊"}
    assert all("甲 是杀手" in text for text in answers.values())


def test_the_alliance_kill_publishes_the_longest_declaration_of_its_members(tmp_path) -> None:
    ref = game6_13(tmp_path)
    long = "月黑风高，甲与乙商量良久，" + "终于决定对子下手，" * 12
    short = "乙补一句：就这么定了，今晚动手，不再拖延，" * 5  # 100+ characters, but shorter
    assert ref.read_pm(pm("甲", f"杀 子\n杀人宣言：{long}", 1), "a0").events
    assert ref.read_pm(pm("乙", f"杀 子\n杀人宣言：{short}", 2), "a1").events  # later
    out = dawn(ref, 24)
    public = next(d for d in out.drafts if d.channel == "thread")
    assert "子 被杀手杀害" in public.text
    assert "甲与乙商量良久" in public.text and "乙补一句" not in public.text


WW_START = datetime(2026, 12, 7, 20, 0, tzinfo=TZ)  # a Monday evening


def test_two_werewolf_seers_each_hear_about_their_own_prophecy(tmp_path) -> None:
    script = load_script("werewolf")
    table = [(s.name, s.role) for s in script.seats]
    second = next(i for i, (_, role) in enumerate(table) if role == "villager")
    table[second] = (table[second][0], "seer")
    seers = [name for name, role in table if role == "seer"]
    cfg = config(tmp_path, "werewolf", table)
    threads = {name: str(40 + i) for i, name in enumerate(seers)}
    game = replace(cfg.game, start=WW_START, role_threads=threads)
    rules = find_ruleset("werewolf")
    teams = {s.name: s.team for s in script.seats}
    composition = {
        **rules.info.composition,
        "seer": 2,
        "villager": rules.info.composition["villager"] - 1,
    }
    state = rules.new_game(
        [PlayerSpec(n, r, teams[n]) for n, r in table], {"composition": composition}
    )
    ref = Referee(rules, game, state, game_key="g1", templates=Templates(), tz=TZ)
    ref.tick(WW_START, Clockwork())
    ref.tick(datetime(2026, 12, 8, 6, 30, tzinfo=TZ), Clockwork())  # day 1 opens unannounced
    ref.tick(datetime(2026, 12, 9, 21, 0, tzinfo=TZ), Clockwork())  # … and closes
    opened = datetime(2026, 12, 9, 21, 5, tzinfo=TZ)
    ref.tick(opened, Clockwork({"g1:day1:public": opened}))
    assert ref.state.phase is Phase.NIGHT
    wolf = next(name for name, role in table if role == "werewolf")
    others = [name for name, role in table if role not in ("seer", "werewolf")]
    asked = {seers[0]: wolf, seers[1]: others[0]}
    for i, (seer, target) in enumerate(asked.items()):
        reply = Post(threads[seer], str(90 + i), 2 + i, seer, None, opened + timedelta(minutes=10 * (i + 1)),
                     f"【预言】{target}")  # fmt: skip
        assert ref.read_post(reply, f"p{i}").events
    out = ref.tick(datetime(2026, 12, 10, 6, 0, tzinfo=TZ), Clockwork())
    answers = {d.destination: d.text for d in out.drafts if d.kind == "prophecy"}
    assert f"{wolf} 属于非村民阵营" in answers[seers[0]]
    assert f"{others[0]} 属于" in answers[seers[1]] and wolf not in answers[seers[1]]


def test_a_rule_alert_about_the_alliance_names_its_members(tmp_path) -> None:
    """newcomer4 G4: 「alliance_killers：杀人宣言太短，请天神留意（60 字）」: an internal id as a name."""
    ref = game6_13(tmp_path)
    short = "月黑风高，甲与乙商量良久，终于决定下手。" * 3  # 60 characters
    assert ref.read_pm(pm("甲", f"杀 子\n杀人宣言：{short}", 1), "a0").events
    assert ref.read_pm(pm("乙", "杀 子", 2), "a1").events
    out = dawn(ref, 24)
    units = [a for a in out.alerts if a.kind.startswith("rule:")]
    assert units and all("alliance" not in a.message and "alliance" not in a.subject for a in units), \
        [(a.subject, a.message) for a in units]
    assert any(a.subject == "乙、甲" or a.subject == "甲、乙" for a in units), [(a.subject, a.message) for a in units]


def test_a_rule_alert_on_what_a_substitute_wrote_names_him_beside_the_seat(tmp_path) -> None:
    """newcomer4 G6: the short declaration of 路人甲 (entering 阿花's seat) was told as
    「阿花：杀人宣言太短」; the GM reads the seat as status names it."""
    from shenshi.rulesets.base import Substitute

    ref = game6_13(tmp_path)
    ref.apply(Substitute("甲", "新人"))
    short = "月黑风高，甲与乙商量良久，终于决定下手。" * 3  # 60 characters
    assert ref.read_pm(pm("新人", f"杀 子\n杀人宣言：{short}", 1), "a0").events
    assert ref.read_pm(pm("乙", "杀 子", 2), "a1").events
    out = dawn(ref, 36.5)  # (the substitution added 12 h to the night)
    named = [a.message for a in out.alerts if a.kind.startswith("rule:")]
    assert named and all("alliance" not in m for m in named), named
    assert any("新人" in m for m in named), named
