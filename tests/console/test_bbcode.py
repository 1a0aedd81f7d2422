"""BBCode rendered for the console: escaped first, a fixed set of tags after."""

from __future__ import annotations

import re

import pytest

from shenshi.console.bbcode import render


@pytest.mark.parametrize(
    ("bbcode", "html"),
    [
        ("[b]粗[/b] [i]斜[/i] [u]下[/u] [s]删[/s]", "<strong>粗</strong> <em>斜</em> <u>下</u> <s>删</s>"),
        ("[color=red]红[/color]", '<span style="color:red">红</span>'),
        ("[color=#ff0000]红[/color]", '<span style="color:#ff0000">红</span>'),
        ("[size=5]大[/size]", '<span style="font-size:1.4em">大</span>'),
        ("[quote]老王：投票 小明[/quote]我同意", '<blockquote class="quote">老王：投票 小明</blockquote>我同意'),
        ("[url=http://bbs.example/a?x=1&y=2]帖子[/url]",
         '<a href="http://bbs.example/a?x=1&amp;y=2" target="_blank" rel="noopener noreferrer">帖子</a>'),
        ("[b][color=blue]蓝粗[/color][/b]", '<strong><span style="color:blue">蓝粗</span></strong>'),
        ("第一行\n第二行", "第一行<br>\n第二行"),
    ],
)
def test_the_tags_announcements_and_posts_use(bbcode: str, html: str) -> None:
    assert str(render(bbcode)) == html


@pytest.mark.parametrize(
    "hostile",
    [
        "<script>alert(1)</script>",
        '[url=javascript:alert(1)]点我[/url]',
        '[color=red;background:url(x)]x[/color]',
        '[url="onmouseover="alert(1)]x[/url]',
        "[img]http://tracker.example/p.gif[/img]",
        '<img src=x onerror="alert(1)">',
    ],
)
def test_hostile_text_stays_inert(hostile: str) -> None:
    html = str(render(hostile))
    assert set(re.findall(r"<(\w+)", html)) <= {"a", "br"}  # no element the text brought itself
    attributes = " ".join(re.findall(r"<a ([^>]*)>", html))
    assert "javascript" not in attributes and not re.search(r"\son\w+=", attributes)


def test_an_image_is_a_link_never_loaded() -> None:
    html = str(render("[img]https://img.example/a.png[/img]"))
    assert html.startswith('<a href="https://img.example/a.png"') and "<img" not in html
