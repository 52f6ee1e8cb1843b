"""What the apps that post a game's money tell the wallet about it: names, labels, coins at a table.

The ledger knows accounts, amounts and plain references: ``hand:17``, a game
slug, a room tier's id. What those mean (the game's name, which table, whether
a hand is still being played) belongs to the apps that post them. Each such app
subclasses ``LedgerSource`` and names it in the ``LEDGER_SOURCES`` setting
(``rooms`` does: ``rooms/ledger_source.py``), so wallets imports nothing of
theirs and works, with plainer words, when none is named.
"""

from collections.abc import Collection
from dataclasses import dataclass
from functools import cache

from django.conf import settings
from django.db.models import Expression
from django.utils.module_loading import import_string


@dataclass(frozen=True)
class ReferenceLabel:
    """What a ledger reference (``hand:6``) means to a player, and the page that shows it, if any."""

    text: str
    url: str = ""


@dataclass(frozen=True)
class CoinsAtTable:
    """A player's coins out of the wallet until a game settles them: carried into a hand, or bet."""

    class Kind:
        HAND = "hand"  # carried into a seated hand; they come back with its settlement
        BETS = "bets"  # bet on a banker round; the round's payout settles them

    kind: str
    coins: int
    place: str  # the room, as the lobby names it
    url: str = ""  # the table's page
    label: str = ""  # the hand or round, as the wallet's lines name it


@dataclass(frozen=True)
class TierName:
    game_slug: str
    name: str


class LedgerSource:
    """One app's answers about the references it posts; every answer defaults to "nothing known"."""

    def reference_labels(self, references: Collection[str]) -> dict[str, ReferenceLabel]:
        """Return the words (and page) for those of ``references`` this app posted."""
        return {}

    def coins_at_table(self, *, user) -> list[CoinsAtTable]:
        """Return where the player's coins are that a hand or round of this app has not settled yet."""
        return []

    def game_names(self, slugs: Collection[str]) -> dict[str, str]:
        """Return slug → the game's name as the finance reports print it."""
        return {}

    def tier_names(self, tier_ids: Collection[int]) -> dict[int, TierName]:
        """Return tier id → the tier's game and its name in the active language."""
        return {}

    def banked_game_names(self) -> list[str]:
        """Return the names of the house-banked games this app offers (the house bank's counterparties)."""
        return []

    def attribution(self, reference: str) -> tuple[Expression, Expression] | None:
        """SQL for the game slug and tier id of a transaction posted without them, from ``reference``.

        ``reference`` is the lookup path of the transaction's reference in the
        query (``"transaction__reference"``). For transactions whose posters did
        not yet name their game and tier; None when this app has none.
        """
        return None


def sources() -> list[LedgerSource]:
    """The sources the ``LEDGER_SOURCES`` setting names (dotted paths of ``LedgerSource`` classes)."""
    return [_source(path) for path in getattr(settings, "LEDGER_SOURCES", [])]


@cache
def _source(path: str) -> LedgerSource:
    return import_string(path)()


def reference_labels(references: Collection[str]) -> dict[str, ReferenceLabel]:
    """Return reference → label for every reference a source knows (the others are left out)."""
    labels: dict[str, ReferenceLabel] = {}
    references = set(references)
    for source in sources():
        labels.update(source.reference_labels(references - set(labels)))
    return labels


def coins_at_table(*, user) -> list[CoinsAtTable]:
    return [row for source in sources() for row in source.coins_at_table(user=user)]


def game_names(slugs: Collection[str]) -> dict[str, str]:
    names: dict[str, str] = {}
    for source in sources():
        names.update(source.game_names(set(slugs) - set(names)))
    return names


def tier_names(tier_ids: Collection[int]) -> dict[int, TierName]:
    names: dict[int, TierName] = {}
    for source in sources():
        names.update(source.tier_names(set(tier_ids) - set(names)))
    return names


def banked_game_names() -> list[str]:
    return [name for source in sources() for name in source.banked_game_names()]


def attributions(reference: str) -> tuple[list[Expression], list[Expression]]:
    """Every source's SQL for the game slugs and the tier ids of unattributed transactions.

    See ``LedgerSource.attribution``: (game expressions, tier expressions), in registration order.
    """
    found = [found for source in sources() if (found := source.attribution(reference)) is not None]
    return [game for game, _tier in found], [tier for _game, tier in found]
