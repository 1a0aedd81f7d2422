"""Words in one place: every text shenshi writes, as templates the GM can override.

``Templates(overrides)`` renders them (:mod:`shenshi.wording.templates`); the defaults, with
what each one is for, are :data:`TEMPLATES` (:mod:`shenshi.wording.defaults`), documented in
``docs/templates.md`` (``python -m shenshi.wording`` writes it). What players write — the
command words intake reads — is the lexicon, :mod:`shenshi.intake.lexicon`; role, camp and
action names are the rulesets' catalog (:mod:`shenshi.rulesets.catalog`).
"""

from __future__ import annotations

from shenshi.wording.defaults import GROUPS, TEMPLATES
from shenshi.wording.templates import (
    TemplateError,
    Templates,
    TemplateSpec,
    check_overrides,
)

__all__ = ["GROUPS", "TEMPLATES", "TemplateError", "TemplateSpec", "Templates", "check_overrides"]
