"""A Discuz conversation's pager: ``pmmulti()`` of space_pm.php has only 上一页 / 下一页 links.

No capture holds a conversation of more than ten messages, so the pager below is written from
``pmmulti()`` itself (Discuz! X3.x ``source/include/space/space_pm.php``) and marked synthetic.
"""

from __future__ import annotations

import pytest

from shenshi.adapters.discuz_parse import conversation_pages

URL = "home.php?mod=space&amp;do=pm&amp;subop=view&amp;touid=11"


def _synthetic_page(page: int, pages: int) -> str:
    following = f'<a href="{URL}&amp;page={page + 1}#last" class="nxt">下一页</a>' if page < pages else ""
    previous = f'<span class="pgb"><a href="{URL}&amp;page={page - 1}#last">上一页</a></span>' if page > 1 else ""
    pager = f'<div class="pbm bbda cl"><div class="pg">{previous}{following}</div></div>' if following or previous else ""
    return f'<html><body><div id="pm_ul" class="xld xlda mbm pml"></div>{pager}</body></html>'


@pytest.mark.parametrize(("page", "pages", "expected"), [
    (1, 1, (1, 1)),
    (3, 3, (3, 3)),  # the forum opens the newest page: only 上一页
    (2, 3, (2, 3)),
    (1, 3, (1, 2)),  # only 下一页: at least one more page
])
def test_the_page_is_read_from_the_previous_and_next_links(page: int, pages: int, expected: tuple[int, int]) -> None:
    assert conversation_pages(_synthetic_page(page, pages)) == expected
