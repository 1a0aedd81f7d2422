"""The ``demo`` seed: the cast of the captured forums (GM 神的使者 and ten players) and a board.

``seed_demo(forum)`` returns the accounts it created as ``(name, password, uid)``; the players'
passwords follow the captures' pattern (``Player_pw1`` …). On phpwind some names are stored in
lower case (``tom_2``, ``lily99``, ``rex``), as the real registration forces.
"""

from __future__ import annotations

from shenshi.adapters.sandbox.state import Board, SandboxForum

GM_NAME = "神的使者"
GM_PASSWORD = "GmPass_2024"
PLAYERS = ("小明", "阿杰", "Tom_2", "白色的猫", "老王", "Lily99", "夜行者", "kk_大侠", "月光", "Rex")
BOARD_NAME = "杀人游戏"
BOARD_FID = 3


def player_name(name: str, engine: str) -> str:
    """The account name as the engine stores it (phpwind rejects upper case)."""
    return name.lower() if engine == "phpwind" else name


def seed_demo(forum: SandboxForum) -> list[tuple[str, str, int]]:
    """Create admin, the GM, ten players and the board 杀人游戏 (fid 3); returns the accounts."""
    accounts: list[tuple[str, str, int]] = []
    admin = forum.add_user("admin", "Admin_pw0", group="admin", uid=1)
    accounts.append((admin.name, "Admin_pw0", admin.uid))
    gm = forum.add_user(GM_NAME, GM_PASSWORD, uid=2)
    accounts.append((gm.name, GM_PASSWORD, gm.uid))
    for number, name in enumerate(PLAYERS, start=1):
        password = f"Player_pw{number}"
        user = forum.add_user(player_name(name, forum.engine), password, uid=2 + number)
        accounts.append((user.name, password, user.uid))
    board_for(forum)
    return accounts


def board_for(forum: SandboxForum) -> Board:
    """The game board, created on first use."""
    return forum.boards.get(BOARD_FID) or forum.create_board(BOARD_NAME, fid=BOARD_FID)
