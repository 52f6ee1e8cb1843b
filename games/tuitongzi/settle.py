"""推筒子 settlement: each pool to its best hands, under 有限责任制.

A pool's winners take back their own stake and share the losers' stakes
equally (001:656, 001:660: "平分"); nobody's winnings in the hand pass the
coins they carried, and when a cap bites the losers pay in proportion to their
stakes only what the winners take. Shares are rounded down; the odd coins go
one each to the seats first in ``order`` (the dealing order).
"""

from __future__ import annotations

from collections.abc import Sequence


def equal_shares(total: int, caps: dict[int, int], order: Sequence[int]) -> dict[int, int]:
    """Share ``total`` equally among ``caps``' seats, none above its cap; odd coins to the first in ``order``."""
    shares = dict.fromkeys(caps, 0)
    left = min(total, sum(caps.values()))
    while left:
        room = [s for s in order if s in caps and shares[s] < caps[s]]
        each = left // len(room)
        if each == 0:
            for seat in room[:left]:
                shares[seat] += 1
            break
        for seat in room:
            give = min(each, caps[seat] - shares[seat])
            shares[seat] += give
            left -= give
    return shares


def settle_pool(
    stakes: dict[int, int], winners: Sequence[int], room: dict[int, int], order: Sequence[int]
) -> dict[int, int]:
    """Return each staking seat's coins won (+) or lost (−) in one pool; they sum to zero.

    ``stakes`` maps each seat in the pool to its stake, ``winners`` are its best
    hands, ``room[seat]`` is the most that seat may still win in the hand.
    """
    losers = {s: a for s, a in stakes.items() if s not in winners}
    pool = sum(losers.values())
    profits = equal_shares(pool, {w: max(0, room[w]) for w in winners}, order)
    taken = sum(profits.values())
    deltas = dict(profits)
    if pool:
        paid = {s: a * taken // pool for s, a in losers.items()}
        short = taken - sum(paid.values())
        for seat in order:
            if short and seat in paid and paid[seat] < losers[seat]:
                paid[seat] += 1
                short -= 1
        deltas.update({s: -a for s, a in paid.items()})
    return deltas
