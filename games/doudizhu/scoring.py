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


def pair_robs(rob_events: list[list[int]], landlord: int) -> list[int]:
    """Count, per farmer, the robs between him and the landlord (002: a rob doubles robber and robbed)."""
    counts = [0, 0, 0]
    for robber, robbed in rob_events:
        if landlord in (robber, robbed):
            counts[robbed if robber == landlord else robber] += 1
    return counts


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


def close_hand(state: dict, seat: int) -> dict:
    """End the hand in ``state`` (a fresh copy) because ``seat`` played his last card; settle it."""
    landlord = state["landlord"]
    landlord_won = seat == landlord
    farmers = [s for s in range(3) if s != landlord]
    spring = None
    if landlord_won and all(state["plays"][f] == 0 for f in farmers):
        spring = "spring"  # 春天: the farmers never played a card
    elif not landlord_won and state["plays"][landlord] == 1:
        spring = "anti_spring"  # 反春: the landlord played only his first lead
    doublings = state["bombs"] + (1 if spring else 0)
    opts = state["options"]
    scores, multiples = settle(
        variant=state["variant"],
        stake=opts["stake_amount"],
        bid=state["bid"],
        landlord=landlord,
        landlord_won=landlord_won,
        doublings=doublings,
        pair_robs=pair_robs(state["rob_events"], landlord),
        global_robs=len(state["rob_events"]),
        doubled=[bool(d) for d in state["doubles"]],
        options=opts,
    )
    deltas = limited_liability(scores, state["coins"], landlord)
    state["phase"] = "finished"
    state["turn"] = None
    state["spring"] = spring
    state["result"] = {
        "landlord": landlord,
        "winner": "landlord" if landlord_won else "farmers",
        "winners": [landlord] if landlord_won else farmers,
        "bid": state["bid"],
        "multiple": 2**doublings,
        "multiples": multiples,
        "spring": spring,
        "bombs": state["bombs"],
        "robs": len(state["rob_events"]),
        "doubles": [bool(d) for d in state["doubles"]],
        "scores": scores,
        "deltas": deltas,
        "limited": deltas != scores,
        "hands": [list(h) for h in state["hands"]],
        "bottom": list(state["bottom"]),
        "next_first_seat": seat,
    }
    return state
