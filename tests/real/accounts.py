"""Register the player accounts a real-forum game needs, through the forum's own registration
page (as a person would): ``python -m tests.real.accounts ENGINE BASE_URL PASSWORD NAME…``.

Discuz X3.5 hides its field names behind per-site hashes (the ``label for`` of each input);
phpwind 8.7 takes ``regname``/``regpwd`` with the ``_hexie`` token its page sets in JavaScript
(and refuses upper-case names). An existing name is reported, not an error. Only for test forums.
"""

from __future__ import annotations

import argparse
import re
import sys

from tests.forumctl import Discuz, ForumError, Phpwind, Web, form_fields, parse, set_field

LABELS = {"用户名": "username", "密码": "password", "确认密码": "password2", "Email": "email"}


def register_discuz(web: Web, name: str, password: str, email: str) -> str:
    """One Discuz account via ``member.php?mod=register``; the forum's answer, in a few words."""
    _, page = web.get("member.php?mod=register")
    forms = parse(page).xpath("//form[@id='registerform']")
    if not forms:
        raise ForumError("no registration form (registration closed?)")
    form = forms[0]
    fields = form_fields(form)
    for label in form.xpath(".//label[@for]"):
        what = LABELS.get(re.sub(r"[:：\s]", "", label.text_content()))
        if what:
            value = {"username": name, "password": password, "password2": password, "email": email}[what]
            fields = set_field(fields, label.get("for"), value)
    fields = set_field(fields, "regsubmit", "yes")
    fields = [(k, v) for k, v in fields if k]
    _, answer = web.post(form.get("action") + "&inajax=1", fields)
    return re.sub(r"<[^>]+>", " ", answer)


def register_phpwind(web: Web, name: str, password: str, email: str) -> str:
    """One phpwind account via ``register.php`` (step 2)."""
    web.get("index.php")  # the CC guard wants a cookie first
    _, page = web.get("register.php")
    hexie = re.search(r"_hexie\.value\s*=\s*'([^']+)'", page)
    fields = [("forward", ""), ("step", "2"), ("_hexie", hexie.group(1) if hexie else ""),
              ("regname", name), ("regpwd", password), ("regpwdrepeat", password),
              ("regemail", email), ("rgpermit", "1")]
    _, answer = web.post("register.php?", fields)
    message = parse(answer).xpath("//div[contains(@class,'regIgnore') or contains(@class,'regCorrect')]")
    return message[0].text_content() if message else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.real.accounts", description=__doc__)
    parser.add_argument("engine", choices=("discuz", "phpwind"))
    parser.add_argument("base_url")
    parser.add_argument("password")
    parser.add_argument("names", nargs="+")
    args = parser.parse_args(argv)
    register = register_discuz if args.engine == "discuz" else register_phpwind
    failed = 0
    for number, name in enumerate(args.names, start=1):
        email = f"real{number}.{abs(hash(name)) % 10**8}@example.com"
        answer = register(Web(args.base_url), name, args.password, email)  # a fresh visitor each
        try:  # the proof: the account logs in (phpwind may complain about a profile field after)
            player = (Discuz if args.engine == "discuz" else Phpwind)(Web(args.base_url))
            player.login(name, args.password)
            print(f"{name}: ok (uid {player.uid})")
        except ForumError as exc:
            failed += 1
            print(f"{name}: FAILED: {exc} (the forum said: {' '.join(answer.split())[:120]})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
