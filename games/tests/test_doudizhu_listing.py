"""斗地主 listing: the engine's legal actions against the reference generator, on many more hands.

``test_doudizhu_moves`` checks the generator's plays; this checks the actions the engine lists
card for card (each play as the hand's lowest suits of its ranks) and in order of kind and body,
and that listing and applying leave the state and the listed actions untouched, for hands of
every size and for hands rich in trios, quads and jokers.
"""

from __future__ import annotations

import json
import random

import games
from games.base import SeatSpec, SeededRng
from games.doudizhu import legality, rules
from games.doudizhu.rules import N_RANKS, RANK_2, RANK_DJ, RANK_XJ
from games.tests.test_doudizhu_moves import reference_plays, same_plays

ENGINE = games.REGISTRY["doudizhu"].engine
SUITS = "shcd"


def _hand_of(counts, rng: random.Random) -> list[str]:
    """Concrete cards for rank ``counts``, with random suits."""
    cards = []
    for r, n in enumerate(counts):
        if r == RANK_XJ:
            cards += ["XJ"] * n
        elif r == RANK_DJ:
            cards += ["DJ"] * n
        else:
            cards += [rules.RANK_CHARS[r] + s for s in rng.sample(SUITS, n)]
    return rules.sort_cards(cards)


def _hands(rng: random.Random, count: int) -> list[list[str]]:
    deck = list(rules.FULL_DECK)
    hands = [rules.sort_cards(rng.sample(deck, rng.randint(1, 20))) for _ in range(count)]
    for _ in range(count):
        counts = [0] * N_RANKS
        for r in rng.sample(range(RANK_2 + 1), rng.randint(1, 6)):
            counts[r] = rng.choice((2, 3, 3, 4, 4))
        for r in rng.sample(range(RANK_2 + 1), rng.randint(0, 5)):
            counts[r] = counts[r] or rng.randint(1, 2)
        counts[RANK_XJ] = int(rng.random() < 0.5)
        counts[RANK_DJ] = int(rng.random() < 0.5)
        if sum(counts):
            hands.append(_hand_of(counts, rng))
    return hands


def _probe(hand: list[str], previous: rules.Combo | None) -> dict:
    state = ENGINE.new_hand({"variant": "classic"}, [SeatSpec(i + 1, 1000) for i in range(3)], _rng())
    last = None
    if previous is not None:
        last = {"seat": 2, "cards": [], "kind": previous.kind, "rank": previous.rank}
        last.update(size=previous.size, chain=previous.chain)
    return dict(state, phase="playing", turn=0, landlord=0, hands=[hand, ["3s"], ["3h"]], last_play=last)


def _expected(hand, previous):
    """The reference's plays as (cards, Combo), each as the hand's lowest suits of its ranks."""
    counts = tuple(rules.parse(hand))
    return [(legality.cards_for(hand, play), combo) for play, combo in reference_plays(counts, previous)]


def _lists_the_reference(hand, previous) -> bool:
    """The engine lists the reference's plays, card for card, in its order of kind and body, pass last."""
    actions = ENGINE.legal_actions(_probe(hand, previous), 0)
    if previous is not None:
        if actions[-1] != {"type": "pass"}:
            return False
        actions = actions[:-1]
    found = [(tuple(rules.parse(a["cards"])), legality.best_reading(a["cards"], previous)) for a in actions]
    expected = [(tuple(rules.parse(cards)), combo) for cards, combo in _expected(hand, previous)]
    by_ranks = {tuple(rules.parse(cards)): cards for cards, _combo in _expected(hand, previous)}
    if not same_plays(found, expected):
        return False
    return all(action["cards"] == by_ranks[key] for action, (key, _c) in zip(actions, found, strict=True))


def _rng():
    return SeededRng(b"listing-tests-seed-01", "hand")


def test_leads_and_follows_list_the_reference_plays_card_for_card():
    rng = random.Random("ddz-listing")
    hands = _hands(rng, 400)
    tables = sorted(
        {combo for hand in hands for _play, combo in reference_plays(tuple(rules.parse(hand)), None)}
    )
    tables += [rules.Combo("bomb", r, 4) for r in range(RANK_2 + 1)] + [rules.Combo("rocket", RANK_DJ, 2)]
    for hand in hands:
        for previous in [None, *rng.sample(tables, 12)]:
            assert _lists_the_reference(hand, previous), (hand, previous)


