"""提示 (hint) and 托管 (auto-play): the legal plays of a hand, ranked cheapest first.

The plays are ``legality.plays``'s, the same the engine lists and accepts; this
module only orders them. A play's cost, lowest first:

0. it empties the hand (the hand is won, whatever the play);
1. it keeps every group whole: no pair, trio, bomb or rocket of the hand is split;
2. it splits a pair or a trio;
3. a bomb, then 4. the rocket (only when nothing above beats);
5. it breaks a bomb or the rocket (a 四带二 on a bomb, a lone joker while both are held).

Within a cost, following: the lowest body, then the lowest kickers. Leading:
the play that sheds the lowest card, the longest such play first (34567 before
3, 888+3 before 3), then the lowest body and kickers. One suggestion per kind,
body and size (the cheapest kickers), so pressing 提示 again moves on to a
different play rather than to the same trio with another kicker.
"""

from __future__ import annotations

from functools import lru_cache

from games.doudizhu import legality, rules

_BOMBS = ("bomb", "rocket")


def suggestions(hand: list[str], previous: rules.Combo | None) -> list[list[str]]:
    """The plays to suggest to ``hand`` on ``previous`` (None: a lead), cheapest first (empty: none beats)."""
    return [list(cards) for cards in _ranked(tuple(hand), previous)]


@lru_cache(maxsize=64)
def _ranked(hand: tuple[str, ...], previous: rules.Combo | None) -> tuple[tuple[str, ...], ...]:
    """``suggestions``, remembered: the seat's view lists them and the broadcast's hint asks again."""
    held = rules.parse(hand)
    cheapest: dict[tuple[str, int, int], tuple] = {}
    for kind, rank, cards in legality.plays(hand, previous):
        cost = _cost(held, kind, rank, cards, previous is None, len(hand))
        slot = kind, rank, len(cards)
        if slot not in cheapest or cost < cheapest[slot]:
            cheapest[slot] = cost
    return tuple(tuple(cost[-1]) for cost in sorted(cheapest.values()))


def _cost(held: list[int], kind: str, rank: int, cards: list[str], leading: bool, hand_size: int) -> tuple:
    """A sort key for a play: its tier (see the module's docstring), its order within the tier, its cards."""
    ranks = [rules.RANK_OF[card] for card in cards]  # high to low, as the cards
    used: dict[int, int] = {}  # rank -> cards of it the play uses
    for r in ranks:
        used[r] = used.get(r, 0) + 1
    jokers_held = held[rules.RANK_XJ] + held[rules.RANK_DJ] == 2
    if len(cards) == hand_size:
        tier = 0
    elif kind not in _BOMBS and (
        any(held[r] == 4 for r in used) or (jokers_held and (rules.RANK_XJ in used or rules.RANK_DJ in used))
    ):
        tier = 5
    elif kind in _BOMBS:
        tier = 3 if kind == "bomb" else 4
    elif any(n < held[r] for r, n in used.items()):
        tier = 2
    else:
        tier = 1
    order = (ranks[-1], -len(cards), rank) if leading else (rank,)
    return (tier, *order, ranks, cards)


def is_partners_play(state: dict, seat: int) -> bool:
    """Tell whether the play ``seat`` must answer is his fellow farmer's."""
    last = state["last_play"]
    landlord = state["landlord"]
    return last is not None and seat != landlord and last["seat"] not in (landlord, seat)
