"""The daemon in a subprocess, driven one cycle at a time, so that it can be killed and restarted.

``python -m shenshi.demo.runner --config shenshi.toml --clock clock.txt [--auto-approve]``
bootstraps the daemon against the forum and the database of the configuration, on the clock
kept in the file (:class:`~shenshi.demo.clockfile.FileClock`, shared with the test process
that runs the sandbox forum and the players), prints ``{"ready": …}`` and then answers one
command per line of standard input with one JSON line:

``cycle``                      poll, tick, publish; with ``--auto-approve`` approve what was
                               proposed (the GM in review mode)
``cycle crash=after_send``     the same, but the process kills itself (SIGKILL) right after
                               the forum accepts its next post or PM, before recording it
``cycle crash=after_post``     … its next public post (``after_pm``: its next PM)
``cycle crash=before_intake``  … right after its next poll stored new posts or PMs, before
                               processing them
``cycle crash=ops:N``          … at its N-th step: the end of a write transaction, or an HTTP
                               request about to go out or just answered (an arbitrary moment)
``quit``                       exit

With ``--config`` given several times the daemon serves every game (a
:class:`~shenshi.daemon.fleet.Fleet`): ``cycle`` is one round, and the answer adds ``games``,
each game's ``polled``, ``held_by`` and ``errors`` (the crash points are for one game).

The test process may also SIGKILL the daemon at a random instant during a cycle
(:meth:`DaemonProcess.kill_during_next_cycle`). A cycle the daemon could not do because another
daemon holds the game's lease answers ``held_by``.

:class:`DaemonProcess` is the test process's side (a :class:`~shenshi.demo.director.Daemon`).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from shenshi.demo.director import Turn


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def arm(service: Any, crash: str) -> None:
    """Make the service kill its own process at the point named by ``crash``."""
    sends = {
        "after_send": ("post_reply", "send_pm"),
        "after_post": ("post_reply",),
        "after_pm": ("send_pm",),
    }
    if crash in sends:
        adapter = service.adapter
        for name in sends[crash]:
            original = getattr(adapter, name)

            def crashing(
                *args: Any, _original: Callable[..., Any] = original, **kwargs: Any
            ) -> Any:
                _original(*args, **kwargs)
                _die()

            setattr(adapter, name, crashing)
    elif crash.startswith("ops:"):
        _die_at_step(service, int(crash.removeprefix("ops:")))
    elif crash == "before_intake":
        original = service.process

        def crashing_process(*args: Any, _original: Callable[..., int] = original, **kwargs: Any) -> int:
            if next(iter(service.store.stream_evidence(service.game_id, unprocessed=True)), None):
                _die()
            return _original(*args, **kwargs)

        service.process = crashing_process
    else:
        raise ValueError(f"unknown crash point {crash!r}")


def _die_at_step(service: Any, n: int) -> None:
    """Count the daemon's steps (write transactions ending, HTTP requests going out and coming
    back) and die at the ``n``-th."""
    left = [n]

    def step() -> None:
        left[0] -= 1
        if left[0] <= 0:
            _die()

    service.store.after_write = step
    http = service.adapter.http
    original = http._once

    def once(*args: Any, _original: Callable[..., Any] = original, **kwargs: Any) -> Any:
        step()
        response = _original(*args, **kwargs)
        step()
        return response

    http._once = once


def main(argv: list[str] | None = None) -> int:
    from shenshi.bootstrap import bootstrap
    from shenshi.config import load_config
    from shenshi.daemon.cycle import Cycle
    from shenshi.demo.clockfile import FileClock
    from shenshi.demo.director import approve_all, unsent

    parser = argparse.ArgumentParser(prog="python -m shenshi.demo.runner", description=__doc__)
    parser.add_argument("--config", type=Path, required=True, action="append")
    parser.add_argument("--clock", type=Path, required=True)
    parser.add_argument("--auto-approve", action="store_true")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    clock = FileClock(args.clock)
    if len(args.config) > 1:
        return _serve_fleet(args, clock)
    service = bootstrap(
        load_config(args.config[0]), clock=clock, sleep=lambda s: clock.advance(seconds=s)
    )
    service.start()  # the first cycle logs in (a forum that does not answer is a failed cycle)
    cycle = Cycle(service, clock)
    _answer({"ready": True, "game": service.game_id})
    for line in sys.stdin:
        command, _, option = line.strip().partition(" ")
        if command == "quit":
            break
        if command != "cycle":
            _answer({"error": f"unknown command {command!r}"})
            continue
        if option.startswith("crash="):
            arm(service, option[len("crash=") :])
        result = cycle.run()
        approved = approve_all(service) if args.auto_approve else 0
        _answer({"polled": result.polled, "next_delay": cycle.next_delay(), "approved": approved,
                 "errors": result.errors, "unsent": unsent(service), "held_by": result.held_by})  # fmt: skip
    return 0


def _serve_fleet(args: argparse.Namespace, clock: Any) -> int:
    """Several games in one daemon (``--config`` repeated): one round per ``cycle``; the answer
    sums the games and gives each game's own under ``games``."""
    from shenshi.bootstrap import bootstrap_fleet
    from shenshi.config import load_config
    from shenshi.demo.director import approve_all, unsent

    fleet = bootstrap_fleet([load_config(p) for p in args.config], clock=clock,
                            sleep=lambda s: clock.advance(seconds=s))  # fmt: skip
    fleet.start()
    _answer({"ready": True, "games": fleet.names})
    for line in sys.stdin:
        command = line.strip()
        if command == "quit":
            break
        if command != "cycle":
            _answer({"error": f"unknown command {command!r}"})
            continue
        results = fleet.run()
        approved = sum(approve_all(s) for s in fleet.services) if args.auto_approve else 0
        games = {name: {"polled": r.polled, "held_by": r.held_by, "errors": r.errors} for name, r in results.items()}
        _answer({"polled": any(r.polled for r in results.values()), "next_delay": fleet.next_delay(),
                 "approved": approved, "errors": [e for r in results.values() for e in r.errors],
                 "unsent": sum(unsent(s) for s in fleet.services), "games": games,
                 "held_by": next((r.held_by for r in results.values() if r.held_by), None)})  # fmt: skip
    fleet.close()
    return 0


