"""斗地主 plays: the one generator (games.doudizhu.legality.plays) against a plain reference.

The reference below is the straightforward generator the engine used long ago
(kind by kind, kickers by recursion, from rank counts). On many random hands,
including hands rich in trios, quads and jokers, ``legality.plays`` must list
exactly the reference's plays, each once and under the reading it is played as,
for leads and for every kind of play to follow; and the judgement of a set
(``legality.best_reading``, the same generator run on the set alone) must agree
with the listing.
"""

from __future__ import annotations

import random

import pytest

from games.doudizhu import legality, rules
from games.doudizhu.rules import KINDS, N_RANKS, RANK_2, RANK_A, RANK_DJ, RANK_XJ, Combo
from games.tests.test_doudizhu_rules import cards

_PRIORITY = {kind: i for i, kind in enumerate(KINDS)}


# -- the reference generator ------------------------------------------------------------------------


def _chains(counts, need, shortest, longest):
    run = 0
    for r in range(RANK_A + 1):
        if counts[r] >= need:
            run += 1
            for links in range(shortest, min(run, longest) + 1):
                yield r - links + 1, links
        else:
            run = 0


def _jokers_together(kickers):
    return kickers[RANK_XJ] > 0 and kickers[RANK_DJ] > 0


def _kicker_sets(avail, units, width, start=0):
    if units == 0:
        yield [0] * N_RANKS
        return
    for r in range(start, N_RANKS):
        if avail[r] >= width:
            avail[r] -= width
            for rest in _kicker_sets(avail, units - 1, width, r):
                rest[r] += width
                yield rest
            avail[r] += width


def _with_body(body, kickers):
    out = list(kickers)
    for r, k in body.items():
        out[r] += k
    return tuple(out)


