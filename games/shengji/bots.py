"""升级 play for bots, 托管 and 提示: legal moves chosen by a plain strategy (reads only one seat's cards).

Following: win the trick as cheaply as possible when the partner is not already winning
it; give points to a partner who is; otherwise the lowest legal cards that give away no
points. Leading: a plain tractor, else a plain pair, else the highest plain single.
"""

from __future__ import annotations

from games.shengji.rules import (
    TRUMP,
    Trump,
    follow_refusal,
    points,
    shape,
    strength,
    suit_of,
    tractors,
    trick_winner,
)


def _pair_cards(cards: list[str]) -> list[str]:
    seen: set[str] = set()
    found = []
    for card in cards:
        if card in seen and card not in found:
            found.append(card)
        seen.add(card)
    return found


def _build(hand: list[str], led: list[str], trump: Trump, order: list[str]) -> list[str]:
    """A legal follow that takes the cards earliest in ``order`` the rules allow."""
    n = len(led)
    suit = suit_of(led[0], trump)
    held = [c for c in order if suit_of(c, trump) == suit]
    if len(held) <= n:
        rest = [c for c in order if suit_of(c, trump) != suit]
        return held + rest[: n - len(held)]
    kind = shape(led, trump)
    chosen: list[str] = []
    if kind == "tractor":
        runs = tractors(held, trump, n // 2)
        if runs:
            rank = {c: i for i, c in reversed(list(enumerate(order)))}
            return list(min(runs, key=lambda r: min(rank[c] for c in r.cards)).cards)
    if kind in ("pair", "tractor"):
        for card in _pair_cards(held)[: n // 2]:
            chosen += [card, card]
    left = list(held)
    for card in chosen:
        left.remove(card)
    return chosen + left[: n - len(chosen)]


def follow_candidates(hand: list[str], led: list[str], trump: Trump) -> list[list[str]]:
    """A few legal follows: the cheapest, the strongest, the richest in points, and trump kills."""
    orders = [
        sorted(hand, key=lambda c: (points([c]) > 0, strength(c, trump))),
        sorted(hand, key=lambda c: -strength(c, trump)),
        sorted(hand, key=lambda c: (-points([c]), strength(c, trump))),
    ]
    found = [_build(hand, led, trump, order) for order in orders]
    suit = suit_of(led[0], trump)
    trumps = sorted((c for c in hand if suit_of(c, trump) == TRUMP), key=lambda c: strength(c, trump))
    if suit != TRUMP and not any(suit_of(c, trump) == suit for c in hand) and trumps:
        kind = shape(led, trump)
        if kind == "single":
            found += [[trumps[0]], [trumps[-1]]]
        elif kind == "pair":
            found += [[c, c] for c in _pair_cards(trumps)[:1]]
        elif kind == "tractor":
            runs = tractors(trumps, trump, len(led) // 2)
            if runs:
                found += [list(runs[-1].cards)]
    unique = []
    for play in found:
        if sorted(play) not in unique and follow_refusal(hand, led, play, trump) is None:
            unique.append(sorted(play))
    return unique


def choose_follow(
    hand: list[str], plays: list[list[str]], partner_index: int | None, trump: Trump
) -> list[str]:
    """The bot's follow to the trick ``plays`` so far; ``partner_index`` is the partner's play in it."""
    led = plays[0]
    options = follow_candidates(hand, led, trump)
    partner_winning = partner_index is not None and trick_winner(plays, trump) == partner_index
    if partner_winning:
        return max(options, key=lambda p: (points(p), -sum(strength(c, trump) for c in p)))
    winners = [p for p in options if trick_winner([*plays, p], trump) == len(plays)]
    if winners:
        return min(winners, key=lambda p: sum(strength(c, trump) for c in p))
    return min(options, key=lambda p: (points(p), sum(strength(c, trump) for c in p)))


def choose_lead(hand: list[str], trump: Trump) -> list[str]:
    """The bot's lead: a plain tractor, a plain pair, the highest plain single, else its lowest trump."""
    plain = [c for c in hand if suit_of(c, trump) != TRUMP]
    for suit in "shcd":
        runs = tractors([c for c in plain if c[1] == suit], trump, 2)
        if runs:
            return list(runs[0].cards)
    pairs = _pair_cards(sorted(plain, key=lambda c: -strength(c, trump)))
    if pairs:
        return [pairs[0], pairs[0]]
    if plain:
        return [max(plain, key=lambda c: strength(c, trump))]
    return [min(hand, key=lambda c: strength(c, trump))]


def choose_bury(hand: list[str], trump: Trump) -> list[str]:
    """盖底牌: eight plain cards without points from the shortest suits, low first."""
    length = {s: sum(1 for c in hand if suit_of(c, trump) == s) for s in "shcd"}
    order = sorted(
        hand,
        key=lambda c: (
            suit_of(c, trump) == TRUMP,
            points([c]) > 0,
            length.get(suit_of(c, trump), 99),
            strength(c, trump),
        ),
    )
    return sorted(order[:8])
