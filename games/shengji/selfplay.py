"""Four bots play 升级 hands while a checker watches every move against the rules, not the engine.

``bot_hand`` plays one hand as the table runtime would with four bots: the clock deals,
a seat holding a 报主 makes it now and then while the cards come, and every turn takes
the engine's 提示. Before each play is applied it checks the bot's cards with
``rules.legal_follow`` (or ``rules.shape`` for a lead) against the seat's hand, so the
engine's own choice and its own refusal are not what decides; at the end that the face points
taken and the 底牌's points make the two decks' 200, and that the coins balance within
what each seat carried. ``bench/shengji_bots.py`` runs it over 1,000 hands.
"""

from __future__ import annotations

import random
from collections import Counter

from games.base import SeatSpec, SeededRng
from games.shengji import rules
from games.shengji.engine import SEATS, ShengjiEngine


class CheckFailed(AssertionError):
    """A bot made a move the rules refuse, or a count did not add up."""


def bot_hand(
    engine: ShengjiEngine, config: dict, seats: list[SeatSpec], seed: bytes, chooser: random.Random
) -> dict:
    """Play one hand of four bots; return its final state (raise CheckFailed on a broken rule)."""
    state = engine.new_hand(config, seats, SeededRng(seed, "hand"))
    steps = 0
    while engine.outcome(state) is None:
        steps += 1
        if steps > 1000:
            raise CheckFailed("the hand does not end")
        actors = engine.actors(state)
        if not actors:
            if state["phase"] == "dealing":
                declaring = [(s, a) for s in range(SEATS) for a in engine.out_of_turn_actions(state, s)]
                if declaring and chooser.random() < 0.3:
                    seat, action = chooser.choice(declaring)
                    state = engine.apply(state, seat, action)
                    continue
            state = engine.on_deadline(state)
            continue
        seat = actors[0]
        action = engine.hint(state, seat)
        if state["phase"] == "play":
            _check_play(engine, state, seat, action["cards"])
        state = engine.apply(state, seat, action)
    _check_points(state)
    outcome = engine.outcome(state)
    if sum(outcome.deltas) != 0 or any(abs(d) > s.coins for d, s in zip(outcome.deltas, seats, strict=True)):
        raise CheckFailed(f"coins do not balance: {outcome.deltas}")
    return state


def _check_play(engine: ShengjiEngine, state: dict, seat: int, cards: list[str]) -> None:
    hand = state["_hands"][seat]
    trump = engine.trump(state)
    if Counter(cards) - Counter(hand):
        raise CheckFailed(f"seat {seat} plays {cards} it does not hold")
    if not state["trick"]:
        if rules.shape(cards, trump) is None:
            raise CheckFailed(f"seat {seat} leads {cards}, not of one suit")
        return
    led = state["trick"][0]["cards"]
    if not rules.legal_follow(hand, led, cards, trump):
        raise CheckFailed(f"seat {seat} follows {led} with {cards} from {hand}")


def _check_points(state: dict) -> None:
    """Face points taken by both sides plus the 底牌's make 200, and the 底牌 is 8 cards."""
    if len(state["_bottom"]) != 8:
        raise CheckFailed("the bottom is not eight cards")
    total = sum(state["taken"]) + rules.points(state["_bottom"])
    if total != rules.TOTAL_POINTS:
        raise CheckFailed(f"the points add up to {total}, not 200")


def run(hands: int, *, first_seed: int = 0) -> Counter:
    """Play ``hands`` bot hands (first hands and later ones by turns); count how they ended."""
    engine = ShengjiEngine()
    seats = [SeatSpec(player_id=i + 1, coins=500 + 300 * i) for i in range(SEATS)]
    ended: Counter = Counter()
    for i in range(first_seed, first_seed + hands):
        config = {"base_stake": 10, "first_seat": None if i % 2 else i % SEATS, "levels": ["2", "5"]}
        state = bot_hand(engine, config, seats, i.to_bytes(16, "big"), random.Random(i))
        result = state["result"]
        ended[(result["side"], result["levels_gained"])] += 1
    return ended
