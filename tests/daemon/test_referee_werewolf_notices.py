"""What a werewolf game tells its characters (issue 10, "played whole on a real Discuz forum"):
the night's phase deadlines, the 【通灵】 list once, last words with a real window, the voting
record, madness. The night settles when 夜晚2 closes (03:00) and is announced at 06:00."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from itertools import count

from shenshi.daemon.announce import Templates
from shenshi.daemon.referee import Clockwork, Effects, Referee
from shenshi.demo.script import load_script
from shenshi.records import Post
from shenshi.rulesets.base import Phase, PlayerSpec
from shenshi.rulesets.registry import find_ruleset
from tests.daemon.helpers import TZ, config

START = datetime(2026, 12, 7, 20, 0, tzinfo=TZ)  # Monday 20:00: night 0
_pids = count(500)


def t(day: int, hour: int, minute: int = 0) -> datetime:
    """A time on the forum's clock, December 2026."""
    return datetime(2026, 12, day, hour, minute, tzinfo=TZ)


class Game:
    """A werewolf referee on the demo's 12 characters, each with his own 功能树洞."""

    def __init__(self, tmp_path) -> None:
        script = load_script("werewolf")
        table = [(s.name, s.role) for s in script.seats]
        self.threads = {name: str(100 + i) for i, (name, _) in enumerate(table)}
        cfg = config(tmp_path, "werewolf", table)
        game = replace(cfg.game, start=START, role_threads=self.threads)
        rules = find_ruleset("werewolf")
        state = rules.new_game([PlayerSpec(s.name, s.role, s.team) for s in script.seats])
        self.ref = Referee(rules, game, state, game_key="g1", templates=Templates(), tz=TZ)
        self.published: dict[str, datetime] = {}
        self.log: list = []  # every event, as the store would keep them

    def tick(self, at: datetime) -> Effects:
        return self.kept(self.ref.tick(at, Clockwork(dict(self.published))))

    def reply(self, name: str, text: str, at: datetime) -> Effects:
        n = next(_pids)
        post = Post(self.threads[name], str(n), n, name, None, at, text)
        return self.kept(self.ref.read_post(post, str(n)))

    def vote(self, name: str, target: str, at: datetime) -> Effects:
        n = next(_pids)
        return self.kept(self.ref.read_post(Post("2", str(n), n, name, None, at, f"投票：{target}"), str(n)))

    def kept(self, out: Effects) -> Effects:
        self.log += out.events
        return out

    def publish(self, key: str, at: datetime) -> None:
        self.published[key] = at
        self.tick(at)

    def to_night_1(self) -> Effects:
        """Night 0 (lovers 小红 and 大卫), day 1 electing 小明 sheriff, night 1 opened at 21:05."""
        self.tick(START)
        self.reply("白色的猫", "【金箭】小红、大卫", t(7, 21))
        self.tick(t(8, 6))
        assert self.ref.state.phase is Phase.DAY and self.ref.state.number == 1
        for i, seat in enumerate(self.ref.state.alive()):
            self.vote(seat.name, "小明" if seat.name != "小明" else "阿杰", t(8, 8, i))
        self.tick(t(9, 21))
        assert self.ref.state.phase is Phase.DUSK
        self.published["g1:day1:public"] = t(9, 21, 5)
        out = self.tick(t(9, 21, 5))
        assert self.ref.state.phase is Phase.NIGHT and self.ref.state.number == 1
        return out

    def night_1(self) -> None:
        """The wolves kill 月光, the seer asks about 老王, the piper maddens Rex."""
        assert self.reply("老王", "【杀人】月光", t(9, 22)).events
        assert self.reply("小明", "【预言】老王", t(9, 22, 30)).events
        assert self.reply("kk_大侠", "【吹笛】Rex", t(9, 23)).events

    def settled_1(self) -> Effects:
        """Night 1 played and settled once 夜晚2 has closed (03:00); its post waits for 06:00."""
        self.to_night_1()
        self.night_1()
        return self.tick(t(10, 3, 5))

    def day_2(self) -> Effects:
        """Night 1 announced at 06:00 (returned) and published at 06:10: day 2 is open."""
        self.settled_1()
        dawn = self.tick(t(10, 6))
        self.publish("g1:night1:public", t(10, 6, 10))
        return dawn


def kinds(out: Effects) -> list[str]:
    return [d.kind for d in out.drafts]


