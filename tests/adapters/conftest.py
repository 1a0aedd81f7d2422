"""Fixtures of the adapter tests (the helpers live in ``adapter_world``)."""

from adapter_world import make_world  # noqa: F401
