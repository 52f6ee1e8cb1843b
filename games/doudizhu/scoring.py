"""斗地主 settlement: per-seat multiples, caps, and 有限责任制 (limited liability)."""

from __future__ import annotations

# The farmers of each landlord seat, in seat order (the order results list them in).
_FARMERS = ((1, 2), (0, 2), (0, 1))


def limited_liability(scores: list[int], coins: list[int], landlord: int) -> list[int]:
    """Cut ``scores`` so nobody wins or loses more than they carried (001 斗地主 1.4.2).

    01) each seat's 可得分 is the smaller (in size) of its score and its coins;
    02) if the farmers' 可得分 total is smaller in size than the landlord's, the
        farmers keep theirs and the landlord takes the opposite of their sum;
    03) otherwise each farmer gets (own 可得分 / farmers' total) × landlord's
        可得分, rounded toward zero (舍去小数), and the landlord the opposite sum.
    The result always sums to zero.
    """
    # Three seats written out, no comprehension: this runs at the end of every hand, and in
    # this Python each comprehension or generator expression builds a function and a frame.
    capped = []
    for score, carried in zip(scores, coins, strict=True):
        cap = carried if carried > 0 else 0
        capped.append(cap if score > cap else -cap if score < -cap else score)
    a, b = _FARMERS[landlord]
    farmers_total = capped[a] + capped[b]
    held = capped[landlord]
    if abs(farmers_total) <= abs(held):
        final = capped  # the farmers keep theirs
    else:
        final = [0, 0, 0]
        for f in a, b:
            share = abs(capped[f]) * abs(held) // abs(farmers_total)
            final[f] = share if capped[f] >= 0 else -share
    final[landlord] = -(final[a] + final[b])
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
    a, b = _FARMERS[landlord]
    multiples = [0, 0, 0]
    if variant == "classic":
        # 001 1.4.1: 叫分 × 倍数 is capped at 30; the landlord plays against both farmers.
        multiples[a] = multiples[b] = min(options["cap_multiple"], bid * 2**doublings)
    elif variant == "yifa":
        # 002: each player's doublings (bombs, spring, rob, farmer doubling) stop at 4.
        for f in a, b:
            count = doublings + pair_robs[f] + (1 if doubled[f] else 0)
            multiples[f] = bid * 2 ** min(count, options["doubling_cap"])
    else:
        # 001 加倍斗地主 1.3.1: a farmer's 叫分 × 抢地主翻倍 × 倍数 stops at 128, the landlord's at 256.
        for f in a, b:
            count = doublings + global_robs + (1 if doubled[f] else 0)
            multiples[f] = min(options["farmer_cap"], bid * 2**count)
    landlord_multiple = multiples[a] + multiples[b]
    if variant == "jiabei":
        # Keep the zero sum: if the landlord's cap bites, scale the farmers down with it.
        total = landlord_multiple
        landlord_multiple = min(options["landlord_cap"], total)
        if landlord_multiple < total:
            multiples[a] = multiples[a] * landlord_multiple // total
            multiples[b] = multiples[b] * landlord_multiple // total
            landlord_multiple = multiples[a] + multiples[b]
    multiples[landlord] = landlord_multiple
    sign = -1 if landlord_won else 1
    scores = [0, 0, 0]
    scores[a] = sign * stake * multiples[a]
    scores[b] = sign * stake * multiples[b]
    scores[landlord] = -(scores[a] + scores[b])
    return scores, multiples


def close_hand(state: dict, seat: int) -> dict:
    """End the hand in ``state`` (a fresh copy) because ``seat`` played his last card; settle it."""
    landlord = state["landlord"]
    landlord_won = seat == landlord
    a, b = _FARMERS[landlord]
    plays = state["plays"]
    spring = None
    if landlord_won and plays[a] == 0 and plays[b] == 0:
        spring = "spring"  # 春天: the farmers never played a card
    elif not landlord_won and plays[landlord] == 1:
        spring = "anti_spring"  # 反春: the landlord played only his first lead
    doublings = state["bombs"] + (1 if spring else 0)
    opts = state["options"]
    # One list for settle to read and the result to keep (settle keeps nothing it is given).
    doubled = list(map(bool, state["doubles"]))
    scores, multiples = settle(
        variant=state["variant"],
        stake=opts["stake_amount"],
        bid=state["bid"],
        landlord=landlord,
        landlord_won=landlord_won,
        doublings=doublings,
        pair_robs=pair_robs(state["rob_events"], landlord),
        global_robs=len(state["rob_events"]),
        doubled=doubled,
        options=opts,
    )
    deltas = limited_liability(scores, state["coins"], landlord)
    state["phase"] = "finished"
    state["turn"] = None
    state["spring"] = spring
    state["result"] = {
        "landlord": landlord,
        "winner": "landlord" if landlord_won else "farmers",
        "winners": [landlord] if landlord_won else [a, b],
        "bid": state["bid"],
        "multiple": 2**doublings,
        "multiples": multiples,
        "spring": spring,
        "bombs": state["bombs"],
        "robs": len(state["rob_events"]),
        "doubles": doubled,
        "scores": scores,
        "deltas": deltas,
        "limited": deltas != scores,
        "hands": list(map(list, state["hands"])),
        "bottom": list(state["bottom"]),
        "next_first_seat": seat,
    }
    return state
