"""Rules for what a player may call themselves."""

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

NICKNAME_MIN = 2
NICKNAME_MAX = 16
_ALLOWED_PUNCTUATION = set("_-.·")
# The house's bots (rooms/tables/bots.py) are the users named with this prefix; no player may be.
BOT_USERNAME_PREFIX = "bot_"
# The bots' nicknames are 机器人<number> (rooms/tables/bots.py). A player's nickname may not
# look like one: after folding and dropping spaces, punctuation and combining marks, it may
# not start with 机器人 (or the traditional 機器人), nor be "bot" or "robot" and a number.
_BOT_LOOKALIKE = re.compile(r"^(?:机器人|機器人|(?:ro)?bot\d*$)")


def nickname_fold(value: str) -> str:
    """Return the key under which two nicknames count as the same name (NFKC, then case folded).

    NFKC maps compatibility look-alikes (full-width ``Ｅrin``, circled or
    superscript digits) onto the ordinary characters; case folding makes
    ``ERIN``, ``Erin`` and ``erin`` one name. Folding can undo NFKC, so it is
    applied again. An empty nickname has the empty key.
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", value or "").casefold())


def _bot_lookalike(nickname: str) -> bool:
    bare = "".join(
        char
        for char in unicodedata.normalize("NFKD", nickname_fold(nickname))
        if unicodedata.category(char)[0] in "LN"
    )
    return bool(_BOT_LOOKALIKE.match(unicodedata.normalize("NFKC", bare)))


def username_reserved_check(username: str) -> None:
    """Raise ValidationError if ``username`` is reserved for the house's bots (any letter case)."""
    if username.lower().startswith(BOT_USERNAME_PREFIX):
        raise ValidationError(
            _("Usernames starting with %(prefix)s are reserved for the house's bots.")
            % {"prefix": BOT_USERNAME_PREFIX},
            code="username_reserved",
        )


def nickname_clean(value: str) -> str:
    """Return the nickname as stored (trimmed, NFC) or raise ValidationError saying what is wrong.

    An empty nickname is allowed: the table then shows the username.
    """
    nickname = unicodedata.normalize("NFC", (value or "").strip())
    if not nickname:
        return ""
    if len(nickname) < NICKNAME_MIN or len(nickname) > NICKNAME_MAX:
        raise ValidationError(
            _("A nickname has %(min)d to %(max)d characters; this one has %(count)d.")
            % {"min": NICKNAME_MIN, "max": NICKNAME_MAX, "count": len(nickname)},
            code="nickname_length",
        )
    if "  " in nickname:
        raise ValidationError(_("A nickname cannot contain two spaces in a row."), code="nickname_spaces")
    for char in nickname:
        category = unicodedata.category(char)
        if category[0] in "LN" or category == "Mn" or char == " " or char in _ALLOWED_PUNCTUATION:
            continue
        raise ValidationError(
            _("A nickname may use letters, digits, spaces and _ - . · only; %(char)r is not allowed.")
            % {"char": char},
            code="nickname_character",
        )
    if not any(unicodedata.category(char)[0] in "LN" for char in nickname):
        raise ValidationError(_("A nickname needs at least one letter or digit."), code="nickname_empty")
    if _bot_lookalike(nickname):
        raise ValidationError(
            _("Nicknames that look like the house's bots (机器人…, bot…) are reserved."),
            code="nickname_reserved",
        )
    return nickname
