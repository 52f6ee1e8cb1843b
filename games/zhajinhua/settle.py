"""炸金花 settlement: who pays whom once the winners are known.

The winners take back their own stakes and share the losers' stakes equally
(001:739 "牌型相同的赢家平分盈利": equal hands split the winnings). Under
有限责任制 nobody wins more than they carried (001:329, 001:727, the
platform-wide wording; the 炸金花 sections are silent); when a
winner's cap bites, the losers pay in proportion to what they staked
(001:727 "按比例"), so the sums still balance to zero. Odd coins go one each
to the seats first clockwise from the dealer (``order``).
"""

from __future__ import annotations

from collections.abc import Sequence


def equal_split(total: int, caps: Sequence[int]) -> list[int]:
    """Share ``total`` as equally as possible, nobody above their cap; odd coins to the first."""
    alloc = [0] * len(caps)
    left = min(total, sum(caps))
    while left:
        room = [i for i in range(len(caps)) if alloc[i] < caps[i]]
        share = left // len(room)
        if share == 0:
            for i in room[:left]:
                alloc[i] += 1
            break
        for i in room:
            give = min(share, caps[i] - alloc[i])
            alloc[i] += give
            left -= give
    return alloc


def settle(
    bets: Sequence[int], coins: Sequence[int], winners: Sequence[int], order: Sequence[int]
) -> list[int]:
    """Return each seat's coins won (+) or lost (−); they sum to zero.

    ``bets`` is what each seat put in, ``coins`` what each carried, ``winners``
    the seats sharing the pot and ``order`` the seats clockwise from the dealer.
    """
    winners = [s for s in order if s in winners]
    losers = [s for s in order if s not in winners]
    pool = sum(bets[s] for s in losers)
    profits = equal_split(pool, [coins[w] for w in winners])
    total = sum(profits)
    deltas = [0] * len(bets)
    for w, p in zip(winners, profits, strict=True):
        deltas[w] = p
    if pool == 0:
        return deltas
    paid = 0
    for s in losers:
        deltas[s] = -(bets[s] * total // pool)
        paid -= deltas[s]
    # The coins lost to rounding down come from the losers whose share had a fraction.
    short = total - paid
    for s in losers:
        if short and (bets[s] * total) % pool:
            deltas[s] -= 1
            short -= 1
    return deltas
