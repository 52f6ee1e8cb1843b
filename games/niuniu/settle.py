"""牛牛 and 通比牛牛 settlement under 有限责任制 (limited liability), before the house's rake.

001:457 (牛牛) and 001:627-628 (通比牛牛) say only that nobody wins or loses more
than the coins they carried into the hand. Where a side cannot cover every
claim, the coins it has are shared in proportion to the claims (as 001:570
says for 十三水, "按比例"), rounded down; the coins rounding leaves go one each,
in seat order from ``order``'s first seat, to the claims that lost a fraction.
The reading is in docs/rules/niuniu.md ("Limited liability").
"""

from __future__ import annotations

from collections.abc import Sequence


def shares(total: int, claims: Sequence[int], order: Sequence[int]) -> list[int]:
    """Share ``total`` (at most ``sum(claims)``) in proportion to ``claims``, none above its claim."""
    whole = sum(claims)
    if total >= whole:
        return list(claims)
    out = [total * c // whole for c in claims]
    short = total - sum(out)
    for i in order:
        if short and (total * claims[i]) % whole:
            out[i] += 1
            short -= 1
    return out


def banker_settle(claims: Sequence[int], coins: Sequence[int], banker: int) -> list[int]:
    """Settle 牛牛: each player against the banker; return every seat's coins won (+) or lost (−).

    ``claims[i]`` is what player ``i`` wins (+) or loses (−) against the banker by the
    rules, 0 for the banker. A player never moves more than they carried. A banker
    short of the winners' claims pays them what it carried plus what the losers
    paid, in proportion to their claims; a banker who would win more than it
    carried takes only that much, the losers paying in proportion to their losses.
    """
    n = len(claims)
    order = [(banker + 1 + k) % n for k in range(n - 1)]
    capped = [0] * n
    for i in order:
        capped[i] = max(-coins[i], min(coins[i], claims[i]))
    wins = [max(c, 0) for c in capped]
    losses = [max(-c, 0) for c in capped]
    won, lost = sum(wins), sum(losses)
    bank = coins[banker]
    paid_out = shares(min(won, bank + lost), wins, order)
    paid_in = shares(min(lost, sum(paid_out) + bank), losses, order)
    deltas = [paid_out[i] - paid_in[i] for i in range(n)]
    deltas[banker] = -sum(deltas)
    return deltas


def tongbi_claims(base: int, multiple: int, bets: Sequence[int], winner: int) -> list[int]:
    """What each other seat owes the best hand: 底分 A × its multiple B × its bet C × the loser's bet D (001:612-617)."""
    return [0 if j == winner else base * multiple * bets[winner] * bets[j] for j in range(len(bets))]


def tongbi_settle(claims: Sequence[int], coins: Sequence[int], winner: int) -> list[int]:
    """Settle 通比牛牛: the best hand takes ``claims[j]`` from every other seat ``j`` (001:612-617).

    A loser pays at most what it carried; a winner takes at most what it carried,
    the losers then paying in proportion to what they owed.
    """
    n = len(claims)
    order = [(winner + 1 + k) % n for k in range(n - 1)]
    owed = [0] * n
    for j in order:
        owed[j] = min(claims[j], coins[j])
    paid = shares(min(sum(owed), coins[winner]), owed, order)
    deltas = [-p for p in paid]
    deltas[winner] = sum(paid)
    return deltas