def test_a_night_announces_its_phase_deadlines_and_receipts_say_until_when(tmp_path) -> None:
    game = Game(tmp_path)
    out = game.to_night_1()
    post = next(d for d in out.drafts if d.kind == "night_deadlines")
    assert post.channel == "thread" and post.key == "g1:night1:deadlines"
    assert "夜晚1（守护、隔音、杀人、预言、吹笛）：2026-12-10 00:00 前" in post.text
    assert "夜晚2（救药、毒药）：2026-12-10 03:00 前" in post.text and "金箭" not in post.text
    receipt = next(
        d for d in game.reply("老王", "【杀人】月光", t(9, 22)).drafts if d.kind == "receipt"
    )
    assert "夜晚1截止（2026-12-10 00:00）前可更改" in receipt.text
    heal = game.reply("阿杰", "【毒药】老王", t(10, 1))
    receipt = next(d for d in heal.drafts if d.kind == "receipt")
    assert "夜晚2截止（2026-12-10 03:00）前可更改" in receipt.text


def test_night_0_closes_its_phase_at_midnight_whatever_minute_it_opened(tmp_path) -> None:
    """A game started at 22:41 (a real forum: 01:41/04:41, 3 h from the minute the night's
    post went out): 夜晚1 still closes at 00:00, as README and the night's post say."""
    game = Game(tmp_path)
    game.ref.game = replace(game.ref.game, start=t(7, 22, 41))
    out = game.tick(t(7, 22, 41))
    assert game.ref.state.phase is Phase.NIGHT and game.ref.state.number == 0
    post = next(d for d in out.drafts if d.kind == "night_deadlines")
    assert "夜晚1（金箭、托孤）：2026-12-08 00:00 前" in post.text and "夜晚2" not in post.text
    assert game.ref.times().phase_deadlines == {"1": t(8, 0), "2": t(8, 3)}


def test_the_scheduler_wakes_at_each_night_phase_deadline(tmp_path) -> None:
    game = Game(tmp_path)
    game.to_night_1()
    ref = game.ref
    assert ref.next_deadline(t(9, 22)) == t(10, 0)  # 夜晚1: the 【通灵】 list is due
    assert ref.next_deadline(t(10, 1)) == t(10, 3)  # 夜晚2: the night settles
    assert [m.what for m in ref.deadlines()] == [
        "night_phase",
        "night_phase",
        "night_settles",
        "night_end",
    ]
    game.tick(t(10, 3, 5))
    assert ref.state.phase is Phase.DAWN
    assert ref.next_deadline(t(10, 4)) == t(10, 6)  # the held dawn post


def test_the_witch_hears_the_list_once_and_the_dawn_brings_only_the_seers_answer(tmp_path) -> None:
    game = Game(tmp_path)
    game.to_night_1()
    game.night_1()
    first = game.tick(t(10, 0, 5))
    assert [(d.kind, d.destination) for d in first.drafts] == [("witch_vision", "阿杰")]
    assert "月光" in first.drafts[0].text
    game.tick(t(10, 3, 5))
    dawn = game.tick(t(10, 6))
    private = [d.kind for d in dawn.drafts if d.channel == "pm"]
    assert "witch_vision" not in private and private.count("prophecy") == 1


def test_a_night_victim_is_told_and_her_last_words_are_published_at_dawn(tmp_path) -> None:
    game = Game(tmp_path)
    game.to_night_1()
    game.night_1()
    game.tick(t(10, 0, 5))
    settled = game.tick(t(10, 3, 5))  # 夜晚2 closed: the night settles
    assert game.ref.state.phase is Phase.DAWN
    assert not [d for d in settled.drafts if d.channel == "thread"]  # announced at 06:00 only
    notice = next(d for d in settled.drafts if d.kind == "last_words_notice")
    assert notice.destination == "月光" and "2026-12-10 06:00 前" in notice.text
    words = game.reply("月光", "遗言：我是好人，请大家小心老王。", t(10, 4))
    assert words.events and "已收到遗言" in next(
        d.text for d in words.drafts if d.kind == "receipt"
    )
    assert not game.tick(t(10, 5, 59)).drafts
    dawn = game.tick(t(10, 6))
    post = next(d for d in dawn.drafts if d.key == "g1:night1:public")
    assert "月光 出局" in post.text and "【遗言】月光：" in post.text and "小心老王" in post.text
    assert game.ref.state.phase is Phase.DAWN  # the day opens when the GM publishes it
    game.publish("g1:night1:public", t(10, 6, 10))
    assert game.ref.state.phase is Phase.DAY and game.ref.state.params["opened_at"] == t(10, 6, 10)


def test_last_words_after_the_day_opened_are_refused_and_the_receipt_says_so(tmp_path) -> None:
    game = Game(tmp_path)
    game.day_2()
    late = game.reply("月光", "遗言：我是好人。", t(10, 7))
    assert not late.events and [a.kind for a in late.alerts] == ["last_words_late"]
    receipt = next(d.text for d in late.drafts if d.kind == "receipt")
    assert "已收到" not in receipt and "已过遗言截止时间" in receipt


