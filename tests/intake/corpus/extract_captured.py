"""Extract the players' own texts from the captured forum pages (developer tool, not a test).

Usage: ``python tests/intake/corpus/extract_captured.py /work/shared/forums > captured_texts.jsonl``

Writes one JSON line per post or PM: ``source`` (file and post/PM id), ``engine``, ``kind``
(``post`` or ``pm``), ``from``, ``text`` (BBCode rendered to plain text, line breaks kept,
quotes removed) and ``quotes``. ``captured.jsonl`` beside this script holds the corpus cases
built from these texts (each with the game context of its moment and the expected result);
the captured pages themselves are not available to CI, so the texts are copied there.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import lxml.html


def _text(el) -> str:
    for br in el.xpath(".//br"):
        br.tail = "\n" + (br.tail or "")
    text = el.text_content()
    text = text.replace("\xa0", " ").replace("\r", "")
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def discuz_posts(root: Path):
    for page in sorted(root.glob("viewthread_p[0-9].html")) + [
        root / "viewthread_analysis_thread_tid3.html"
    ]:
        doc = lxml.html.parse(str(page)).getroot()
        for body in doc.xpath('//td[starts-with(@id,"postmessage_")]'):
            pid = body.get("id").split("_", 1)[1]
            author = doc.xpath(
                f'//div[@id="post_{pid}"]//div[@class="authi"]/a[contains(@class,"xw1")]/text()'
            )
            quotes = []
            for q in body.xpath('.//div[@class="quote"]'):
                quotes.append(_text(q))
                q.drop_tree()
            for mark in body.xpath('.//i[@class="pstatus"]'):
                mark.drop_tree()
            yield {
                "source": f"discuz-x3.5/{page.name}#pid{pid}", "engine": "discuz", "kind": "post",
                "from": author[0] if author else None, "text": _text(body), "quotes": quotes,
            }  # fmt: skip


def discuz_pms(root: Path):
    for page in sorted(root.glob("pm_conversation_view_*.html")):
        doc = lxml.html.parse(str(page)).getroot()
        for dl in doc.xpath('//div[@id="pm_ul"]/dl'):
            sender = dl.xpath('.//dd[contains(@class,"ptm")]/a[contains(@class,"xw1")]/text()')
            sender = sender[0] if sender else "神的使者"
            dd = dl.xpath('.//dd[contains(@class,"ptm")]')[0]
            for junk in dd.xpath('.//span[contains(@class,"xg1")]|./a'):
                junk.drop_tree()
            yield {
                "source": f"discuz-x3.5/{page.name}#{dl.get('id')}", "engine": "discuz", "kind": "pm",
                "from": sender, "text": _text(dd), "quotes": [],
            }  # fmt: skip
    data = json.loads((root / "api_mypm_list.json").read_text(encoding="utf-8"))
    for row in data["Variables"]["list"]:
        yield {
            "source": f"discuz-x3.5/api_mypm_list.json#plid{row.get('plid')}", "engine": "discuz",
            "kind": "pm", "from": row["msgfrom"], "text": row["message"], "quotes": [],
        }  # fmt: skip


def phpwind_posts(root: Path):
    for page in sorted(root.glob("read_p[0-9].html")) + [root / "read_analysis_thread_tid3.html"]:
        doc = lxml.html.parse(str(page)).getroot()
        for body in doc.xpath('//div[starts-with(@id,"read_")][contains(@class,"f14")]'):
            pid = body.get("id").split("_", 1)[1]
            author = doc.xpath(
                f'//div[@id="readfloor_{pid}"]//div[contains(@class,"readName")]//a[starts-with(@href,"u.php?uid=")]/text()'
            )
            quotes = []
            for q in body.xpath('.//blockquote[contains(@class,"blockquote")]'):
                quotes.append(_text(q))
                q.drop_tree()
            for mark in body.xpath('.//div[starts-with(@id,"alert_")]'):
                mark.drop_tree()
            yield {
                "source": f"phpwind-8.7/{page.name}#{pid}", "engine": "phpwind", "kind": "post",
                "from": author[0].strip() if author else None, "text": _text(body), "quotes": quotes,
            }  # fmt: skip


def phpwind_pms(root: Path):
    doc = lxml.html.parse(str(root / "pm_inbox_unread.html")).getroot()
    for tr in doc.xpath('//tr[contains(@class,"tr3")][starts-with(@id,"sms_")]'):
        sender = tr.xpath(
            './/td[contains(@class,"name")]//a[starts-with(@href,"u.php?uid=")]/text()'
        )
        preview = tr.xpath('.//td[contains(@class,"value")]//p')
        if not sender or not preview:
            continue
        yield {
            "source": f"phpwind-8.7/pm_inbox_unread.html#{tr.get('id')}", "engine": "phpwind",
            "kind": "pm", "from": sender[0].strip(), "text": _text(preview[0]), "quotes": [],
        }  # fmt: skip


def main(argv: list[str]) -> int:
    base = Path(argv[1]) if len(argv) > 1 else Path("/work/shared/forums")
    for gen in (
        discuz_posts(base / "discuz-x3.5"), discuz_pms(base / "discuz-x3.5"),
        phpwind_posts(base / "phpwind-8.7"), phpwind_pms(base / "phpwind-8.7"),
    ):  # fmt: skip
        for row in gen:
            print(json.dumps(row, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
