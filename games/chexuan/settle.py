"""扯旋 settlement: who pays whom once the splits are compared (003:67, 003:73, 003:76).

003:67 (rule 5): a player loses at most what they put in this hand, and wins from any
one player at most what they put in themselves; with more players they win more. So
coins move between pairs of players:

- two players who both reached the showdown: the one whose split wins (``compare_split``)
  takes ``min(own stake, the other's stake)`` from the other; a draw moves nothing;
- a player who folded (丢) pays the showdown's best, each of them taking
  ``min(own stake, the folder's stake)``: the best are the showdown players with the
  most wins less losses against the others (all of them share a folder's stake
  when they are level);
- a player with 三花十 or 三花六 neither wins nor loses (003:76).

Then the caps: what a player pays in all is at most their stake (003:67), and what a
player wins in all is at most what they carried (有限责任制). A loser whose stake does
not cover every claim pays the claimants with the most wins less losses first, as a
pot goes to the best hand first (claimants level with each other share in proportion
to their claims); a winner's cap shares what it may take among its payers in
proportion to what each owed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence


def prorate(total: int, claims: dict[int, int], order: Sequence[int]) -> dict[int, int]:
    """Share ``total`` (at most the claims' sum) in proportion to ``claims``, rounded down.

    The coins lost to rounding go one each to the claimants first in ``order`` whose
    share is still below their claim.
    """
    whole = sum(claims.values())
    if total >= whole:
        return dict(claims)
    shares = {seat: claim * total // whole for seat, claim in claims.items()}
    left = total - sum(shares.values())
    for seat in order:
        if left and seat in shares and shares[seat] < claims[seat]:
            shares[seat] += 1
            left -= 1
    return shares


def settle(
    bets: Sequence[int],
    coins: Sequence[int],
    showdown: Sequence[int],
    folded: Sequence[int],
    beats: Callable[[int, int], int],
    order: Sequence[int],
) -> list[int]:
    """Return each seat's coins won (+) or lost (−); they sum to zero.

    ``bets`` is what each seat put in, ``coins`` what each carried, ``showdown`` the
    seats whose splits are compared (三花 hands left out), ``folded`` the seats that
    folded, ``beats(i, j)`` +1 / 0 / −1 as ``compare_split`` of their splits, and
    ``order`` every seat from the dealer's next (who gets the odd coins first).
    """
    n = len(bets)
    pay = [[0] * n for _ in range(n)]  # pay[j][i]: what j pays i
    score = {i: sum(beats(i, j) for j in showdown if j != i) for i in showdown}
    best = [i for i in showdown if score[i] == max(score.values())] if showdown else []
    for j in range(n):
        if j in folded:
            claims = {i: min(bets[i], bets[j]) for i in best}
        elif j in showdown:
            claims = {i: min(bets[i], bets[j]) for i in showdown if i != j and beats(i, j) > 0}
        else:
            continue
        left = bets[j]
        for level in sorted({score[i] for i in claims}, reverse=True):
            group = {i: c for i, c in claims.items() if score[i] == level}
            for i, amount in prorate(left, group, order).items():
                pay[j][i] = amount
                left -= amount
    for i in range(n):
        won = sum(pay[j][i] for j in range(n))
        if won > coins[i]:
            column = {j: pay[j][i] for j in range(n) if pay[j][i]}
            for j, amount in prorate(coins[i], column, order).items():
                pay[j][i] = amount
    return [sum(pay[j][i] for j in range(n)) - sum(pay[i]) for i in range(n)]
