"""理牌: every arrangement of 13 cards into 头墩 (3), 中墩 (5) and 尾墩 (5) that no other beats.

An arrangement is legal when 头 ≤ 中 ≤ 尾 (no 倒水, 001:469). One dominates
another when it is at least as strong in every pile and stronger in one; a
dominated arrangement never scores more against anybody, so :func:`frontier`
returns only the others, one arrangement per distinct triple of pile values.

How it stays fast (of 72,072 splits, a few thousand are looked at): the 1,287
five-card subsets are valued once (a dict lookup by their ranks, the flushes
of a suit holding five or more overridden), then the 尾墩 candidates are taken
strongest first. A 尾墩 whose other eight cards have the same ranks (and the
same suited cards) as one already searched with an equal value is skipped.
For the others, the best 头墩 the eight cards hold (a dict read by their
ranks) and the best 中墩 no stronger than the 尾墩 bound what any split under
it can reach; if an arrangement already found has a 尾墩 at least as strong
and a (中, 头) pair at least as strong as those bounds, it is skipped. Each
split is one int (middle value, front value, which subsets), so the 56 splits
sort in C. The search stops once the 尾墩 is no stronger than the best 头墩
found (every split under it is then dominated).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import combinations, groupby
from operator import add, itemgetter

from games.shisanshui.piles import PLAIN, suited_value

_FULL = (1 << 13) - 1
_C5 = tuple(combinations(range(13), 5))
_C3 = tuple(combinations(range(13), 3))
_G5 = PICK5 = tuple(itemgetter(*c) for c in _C5)  # a subset's items from 13 sorted ranks or cards
_G3 = PICK3 = tuple(itemgetter(*c) for c in _C3)
_MASK5 = tuple(sum(1 << i for i in c) for c in _C5)
_MASK3 = tuple(sum(1 << i for i in c) for c in _C3)
_INDEX5 = {m: i for i, m in enumerate(_MASK5)}
_INDEX3 = {m: i for i, m in enumerate(_MASK3)}


def _splits() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """For each 尾墩 subset: the 56 中墩 subsets of the other eight cards, and the 头墩 each leaves."""
    mids, fronts = [], []
    for back in _MASK5:
        rest = [i for i in range(13) if not back >> i & 1]
        ms = [sum(1 << i for i in c) for c in combinations(rest, 5)]
        mids.append(tuple(_INDEX5[m] for m in ms))
        fronts.append(tuple(_INDEX3[_FULL ^ back ^ m] for m in ms))
    return tuple(mids), tuple(fronts)


_MIDS, _FRONTS = _splits()
_VALUE_MASK = (1 << 24) - 1
_REST = tuple(itemgetter(*(i for i in range(13) if not m >> i & 1)) for m in _MASK5)


# The best 头墩 of eight cards by their ranks (highest first), filled as hands need it: a front
# ignores suits, so the ranks decide it (a dict read is many times cheaper than valuing 56 fronts).
# Bounded: there are 120,055 multisets of eight ranks (about 20 MB if every one is ever seen).
_BEST_FRONT: dict[tuple[int, ...], int] = {}


def _best_front(ranks: tuple[int, ...]) -> int:
    """The value of the best three of these ranks (highest first) as a front pile."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    trips = [r for r in counts if counts[r] >= 3]
    pairs = [r for r in counts if counts[r] >= 2]
    if trips:
        best = (trips[0],) * 3
    elif pairs:
        best = (pairs[0], pairs[0], next(r for r in ranks if r != pairs[0]))
    else:
        best = ranks[:3]
    value = _BEST_FRONT[ranks] = PLAIN[tuple(sorted(best, reverse=True))]
    return value


def pile_values(ranks: tuple[int, ...], suits: tuple[int, ...]) -> tuple[list[int], list[int]]:
    """Value every 5-card and every 3-card subset of 13 cards sorted by rank, highest first."""
    v5 = [PLAIN[g(ranks)] for g in _G5]
    v3 = [PLAIN[g(ranks)] for g in _G3]
    for suit in set(suits):
        same = [i for i, s in enumerate(suits) if s == suit]
        if len(same) >= 5:
            for combo in combinations(same, 5):
                v5[_INDEX5[sum(1 << i for i in combo)]] = suited_value([ranks[i] for i in combo])
    return v5, v3


