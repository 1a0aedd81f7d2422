"""``python -m shenshi.wording``: print docs/templates.md."""

from __future__ import annotations

import sys

from shenshi.wording.docs import render

sys.stdout.write(render())