def _answer(data: Mapping[str, Any]) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
    sys.stdout.flush()


class DaemonDied(RuntimeError):
    """The daemon process ended (it was killed, or it crashed)."""


class DaemonProcess:
    """The test process's handle on a daemon subprocess (lockstep: one cycle per request)."""

    def __init__(self, config: Path | Sequence[Path], clock: Path, *, auto_approve: bool = True,
                 env: Mapping[str, str] | None = None, stderr: Path | None = None) -> None:  # fmt: skip
        configs = [config] if isinstance(config, Path) else list(config)
        self.argv = [sys.executable, "-m", "shenshi.demo.runner", "--clock", str(clock)]
        for path in configs:  # several: one daemon serving every game (a fleet)
            self.argv += ["--config", str(path)]
        if auto_approve:
            self.argv.append("--auto-approve")
        self.env = {**os.environ, **dict(env or {})}
        self.stderr_path = stderr
        self.proc: subprocess.Popen[str] | None = None
        self.starts = 0
        self.kills = 0
        self._crash: str | None = None
        self._kill_after: float | None = None
        self.held_by: str | None = None  # the lease holder the last cycle met, if another daemon
        self.games: dict[str, dict[str, Any]] = {}  # a fleet: each game's polled / held_by / errors
        self.start()

    def start(self) -> None:
        """Start (or restart) the daemon and wait until it is ready."""
        err: IO[str] | int = subprocess.DEVNULL
        if self.stderr_path is not None:
            err = open(self.stderr_path, "a", encoding="utf-8")  # noqa: SIM115 - kept by the child
        self.proc = subprocess.Popen(
            self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True,
            encoding="utf-8", env=self.env,
        )  # fmt: skip
        if err is not subprocess.DEVNULL:
            err.close()
        self.starts += 1
        answer = self._read()
        if not answer.get("ready"):
            raise DaemonDied(f"the daemon did not start: {answer}")

    def crash_at(self, point: str) -> None:
        """Have the daemon kill itself at ``point`` (``after_send``, ``after_post``,
        ``after_pm``, ``before_intake``) during its next cycle that gets there."""
        self._crash = point

    def kill_during_next_cycle(self, seconds: float) -> None:
        """SIGKILL the daemon ``seconds`` (real time) into its next cycle, wherever it is then
        (a cycle that ends sooner is not interrupted)."""
        self._kill_after = seconds

    def cycle(self) -> Turn:
        """One cycle; a daemon that dies during it is restarted (the cycle reports nothing)."""
        command = "cycle" + (f" crash={self._crash}" if self._crash else "")
        self._crash = None
        timer = None
        fired: list[bool] = []
        if self._kill_after is not None:
            assert self.proc is not None
            timer = threading.Timer(self._kill_after, self._kill_quietly, args=(self.proc, fired))
            self._kill_after = None
        try:
            self._write(command)
            if timer is not None:
                timer.start()
            answer = self._read()
        except DaemonDied:
            self.kills += 1
            self.start()
            return Turn(False, 1.0)
        finally:
            if timer is not None:
                timer.cancel()
        if timer is not None and fired and self.proc is not None:
            self.proc.wait()  # killed just after it answered
            self.kills += 1
            self.start()
        self.held_by = answer.get("held_by")
        self.games = answer.get("games", {})
        return Turn(bool(answer["polled"]), float(answer["next_delay"]), int(answer["approved"]),
                    tuple(answer.get("errors", ())), int(answer["unsent"]))  # fmt: skip

    @staticmethod
    def _kill_quietly(proc: subprocess.Popen[str], fired: list[bool]) -> None:
        if proc.poll() is None:
            fired.append(True)
            proc.send_signal(signal.SIGKILL)

    def kill(self) -> None:
        """SIGKILL the daemon now (between two cycles), then restart it."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.kills += 1
        self.start()

    def close(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            self._write("quit")
            self.proc.wait(timeout=10)
        except (DaemonDied, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()

    def _write(self, line: str) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            self.proc.wait()
            raise DaemonDied(str(exc)) from exc

    def _read(self) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line.endswith("\n"):  # nothing, or half an answer: it died
            code = self.proc.wait()
            raise DaemonDied(f"the daemon exited ({code})")
        return json.loads(line)


if __name__ == "__main__":
    sys.exit(main())