def frontier(
    ranks: tuple[int, ...],
    suits: tuple[int, ...],
    values: tuple[list[int], list[int]] | None = None,
    order5: list[int] | None = None,
) -> list[tuple[int, int, int, int, int, int]]:
    """Return the undominated legal arrangements as (front, middle, back) values and their subset indexes.

    ``ranks`` (highest first) and ``suits`` describe 13 distinct cards;
    ``values`` is their :func:`pile_values` and ``order5`` the 5-card subsets
    strongest first (:func:`strongest_first`), if already known. Each
    entry is ``(vf, vm, vb, front_index, middle_index, back_index)``; the
    indexes name subsets of positions (``subset_positions``).
    """
    v5, v3 = values or pile_values(ranks, suits)
    # Each split as one sortable int, middle value, front value, middle index, front index:
    # the sum of a key per middle subset and a key per front subset.
    m_keys = [v << 44 | i << 9 for i, v in enumerate(v5)]
    f_keys = [v << 20 | i for i, v in enumerate(v3)]
    order5 = order5 or strongest_first(v5)
    # The staircase of (中, 头) pairs found so far, strongest 中 first: keys are -middle (ascending)
    # and the fronts rise along it, so the best front with a middle >= m is one bisect away.
    stair_keys: list[int] = []
    stair_fronts: list[int] = []
    found: list[tuple[int, int, int, int, int, int]] = []
    best_front = -1
    # Two 尾墩 subsets of equal value whose other cards have the same ranks split the same way,
    # unless those cards hold a flush: then which suited cards remain counts too.
    suited = 0
    for suit in set(suits):
        if suits.count(suit) >= 5:
            suited |= sum(1 << i for i, s in enumerate(suits) if s == suit)
    seen = set()
    for back in order5:
        vb = v5[back]
        if vb <= best_front:
            break
        # Bounds: the strongest 中墩 (no stronger than the 尾墩) and 头墩 the other eight cards hold.
        rest = _REST[back](ranks)
        key = (vb, rest, _MASK5[back] & suited)
        if key in seen:
            continue
        seen.add(key)
        mids, fronts = _MIDS[back], _FRONTS[back]
        f_rest = _BEST_FRONT.get(rest) or _best_front(rest)
        k = bisect_right(stair_keys, -vb)
        if k and stair_fronts[k - 1] >= min(vb, f_rest):
            continue  # a cheap first bound: the middle is no stronger than the back
        keys = sorted(map(add, map(m_keys.__getitem__, mids), map(f_keys.__getitem__, fronts)))
        cut = bisect_left(keys, (vb + 1) << 44)
        if not cut:
            continue
        m_max = keys[cut - 1] >> 44
        f_max = min(m_max, f_rest)
        k = bisect_right(stair_keys, -m_max)
        if k and stair_fronts[k - 1] >= f_max:
            continue
        local = -1
        for i in range(cut - 1, -1, -1):
            key = keys[i]
            vm, vf = key >> 44, key >> 20 & _VALUE_MASK
            if vf > vm or vf <= local:
                continue
            local = vf
            k = bisect_right(stair_keys, -vm)
            if k and stair_fronts[k - 1] >= vf:
                continue
            mid, front = key >> 9 & 2047, key & 511
            found.append((vf, vm, vb, front, mid, back))
            best_front = max(best_front, vf)
            # Insert (vm, vf) and drop the pairs it covers (middle <= vm, front <= vf).
            at = bisect_left(stair_keys, -vm)
            end = at
            while end < len(stair_keys) and stair_fronts[end] <= vf:
                end += 1
            stair_keys[at:end] = [-vm]
            stair_fronts[at:end] = [vf]
    # An arrangement can only be dominated by a later one with an equal 尾墩: filter within each.
    kept = []
    for _, group in groupby(sorted(found, key=itemgetter(2), reverse=True), key=itemgetter(2)):
        best = -1
        for entry in sorted(group, key=itemgetter(1, 0), reverse=True):
            if entry[0] > best:
                kept.append(entry)
                best = entry[0]
    return kept


def strongest_first(v5: list[int]) -> list[int]:
    """The 5-card subsets' indexes, strongest first."""
    return sorted(range(len(v5)), key=v5.__getitem__, reverse=True)


def subset_positions(index: int, size: int) -> tuple[int, ...]:
    """The card positions (0–12) of subset ``index`` of ``size`` 3 or 5."""
    return _C5[index] if size == 5 else _C3[index]


def brute_force(ranks: tuple[int, ...], suits: tuple[int, ...]) -> set[tuple[int, int, int]]:
    """The undominated (front, middle, back) value triples by trying all 72,072 splits (for tests)."""
    v5, v3 = pile_values(ranks, suits)
    triples = set()
    for back in range(len(v5)):
        vb = v5[back]
        for mid, front in zip(_MIDS[back], _FRONTS[back], strict=True):
            vm, vf = v5[mid], v3[front]
            if vf <= vm <= vb:
                triples.add((vf, vm, vb))
    # Strongest 尾墩 first: a triple is kept unless an earlier one holds a (中, 头) at least as strong.
    kept: set[tuple[int, int, int]] = set()
    keys: list[int] = []
    fronts: list[int] = []
    for vf, vm, vb in sorted(triples, key=lambda t: (t[2], t[1], t[0]), reverse=True):
        k = bisect_right(keys, -vm)
        if k and fronts[k - 1] >= vf:
            continue
        kept.add((vf, vm, vb))
        at = bisect_left(keys, -vm)
        end = at
        while end < len(keys) and fronts[end] <= vf:
            end += 1
        keys[at:end] = [-vm]
        fronts[at:end] = [vf]
    return kept
