"""Which real forums the suite plays on (environment variables), their shared fake clock, and
their databases (what the forum itself holds, read back to check every announcement and PM).

One forum per label: ``DISCUZ``, ``PHPWIND``, ``PHPWIND_GBK``. A forum takes part when its
``SHENSHI_REAL_<LABEL>_URL`` is set; the other variables are then required (the README lists
them, with the values of the loopback installs of ``../shared/realforum/``)::

    SHENSHI_REAL_<LABEL>_URL               base URL, e.g. http://127.0.0.1:8081/
    SHENSHI_REAL_<LABEL>_GM                the GM account (default 神的使者)
    SHENSHI_REAL_<LABEL>_GM_PASSWORD
    SHENSHI_REAL_<LABEL>_PLAYERS           player accounts, comma-separated (a game casts its
                                           seats onto them: same name first, then the others)
    SHENSHI_REAL_<LABEL>_PLAYER_PASSWORD   one password for all of them
    SHENSHI_REAL_<LABEL>_STRANGER          a member who is not a player (default 路人甲)
    SHENSHI_REAL_<LABEL>_CLOCK             the libfaketime offset file the forum's PHP reads
    SHENSHI_REAL_<LABEL>_DB                mysql://USER:PASSWORD@HOST:PORT/NAME?prefix=pre_
    SHENSHI_REAL_<LABEL>_BOARD             the game board's fid (default 3)
    SHENSHI_REAL_<LABEL>_ENGINE            discuz or phpwind (default: from the label)
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from tests.forumctl import DB

LABELS = ("DISCUZ", "PHPWIND", "PHPWIND_GBK")
PREFIX = "SHENSHI_REAL_"


class NotConfigured(Exception):
    """The environment names no forum, or names one incompletely (the message says what)."""


@dataclass(frozen=True)
class RealForumSpec:
    """One running forum the suite may play on."""

    label: str
    engine: str
    base_url: str
    gm: str
    gm_password: str
    players: tuple[str, ...]
    player_password: str
    stranger: str
    clock_file: Path
    db: DB = field(repr=False)
    board: int = 3

    @property
    def id(self) -> str:
        return self.label.lower().replace("_", "-")


def spec_from_env(label: str, env: dict[str, str] | None = None) -> RealForumSpec:
    """The forum ``label`` from the environment; :class:`NotConfigured` says what is missing."""
    env = dict(os.environ if env is None else env)

    def get(name: str, default: str | None = None) -> str:
        value = env.get(f"{PREFIX}{label}_{name}", default)
        if not value:
            raise NotConfigured(f"{PREFIX}{label}_{name} is not set")
        return value

    base_url = get("URL")
    engine = get("ENGINE", "discuz" if label == "DISCUZ" else "phpwind")
    players = tuple(n.strip() for n in get("PLAYERS").split(",") if n.strip())
    clock_file = Path(get("CLOCK"))
    if not clock_file.exists():
        raise NotConfigured(f"{PREFIX}{label}_CLOCK: {clock_file} does not exist")
    return RealForumSpec(
        label=label, engine=engine, base_url=base_url if base_url.endswith("/") else base_url + "/",
        gm=get("GM", "神的使者"), gm_password=get("GM_PASSWORD"), players=players,
        player_password=get("PLAYER_PASSWORD"), stranger=get("STRANGER", "路人甲"),
        clock_file=clock_file, db=database(get("DB")), board=int(get("BOARD", "3")),
    )  # fmt: skip


def database(url: str) -> DB:
    """``mysql://user:password@host:port/name?prefix=pw_`` as forumctl's database reader."""
    parts = urlsplit(url)
    if parts.scheme not in ("mysql", "mariadb"):
        raise NotConfigured(f"expected a mysql://… database URL, got {parts.scheme or url!r}")
    prefix = parse_qs(parts.query).get("prefix", [""])[0]
    return DB(
        user=unquote(parts.username or ""), password=unquote(parts.password or ""),
        name=parts.path.lstrip("/"), prefix=prefix, host=parts.hostname or "127.0.0.1",
        port=parts.port or 3306,
    )  # fmt: skip


def configured() -> tuple[list[RealForumSpec], list[str]]:
    """The forums named by the environment, and why the others are left out."""
    found, missing = [], []
    for label in LABELS:
        try:
            found.append(spec_from_env(label))
        except NotConfigured as exc:
            missing.append(f"{label.lower()}: {exc}")
    return found, missing


class OffsetClock:
    """The forum's clock: real time plus the offset (seconds) in the libfaketime file it reads.

    ``advance`` moves the forum and this clock together by rewriting the file (libfaketime reads
    it on every call with ``FAKETIME_NO_CACHE=1``); real seconds keep passing too. Forward only
    (a post made "in the future" would stay there), in whole seconds (the file's format ``+N``).
    The daemon's ``sleep`` is ``advance``: waiting out the flood interval costs no real time.
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    def offset(self) -> int:
        text = self.path.read_text(encoding="ascii").strip() or "+0"
        return int(float(text))

    def __call__(self) -> datetime:
        return datetime.now(UTC) + timedelta(seconds=self.offset())

    def advance(self, seconds: float = 0.0, **delta: float) -> datetime:
        step = seconds + timedelta(**delta).total_seconds() if delta else seconds
        if step < 0:
            raise ValueError(f"the forum's clock only moves forward (asked {step} s)")
        offset = self.offset() + math.ceil(step)
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        tmp.write_text(f"+{offset}\n", encoding="ascii")
        os.replace(tmp, self.path)
        return self()

    def set(self, moment: datetime) -> None:
        """Jump forward to ``moment`` (never back)."""
        self.advance(max(0.0, (moment - self()).total_seconds()))

    def sleep(self, seconds: float) -> None:
        """What the daemon and the players do instead of waiting: the clock jumps."""
        if seconds > 0:
            self.advance(seconds)
