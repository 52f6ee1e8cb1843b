"""斗地主 legality for the engine: the plays a hand may make now, and the judgement of a submitted one.

Both ask ``legality.plays``, the one generator of plays: the listing runs it on the
hand, the judgement on the submitted cards alone. So whatever ``legal_actions``
lists, ``check_play`` accepts (a listed play's cards make that very play), and
whatever ``check_play`` accepts is listed, under the lowest suits of its ranks
(a set the generator makes from the submitted cards it also makes from any
hand holding them). The tests check both directions on random states.
"""

from __future__ import annotations

from games.base import IllegalAction, gettext_noop
from games.doudizhu import legality, rules

PASS: dict = {"type": "pass"}  # shared and read-only, as ``Engine.legal_actions`` allows


def legal_actions(hand: list[str], previous: rules.Combo | None) -> list[dict]:
    """Every play ``hand`` (kept high to low) may make on ``previous`` (None: a lead), then pass if following.

    Each play is listed once, as the lowest suits of its ranks, high to low, in ``legality.plays``'s order.
    """
    actions = [{"type": "play", "cards": cards} for _kind, _rank, cards in legality.plays(hand, previous)]
    if previous is not None:
        actions.append(PASS)
    return actions


def can_play(hand: list[str], previous: rules.Combo | None) -> bool:
    """Tell whether ``hand`` has any play on ``previous``."""
    return bool(legality.plays(hand, previous))


def check_play(
    hand: list[str], cards: object, previous: rules.Combo | None, previous_cards=None
) -> tuple[rules.Combo, list[str]]:
    """Return the reading of ``cards`` played from ``hand`` and the hand left, or raise IllegalAction saying why."""
    if not isinstance(cards, list) or not cards:
        raise IllegalAction(gettext_noop("Choose the cards to play."))
    left = hand.copy()
    try:
        for card in cards:
            left.remove(card)  # a card not held, or chosen twice, is not there to remove
    except ValueError:
        raise _not_held(hand, cards) from None
    combo = legality.best_reading(cards, previous)
    if combo is None:
        if previous is None or not legality.best_reading(cards, None):
            raise IllegalAction(gettext_noop("{cards} is not a legal play."), cards=cards_text(cards))
        target = cards_text(previous_cards) if previous_cards else previous.kind.replace("_", " ")
        raise IllegalAction(
            gettext_noop("Your {cards} does not beat {target}."), cards=cards_text(cards), target=target
        )
    return combo, left


def _not_held(hand: list[str], cards: list) -> IllegalAction:
    """Say why ``cards`` are not distinct cards of ``hand``."""
    if not all(isinstance(card, str) for card in cards):
        return IllegalAction(gettext_noop("Choose the cards to play."))
    for card in cards:
        if card not in rules.RANK_OF:
            return IllegalAction(gettext_noop("{card} is not a card."), card=card)
    if len(set(cards)) != len(cards):
        return IllegalAction(gettext_noop("You chose the same card twice."))
    missing = next(card for card in cards if card not in hand)
    return IllegalAction(gettext_noop("You do not hold {card}."), card=missing)


def cards_text(cards: list[str]) -> str:
    """Name ``cards`` by rank, low to high: "3-3-5"."""
    return "-".join(rules.rank_name(rules.RANK_OF[c]) for c in rules.sort_cards(cards)[::-1])