def test_a_dead_character_without_last_words_is_refused(tmp_path) -> None:
    game = Game(tmp_path)
    game.settled_1()
    words = game.reply("老王", "遗言：我不是狼。", t(10, 4))  # alive, and never granted
    assert not words.events and [a.kind for a in words.alerts] == ["last_words_not_granted"]


def test_the_maddened_character_is_told_and_watched_in_his_own_thread(tmp_path) -> None:
    game = Game(tmp_path)
    dawn = game.day_2()
    notice = next(d for d in dawn.drafts if d.kind == "maddened_notice")
    assert notice.destination == "Rex" and "癫狂" in notice.text
    talk = game.reply("Rex", "我觉得老王很可疑", t(10, 8))
    assert [a.kind for a in talk.alerts] == ["maddened_speech"]
    sounds = game.reply("Rex", "喵喵 汪汪", t(10, 8, 30))
    assert not sounds.alerts


def test_the_day_result_publishes_the_full_voting_record_and_tells_the_voted_out(tmp_path) -> None:
    game = Game(tmp_path)
    game.day_2()
    living = [s.name for s in game.ref.state.alive()]
    for i, name in enumerate(living):
        target = "Lily99" if name == "老王" else "老王"
        assert game.vote(name, target, t(10, 9, i)).events, name
    game.vote("小明", "Lily99", t(10, 10))  # a changed ballot: the latest counts (RES-W6)
    out = game.tick(t(11, 21))
    post = next(d for d in out.drafts if d.key == "g1:day2:public")
    record = post.text[post.text.index("投票记录") :]
    assert "老王 → Lily99" in record and "小明 → Lily99" in record and "小明 → 老王" not in record
    assert record.count("→") == len(living)
    notice = next(d for d in out.drafts if d.kind == "last_words_notice")
    assert notice.destination == "老王" and "2026-12-12 06:00 前" in notice.text


def test_last_words_after_the_dawn_post_was_proposed_reach_the_gm(tmp_path) -> None:
    game = Game(tmp_path)
    game.settled_1()
    game.tick(t(10, 6))  # the dawn post is proposed; the GM has not published it yet
    words = game.reply("月光", "遗言：我是好人。", t(10, 6, 5))
    assert words.events  # in time: the next day has not opened
    assert [a.kind for a in words.alerts] == ["last_words_after_post"]


def test_a_sheriff_put_out_at_night_names_his_successor_before_the_dawn(tmp_path) -> None:
    game = Game(tmp_path)
    game.to_night_1()  # 小明 is the sheriff
    assert game.reply("老王", "【杀人】小明", t(9, 22)).events
    settled = game.tick(t(10, 3, 5))
    assert {d.kind for d in settled.drafts if d.destination == "小明"} == {
        "successor_notice",
        "last_words_notice",
    }
    named = game.reply("小明", "【殉职】阿杰", t(10, 4))
    assert named.events and not named.alerts
    dawn = game.tick(t(10, 6))
    post = next(d for d in dawn.drafts if d.key == "g1:night1:public")
    assert "小明 出局" in post.text and "阿杰 成为警长" in post.text
    assert "sheriff" in game.ref.state.seat("阿杰").addons


def test_a_restart_between_the_settlement_and_06_00_still_announces_the_night(tmp_path) -> None:
    """The held post is rebuilt from the stored events (the referee replays them)."""
    game = Game(tmp_path)
    game.settled_1()
    game.reply("月光", "遗言：我是好人，请大家小心老王。", t(10, 4))
    stored = list(game.log)
    again = Game(tmp_path)
    again.ref.replay(stored)
    assert again.ref.state.phase is Phase.DAWN
    dawn = again.ref.tick(t(10, 6, 1), Clockwork())
    post = next(d for d in dawn.drafts if d.key == "g1:night1:public")
    assert "月光 出局" in post.text and "小心老王" in post.text
    proposed = Game(tmp_path)  # … but not twice, when the outbox had it before the crash
    proposed.ref.replay(stored)
    proposed.ref.pending_public["g1:night1:public"] = post.text
    assert not [d for d in proposed.ref.tick(t(10, 6, 2), Clockwork()).drafts if d.channel == "thread"]


