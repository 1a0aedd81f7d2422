"""The action-entry form speaks the ruleset's language (newcomer4 C1: a werewolf game's form
said 私信, offered a 杀人宣言 field and a chess example)."""

from __future__ import annotations

from shenshi.console.views import entry_words
from shenshi.demo.script import load_script
from tests.daemon.helpers import started


def test_werewolf_enters_tree_hole_replies_without_a_kill_declaration(tmp_path) -> None:
    svc, _ = started(tmp_path, "werewolf", script=load_script("werewolf"))
    words = entry_words(svc)
    assert words.source == "功能树洞的回复" and words.kill_post == "" and "金箭" in words.example


def test_family_a_enters_pms_with_their_kill_declaration(tmp_path) -> None:
    svc, _ = started(tmp_path)
    words = entry_words(svc)
    assert words.source == "私信" and words.kill_post == "杀人宣言" and "炮" not in words.example