def test_listing_twice_gives_equal_actions_and_nothing_changes_them():
    """Listed actions may be shared read-only objects (games/base.py): nothing may change them.

    Listing twice gives equal actions in new lists; applying listed actions changes neither
    them nor the state, and the new states keep copies, never the listed objects.
    """
    rng = random.Random("ddz-listing-fresh")
    for hand in _hands(rng, 60):
        for previous in (None, rules.Combo("single", 3, 1), rules.Combo("pair", 0, 2)):
            state = _probe(hand, previous)
            frozen = json.dumps(state, sort_keys=True)
            first = ENGINE.legal_actions(state, 0)
            snapshot = json.dumps(first)
            second = ENGINE.legal_actions(state, 0)
            assert first == second and first is not second
            for action in first[:5] + first[-3:]:
                new = ENGINE.apply(state, 0, action)
                logged = new["history"][-1]["action"]
                assert logged == action and logged is not action
                if action["type"] == "play":
                    assert logged["cards"] is not action["cards"]
                    assert new["last_play"]["cards"] is not action["cards"]
                    assert new["trick"][0]["cards"] is not action["cards"]
            assert json.dumps(first) == snapshot
            assert json.dumps(state, sort_keys=True) == frozen


def test_hands_of_one_shape_list_the_same_plays_each_in_its_own_suits():
    a = rules.sort_cards(["3s", "3h", "5d", "Kc", "XJ"])
    b = rules.sort_cards(["3c", "3d", "5s", "Kh", "XJ"])
    for previous in (None, rules.Combo("single", 0, 1), rules.Combo("pair", 0, 2)):
        plays_a = ENGINE.legal_actions(_probe(a, previous), 0)
        plays_b = ENGINE.legal_actions(_probe(b, previous), 0)
        assert [rules.parse(x.get("cards", [])) for x in plays_a] == [
            rules.parse(x.get("cards", [])) for x in plays_b
        ]
        assert all(set(x.get("cards", [])) <= set(a) for x in plays_a)
        assert all(set(x.get("cards", [])) <= set(b) for x in plays_b)


def test_hint_is_listed_and_can_play_agrees_with_the_listing_in_random_hands():
    rng = random.Random("ddz-hints")
    for hand_no in range(40):
        state = ENGINE.new_hand(
            {"variant": "classic"},
            [SeatSpec(i + 1, 1000) for i in range(3)],
            SeededRng(f"hint-{hand_no:012d}".encode(), "hand"),
        )
        while ENGINE.outcome(state) is None:
            seat = state["turn"]
            listed = ENGINE.legal_actions(state, seat)
            if state["phase"] == "playing":
                assert ENGINE.hint(state, seat) in listed
                assert all(hint in listed for hint in ENGINE.hints(state, seat))
                view = ENGINE.view(state, seat)
                assert view["can_play"] == any(a["type"] == "play" for a in listed)
            state = ENGINE.apply(state, seat, rng.choice(listed))


def test_apply_reads_a_play_as_the_rules_do_against_every_table():
    """The checked path of apply takes exactly the plays legality.best_reading allows, read the same way."""
    rng = random.Random("ddz-apply-reading")
    hands = _hands(rng, 150)
    tables = sorted(
        {combo for hand in hands for _play, combo in reference_plays(tuple(rules.parse(hand)), None)}
    )
    tables += [rules.Combo("bomb", r, 4) for r in range(RANK_2 + 1)] + [rules.Combo("rocket", RANK_DJ, 2)]
    for hand in hands:
        leads = ENGINE.legal_actions(_probe(hand, None), 0)
        for previous in rng.sample(tables, 10):
            state = _probe(hand, previous)
            for action in rng.sample(leads, min(6, len(leads))):
                expected = legality.best_reading(action["cards"], previous)
                try:
                    new = ENGINE.apply(state, 0, action)
                except games.base.IllegalAction:
                    assert expected is None, (action, previous)
                    continue
                assert expected is not None, (action, previous)
                assert new["last_play"]["kind"] == expected.kind and new["last_play"]["rank"] == expected.rank


def test_a_lone_card_reads_as_a_single_of_its_rank_and_nothing_else():
    for card, rank in rules.RANK_OF.items():
        assert legality.readings([card]) == (rules.Combo("single", rank, 1, 1),)


def test_leads_match_the_reference_around_trios():
    # Two trios apart, a trio inside a straight and a pair straight, a trio of 2 with both
    # jokers, a quad, a plane, a plane of 2 and A that is no plane.
    hands = [
        ["Ks", "Kh", "Kd", "9s", "8s", "7s", "7h", "6s", "5s", "5h", "5d", "4s", "3s"],
        ["9s", "9h", "9d", "8s", "8h", "7s", "7h", "6s", "5s"],
        ["DJ", "XJ", "2s", "2h", "2d", "As", "Qs", "Qh", "3s"],
        ["2s", "2h", "2d", "As", "Ah", "Ad", "Ks", "4s"],
        ["8s", "8h", "8d", "7s", "7h", "7d", "5s", "4s"],
        ["Ts", "Th", "Tc", "Td", "6s", "6h", "6d", "3s", "3h"],
        ["Js", "Jh", "Jd", "Ts", "9s", "8s", "7s", "6s", "6h", "5s", "5h", "4s", "4h", "3s", "3h", "3d"],
    ]
    for hand in hands:
        hand = rules.sort_cards(hand)
        assert _lists_the_reference(hand, None), hand