def test_a_character_put_out_overnight_is_told_he_is_out_not_to_resend_later(tmp_path) -> None:
    """adversary6 C3: the guard, killed in night 1 and told so by PM at 03:00, replied a skill
    before the 06:00 post: 「天神正在结算…请在下一阶段开始后重新发送」, a next step he has not."""
    game = Game(tmp_path)
    game.to_night_1()
    assert game.reply("老王", "【杀人】Tom_2", t(9, 22)).events
    game.tick(t(10, 0, 5))
    settled = game.tick(t(10, 3, 5))
    assert any(d.kind == "last_words_notice" and d.destination == "Tom_2" for d in settled.drafts)
    late = game.reply("Tom_2", "【守护】Rex", t(10, 4))
    assert not late.events
    receipt = next(d.text for d in late.drafts if d.kind == "receipt")
    assert "你已出局" in receipt and "下一阶段" not in receipt
    alive = game.reply("小明", "【预言】Rex", t(10, 4, 5))  # a living one: late for 夜晚1 (wolfadv W10)
    assert "截止时间" in next(d.text for d in alive.drafts if d.kind == "receipt")


def test_a_witch_who_takes_her_heal_back_spends_no_heal_and_saves_nobody(tmp_path) -> None:
    """adversary6 C1: 「【救药】 月光」 then 「不救了，改成【毒药】 Rex」: both stood, the heal was
    spent against her written will and 月光 lived. Taken back, nothing of the heal stands."""
    game = Game(tmp_path)
    game.to_night_1()
    game.night_1()  # the wolves kill 月光
    game.tick(t(10, 0, 5))  # 夜晚1 closes: the witch hears the list
    assert game.reply("阿杰", "【救药】 月光", t(10, 0, 10)).events
    back = game.reply("阿杰", "不救了，改成【毒药】 Rex", t(10, 0, 20))
    receipts = [d.text for d in back.drafts if d.kind == "receipt"]
    assert any(r.startswith("已收到：撤回今晚的救药") for r in receipts), receipts
    assert any("毒药 Rex" in r for r in receipts)
    standing = {(s.action, s.target) for s in game.ref.state.submissions if s.actor == "阿杰"}
    assert standing == {("poison", "Rex")}
    game.tick(t(10, 3, 5))
    dead = {s.name for s in game.ref.state.seats if not s.alive}
    assert {"月光", "Rex"} <= dead


def test_a_receipt_still_waiting_when_the_night_settles_says_it_can_no_longer_change() -> None:
    """adversary6 C14: 「…夜晚2截止（2026-12-04 03:00）前可更改…」 was sent at 03:02 unchanged."""
    from shenshi.daemon.superseding import settled_text

    t = Templates()
    text = "已收到：今晚救药 阿杰，" + t.render("receipt_until_phase", phase=2, deadline="2026-12-04 03:00")
    assert settled_text(t, text) == "已收到：今晚救药 阿杰，" + t.render("receipt_until_done")
    assert settled_text(t, "已收到：今晚杀 Rex，" + t.render("receipt_until_dawn")).endswith(t.render("receipt_until_done"))
    assert settled_text(t, "已收到：遗言 120 字") is None
    # a promise until a time keeps what the receipt acknowledges (gmattack2 F14: chess32's
    # 「已收到：今晚查证 青衣，2026-12-07 21:04 前可更改」 was rewritten as the promise alone)
    timed = "已收到：今晚查证 青衣，" + t.render("receipt_until_time", deadline="2026-12-07 21:04")
    assert settled_text(t, timed) == "已收到：今晚查证 青衣，" + t.render("receipt_until_done")


def test_a_seer_put_out_overnight_with_a_locked_target_is_told_he_is_out(tmp_path) -> None:
    """adversary7 D3: the dead seer's 「【预言】 Rex」 was told 「目标已用「确定」锁定」."""
    game = Game(tmp_path)
    game.to_night_1()
    assert game.reply("老王", "【杀人】小明", t(9, 22)).events
    assert game.reply("小明", "【预言】老王\n确定", t(9, 22, 30)).events
    game.tick(t(10, 0, 5))
    game.tick(t(10, 3, 5))
    late = game.reply("小明", "【预言】Rex", t(10, 4))
    receipt = next(d.text for d in late.drafts if d.kind == "receipt")
    assert "你已出局" in receipt and "锁定" not in receipt


def test_the_sheriffs_late_successor_is_announced_with_the_dawn_post_only(tmp_path) -> None:
    """adversary7 D2: 「月光 成为警长。」 went out at 03:22, hours before the dawn post that says
    the sheriff died, and the dawn post said it again."""
    game = Game(tmp_path)
    game.to_night_1()  # 小明 is the sheriff
    assert game.reply("老王", "【杀人】小明", t(9, 22)).events
    game.tick(t(10, 0, 5))
    game.tick(t(10, 3, 5))
    named = game.reply("小明", "【殉职】 月光", t(10, 3, 12))
    assert not [d for d in named.drafts if d.channel == "thread"]  # nothing public before 06:00
    dawn = game.tick(t(10, 6))
    [post] = [d for d in dawn.drafts if d.key == "g1:night1:public"]
    assert post.text.count("月光 成为警长。") == 1 and "小明 出局" in post.text
