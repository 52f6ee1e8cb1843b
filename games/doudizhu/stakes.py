"""倍数 (the multiple) as a seat sees it: the figure its coins move by, and what makes that figure.

``stakes(state)`` gives, once the landlord is known, the multiple each seat plays
for (``settle``'s own figures, the ones the settlement pays) and, per farmer,
the factors behind his multiple: the bid, the bombs, the rockets, 春天 or 反春,
the robs, his 加倍 and the cap that stopped it. The landlord plays against both
farmers, so his figure is the sum of theirs. Every factor is public (bids, plays,
robs and doublings are seen by all), so any viewer may be shown any of them.
"""

from __future__ import annotations

from games.base import State
from games.doudizhu.scoring import _FARMERS, pair_robs, settle

_ROCKET = frozenset(("XJ", "DJ"))


def rockets_played(history: list[dict]) -> int:
    """Count the rockets (火箭: both jokers) played in ``history``."""
    return sum(
        1
        for entry in history
        if "action" in entry
        and entry["action"]["type"] == "play"
        and len(entry["action"]["cards"]) == 2
        and set(entry["action"]["cards"]) == _ROCKET
    )


def live_multiples(state: State) -> list[int] | None:
    """The multiple each seat plays for if the hand ended now (None before the landlord is known).

    Once the hand is finished these are the result's own multiples, 春天 included.
    """
    landlord = state["landlord"]
    if landlord is None:
        return None
    if state["phase"] == "finished" and state.get("result"):
        return list(state["result"]["multiples"])
    _scores, multiples = settle(
        variant=state["variant"],
        stake=1,
        bid=state["bid"],
        landlord=landlord,
        landlord_won=True,
        doublings=state["bombs"] + (1 if state["spring"] else 0),
        pair_robs=pair_robs(state["rob_events"], landlord),
        global_robs=len(state["rob_events"]),
        doubled=[bool(d) for d in state["doubles"]],
        options=state["options"],
    )
    return multiples


def stakes(state: State) -> dict | None:
    """Return ``{"landlord", "multiples", "parts"}`` for ``state`` (None before the landlord is known).

    ``parts[f]`` (a dict keyed by each farmer's seat) is that farmer's multiple and its factors,
    in the order they multiply: ``{"key": "bid", "times": 3}``, ``{"key": "bomb", "count": 2,
    "times": 4}``, ``{"key": "rocket", ...}``, ``{"key": "spring" | "anti_spring", "times": 2}``,
    ``{"key": "rob", "count", "times"}``, ``{"key": "double", "times": 2}``, then the cap that
    applied, if any: ``{"key": "cap", "value": 30}`` (the multiple stops there),
    ``{"key": "doubling_cap", "count": 4}`` (易发: the doublings stop at 4) or
    ``{"key": "landlord_cap", "value": 256}`` (加倍: the landlord's cap scaled both farmers down).
    """
    landlord = state["landlord"]
    multiples = live_multiples(state)
    if landlord is None or multiples is None:
        return None
    variant, options = state["variant"], state["options"]
    bid = state["bid"]
    rockets = rockets_played(state["history"])
    bombs = state["bombs"] - rockets
    spring = state["spring"]
    doublings = state["bombs"] + (1 if spring else 0)
    robs_by_farmer = pair_robs(state["rob_events"], landlord)
    parts = {}
    for farmer in _FARMERS[landlord]:
        factors: list[dict] = [{"key": "bid", "times": bid}]
        if bombs:
            factors.append({"key": "bomb", "count": bombs, "times": 2**bombs})
        if rockets:
            factors.append({"key": "rocket", "count": rockets, "times": 2**rockets})
        if spring:
            factors.append({"key": spring, "times": 2})
        robs = 0
        if variant == "yifa":
            robs = robs_by_farmer[farmer]
        elif variant == "jiabei":
            robs = len(state["rob_events"])
        if robs:
            factors.append({"key": "rob", "count": robs, "times": 2**robs})
        doubled = variant != "classic" and bool(state["doubles"][farmer])
        if doubled:
            factors.append({"key": "double", "times": 2})
        count = doublings + robs + (1 if doubled else 0)
        if variant == "classic" and bid * 2**doublings > options["cap_multiple"]:
            factors.append({"key": "cap", "value": options["cap_multiple"]})
        elif variant == "yifa" and count > options["doubling_cap"]:
            factors.append({"key": "doubling_cap", "count": options["doubling_cap"]})
        elif variant == "jiabei":
            farmer_capped = min(options["farmer_cap"], bid * 2**count)
            if bid * 2**count > options["farmer_cap"]:
                factors.append({"key": "cap", "value": options["farmer_cap"]})
            if multiples[farmer] < farmer_capped:
                factors.append({"key": "landlord_cap", "value": options["landlord_cap"]})
        parts[farmer] = {"seat": farmer, "multiple": multiples[farmer], "factors": factors}
    return {"landlord": landlord, "multiples": multiples, "parts": parts}


def seat_stakes(found: dict | None, seat: int | None) -> dict | None:
    """What ``seat`` is shown of ``found`` (``stakes``'s answer): its own figure and the parts behind it.

    A farmer sees his multiple and its factors; the landlord, and a spectator, the landlord's
    multiple (the sum of the farmers') and both farmers' parts.
    """
    if found is None:
        return None
    landlord = found["landlord"]
    shown = landlord if seat is None else seat
    role = "landlord" if shown == landlord else "farmer"
    parts = [found["parts"][shown]] if role == "farmer" else [found["parts"][f] for f in _FARMERS[landlord]]
    return {"multiple": found["multiples"][shown], "role": role, "parts": parts}
