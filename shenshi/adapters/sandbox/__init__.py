"""The sandbox forum (沙盒论坛): a loopback Discuz! X3.5 / phpwind 8.7 for rehearsals, the demo
and the end-to-end tests. Production never needs it.

Public API::

    from shenshi.adapters.sandbox import SandboxForum, serve, ManualClock, AcceleratedClock

    forum = SandboxForum("discuz", clock=ManualClock(start))   # or "phpwind", charset="gbk"
    seed_demo(forum)                                            # GM + ten players + board fid 3
    with serve(forum) as base_url:                              # http://127.0.0.1:PORT/
        ...                                                     # real adapters talk HTTP to it
    forum.faults.fail_next(3, status=502); forum.faults.expire_sessions()
    forum.requests                                              # (method, path?query) served so far

See :mod:`.state` (control API), :mod:`.faults`, :mod:`.clock`, :mod:`.server`.
"""

from __future__ import annotations

from shenshi.adapters.sandbox.clock import AcceleratedClock, Clock, ManualClock, system_clock
from shenshi.adapters.sandbox.faults import Faults
from shenshi.adapters.sandbox.seed import seed_demo
from shenshi.adapters.sandbox.server import SandboxServer, serve
from shenshi.adapters.sandbox.state import (
    Board,
    Conversation,
    ForumRefusal,
    Message,
    SandboxForum,
    StoredPost,
    Thread,
    User,
)

__all__ = [
    "AcceleratedClock",
    "Board",
    "Clock",
    "Conversation",
    "Faults",
    "ForumRefusal",
    "ManualClock",
    "Message",
    "SandboxForum",
    "SandboxServer",
    "StoredPost",
    "Thread",
    "User",
    "seed_demo",
    "serve",
    "system_clock",
]
