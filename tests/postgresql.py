"""A throw-away PostgreSQL server for the tests: the Debian ``postgresql`` binaries, run in a
temporary directory and reached over a unix socket (no TCP port, so parallel workers never
clash).

``initdb`` refuses to run as root, so as root the server runs as the ``postgres`` user through
``runuser``. Where PostgreSQL, that user or the ``psycopg`` driver is missing, the fixtures
skip with the reason. ``SHENSHI_TEST_PG_URL`` (e.g.
``postgresql+psycopg://postgres@127.0.0.1/postgres``) names an existing server to use instead.

Fixtures (session-scoped: one server per pytest-xdist worker, started on first use)::

    postgresql_url        the server's maintenance database (``postgres``), as a superuser
    new_postgresql_db     a factory: a new empty database, its URL
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ENV_URL = "SHENSHI_TEST_PG_URL"
BIN_GLOB = "/usr/lib/postgresql/*/bin"
SERVER_USER = "postgres"
PORT = 5432  # only names the socket file: the server listens on no TCP address
SETTINGS = (
    # A test server: durability off (the data dies with the test run), few resources.
    "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
    "-c max_connections=50 -c shared_buffers=16MB"
)


def find_bin_dir() -> Path | None:
    """The newest installed PostgreSQL's binaries (Debian layout), if any."""
    found = [Path(p) for p in glob.glob(BIN_GLOB) if (Path(p) / "initdb").exists()]
    return max(found, key=lambda p: _version(p.parent.name), default=None)


def _version(name: str) -> tuple[int, ...]:
    return tuple(int(x) for x in name.split(".") if x.isdigit())


def unavailable_reason() -> str | None:
    """Why a local server cannot be started here (None: it can)."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install -e '.[test]')"
    if find_bin_dir() is None:
        return (
            f"PostgreSQL is not installed (no initdb under {BIN_GLOB}; apt-get install postgresql)"
        )
    if os.geteuid() == 0:
        if shutil.which("runuser") is None:
            return "running as root without runuser: initdb refuses root"
        try:
            pwd.getpwnam(SERVER_USER)
        except KeyError:
            return f"running as root and there is no {SERVER_USER!r} user to run the server"
    return None


class LocalServer:
    """A PostgreSQL cluster in its own temporary directory, listening on a unix socket."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="shenshi-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self._as_root = os.geteuid() == 0
        if self._as_root:
            account = pwd.getpwnam(SERVER_USER)
            os.chown(self.root, account.pw_uid, account.pw_gid)

    @property
    def url(self) -> str:
        """A superuser URL for the maintenance database."""
        return f"postgresql+psycopg://{SERVER_USER}@/postgres?host={self.root}&port={PORT}"

    def start(self) -> None:
        """initdb, then start the server and wait until it accepts connections."""
        self._run(
            "initdb", "-D", str(self.data), "-U", SERVER_USER, "-A", "trust", "-E", "UTF8",
            "--locale=C.UTF-8", "--no-sync",
        )  # fmt: skip
        options = f"-k {self.root} -c listen_addresses='' -p {PORT} {SETTINGS}"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")

    def stop(self) -> None:
        """Stop the server at once and delete its directory."""
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin_dir / program), *args]
        if self._as_root:
            command = ["runuser", "-u", SERVER_USER, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, cwd=self.root, check=False)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace") if self.log.exists() else ""
            raise RuntimeError(
                f"{program} failed ({done.returncode}): {done.stderr.strip()}\n{log[-2000:]}"
            )


@pytest.fixture(scope="session")
def postgresql_url() -> Iterator[str]:
    """A superuser URL of a PostgreSQL server for this test session (skips where there is
    none)."""
    external = os.environ.get(ENV_URL)
    if external:
        yield external
        return
    reason = unavailable_reason()
    if reason:
        pytest.skip(reason)
    server = LocalServer(find_bin_dir())  # type: ignore[arg-type]
    try:
        server.start()
        yield server.url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def new_postgresql_db(postgresql_url: str) -> Iterator[Callable[..., str]]:
    """``new_postgresql_db(template=None)``: the URL of a new database (a copy of
    ``template``, a database name, if given). An external server's databases are dropped at
    the end; a local server goes away with its directory."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    admin = create_engine(postgresql_url, isolation_level="AUTOCOMMIT")
    prefix = f"shenshi_t{os.getpid()}_"
    made: list[str] = []
    counter = itertools.count()

    def new(template: str | None = None) -> str:
        name = f"{prefix}{next(counter)}"
        copy = f' TEMPLATE "{template}"' if template else ""
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"{copy}'))
        made.append(name)
        return make_url(postgresql_url).set(database=name).render_as_string(hide_password=False)

    try:
        yield new
    finally:
        if os.environ.get(ENV_URL):
            with admin.connect() as conn:
                for name in made:
                    conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