def _gen_kind(counts, kind, size, above):
    if kind == "rocket":
        if counts[RANK_XJ] and counts[RANK_DJ]:
            play = [0] * N_RANKS
            play[RANK_XJ] = play[RANK_DJ] = 1
            yield tuple(play), Combo("rocket", RANK_DJ, 2)
        return
    simple = {"single": 1, "pair": 2, "trio": 3, "bomb": 4}
    if kind in simple:
        width = simple[kind]
        for r in range(above + 1, N_RANKS):
            if counts[r] >= width:
                play = [0] * N_RANKS
                play[r] = width
                yield tuple(play), Combo(kind, r, width)
        return
    if kind in ("trio_single", "trio_pair", "four_two_singles", "four_two_pairs"):
        body_width = 3 if kind.startswith("trio") else 4
        wing = 2 if kind.endswith("pair") or kind.endswith("pairs") else 1
        units = 1 if body_width == 3 else 2
        for r in range(above + 1, RANK_2 + 1):
            if counts[r] < body_width:
                continue
            avail = list(counts)
            avail[r] = 0
            for kick in _kicker_sets(avail, units, wing):
                if wing == 1 and _jokers_together(kick):
                    continue
                yield _with_body({r: body_width}, kick), Combo(kind, r, body_width + units * wing)
        return
    chains = {"straight": (1, 5), "pair_straight": (2, 3), "plane": (3, 2)}
    if kind in chains:
        width, shortest = chains[kind]
        low, high = (size // width, size // width) if size else (shortest, 12)
        for start, links in _chains(counts, width, low, high):
            end = start + links - 1
            if end > above:
                play = [0] * N_RANKS
                play[start : end + 1] = [width] * links
                yield tuple(play), Combo(kind, end, width * links, links)
        return
    wing = 1 if kind == "plane_singles" else 2
    per = 3 + wing
    low, high = (size // per, size // per) if size else (2, 20 // per)
    for start, links in _chains(counts, 3, low, high):
        end = start + links - 1
        if end <= above:
            continue
        avail = list(counts)
        for r in range(start, end + 1):
            avail[r] -= 3
        for kick in _kicker_sets(avail, links, wing):
            if wing == 1 and _jokers_together(kick):
                continue
            yield (
                _with_body({r: 3 for r in range(start, end + 1)}, kick),
                Combo(kind, end, per * links, links),
            )


def reference_plays(counts, previous):
    """Every distinct play that may follow ``previous`` (None: lead), under the reading it is played as.

    That reading is the first kind in ``KINDS``, then the higher body (``legality.best_reading``).
    Sorted by kind (``rules.LEAD_ORDER``), then body rank, then size (a chain's shortest first), then kickers.
    """
    found = {}
    candidates = []
    if previous is None:
        for kind in KINDS[2:]:
            candidates += _gen_kind(counts, kind, None, -1)
    elif previous.kind not in ("bomb", "rocket"):
        candidates += _gen_kind(counts, previous.kind, previous.size, previous.rank)
    if previous is None or previous.kind != "rocket":
        floor = previous.rank if previous is not None and previous.kind == "bomb" else -1
        for kind in ("bomb", "rocket"):
            candidates += _gen_kind(counts, kind, 4, floor)
    for play, combo in candidates:
        if play not in found or (_PRIORITY[combo.kind], -combo.rank) < (
            _PRIORITY[found[play].kind],
            -found[play].rank,
        ):
            found[play] = combo
    order = {kind: i for i, kind in enumerate(rules.LEAD_ORDER)}
    return tuple(
        sorted(
            found.items(), key=lambda item: (order[item[1].kind], item[1].rank, item[1].size, item[0][::-1])
        )
    )


# -- hands to test on -----------------------------------------------------------------------------


def random_hands(rng: random.Random, count: int) -> list[tuple[int, ...]]:
    """Dealt hands of every size, and shaped hands full of trios, quads and jokers (planes, 四带二)."""
    deck = list(rules.FULL_DECK)
    hands = [
        tuple(rules.parse(rng.sample(deck, rng.choice((1, 2, 4, 5, 8, 12, 17, 20, 20)))))
        for _ in range(count)
    ]
    for _ in range(count // 2):
        counts = [0] * N_RANKS
        for r in rng.sample(range(RANK_2 + 1), rng.randint(2, 6)):
            counts[r] = rng.choice((3, 4, 4))
        for r in rng.sample(range(RANK_2 + 1), 3):
            counts[r] = counts[r] or rng.randint(1, 2)
        counts[RANK_XJ] = int(rng.random() < 0.5)
        counts[RANK_DJ] = int(rng.random() < 0.5)
        hands.append(tuple(counts))
    return hands


@pytest.fixture(scope="module")
def hands_and_tables():
    rng = random.Random("ddz-moves")
    hands = random_hands(rng, 600)
    tables = sorted({combo for counts in hands for _play, combo in reference_plays(counts, None)})
    tables += [Combo("bomb", r, 4) for r in range(RANK_2 + 1)] + [Combo("rocket", RANK_DJ, 2)]
    return hands, tables


def hand_of(counts, rng=None) -> list[str]:
    """Concrete cards for rank ``counts`` (random suits when ``rng`` is given), high to low."""
    cards = []
    for r, n in enumerate(counts):
        if r == RANK_XJ:
            cards += ["XJ"] * n
        elif r == RANK_DJ:
            cards += ["DJ"] * n
        else:
            suits = rng.sample("shcd", n) if rng else "shcd"[:n]
            cards += [rules.RANK_CHARS[r] + s for s in suits]
    return rules.sort_cards(cards)


def listed(counts, previous):
    """``legality.plays`` of a hand of ``counts``, as (rank counts, Combo) in its order."""
    return tuple(
        (tuple(rules.parse(cards)), rules.combo(kind, rank, len(cards)))
        for kind, rank, cards in legality.plays(hand_of(counts), previous)
    )


def same_plays(found, expected) -> bool:
    """The same plays under the same readings, in the same order of kind and body (kickers in any order)."""
    return [combo for _play, combo in found] == [combo for _play, combo in expected] and set(found) == set(
        expected
    )


def test_leads_match_the_reference(hands_and_tables):
    hands, _tables = hands_and_tables
    for counts in hands:
        assert same_plays(listed(counts, None), reference_plays(counts, None)), counts


def test_follows_match_the_reference_for_every_kind_on_the_table(hands_and_tables):
    hands, tables = hands_and_tables
    assert {combo.kind for combo in tables} == set(KINDS)
    rng = random.Random("ddz-follows")
    for counts in hands:
        for previous in rng.sample(tables, 30):
            assert same_plays(listed(counts, previous), reference_plays(counts, previous)), (counts, previous)


def test_every_listed_play_is_judged_as_listed(hands_and_tables):
    """Run on a listed play's cards alone, the generator reads them as the listing did, and beats the table."""
    hands, tables = hands_and_tables
    rng = random.Random("ddz-listed")
    for counts in hands[:300]:
        for previous in [None, *rng.sample(tables, 5)]:
            hand = hand_of(counts)
            for kind, rank, play in legality.plays(hand, previous):
                assert set(play) <= set(hand)
                assert legality.best_reading(play, previous) == rules.combo(kind, rank, len(play))
                assert previous is None or rules.beats(rules.combo(kind, rank, len(play)), previous)


@pytest.mark.parametrize(
    ("text", "readings"),
    [
        ("33334444", {("four_two_pairs", 1), ("four_two_pairs", 0), ("plane_singles", 1)}),
        ("333444555666", {("plane", 3), ("plane_singles", 2), ("plane_singles", 3)}),
        ("5555", {("bomb", 2)}),
        ("XD", {("rocket", RANK_DJ)}),
    ],
)
def test_a_set_comes_once_per_reading_when_asked_and_otherwise_once(text, readings):
    """Every reading of a set is one of the reference's; listed, the set comes once, as it is played."""
    hand = cards(text)
    counts = tuple(rules.parse(hand))
    every = legality.plays(hand, None, len(hand), every_reading=True)
    assert {(kind, rank) for kind, rank, _cards in every} == readings
    reference = {(c.kind, c.rank) for kind in KINDS for _p, c in _gen_kind(counts, kind, len(hand), -1)}
    assert readings <= reference
    (once,) = legality.plays(hand, None, len(hand))
    assert rules.combo(*once[:2], len(hand)) == legality.readings(hand)[0] == legality.classify(hand)
