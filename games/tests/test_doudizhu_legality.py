"""斗地主 legality in one place: whatever the engine lists it accepts, and it accepts nothing else.

The listing (``legal_actions``) runs ``legality.plays`` on the hand; the judgement (``apply``)
runs the same ``legality.plays`` on the submitted cards alone. These tests check the promise
both ways on many random states, seeded and generated, and show that there is one decider:
change what ``legality.plays`` makes and the listing and the judgement change together.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games.base import IllegalAction, SeatSpec, SeededRng
from games.doudizhu import assist, legality, rules
from games.doudizhu.rules import RANK_2, RANK_DJ, RANK_XJ
from games.tests.test_doudizhu_moves import hand_of

ENGINE = games.REGISTRY["doudizhu"].engine


def ranks_of(cards) -> tuple[int, ...]:
    return tuple(rules.parse(cards))


def check_state(state: dict, rng: random.Random, subsets: int = 12) -> None:
    """Every listed play is accepted as listed; a set of the hand is accepted exactly when its ranks are listed."""
    seat = state["turn"]
    hand = state["hands"][seat]
    frozen = json.dumps(state, sort_keys=True)
    listed = ENGINE.legal_actions(state, seat)
    plays = {ranks_of(a["cards"]) for a in listed if a["type"] == "play"}
    assert len(plays) == sum(a["type"] == "play" for a in listed), "a play is listed twice"
    for action in listed:
        new = ENGINE.apply(state, seat, action)
        if action["type"] == "play":
            assert new["history"][-1]["action"]["cards"] == rules.sort_cards(action["cards"])
    previous = state["last_play"]
    sizes = [None] * subsets + ([previous["size"]] * subsets if previous else [1, 2, 4, 5, 6, 8])
    for size in sizes:
        chosen = rng.sample(hand, min(size or rng.randint(1, len(hand)), len(hand)))
        rng.shuffle(chosen)  # any order, any suits
        try:
            ENGINE.apply(state, seat, {"type": "play", "cards": chosen})
        except IllegalAction:
            assert ranks_of(chosen) not in plays, (hand, chosen, previous)
        else:
            assert ranks_of(chosen) in plays, (hand, chosen, previous)
    assert json.dumps(state, sort_keys=True) == frozen, "a listing or a refusal changed the state"


@pytest.mark.parametrize("variant", ["classic", "yifa", "jiabei"])
def test_listed_plays_are_accepted_and_nothing_else_in_random_hands(variant):
    rng = random.Random(f"ddz-legality-{variant}")
    for hand_no in range(25):
        state = ENGINE.new_hand(
            {"variant": variant},
            [SeatSpec(i + 1, 1000) for i in range(3)],
            SeededRng(f"legality-{variant}-{hand_no:06d}".encode(), "hand"),
        )
        while ENGINE.outcome(state) is None:
            seat = state["turn"]
            if state["phase"] == "playing":
                check_state(state, rng)
            state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))


# -- generated hands: rich in trios, quads, chains and jokers ----------------------------------------

rank_counts = st.lists(st.integers(0, 4), min_size=RANK_2 + 1, max_size=RANK_2 + 1).map(
    lambda counts: counts + [0, 0]
)


@st.composite
def hands(draw) -> list[int]:
    counts = draw(rank_counts)
    counts[RANK_XJ] = draw(st.integers(0, 1))
    counts[RANK_DJ] = draw(st.integers(0, 1))
    while sum(counts) > 20:  # a hand holds 20 cards at most
        counts[counts.index(max(counts))] -= 1
    if not sum(counts):
        counts[0] = 1
    return counts


def probe(hand: list[str], previous: rules.Combo | None) -> dict:
    """A state in which seat 0 holds ``hand`` and must answer ``previous`` (None: leads)."""
    state = ENGINE.new_hand({"variant": "classic"}, [SeatSpec(i + 1, 1000) for i in range(3)], _RNG)
    last = None
    if previous is not None:
        last = {"seat": 2, "cards": [], "kind": previous.kind, "rank": previous.rank}
        last.update(size=previous.size, chain=previous.chain)
    return dict(state, phase="playing", turn=0, landlord=0, hands=[hand, ["3s"], ["3h"]], last_play=last)


_RNG = SeededRng(b"legality-tests-seed-01", "hand")


@settings(max_examples=150, deadline=None)
@given(hand_counts=hands(), table_counts=hands(), data=st.data())
def test_generated_hands_accept_exactly_what_they_list(hand_counts, table_counts, data):
    hand = hand_of(hand_counts, random.Random(sum(hand_counts)))
    table = legality.plays(hand_of(table_counts), None)
    previous = None
    if table and data.draw(st.booleans()):
        kind, rank, cards = data.draw(st.sampled_from(table))
        previous = rules.combo(kind, rank, len(cards))
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    check_state(probe(hand, previous), rng, subsets=20)


# -- one decider ----------------------------------------------------------------------------------------


def test_listing_judging_and_hints_all_ask_the_one_generator(monkeypatch):
    """Take straights out of ``legality.plays`` alone: the listing, the judgement and 提示 all lose them."""
    real = legality.plays

    def no_straights(cards, previous=None, size=None, **kwargs):
        return [play for play in real(cards, previous, size, **kwargs) if play[0] != "straight"]

    hand = rules.sort_cards(["3s", "4s", "5s", "6s", "7s", "9h", "Kd"])
    straight = {"type": "play", "cards": ["7s", "6s", "5s", "4s", "3s"]}
    state = probe(hand, None)
    assert straight in ENGINE.legal_actions(state, 0)
    assert ENGINE.apply(state, 0, straight)["last_play"]["kind"] == "straight"
    assert straight == ENGINE.hint(state, 0)

    monkeypatch.setattr(legality, "plays", no_straights)
    legality._judged.cache_clear()  # the judgement remembers what the generator said
    assist._ranked.cache_clear()  # and so does 提示
    assert straight not in ENGINE.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="3-4-5-6-7 is not a legal play."):
        ENGINE.apply(state, 0, straight)
    assert straight not in ENGINE.hints(state, 0)
    monkeypatch.undo()
    legality._judged.cache_clear()
    assist._ranked.cache_clear()
    assert ENGINE.apply(state, 0, straight)["last_play"]["kind"] == "straight"


def test_refusals_say_why_and_change_nothing():
    hand = rules.sort_cards(["3s", "3h", "5d", "Kc", "XJ", "DJ"])
    state = probe(hand, rules.Combo("pair", 1, 2))
    frozen = json.dumps(state, sort_keys=True)
    for cards, message in (
        (["3s", "5d"], "3-5 is not a legal play."),
        (["3s", "3h"], "Your 3-3 does not beat pair."),
        (["Ks"], "You do not hold Ks."),
        (["3s", "3s"], "You chose the same card twice."),
        (["3s", ["3h"]], "Choose the cards to play."),
        (["1x"], "1x is not a card."),
        ([], "Choose the cards to play."),
    ):
        with pytest.raises(IllegalAction, match=message):
            ENGINE.apply(state, 0, {"type": "play", "cards": cards})
    assert json.dumps(state, sort_keys=True) == frozen
    assert ENGINE.apply(state, 0, {"type": "play", "cards": ["XJ", "DJ"]})["last_play"]["kind"] == "rocket"
