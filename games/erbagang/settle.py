"""二八杠 settlement: the banker against each player at 1:1, within the banker's pledge.

Each player wins or loses their bet against the banker alone (001:286, 001:291
"赔率 1：1"). The banker's pledge (抢庄倍数 × 底注, 001:287) is the most the
banker pays out of their own coins in this hand: when the winners' claims
exceed what the losers paid plus the pledge, the winners share that sum in
proportion to their bets. Under 有限责任制 the banker also wins at most the
coins they carried; then the losers pay in proportion to their bets. Shares
are rounded down and the coins left over go one each to the seats first in
``order`` (the dealing order).
"""

from __future__ import annotations

from collections.abc import Sequence


def proportional(total: int, weights: dict[int, int], order: Sequence[int]) -> dict[int, int]:
    """Share ``total`` (at most the weights' sum) in proportion to ``weights``, rounded down.

    The coins lost to rounding go one each to the seats first in ``order`` that
    are still below their weight.
    """
    whole = sum(weights.values())
    if total >= whole:
        return dict(weights)
    shares = {seat: weight * total // whole for seat, weight in weights.items()}
    left = total - sum(shares.values())
    for seat in order:
        if left == 0:
            break
        if seat in shares and shares[seat] < weights[seat]:
            shares[seat] += 1
            left -= 1
    return shares


def settle(
    bets: Sequence[int],
    coins: Sequence[int],
    banker: int,
    pledge: int,
    player_wins: dict[int, bool],
    order: Sequence[int],
) -> list[int]:
    """Return each seat's coins won (+) or lost (−); they sum to zero.

    ``player_wins[seat]`` says whether that player beat the banker; ``pledge`` is
    the banker's pledge in coins; ``order`` lists the seats in dealing order.
    """
    claims = {seat: bets[seat] for seat, won in player_wins.items() if won and bets[seat] > 0}
    owed = {seat: bets[seat] for seat, won in player_wins.items() if not won and bets[seat] > 0}
    claimed, collected = sum(claims.values()), sum(owed.values())
    most_lost = min(pledge, coins[banker])
    if claimed - collected > most_lost:
        claims = proportional(collected + most_lost, claims, order)
    elif collected - claimed > coins[banker]:
        owed = proportional(claimed + coins[banker], owed, order)
    deltas = [0] * len(bets)
    for seat, amount in claims.items():
        deltas[seat] = amount
    for seat, amount in owed.items():
        deltas[seat] = -amount
    deltas[banker] = -sum(deltas)
    return deltas
