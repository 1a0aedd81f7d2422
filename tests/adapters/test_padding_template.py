"""A short post is padded with the GM's ``padding`` template, not a fixed word."""

from __future__ import annotations

import pytest
from adapter_world import World

from shenshi.wording import Templates


@pytest.fixture(params=["discuz", "phpwind"])
def world(request, make_world) -> World:  # type: ignore[no-untyped-def]
    return make_world(request.param)


def test_a_short_post_is_padded_with_the_padding_template(world: World) -> None:
    adapter = world.adapter(min_post_bytes=30)
    padding = Templates({"padding": "【补字】"}).render("padding")
    padded = adapter.fit_min_length("短", padding)
    assert padded.startswith("短【补字】") and "（神使）" not in padded
    assert adapter.fit_min_length("短").startswith("短（神使）")  # the default template
