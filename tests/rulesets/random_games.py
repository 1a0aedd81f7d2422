"""Random legal-looking games for all six rulesets, as scenario documents (``scenarios/FORMAT.md``).

Public API (for the property and differential tests here, and for the daemon-path differential
that plays the same games as posts and PMs):

    random_game(ruleset, seed, *, steps=8, play=run_scenario) -> dict
        a scenario document (``expect`` is ``{}``), the same for the same arguments
    RULESETS                                                   the six ruleset ids

How a game is made. The table is dealt from the ruleset's default composition (catalog). Then
steps are added one at a time, in the ruleset's order (family A and werewolf start with a night,
chess32 with a day). After each step the document so far is run through ``play`` and only what
the GM announces is read back (deaths, the bound survivor, runoff candidates, flags, the winner),
the way players learn it; the generator knows the roles it dealt. The game stops at the winner
(FORMAT "Game over") or after ``steps`` steps.

What a step holds. Every living player with a power uses it most of the time, on a living
player; joint units usually agree; every elector usually votes. Around that, a little of
everything the rules must cope with: changed targets, targets changed back, entries with and
without ``extra.t`` and listed out of time order, PMs outside the window or after the deadline,
actions and ballots by dead players (family A and chess), ballots by the bound survivor, delegated ballots, ballots
for dead players, short or missing kill declarations, self-targets, 确定 locks, last words,
summoned victims, penalty divinations, and substitutions (``substitutions``, new names ``N1``…).

The documents are legal: ``play`` never refuses one (every name an entry uses belongs to the
scenario, every substitution is of a living seat by a new name, nothing follows the winner).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

from shenshi.rulesets.registry import find_ruleset
from shenshi.rulesets.scenario import run_scenario

RULESETS = ("game5", "game6-8", "game6-10", "game6-13", "chess32", "werewolf")
FAMILY_A = ("game5", "game6-8", "game6-10", "game6-13")
KILLER_ROLES = ("killer", "alliance_killer", "independent_killer")

Play = Callable[[Mapping[str, Any]], dict[str, dict[str, Any]]]
T0 = datetime(2024, 3, 4, 20, 0)  # a Monday evening: the first step opens here
STEP = timedelta(hours=36)


def random_game(
    ruleset: str, seed: int, *, steps: int = 8, play: Play = run_scenario
) -> dict[str, Any]:
    """A random legal-looking game of ``ruleset`` as a scenario document (see the module doc)."""
    builder = {"chess32": _Chess, "werewolf": _Werewolf}.get(ruleset, _FamilyA)
    return builder(ruleset, random.Random(f"{ruleset}:{seed}"), play).build(steps)


def _iso(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%S")


class _Game:
    """What the generator knows: the deal, who is alive, names, the document so far."""

    first: tuple[str, int] = ("night", 1)

    def __init__(self, ruleset: str, rng: random.Random, play: Play) -> None:
        self.ruleset = ruleset
        self.rng = rng
        self.play = play
        self.info = find_ruleset(ruleset).info
        self.players = self.deal()
        self.role = {p["name"]: p["role"] for p in self.players}
        self.team = {p["name"]: p["team"] for p in self.players}
        self.alive = [p["name"] for p in self.players if p.get("alive", True)]
        self.everyone = [p["name"] for p in self.players]
        self.fresh = 0  # substitutes so far (N1, N2, …)
        self.gone: set[str] = set()  # players whose seat a substitute took over
        self.doc: dict[str, Any] = {
            "id": f"random-{ruleset}",
            "ruleset": ruleset,
            "description": "a random legal-looking game (tests/rulesets/random_games.py)",
            "config": self.config(),
            "players": self.players,
            "steps": [],
            "expect": {},
        }
        self.results: dict[str, dict[str, Any]] = {}
        self.winner: Any = None

    # -- hooks ---------------------------------------------------------------------------------

    def deal(self) -> list[dict[str, Any]]:
        roles = [r for r, n in self.info.composition.items() for _ in range(n)]
        self.rng.shuffle(roles)
        players = []
        for i, role in enumerate(roles, 1):
            player = {"name": f"P{i}", "role": role, "team": self.info.roles[role].team}
            if self.rng.random() < 0.04:
                player["alive"] = False  # dead before the scenario starts
            players.append(player)
        return players

    def config(self) -> dict[str, Any]:
        return {}

    def night(self, n: int, at: datetime) -> dict[str, Any]:
        raise NotImplementedError

    def day(self, n: int, at: datetime) -> dict[str, Any]:
        raise NotImplementedError

    def next_step(self, phase: str, n: int) -> tuple[str, int]:
        return ("day", n) if phase == "night" else ("night", n + 1)

    def learn(self, step: dict[str, Any], result: dict[str, Any]) -> None:
        """Read the step's public result: deaths, then the substitutions that took effect."""
        dead = {d["name"] for d in result.get("deaths", ())}
        self.alive = [n for n in self.alive if n not in dead]
        for sub in step.get("substitutions", ()):
            if sub["out"] in self.alive:
                self.gone.add(sub["out"])
                self.alive[self.alive.index(sub["out"])] = sub["in"]
                self.role[sub["in"]] = self.role[sub["out"]]
                self.team[sub["in"]] = self.team[sub["out"]]
                self.rename(sub["out"], sub["in"])

    def rename(self, old: str, new: str) -> None:
        """A substitute took over ``old``'s seat (family state keyed by name follows)."""

    # -- building ------------------------------------------------------------------------------

    def build(self, steps: int) -> dict[str, Any]:
        phase, n = self.first
        for k in range(steps):
            at = T0 + STEP * k
            step = self.night(n, at) if phase == "night" else self.day(n, at)
            if self.rng.random() < 0.06:
                self.substitute(step)
            result = self.run(step)
            self.learn(step, result)
            if result.get("winner") is not None:
                break
            phase, n = self.next_step(phase, n)
        return self.doc

    def run(self, step: dict[str, Any]) -> dict[str, Any]:
        """Append ``step`` (or replace the last step by it) and run the document."""
        steps = self.doc["steps"]
        if not steps or steps[-1] is not step:
            steps.append(step)
        self.results = self.play(self.doc)
        label = step.get("label") or f"{step['phase']}{step.get('n', '')}"
        return self.results[label]

    def substitute(self, step: dict[str, Any]) -> None:
        if not self.alive:
            return
        self.fresh += 1
        new = f"N{self.fresh}"
        self.everyone.append(new)
        step["substitutions"] = [{"out": self.rng.choice(self.alive), "in": new}]

    # -- small choices -------------------------------------------------------------------------

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def living(self, *, but: str | None = None) -> list[str]:
        return [n for n in self.alive if n != but] or list(self.alive)

    def target(self, *, but: str | None = None, noise: float = 0.04) -> str:
        """A living player (sometimes anyone of the scenario: a dead one is invalid). Never a
        player who left his seat: the daemon reads his name as the seat's (the substitution post
        told the players so), where a scenario has no such player."""
        anyone = [n for n in self.everyone if n not in self.gone]
        pool = anyone if self.chance(noise) else self.living(but=but)
        return self.rng.choice(pool)

    def dead(self) -> list[str]:
        return [
            n
            for n in self.everyone
            if n not in self.alive and n in self.role and n not in self.gone
        ]

    def stamp(self, entry: dict[str, Any], t: datetime | None) -> dict[str, Any]:
        if t is not None:
            entry.setdefault("extra", {})["t"] = _iso(t)
        return entry

    def times(
        self, start: datetime, hours: float, count: int, timed: float
    ) -> list[datetime | None]:
        """``count`` times in [start, start + hours), some left out (untimed entries)."""
        out: list[datetime | None] = []
        for _ in range(count):
            if self.chance(timed):
                out.append(start + timedelta(minutes=self.rng.randrange(int(hours * 60))))
            else:
                out.append(None)
        return out

    def sent(
        self, made: list[dict[str, Any]], start: datetime, hours: float, timed: float
    ) -> list[dict[str, Any]]:
        """Each action sent once, sometimes twice (the same target again), with or without times."""
        out = []
        for entry in made:
            for t in self.times(start, hours, 1 + self.chance(0.15), timed):
                copy = dict(entry)
                if "extra" in entry:
                    copy["extra"] = dict(entry["extra"])  # each copy its own time
                out.append(self.stamp(copy, t))
        return out

    def from_the_dead(self, action: str) -> list[dict[str, Any]]:
        """Now and then a dead player still sends ``action``: it must never count."""
        return [self.action(a, action, self.target()) for a in self.dead() if self.chance(0.05)]

    def shuffled(self, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """List order is not time order: timed entries may be listed anywhere."""
        if self.chance(0.5):
            self.rng.shuffle(entries)
        return entries

    def action(self, actor: str, action: str, target: str | None, **extra: Any) -> dict[str, Any]:
        entry: dict[str, Any] = {"actor": actor, "action": action, "target": target}
        if extra:
            entry["extra"] = extra
        return entry

    def ballot(self, voter: str, target: str, **extra: Any) -> dict[str, Any]:
        entry: dict[str, Any] = {"voter": voter, "target": target}
        if extra:
            entry["extra"] = extra
        return entry


# ------------------------------------------------------------------------------------------------
# Family A (游戏五 / 游戏六)


class _FamilyA(_Game):
    """Nights of PMs (window, declarations, joint units), days of ballots, runoffs, summons."""

    def config(self) -> dict[str, Any]:
        if self.ruleset == "game6-8" and self.chance(0.5):
            killers = [p["name"] for p in self.players if p["role"] == "killer"]
            self.rng.shuffle(killers)
            return {"killer_order": killers}  # otherwise seat order (RES-A1)
        return {}

    def __init__(self, ruleset: str, rng: random.Random, play: Play) -> None:
        super().__init__(ruleset, rng, play)
        self.bound: str | None = None
        self.victims: list[list[str]] = []  # night victims, night by night
        self.flagged = False  # last night's declaration was flagged short (RES-A19)
        self.picks: dict[str, str] = {}  # tonight's pick of each joint unit (by role)
        self.last_bind: str | None = None

    def rename(self, old: str, new: str) -> None:
        if self.bound == old:
            self.bound = new

    def night(self, n: int, at: datetime) -> dict[str, Any]:
        step: dict[str, Any] = {"phase": "night", "n": n}
        timed = self.rng.choice([0.0, 0.5, 1.0])
        window = None
        if timed and self.chance(0.5):
            window = (at, at + timedelta(hours=20))
            step["window"] = {"open": _iso(window[0]), "close": _iso(window[1])}
        actions = []
        killers_first = sorted(self.alive, key=lambda a: self.role[a] not in KILLER_ROLES)
        for actor in killers_first:
            for power in self.info.roles[self.role[actor]].powers:
                if not self.chance(0.85):
                    continue
                for t in self.times(at - timedelta(hours=1), 22, 1 + self.chance(0.25), timed):
                    actions.append(self.stamp(self.night_action(actor, power), t))
        for actor in self.dead():
            if self.chance(0.05):
                powers = self.info.roles[self.role[actor]].powers
                actions.append(self.action(actor, powers[0], self.target()))
        if self.chance(0.05) and self.alive:  # a penalty divination sent by night: out of window
            actions.append(
                self.action(
                    self.rng.choice(self.alive), "divine", self.target(), extra_divination=True
                )
            )
        seers = [a for a in self.alive if self.role[a] == "seer"]
        if seers and timed and self.chance(0.1):
            step["gm_answered"] = {"actor": seers[0], "t": _iso(at + timedelta(hours=10))}
        step["actions"] = self.shuffled(actions)
        return step

    def night_action(self, actor: str, power: str) -> dict[str, Any]:
        if power in ("pray", "bind") and self.chance(0.4):
            # civilians guess the killers' pick (saves), or keep last night's bind (streaks)
            killer = next((r for r in KILLER_ROLES if r in self.picks), None)
            if killer and (power == "pray" or self.chance(0.6)):
                return self.action(actor, power, self.picks[killer])
            if power == "bind" and self.last_bind in self.alive:
                return self.action(actor, power, self.last_bind)
        if power != "kill":
            target = self.target()
            if power == "bind":
                self.last_bind = target
            return self.action(actor, power, target)
        killers = [a for a in self.alive if self.team[a] == "killers"]
        if self.chance(0.04):
            target = actor  # self-kill: allowed or not, depending on the ruleset and who is left
        elif self.chance(0.05) and killers:
            target = self.rng.choice(killers)
        else:
            target = self.shared_target(actor)
        extra: dict[str, Any] = {}
        roll = self.rng.random()
        if roll < 0.06:
            extra["declaration_missing"] = True
        elif roll < 0.12:
            extra["story"] = True
        elif roll < 0.3:
            extra["declaration_chars"] = self.rng.choice([40, 99, 100])
        elif roll < 0.8:
            extra["declaration_chars"] = self.rng.randrange(100, 400)
        return self.action(actor, "kill", target, **extra)

    def shared_target(self, actor: str) -> str:
        """Members of a joint unit usually agree: the unit's pick, unless one goes astray."""
        key = self.role[actor]
        if key not in self.picks or self.chance(0.2):
            self.picks[key] = self.target(but=actor)
        return self.picks[key]

    def learn(self, step: dict[str, Any], result: dict[str, Any]) -> None:
        self.picks = {}
        if step["phase"] == "night":
            self.bound = result.get("bound")
            self.victims.append([d["name"] for d in result.get("deaths", ())])
            self.flagged = any(d["rule"] == "declaration_short" for d in result.get("daemon", ()))
        else:
            self.bound = None
        super().learn(step, result)

    def electors(self) -> list[str]:
        return [n for n in self.alive if n != self.bound]

    def ballots(
        self, voters: list[str], pick: Callable[[str], str], start: datetime, timed: float
    ) -> list[dict[str, Any]]:
        out = []
        for voter in voters:
            if not self.chance(0.96):
                continue  # a missing ballot: an automatic exit (RES-A18)
            for t in self.times(start, 23, 1 + self.chance(0.1), timed):
                via = "pm_delegate" if self.chance(0.08) else "post"
                extra = {"via": via} if via != "post" else {}
                out.append(self.stamp(self.ballot(voter, pick(voter), **extra), t))
        if self.bound and self.chance(0.3):
            out.append(self.ballot(self.bound, self.target()))
        for voter in self.dead():
            if self.chance(0.03):
                out.append(self.ballot(voter, self.target()))
        return self.shuffled(out)

    def day(self, n: int, at: datetime) -> dict[str, Any]:
        timed = self.rng.choice([0.0, 0.5, 1.0])
        vote_open = at + timedelta(hours=12)
        step: dict[str, Any] = {"phase": "day", "n": n}
        if timed:
            step["round1_close"] = _iso(vote_open + timedelta(hours=24))
        victims = self.victims[-1] if self.victims else []
        accusations = []
        for victim in victims:
            if self.chance(0.6):
                accused = self.rng.sample(
                    self.living(), min(len(self.living()), self.rng.randint(1, 2))
                )
                accusations.append({"from": victim, "accused": accused})
        if accusations:
            step["last_words_accusations"] = accusations
        if self.flagged and self.chance(0.6):
            civilians = [c for c in self.alive if self.team[c] == "civilians"]
            if civilians:
                actor = self.rng.choice(civilians)
                times = self.times(vote_open, 26, 1 + self.chance(0.3), 1.0)
                step["actions"] = [
                    self.stamp(
                        self.action(actor, "divine", self.target(), extra_divination=True), t
                    )
                    for t in times
                ]
        favourites = self.rng.sample(self.living(), min(3, len(self.living())))
        step["votes"] = self.ballots(
            self.electors(),
            lambda v: self.rng.choice(favourites) if self.chance(0.8) else self.target(),
            vote_open,
            timed,
        )
        result = self.run(step)
        runoff = next((f for f in result["public_facts"] if f["kind"] == "runoff"), None)
        if runoff is None:  # (the day's result is not known before the runoff's ballots)
            return step
        candidates = runoff["candidates"]
        later = vote_open + timedelta(hours=24)
        step["runoff_votes"] = self.ballots(
            self.electors(),
            lambda v: self.rng.choice(candidates) if self.chance(0.95) else self.target(),
            later,
            timed,
        )
        result = self.run(step)
        if result.get("executed") is None and "final_tally" in result:
            tied = sorted(
                k
                for k, v in result["final_tally"].items()
                if v == max(result["final_tally"].values())
            )
            nights = [v for v in self.victims if v]
            if nights and tied:
                summoned = self.rng.choice(nights)
                online = [s for s in summoned if self.chance(0.7)]
                votes = [self.ballot(s, self.rng.choice(tied)) for s in online if self.chance(0.9)]
                step["summon"] = {"online": online, "votes": votes}
        return step


# ------------------------------------------------------------------------------------------------
# chess32 (楚汉)


class _Chess(_Game):
    """Days of two-round votes with changes and abstentions; nights of all the powers."""

    first = ("day", 1)

    def __init__(self, ruleset: str, rng: random.Random, play: Play) -> None:
        super().__init__(ruleset, rng, play)
        self.picks: dict[str, str] = {}  # tonight's shared platform per camp

    def deal(self) -> list[dict[str, Any]]:
        players = []
        for camp in ("chu", "han"):
            roles = [r for r, n in self.info.composition.items() for _ in range(n)]
            for i, role in enumerate(roles, 1):
                player = {"name": f"{camp[0].upper()}{i}", "role": role, "team": camp}
                if role != "general" and self.rng.random() < 0.03:
                    player["alive"] = False
                players.append(player)
        self.rng.shuffle(players)
        return players

    def config(self) -> dict[str, Any]:
        return {"day_hours": 24, "night_hours": 24}

    def next_step(self, phase: str, n: int) -> tuple[str, int]:
        return ("night", n) if phase == "day" else ("day", n + 1)

    def camp_of(self, name: str, role: str) -> list[str]:
        return [n for n in self.alive if self.team[n] == self.team[name] and self.role[n] == role]

    def night(self, n: int, at: datetime) -> dict[str, Any]:
        step: dict[str, Any] = {"phase": "night", "n": n}
        timed = self.rng.choice([0.0, 0.5, 1.0])
        deadline = at + timedelta(hours=23, minutes=50)
        if timed:
            step["deadline"] = _iso(deadline)
        horse_pick: dict[str, str] = {}
        self.picks = {}
        actions = []
        for actor in sorted(self.alive, key=lambda a: self.role[a] != "horse"):
            role, team = self.role[actor], self.team[actor]
            own = [x for x in self.alive if self.team[x] == team]
            enemy = [x for x in self.alive if self.team[x] != team]
            made: list[dict[str, Any]] = []
            if role == "general":
                if self.chance(0.6):
                    made.append(
                        self.action(
                            actor,
                            "kill",
                            self.target(but=actor),
                            declaration_chars=self.rng.choice([60, 200, 300]),
                        )
                    )
                if self.chance(0.15):
                    made.append(
                        self.action(
                            actor,
                            "swap_general",
                            self.rng.choice(own if self.chance(0.9) else self.alive),
                        )
                    )
            elif role == "cannon" and self.chance(0.6):
                # 重叠炮 (the other cannon as platform), 连环炮 (a shared platform), or any
                others = [c for c in self.camp_of(actor, "cannon") if c != actor]
                shared = self.picks.get(f"{team}-platform")
                roll = self.rng.random()
                if others and roll < 0.2:
                    platform = others[0]
                elif shared and roll < 0.4:
                    platform = shared
                else:
                    platform = self.rng.choice(self.alive)
                self.picks[f"{team}-platform"] = platform
                made.append(
                    self.action(actor, "cannon_kill", self.target(but=actor), platform=platform)
                )
            elif role == "chariot" and self.chance(0.6):
                rivals = [c for c in enemy if self.role[c] in ("chariot", "cannon")]
                back = self.picks.get(f"imprison-{actor}")  # an enemy chariot chose me
                if back and self.chance(0.6):
                    target = back  # enemy chariots imprisoning each other [CH:L71]
                elif rivals and self.chance(0.4):
                    target = self.rng.choice(rivals)
                else:
                    target = self.target(but=actor)
                self.picks[f"imprison-{target}"] = actor
                made.append(self.action(actor, "imprison", target))
            elif role == "horse" and self.chance(0.8):
                if team not in horse_pick or self.chance(0.15):
                    horse_pick[team] = self.rng.choice(enemy or self.alive)
                made.append(self.action(actor, "check", horse_pick[team]))
            elif role == "elephant" and self.chance(0.7):
                partner = [e for e in self.camp_of(actor, "elephant") if e != actor]
                pool = (
                    partner
                    if partner and self.chance(0.25)
                    else own
                    if self.chance(0.7)
                    else self.alive
                )
                made.append(self.action(actor, "protect", self.rng.choice(pool)))
            elif role == "left_advisor" and self.chance(0.7):
                made.append(self.action(actor, "curse", self.rng.choice(enemy or self.alive)))
            elif role == "right_advisor" and self.chance(0.7):
                made.append(self.action(actor, "bless", self.rng.choice(own)))
            elif role == "soldier" and self.chance(0.8):
                checked = horse_pick.get("han" if team == "chu" else "chu")
                if checked and self.chance(0.2):
                    target = checked  # 别马腿
                else:
                    target = self.rng.choice(own if self.chance(0.7) else self.alive)
                made.append(self.action(actor, "pray", target))
            actions += self.sent(made, at, 24, timed)
        step["actions"] = self.shuffled(actions + self.from_the_dead("pray"))
        return step

    def day(self, n: int, at: datetime) -> dict[str, Any]:
        timed = self.rng.choice([0.0, 0.5, 1.0])
        close = at + timedelta(hours=24)
        step: dict[str, Any] = {"phase": "day", "n": n}
        if timed:
            step["round1_close"] = _iso(close)
        favourites = self.rng.sample(self.living(), min(3, len(self.living())))

        def pick(voter: str) -> str:
            if self.chance(0.15):
                return "ABSTAIN"
            return self.rng.choice(favourites) if self.chance(0.8) else self.target()

        step["votes"] = self.chess_ballots(pick, at, 24, timed)
        if self.chance(0.5):
            step["post_counts"] = {p: self.rng.randrange(0, 30) for p in self.alive}
        result = self.run(step)
        runoff = next((f for f in result["public_facts"] if f["kind"] == "runoff"), None)
        if runoff is None:  # (the day's result is not known before the runoff's ballots)
            return step
        candidates = runoff["candidates"]
        if timed:
            step["round2_close"] = _iso(close + timedelta(hours=24))
        step["runoff_votes"] = self.chess_ballots(
            lambda v: "ABSTAIN" if self.chance(0.1) else self.rng.choice(candidates),
            close,
            24,
            timed,
        )
        return step

    def chess_ballots(
        self, pick: Callable[[str], str], start: datetime, hours: int, timed: float
    ) -> list[dict[str, Any]]:
        out = []
        for voter in self.alive:
            if not self.chance(0.9):
                continue
            for t in self.times(start, hours, 1 + self.chance(0.2) + self.chance(0.1), timed):
                extra = {"format_ok": False} if self.chance(0.04) else {}
                out.append(self.stamp(self.ballot(voter, pick(voter), **extra), t))
        for voter in self.dead():  # a dead player's ballot: not_eligible, never counted
            if self.chance(0.03):
                out.append(self.ballot(voter, pick(voter)))
        return self.shuffled(out)


# ------------------------------------------------------------------------------------------------
# werewolf (狼人)


class _Werewolf(_Game):
    """Night 0 (lovers, 托孤), nights in two phases, the sheriff election, vote-outs."""

    first = ("night", 0)

    def __init__(self, ruleset: str, rng: random.Random, play: Play) -> None:
        super().__init__(ruleset, rng, play)
        self.sheriff: str | None = None

    def deal(self) -> list[dict[str, Any]]:
        roles = ["seer", "witch", "guard", "cupid", "piper"]
        roles += ["werewolf"] * self.rng.randint(2, 3) + ["villager"] * self.rng.randint(2, 4)
        self.rng.shuffle(roles)
        players = []
        for i, role in enumerate(roles, 1):
            player = {"name": f"P{i}", "role": role, "team": self.info.roles[role].team}
            if role == "villager" and self.rng.random() < 0.1:
                player["alive"] = False  # out before the record starts (RES-W15)
            players.append(player)
        return players

    def next_step(self, phase: str, n: int) -> tuple[str, int]:
        return ("day", n + 1) if phase == "night" else ("night", n)

    def learn(self, step: dict[str, Any], result: dict[str, Any]) -> None:
        super().learn(step, result)
        if "sheriff" in result:
            self.sheriff = result["sheriff"]
        for name, camp in (result.get("camps") or {}).items():
            self.team[name] = camp

    def night(self, n: int, at: datetime) -> dict[str, Any]:
        step: dict[str, Any] = {"phase": "night", "n": n}
        actions = []
        wolves = [a for a in self.alive if self.role[a] == "werewolf"]
        if n == 0:
            for actor in self.alive:
                if self.role[actor] == "cupid" and self.chance(0.9):
                    a, b = self.rng.sample(self.alive, 2) if len(self.alive) > 1 else (actor, actor)
                    actions.append(self.action(actor, "pair_lovers", a, target2=b))
            if wolves and self.chance(0.4):
                actions.append(
                    self.action(self.rng.choice(wolves), "lone_wolf", self.rng.choice(wolves))
                )
            step["actions"] = actions
            return step
        timed = self.rng.choice([0.0, 0.5, 1.0])
        deadlines = {"1": at + timedelta(hours=4), "2": at + timedelta(hours=7)}
        if timed:
            step["phase_deadlines"] = {k: _iso(v) for k, v in deadlines.items()}
        killers = [
            a
            for a in self.alive
            if self.role[a] in ("werewolf", "cupid") or self.team[a] == "lovers"
        ]
        pack_target = self.target()
        for actor in self.alive:
            role = self.role[actor]
            made: list[dict[str, Any]] = []
            if role == "guard":
                if self.chance(0.7):
                    guarded = pack_target if self.chance(0.3) else self.target()
                    made.append(self.action(actor, "guard", guarded))
                if self.chance(0.5):
                    made.append(self.action(actor, "silence_guard", self.target()))
            elif role == "seer" and self.chance(0.8):
                made.append(self.action(actor, "divine", self.target()))
            elif role == "piper" and self.chance(0.8):
                made.append(self.action(actor, "pipe", self.target()))
            elif role == "witch":
                if self.chance(0.3):
                    made.append(
                        self.action(
                            actor, "heal", pack_target if self.chance(0.7) else self.target()
                        )
                    )
                if self.chance(0.2):
                    poisoned = pack_target if self.chance(0.3) else self.target()
                    made.append(self.action(actor, "poison", poisoned))
            if actor in killers and self.chance(0.6):
                target = pack_target if self.chance(0.7) else self.target()
                extra = {"confirm": True} if self.chance(0.15) else {}
                made.append(self.action(actor, "kill", target, **extra))
            actions += self.sent(made, at, 8, timed)
        step["actions"] = self.shuffled(actions + self.from_the_dead("divine"))
        return step

    def day(self, n: int, at: datetime) -> dict[str, Any]:
        step: dict[str, Any] = {"phase": "day", "n": n}
        timed = self.rng.choice([0.0, 0.5, 1.0])
        favourites = self.rng.sample(self.living(), min(3, len(self.living())))
        votes = []
        for voter in self.alive:
            if not self.chance(0.92):
                continue
            for t in self.times(at, 30, 1 + self.chance(0.15), timed):
                target = self.rng.choice(favourites) if self.chance(0.8) else self.target()
                votes.append(self.stamp(self.ballot(voter, target), t))
        step["votes"] = self.shuffled(votes)
        actions = []
        for actor in self.alive:
            if self.role[actor] == "werewolf" and self.chance(0.15):
                actions.append(self.action(actor, "lone_blade", self.target(but=actor)))
        sheriff = self.sheriff
        if sheriff in self.alive and self.chance(0.5):
            actions.append(self.action(sheriff, "sheriff_successor", self.target(but=sheriff)))
        if actions:
            step["actions"] = actions
        return step
