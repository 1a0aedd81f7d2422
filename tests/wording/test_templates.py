"""Templates: every text can be overridden, overrides are checked when the configuration is
loaded, the documentation is generated from the table, and rendered texts are read back."""

from __future__ import annotations

import tomllib
from pathlib import Path
from string import Template

import pytest

from shenshi.wording import TEMPLATES, TemplateError, Templates, check_overrides
from shenshi.wording.defaults import GROUPS
from shenshi.wording.docs import render as render_docs

DOC = Path(__file__).parents[2] / "docs" / "templates.md"


def sample(spec_name: str) -> dict[str, str]:
    return {p: f"<{p}>" for p in TEMPLATES[spec_name].placeholders}


def test_the_docs_page_is_generated_from_the_table() -> None:
    assert DOC.read_text(encoding="utf-8") == render_docs(), (
        "docs/templates.md is out of date: python -m shenshi.wording > docs/templates.md"
    )


def test_every_default_is_a_valid_template_in_a_known_group() -> None:
    for spec in TEMPLATES.values():
        assert Template(spec.default).is_valid(), spec.name
        assert spec.group in GROUPS, spec.name
        assert spec.doc, spec.name
        check_overrides({spec.name: spec.default})


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_a_rendered_template_is_found_again_in_a_text(name: str) -> None:
    t = Templates()
    values = sample(name)
    text = "前文\n" + t.render(name, **values) + "\n后文"
    if "\n" in t.text(name) or not t.render(name, **dict.fromkeys(values, "")):
        return  # placeholders are read within a line, and next to some words of their own
    assert t.search(name, text, **values) is not None
    found = t.search(name, text)
    assert found is not None
    placeholders = list(Template(t.text(name)).pattern.finditer(t.text(name)))
    adjacent = any(
        a.end() == b.start() for a, b in zip(placeholders, placeholders[1:], strict=False)
    )
    if not adjacent:
        assert found == {k: v for k, v in values.items() if k in found}


def test_overrides_replace_the_default_and_keep_the_others() -> None:
    t = Templates({"night_title": "第${n}夜·天亮了", "receipt_tonight": "今夜"})
    assert t.render("night_title", n=3) == "第3夜·天亮了"
    assert t.render("day_title", n=3) == "【第3天投票结果】"
    assert t.search("night_title", "……\n第12夜·天亮了\n") == {"n": "12"}
    assert t.search("night_title", "【第12夜结果】") is None


@pytest.mark.parametrize(
    ("overrides", "words"),
    [
        ({"night_titel": "x"}, ["night_titel", "不认识的模板", "night_title"]),
        ({"night_title": "第${night}夜"}, ["night_title", "$night", "$n"]),
        ({"death": "$name 死于 $how"}, ["death", "$how"]),
        ({"winner": "100$ 奖金"}, ["winner", "lone $"]),
        ({"padding": 3}, ["padding", "应为文字"]),
    ],
)
def test_bad_overrides_are_refused_with_the_template_named(
    overrides: dict, words: list[str]
) -> None:
    with pytest.raises(TemplateError) as err:
        Templates(overrides)
    for word in words:
        assert word in str(err.value)


def test_a_placeholder_may_be_left_out_and_dollars_escaped() -> None:
    t = Templates({"winner": "【游戏结束】恭喜！奖金 $$100", "night_title": "【天亮了】"})
    assert t.render("winner", camp="好人方") == "【游戏结束】恭喜！奖金 $100"
    assert t.render("night_title", n=2) == "【天亮了】"


def test_the_configuration_refuses_a_bad_template_naming_it(tmp_path: Path) -> None:
    from tests.test_config import raw_config, refused

    text = refused(tmp_path, raw_config(templates={"night_title": "第${night}夜"}))
    assert "night_title" in text and "$night" in text
    text = refused(tmp_path, raw_config(templates={"receipt_tonite": "今夜"}))
    assert "receipt_tonite" in text and "receipt_tonight" in text


def test_the_example_configuration_s_templates_are_valid() -> None:
    example = Path(__file__).parents[2] / "config.example.toml"
    templates = tomllib.loads(example.read_text(encoding="utf-8")).get("templates", {})
    check_overrides(templates)
