"""Templates: every text shenshi writes, with defaults the GM can override in ``[templates]``.

A template is a :class:`string.Template` (``$name`` or ``${name}`` placeholders). Its
:class:`TemplateSpec` says what it is for (``doc``), who reads it (``group``) and which
placeholders it may use: those of its default text plus any the spec declares. An override
naming an unknown template, using an unknown placeholder or a malformed ``$`` is refused when
the configuration is loaded (:func:`check_overrides`), so a typo never reaches a player.

:class:`Templates` renders them, and reads them back: :meth:`Templates.search` finds a rendered
template in a text (the demo recognises the GM's titles through it), so a changed template
cannot silently break the reading.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from string import Template
from typing import Any


class TemplateError(ValueError):
    """An override that cannot be used: ``name`` is the template, ``reason`` what is wrong."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"template {name}: {reason}")
        self.name = name
        self.reason = reason


@dataclass(frozen=True)
class TemplateSpec:
    """One template: its name, who reads it, the default text and what it is for."""

    name: str
    group: str  # one of GROUPS
    default: str
    doc: str
    extra_placeholders: tuple[str, ...] = ()  # usable in an override, absent from the default

    @cached_property
    def placeholders(self) -> frozenset[str]:
        """The placeholders an override may use."""
        return frozenset(Template(self.default).get_identifiers()) | set(self.extra_placeholders)


def check_text(spec: TemplateSpec, text: str) -> None:
    """Raise :class:`TemplateError` unless ``text`` is a valid text for ``spec``."""
    if not isinstance(text, str):
        raise TemplateError(spec.name, f"应为文字，得到 {text!r}")
    template = Template(text)
    if not template.is_valid():
        raise TemplateError(
            spec.name,
            f"{text!r} 里有单独的 $（lone $：美元符号写 $$，占位符写 ${{名字}}）",
        )
    unknown = sorted(set(template.get_identifiers()) - spec.placeholders)
    if unknown:
        known = ", ".join(f"${p}" for p in sorted(spec.placeholders)) or "none"
        raise TemplateError(spec.name, f"不认识的占位符 ${unknown[0]}（可以用：{known}）")


def _close(name: str, known: Iterable[str]) -> str:
    import difflib

    near = difflib.get_close_matches(name, list(known), n=1)
    return f"；是不是 {near[0]}？" if near else ""


class Templates:
    """The texts in force: the defaults of ``specs`` with the GM's ``overrides``."""

    def __init__(
        self,
        overrides: Mapping[str, str] | None = None,
        specs: Mapping[str, TemplateSpec] | None = None,
    ) -> None:
        if specs is None:
            from shenshi.wording.defaults import TEMPLATES

            specs = TEMPLATES
        self.specs = specs
        check_overrides(overrides or {}, specs)
        self._texts = {name: spec.default for name, spec in specs.items()}
        self._texts.update(overrides or {})
        self.overrides: Mapping[str, str] = dict(overrides or {})
        self._patterns: dict[tuple[str, tuple[tuple[str, str], ...]], re.Pattern[str]] = {}

    def text(self, template: str, /) -> str:
        """The text in force for ``template`` (unrendered)."""
        return self._texts[template]

    def render(self, template: str, /, **values: Any) -> str:
        """``template`` with its placeholders filled in (every one it uses must be given)."""
        try:
            return Template(self._texts[template]).substitute(
                {k: str(v) for k, v in values.items()}
            )
        except KeyError as exc:
            if template not in self._texts:
                raise KeyError(f"no template {template!r}") from None
            raise KeyError(f"template {template}: no value for ${exc.args[0]}") from None

    def pattern(self, template: str, /, **fixed: str) -> re.Pattern[str]:
        """A regular expression that finds ``template`` as rendered at the start of a line (as
        the GM's posts write them; a player's text they repeat is set off by ``quoted_line``),
        one named group per placeholder (within a line); placeholders given in ``fixed`` must
        hold that value."""
        key = (template, tuple(sorted(fixed.items())))
        found = self._patterns.get(key)
        if found is None:
            found = self._patterns[key] = re.compile("^" + _regex(self._texts[template], fixed), re.M)
        return found

    def search(self, template: str, text: str, /, **fixed: str) -> dict[str, str] | None:
        """The placeholder values of ``template`` rendered somewhere in ``text``, or ``None``
        when it is not there."""
        m = self.pattern(template, **fixed).search(text)
        return m.groupdict() if m else None

    def fullmatch(self, template: str, text: str, /, **fixed: str) -> dict[str, str] | None:
        """Like :meth:`search`, but ``text`` must be the whole rendered template."""
        m = self.pattern(template, **fixed).fullmatch(text)
        return m.groupdict() if m else None


def _regex(text: str, fixed: Mapping[str, str]) -> str:
    """A regex for ``text`` with each placeholder as a named group (repeats: back-references),
    or the escaped value given for it in ``fixed``."""
    out: list[str] = []
    seen: set[str] = set()
    pos = 0
    for m in Template.pattern.finditer(text):
        out.append(re.escape(text[pos : m.start()]))
        pos = m.end()
        if m.group("escaped") is not None:
            out.append(re.escape("$"))
            continue
        name = m.group("named") or m.group("braced")
        if name in fixed:
            out.append(re.escape(fixed[name]))
            continue
        last = m.end() == len(text) or text[m.end()] == "\n"
        body = "[^\\n]+" if last else "[^\\n]+?"  # a trailing one takes the rest of the line
        out.append(f"(?P={name})" if name in seen else f"(?P<{name}>{body})")
        seen.add(name)
    out.append(re.escape(text[pos:]))
    return "".join(out)


def check_overrides(
    overrides: Mapping[str, Any], specs: Mapping[str, TemplateSpec] | None = None
) -> None:
    """Raise :class:`TemplateError` for an unknown template name or an invalid text."""
    if specs is None:
        from shenshi.wording.defaults import TEMPLATES

        specs = TEMPLATES
    for name, text in overrides.items():
        spec = specs.get(name)
        if spec is None:
            raise TemplateError(name, f"不认识的模板{_close(name, specs)}")
        check_text(spec, text)
