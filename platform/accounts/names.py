"""Names shown to players in the active language: data kept in Chinese and English, and the bots' names.

Pages render in the request's language. A table's frames are built once for
every socket, whatever language each speaks, so they carry both names and
the page shows the one of its own language (static/js/tablekit.js).
"""

from __future__ import annotations

import re
from platform.accounts.validators import BOT_USERNAME_PREFIX

from django.utils import translation

# The bots' nicknames (rooms/tables/bots.py): 机器人 and a number.
BOT_NICKNAME = re.compile(r"^机器人(\d+)$")


def is_english() -> bool:
    """Say whether the active language is English."""
    return (translation.get_language() or "").split("-")[0] == "en"


def localized(chinese: str, english: str) -> str:
    """Return ``english`` when the active language is English and it is set, else ``chinese``."""
    return english if english and is_english() else chinese


def player_names(name: str, *, is_bot: bool) -> tuple[str, str]:
    """Return a stored player name in Chinese and in English: a bot's 机器人853 is "Bot 853" in English.

    A player's nickname is theirs, the same in both languages.
    """
    match = BOT_NICKNAME.match(name) if is_bot else None
    return (name, f"Bot {match.group(1)}") if match else (name, name)


def player_name(name: str, *, is_bot: bool) -> str:
    """Return a stored player name as the active language shows it."""
    return localized(*player_names(name, is_bot=is_bot))


def is_bot_username(username: str) -> bool:
    """Say whether ``username`` is one of the house's bots (no player may take the prefix)."""
    return username.lower().startswith(BOT_USERNAME_PREFIX)
