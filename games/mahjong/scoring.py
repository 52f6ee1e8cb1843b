"""Who pays whom: win and kong payments, 查大叫 / 查花猪, and limited liability by proportion.

Amounts are integers (coins); every fraction is rounded down (舍去小数, 001:328,
001:678) and the coin left over stays with the payer, as 001:678's example says
("用户自身留1分"). Seed lines: docs/rules/xuezhan.md, docs/rules/tuidaohu.md.
"""

from __future__ import annotations

from collections.abc import Sequence

# Kong payments in 底分 (base) units: (from whom, how much).
# 血战 001:716-718 / 003:31-33: 直杠 (刮风) 2 from the discarder, 暗杠 (下雨) 2 from each
# player still in, 补杠 1 from each player still in. 推倒胡 001:295-297: 点杠 3, 补杠 1, 暗杠 2.
KONG_UNITS = {
    "xuezhan": {"exposed": 2, "concealed": 2, "added": 1},
    "tuidaohu": {"exposed": 3, "concealed": 2, "added": 1},
}
PIG_UNITS = 16  # 查花猪: 16 × 底分 to each player (001:678, 001:725)


def win_unit(base: int, fan_total: int) -> int:
    """Return what one payer pays for a win of ``fan_total`` 番: 底分 × 2^N (001:714-715, 001:304-305)."""
    return base * 2**fan_total


def win_demands(winner: int, payers: Sequence[int], base: int, fan_total: int) -> list[tuple[int, int, int]]:
    """Return ``(payer, payee, amount)`` for one win: each of ``payers`` pays 底分 × 2^N.

    A 自摸 is paid by every player still in (血战, 001:714) or all three (推倒胡's ×3,
    001:304); a discard (炮胡) or a robbed kong by the one who let it go.
    """
    unit = win_unit(base, fan_total)
    owed: dict[int, int] = {}
    for p in payers:  # a payer named twice pays twice (003:40: the kong's feeder pays a whole 自摸)
        if p != winner:
            owed[p] = owed.get(p, 0) + unit
    return [(p, winner, a) for p, a in owed.items()]


def pay(
    deltas: list[int], coins: Sequence[int], demands: Sequence[tuple[int, int, int]]
) -> list[tuple[int, int, int]]:
    """Move ``demands`` into ``deltas`` under 有限责任制; return the amounts actually paid.

    A payer short of coins pays each payee in proportion to what it owes (001:329,
    001:727); a payee who would win more than it carried receives its payers' shares
    in the same proportion. Nobody's ``deltas`` ever leaves ``[-coins, +coins]``.
    """
    paid = [list(d) for d in demands if d[2] > 0]
    for payer in {p for p, _, _ in paid}:
        owed = sum(a for p, _, a in paid if p == payer)
        left = coins[payer] + deltas[payer]
        if owed > left:
            for d in paid:
                if d[0] == payer:
                    d[2] = d[2] * max(left, 0) // owed
    for payee in {q for _, q, _ in paid}:
        due = sum(a for _, q, a in paid if q == payee)
        room = coins[payee] - deltas[payee]
        if due > room:
            for d in paid:
                if d[1] == payee:
                    d[2] = d[2] * max(room, 0) // due
    for payer, payee, amount in paid:
        deltas[payer] -= amount
        deltas[payee] += amount
    return [(p, q, a) for p, q, a in paid if a]


def ready_claims(balance: int, fans: dict[int, int], base: int) -> dict[int, int]:
    """查大叫: what a player without a ready hand pays each ready player (001:677, 001:724).

    Each ready seat is owed 底分 × 2^N for the best hand it waits on. When ``balance``
    cannot cover them, 001's formula shares it by 番: ``balance / total 番 × its 番``
    (rounded down; when every ready hand is 0 番, equally).
    """
    owed = {s: win_unit(base, n) for s, n in fans.items()}
    if sum(owed.values()) <= balance:
        return owed
    total = sum(fans.values())
    if total == 0:
        return {s: balance // len(fans) for s in fans}
    return {s: balance * n // total for s, n in fans.items()}


def pig_claims(balance: int, owed: dict[int, int]) -> dict[int, int]:
    """查花猪: a 花猪 short of coins shares ``balance`` equally, rounded down (001:678, 001:725)."""
    if sum(owed.values()) <= balance:
        return dict(owed)
    share = balance // len(owed)
    return {s: min(share, a) for s, a in owed.items()}
