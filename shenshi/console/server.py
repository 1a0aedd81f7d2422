"""Serving the console with uvicorn: on a socket bound here (127.0.0.1 by default), with no
access log (a first visit's address carries the token), in the foreground (``shenshi
console``) or on a thread beside the daemon (``shenshi run --console``).

A console on loopback is opened by its own host name (``http://shenshi-….localhost:PORT``,
:attr:`~shenshi.console.auth.ConsoleKey.host`), so that its cookie reaches no other local web
service; the socket's own address (:attr:`Console.address`) serves scripts with a bearer
token and sends a browser that brings the token on to that name.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from shenshi.config import Config
from shenshi.console.auth import ConsoleKey, load_or_create_key, token_file
from shenshi.console.desk import Desk
from shenshi.daemon.service import GameService

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8737


def key_path(config: Config) -> Path:
    """The token file of a game's console: beside the database (as the forum session)."""
    from shenshi.bootstrap import session_path

    return token_file(session_path(config).parent)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (0: any free port)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(64)
    sock.set_inheritable(True)
    return sock


def is_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback address (or ``localhost``)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def address(sock: socket.socket) -> str:
    """The socket's own address (``http://127.0.0.1:8737``)."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def home_url(key: ConsoleKey, sock: socket.socket) -> str:
    """The address a browser opens a loopback console by: its own name and the socket's port
    (``http://shenshi-….localhost:8737``)."""
    return f"http://{key.host}:{sock.getsockname()[1]}"


@dataclass
class Console:
    """A console being served: the address a browser opens it by (``url``: on loopback, the
    console's own name), the socket's own (``address``: scripts), its key, and how to stop it."""

    url: str
    address: str
    key: ConsoleKey
    key_file: Path
    new_key: bool
    server: object
    thread: threading.Thread | None = None

    def stop(self) -> None:
        """Ask the server to stop and wait for its thread (if it runs on one)."""
        self.server.should_exit = True  # type: ignore[attr-defined]
        if self.thread is not None:
            self.thread.join(timeout=10)


def prepare(
    services: Sequence[GameService], host: str, port: int, *, follow_mode: bool = True
) -> tuple[Console, socket.socket]:
    """The console of ``services`` (the first one's key file), bound, not yet serving
    (``follow_mode``: :class:`~shenshi.console.desk.Desk`'s)."""
    import uvicorn

    from shenshi.console.app import create_app

    desk = Desk(services, follow_mode=follow_mode)
    path = key_path(services[0].config)
    key, new = load_or_create_key(path)
    sock = bind(host, port)
    home = key.host if is_loopback(host) else None
    config = uvicorn.Config(
        create_app(desk, key, home), access_log=False, log_config=None, lifespan="off",
        server_header=False, proxy_headers=False, log_level="warning",
    )  # fmt: skip
    url = home_url(key, sock) if home else address(sock)
    return Console(url, address(sock), key, path, new, uvicorn.Server(config)), sock


def serve(console: Console, sock: socket.socket) -> None:
    """Serve until stopped (Ctrl-C, or :meth:`Console.stop` from another thread)."""
    console.server.run(sockets=[sock])  # type: ignore[attr-defined]


def serve_in_background(
    services: Sequence[GameService], host: str, port: int, *, follow_mode: bool = True
) -> Console:
    """The console on a daemon thread (``shenshi run --console``: ``follow_mode`` off, it
    shows the mode of the daemon it runs beside)."""
    console, sock = prepare(services, host, port, follow_mode=follow_mode)
    console.thread = threading.Thread(target=serve, args=(console, sock), name="shenshi-console", daemon=True)
    console.thread.start()
    return console
