"""The registry of pages: each game's page, one module per game in this folder, found by its slug.

A game's page module ``rooms/game_pages/<slug>.py`` defines ``PAGE``: the
template that holds the game's browser client and the words that client adds
to the shared ones (translated when the page renders). Adding a game touches
its package under ``games/`` (rules, engine, presentation), the one line in
``games/__init__.py`` that registers it, and its page here (with the template
and script it names); nothing else in ``rooms/``, ``wallets/`` or
``platform/`` names a game. ``rooms/tests/test_no_game_names.py`` checks it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import import_module

from django.utils.functional import Promise

import games


@dataclass(frozen=True)
class GamePage:
    """A game's page: its template, and the words its client shows (key → lazily translated text)."""

    template: str
    labels: dict[str, Promise]


@cache
def page_for(slug: str) -> GamePage | None:
    """Return the page of the registered game ``slug``: ``PAGE`` of the module named by its slug.

    None for a game with no page module (a test's made-up game); every game of
    ``games.REGISTRY`` has one (``rooms/tests/test_no_game_names.py``).
    """
    if slug not in games.REGISTRY:
        return None
    name = f"{__name__}.{slug}"
    try:
        module = import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise  # the page module is there but imports something missing
        return None
    return module.PAGE
