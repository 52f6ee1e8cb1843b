"""Checks the 斗地主 tests share: what a seat may see, refused actions, listed plays vs the rules."""

from __future__ import annotations

import random

from games.base import SeatSpec
from games.doudizhu import legality, rules
from games.testing import InvariantError, strings_in

DECK = frozenset(rules.FULL_DECK)


def seats(coins=(100000, 100000, 100000)) -> list[SeatSpec]:
    return [SeatSpec(player_id=i + 1, coins=c) for i, c in enumerate(coins)]


def config(variant: str, **extra) -> dict:
    return {"variant": variant, "base_stake": 10, "room_factor": 10, "first_seat": None, **extra}


def played_cards(state) -> set[str]:
    out: set[str] = set()
    for entry in state["history"]:
        action = entry.get("action")
        if action and action["type"] == "play":
            out.update(action["cards"])
    return out


def view_check(state, seat, view) -> None:
    """Fail when a view shows a card its seat may not know."""
    if state["phase"] == "finished":
        allowed = set(DECK)
    else:
        allowed = played_cards(state)
        if state["shown_card"]:
            allowed.add(state["shown_card"]["card"])
        if state["landlord"] is not None:
            allowed.update(state["bottom"])
        if seat is not None:
            allowed.update(state["hands"][seat])
    leaked = strings_in(view, DECK) - allowed
    if leaked:
        raise InvariantError(f"seat {seat} sees {sorted(leaked)} in phase {state['phase']}")
    if seat is None:
        if view["hand"] is not None:
            raise InvariantError("a spectator sees a hand")
    elif view["hand"] != rules.sort_cards(state["hands"][seat]):
        raise InvariantError("a seat's hand is not its own, sorted high to low")
    if view["counts"] != [len(h) for h in state["hands"]]:
        raise InvariantError("card counts are wrong")
    if view["phase"] != "finished" and view["bottom"] is not None and state["landlord"] is None:
        raise InvariantError("the bottom cards show before the landlord is known")


def _random_subset(hand, rng: random.Random, size=None) -> list[str]:
    size = size if size is not None else rng.randint(1, len(hand))
    return rng.sample(hand, min(size, len(hand)))


def legal_check(state, seat, actions, rng: random.Random) -> None:
    """Compare the listed plays with the rules on random subsets of the hand."""
    if state["phase"] != "playing":
        return
    hand = state["hands"][seat]
    last = state["last_play"]
    previous = rules.Combo(last["kind"], last["rank"], last["size"], last["chain"]) if last else None
    listed = set()
    for action in actions:
        if action["type"] == "pass":
            if previous is None:
                raise InvariantError("pass listed while leading")
            continue
        key = tuple(rules.parse(action["cards"]))
        if key in listed:
            raise InvariantError(f"play {action['cards']} listed twice")
        listed.add(key)
        if not set(action["cards"]) <= set(hand):
            raise InvariantError(f"listed play {action['cards']} is not in the hand")
        if legality.best_reading(action["cards"], previous) is None:
            raise InvariantError(f"listed play {action['cards']} is refused by the rules")
    sizes = [None, None, None] + ([previous.size] * 3 if previous else [2, 4, 6])
    for size in sizes:
        subset = _random_subset(hand, rng, size)
        legal = legality.best_reading(subset, previous) is not None
        if legal != (tuple(rules.parse(subset)) in listed):
            raise InvariantError(f"{subset} legal={legal} but listing disagrees (previous {previous})")


def illegal_actions(state, rng: random.Random):
    """Yield (seat, action) pairs the engine must refuse in this state."""
    phase = state["phase"]
    if phase == "finished":
        yield 0, {"type": "pass"}
        return
    turn = state["turn"]
    other = (turn + 1 + rng.randrange(2)) % 3
    yield other, {"type": "pass"}
    if phase == "bidding":
        yield turn, {"type": "bid", "points": state["bid"] if state["bid"] else 4}
        yield turn, {"type": "rob"}
        yield turn, {"type": "play", "cards": state["hands"][turn][:1]}
        return
    if phase in ("robbing", "doubling"):
        yield turn, {"type": "bid", "points": 3}
        yield turn, {"type": "double" if phase == "robbing" else "rob"}
        return
    hand = state["hands"][turn]
    yield turn, {"type": "bid", "points": 3}
    yield turn, {"type": "play", "cards": []}
    yield turn, {"type": "play", "cards": [hand[0], hand[0]]}
    yield turn, {"type": "play", "cards": ["1x"]}
    foreign = state["hands"][other] or state["hands"][3 - turn - other]
    if foreign:
        yield turn, {"type": "play", "cards": [rng.choice(foreign)]}
    if state["last_play"] is None:
        yield turn, {"type": "pass"}
        previous = None
    else:
        last = state["last_play"]
        previous = rules.Combo(last["kind"], last["rank"], last["size"], last["chain"])
    for _ in range(3):
        subset = _random_subset(hand, rng, previous.size if previous and rng.random() < 0.5 else None)
        if legality.best_reading(subset, previous) is None:
            yield turn, {"type": "play", "cards": subset}
            break
