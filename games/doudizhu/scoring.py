"""斗地主 settlement: per-seat multiples, caps, and 有限责任制 (limited liability)."""

from __future__ import annotations


def limited_liability(scores: list[int], coins: list[int], landlord: int) -> list[int]:
    """Cut ``scores`` so nobody wins or loses more than they carried (001 斗地主 1.4.2).

    01) each seat's 可得分 is the smaller (in size) of its score and its coins;
    02) if the farmers' 可得分 total is smaller in size than the landlord's, the
        farmers keep theirs and the landlord takes the opposite of their sum;
    03) otherwise each farmer gets (own 可得分 / farmers' total) × landlord's
        可得分, rounded toward zero (舍去小数), and the landlord the opposite sum.
    The result always sums to zero.
    """
    capped = [(1 if s >= 0 else -1) * min(abs(s), max(c, 0)) for s, c in zip(scores, coins, strict=True)]
    farmers = [seat for seat in range(len(scores)) if seat != landlord]
    total = sum(capped[f] for f in farmers)
    final = [0] * len(scores)
    if abs(total) <= abs(capped[landlord]):
        for f in farmers:
            final[f] = capped[f]
    else:
        for f in farmers:
            share = abs(capped[f]) * abs(capped[landlord]) // abs(total)
            final[f] = share if capped[f] >= 0 else -share
    final[landlord] = -sum(final[f] for f in farmers)
    return final


def settle(
    *,
    variant: str,
    stake: int,
    bid: int,
    landlord: int,
    landlord_won: bool,
    doublings: int,
    pair_robs: list[int],
    global_robs: int,
    doubled: list[bool],
    options: dict,
) -> tuple[list[int], list[int]]:
    """Return (scores per seat before limited liability, the multiple each seat plays for).

    ``doublings`` counts bombs, rockets and spring/anti-spring (the 倍数's
    exponent); ``pair_robs[f]`` the robs between the landlord and farmer ``f``
    (易发); ``global_robs`` the robs that double everyone (加倍斗地主);
    ``doubled[f]`` whether farmer ``f`` doubled (加倍).
    """
    farmers = [s for s in range(3) if s != landlord]
    multiples = [0, 0, 0]
    if variant == "classic":
        # 001 1.4.1: 叫分 × 倍数 is capped at 30; the landlord plays against both farmers.
        unit = min(options["cap_multiple"], bid * 2**doublings)
        for f in farmers:
            multiples[f] = unit
    elif variant == "yifa":
        # 002: each player's doublings (bombs, spring, rob, farmer doubling) stop at 4.
        for f in farmers:
            count = doublings + pair_robs[f] + (1 if doubled[f] else 0)
            multiples[f] = bid * 2 ** min(count, options["doubling_cap"])
    else:
        # 001 加倍斗地主 1.3.1: a farmer's 叫分 × 抢地主翻倍 × 倍数 stops at 128, the landlord's at 256.
        for f in farmers:
            count = doublings + global_robs + (1 if doubled[f] else 0)
            multiples[f] = min(options["farmer_cap"], bid * 2**count)
    landlord_multiple = sum(multiples[f] for f in farmers)
    if variant == "jiabei":
        landlord_multiple = min(options["landlord_cap"], landlord_multiple)
        # Keep the zero sum: if the landlord's cap bites, scale the farmers down with it.
        total = sum(multiples[f] for f in farmers)
        if landlord_multiple < total:
            for f in farmers:
                multiples[f] = multiples[f] * landlord_multiple // total
            landlord_multiple = sum(multiples[f] for f in farmers)
    multiples[landlord] = landlord_multiple
    sign = -1 if landlord_won else 1
    scores = [0, 0, 0]
    for f in farmers:
        scores[f] = sign * stake * multiples[f]
    scores[landlord] = -sum(scores[f] for f in farmers)
    return scores, multiples
