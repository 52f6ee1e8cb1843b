"""十三水 settlement: 水 into coins, with limited liability (有限责任制) in proportion.

Each seat's 水 × 底分 is what it would win or lose (001:466). Nobody wins or
loses more than they carried (001:570 1), 001:457); when someone cannot pay
in full, or cannot take all they are owed, "按比例" (001:570): what changes
hands is the smaller of what the losers can pay and what the winners may
take, and each side pays or receives it in proportion to its claim. Amounts
are rounded down; the coins that rounding leaves go one each to the seats
whose share had the largest fractions, lowest seat first on a tie, so the
deltas sum to zero and nobody passes their cap.
"""

from __future__ import annotations

from collections.abc import Sequence


def _share(total: int, claims: dict[int, int]) -> dict[int, int]:
    """Split ``total`` (at most the claims' sum) in proportion to ``claims``, in whole coins."""
    whole = sum(claims.values())
    if not whole:
        return {seat: 0 for seat in claims}
    shares = {seat: claim * total // whole for seat, claim in claims.items()}
    left = total - sum(shares.values())
    by_fraction = sorted(claims, key=lambda seat: (-(claims[seat] * total % whole), seat))
    for seat in by_fraction[:left]:
        shares[seat] += 1
    return shares


def coins_for(water: Sequence[int], base: int, carried: Sequence[int]) -> list[int]:
    """Return each seat's coins won (+) or lost (−) for its total 水 at ``base`` coins a 水."""
    if len(water) != len(carried):
        raise ValueError("one 水 total per seat")
    owed = {i: min(w * base, carried[i]) for i, w in enumerate(water) if w > 0}
    owes = {i: min(-w * base, carried[i]) for i, w in enumerate(water) if w < 0}
    moved = min(sum(owed.values()), sum(owes.values()))
    deltas = [0] * len(water)
    for seat, amount in _share(moved, owed).items():
        deltas[seat] = amount
    for seat, amount in _share(moved, owes).items():
        deltas[seat] = -amount
    return deltas
