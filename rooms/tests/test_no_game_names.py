"""No code of the platform names a game: games speak through their protocol and their page module.

For every game of ``games.REGISTRY``, its slug, its names and its own words
(``GameInfo.terms``: roles, card sets, the names of its variants) must not
appear in a Python file of ``rooms/``, ``wallets/`` or ``platform/`` (tests and
migrations aside) outside the registry of pages, ``rooms/game_pages/``.

The 23 player levels (``platform.accounts.levels``, seed 002's 玩家等级 table)
are platform data that happen to share words with a game (小地主 "Small
landlord", 佃户 "Tenant farmer"): their names are taken out of a file's text
before it is searched.
"""

from __future__ import annotations

import re
from pathlib import Path
from platform.accounts.levels import SEED_TABLE

from django.conf import settings

import games
from rooms.game_pages import page_for

ROOT = Path(settings.BASE_DIR)
SEARCHED = ("rooms", "wallets", "platform")
PAGES = ROOT / "rooms" / "game_pages"
LEVEL_NAMES = sorted({name for zh, en, _wins in SEED_TABLE for name in (zh, en)}, key=len, reverse=True)


def game_words() -> dict[str, str]:
    """Return every word that names a registered game or a thing of its own → the game's slug."""
    words: dict[str, str] = {}
    for slug, info in games.REGISTRY.items():
        for word in (slug, info.name_zh, info.name_en, *info.terms):
            if all(word.casefold() != known.casefold() for known in words):  # "texas" and "Texas" are one
                words[word] = slug
    return words


def _pattern(word: str) -> re.Pattern:
    # An English word in any case, alone or as part of a name ("TEXAS_LABELS", "farmers_win"),
    # but not inside another word; Chinese anywhere.
    if word.isascii():
        return re.compile(rf"(?<![A-Za-z0-9]){re.escape(word)}(?:e?s)?(?![A-Za-z0-9])", re.IGNORECASE)
    return re.compile(re.escape(word))


def searched_files() -> list[Path]:
    found = []
    for top in SEARCHED:
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = path.relative_to(ROOT).parts
            if "tests" in parts or "migrations" in parts or path.is_relative_to(PAGES):
                continue
            found.append(path)
    return found


def names_in(text: str) -> set[str]:
    """Return the game words in ``text``; a word inside a longer one found (地主 in 斗地主) is not counted."""
    for name in LEVEL_NAMES:
        text = text.replace(name, " ")
    found = set()
    for word in sorted(game_words(), key=len, reverse=True):
        pattern = _pattern(word)
        if pattern.search(text):
            found.add(word)
            text = pattern.sub(" ", text)
    return found


def test_every_registered_game_brings_its_words_and_its_page():
    assert len(games.REGISTRY) >= 4
    for slug, info in games.REGISTRY.items():
        assert info.terms, f"{slug} lists no terms of its own"
        assert page_for(slug) is not None, f"{slug} has no page module in rooms/game_pages/"


def test_no_platform_file_names_a_game_outside_the_registry_of_pages():
    files = searched_files()
    assert any(path.name == "services.py" for path in files) and len(files) > 50
    offenders = {}
    for path in files:
        found = names_in(path.read_text(encoding="utf-8"))
        if found:
            offenders[path.relative_to(ROOT).as_posix()] = sorted(found)
    assert offenders == {}, "game names outside rooms/game_pages/ (say it generically, or ask the game)"


def test_the_search_finds_a_game_word_but_not_a_level_name():
    assert names_in("# The 斗地主 table") == {"斗地主"}
    assert names_in("winner = details['landlord']") == {"landlord"}
    assert names_in("TEXAS_LABELS = {'farmers_win': 1}") == {"texas", "farmer"}
    assert names_in("if slug == 'Texas':") == {"texas"}  # the slug and the term are one word
    assert names_in("the landlordism of unspringlike text") == set()  # inside another word
    assert names_in('("小地主", "Small landlord", 9000), ("佃户", "Tenant farmer", 500)') == set()
