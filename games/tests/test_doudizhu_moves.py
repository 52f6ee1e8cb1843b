"""斗地主 move generation: the fast generator (games.doudizhu.moves) against a plain reference.

The reference below is the straightforward generator the engine used before
``moves`` replaced it (kind by kind, kickers by recursion, a tuple sort key).
On many random hands, including hands rich in trios, quads and jokers, both
must list exactly the same plays, under the same readings, in the same order,
for leads and for every kind of play to follow; and every listed play must be
one the rules accept.
"""

from __future__ import annotations

import random

import pytest

import games
from games.doudizhu import moves, rules
from games.doudizhu.rules import KINDS, N_RANKS, RANK_2, RANK_A, RANK_DJ, RANK_XJ, Combo

ENGINE = games.REGISTRY["doudizhu"].engine
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
    """Every distinct play that may follow ``previous`` (None: lead), first reading kept, gentlest first."""
    found = {}
    if previous is None:
        for kind in KINDS[2:]:
            for play, combo in _gen_kind(counts, kind, None, -1):
                found.setdefault(play, combo)
    elif previous.kind not in ("bomb", "rocket"):
        for play, combo in _gen_kind(counts, previous.kind, previous.size, previous.rank):
            found.setdefault(play, combo)
    if previous is None or previous.kind != "rocket":
        floor = previous.rank if previous is not None and previous.kind == "bomb" else -1
        for kind in ("bomb", "rocket"):
            for play, combo in _gen_kind(counts, kind, 4, floor):
                found.setdefault(play, combo)
    order = {"bomb": 1, "rocket": 2}
    return tuple(
        sorted(
            found.items(),
            key=lambda item: (
                order.get(item[1].kind, 0),
                item[1].rank,
                _PRIORITY[item[1].kind],
                item[0][::-1],
            ),
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


def test_leads_match_the_reference(hands_and_tables):
    hands, _tables = hands_and_tables
    for counts in hands:
        assert moves.plays_from(counts, None) == reference_plays(counts, None), counts


def test_follows_match_the_reference_for_every_kind_on_the_table(hands_and_tables):
    hands, tables = hands_and_tables
    assert {combo.kind for combo in tables} == set(KINDS)
    rng = random.Random("ddz-follows")
    for counts in hands:
        for previous in rng.sample(tables, 30):
            assert moves.plays_from(counts, previous) == reference_plays(counts, previous), (counts, previous)


def test_every_listed_play_reads_as_listed_and_beats_the_table(hands_and_tables):
    hands, tables = hands_and_tables
    rng = random.Random("ddz-listed")
    for counts in hands[:200]:
        for previous in [None, *rng.sample(tables, 5)]:
            for play, combo in moves.plays_from(counts, previous):
                assert all(0 <= k <= have for k, have in zip(play, counts, strict=True))
                assert combo in rules._readings(play)
                assert previous is None or rules.beats(combo, previous)


def test_legal_actions_pick_the_lowest_suits_of_each_listed_play():
    """The engine's listed plays are plays_from's, as the hand's lowest suits of each rank, high to low."""
    rng = random.Random("ddz-cards")
    deck = list(rules.FULL_DECK)
    state = ENGINE.new_hand(
        {"variant": "classic"}, [games.base.SeatSpec(i + 1, 1000) for i in range(3)], _rng()
    )
    for _ in range(200):
        hand = rules.sort_cards(rng.sample(deck, rng.randint(1, 20)))
        previous = rng.choice([None, *moves.plays_from(tuple(rules.parse(hand)), None)[:8]])
        last = None
        if previous is not None:
            combo = previous[1]
            last = {"seat": 1, "cards": [], "kind": combo.kind, "rank": combo.rank, "size": combo.size}
            last["chain"] = combo.chain
            previous = combo
        probe = dict(state, phase="playing", turn=0, hands=[hand, [], []], last_play=last)
        expected = [
            {"type": "play", "cards": rules.cards_for(hand, play)}
            for play, _combo in reference_plays(tuple(rules.parse(hand)), previous)
        ]
        if previous is not None:
            expected.append({"type": "pass"})
        assert ENGINE.legal_actions(probe, 0) == expected


def _rng():
    return games.base.SeededRng(b"moves-tests-seed-0001", "hand")
