"""What one seat (or a spectator) of a 斗地主 hand may see; the keys are listed in docs/rules/doudizhu.md."""

from __future__ import annotations

from games.base import State
from games.doudizhu import moves, rules
from games.doudizhu.stakes import live_multiples, seat_stakes, stakes

RESULT_KEYS = (
    "winner",
    "deltas",
    "hands",
    "multiple",
    "multiples",
    "spring",
    "bid",
    "landlord",
    "bombs",
    "scores",
)


def build_view(engine, state: State, seat: int | None, shared: dict | None = None) -> dict:
    """Return everything ``seat`` may see: its own hand, counts of the others, public cards and actions.

    ``shared``: what ``shared_view`` gave for this state, when several viewers' views are built.
    """
    if shared is None:
        shared = shared_view(state)
    phase = shared["phase"]
    my_turn = seat is not None and phase != "finished" and state["turn"] == seat
    choices: list[dict] = []
    hints: list[dict] = []
    can_play = can_pass = False
    if my_turn:
        if phase == "playing":
            # 提示, every press: the engine's suggestions in order (the client cycles through them).
            hints = engine.hints(state, seat)
            last = state["last_play"]
            can_pass = last is not None
            if last is None:
                can_play = True
            else:
                previous = rules.Combo(last["kind"], last["rank"], last["size"], last["chain"])
                can_play = moves.can_play(state["hands"][seat], previous)
            if can_pass:
                choices = [{"type": "pass"}]
        else:
            # Copies: the engine's listed actions are shared, and a view is its caller's to change.
            choices = [dict(action) for action in engine.legal_actions(state, seat)]
    # The keys in the order the protocol has always sent them (docs/rules/doudizhu.md).
    return {
        "phase": phase,
        "variant": shared["variant"],
        "seat": seat,
        "hand": list(state["hands"][seat]) if seat is not None else None,
        **shared["public"],
        "choices": choices,
        "can_play": can_play,
        "can_pass": can_pass,
        "hints": hints,
        # The 倍数 this viewer's coins move by, and its factors (stakes.py).
        "stakes": seat_stakes(shared["stakes"], seat),
        **shared["tail"],
    }


def build_views(engine, state: State, seats) -> list[dict]:
    """``build_view`` for each of ``seats`` (indexes, None for spectators), the public part built once.

    The views share the public part's lists and dicts: read them, never change them.
    """
    shared = shared_view(state)
    return [build_view(engine, state, seat, shared) for seat in seats]


def shared_view(state: State) -> dict:
    """The part of a view every viewer of the state gets alike."""
    last = state["last_play"]
    played: list[list[str]] = [[], [], []]
    for entry in state["history"]:
        if "redeal" in entry:
            played = [[], [], []]
            continue
        if entry["action"]["type"] == "play":
            played[entry["seat"]].extend(entry["action"]["cards"])
    public = {
        "counts": [len(h) for h in state["hands"]],
        "bottom": list(state["bottom"]) if state["landlord"] is not None else None,
        "landlord": state["landlord"],
        "turn": state["turn"],
        "first_bidder": state["first_bidder"],
        "shown_card": dict(state["shown_card"]) if state["shown_card"] else None,
        "bids": list(state["bids"]),
        "bid": state["bid"],
        "candidate": state["candidate"],
        "robs": list(state["robs"]),
        "doubles": list(state["doubles"]),
        "bombs": state["bombs"],
        "multiple": 2 ** (state["bombs"] + (1 if state["spring"] else 0)),
        "multiples": live_multiples(state),
        "stake": state["options"]["stake_amount"],
        "last_play": {"seat": last["seat"], "cards": list(last["cards"]), "kind": last["kind"]}
        if last
        else None,
        "trick": [
            t if t is None or t == "pass" else {"cards": list(t["cards"]), "kind": t["kind"]}
            for t in state["trick"]
        ],
        "played": played,
    }
    tail = {"spring": state["spring"], "redeals": state["redeals"], "result": None}
    if state["phase"] == "finished" and state["result"]:
        result = state["result"]
        tail["result"] = {key: result[key] for key in RESULT_KEYS}
        tail["result"]["hands"] = [list(h) for h in result["hands"]]
    return {
        "phase": state["phase"],
        "variant": state["variant"],
        "public": public,
        "tail": tail,
        "stakes": stakes(state),
    }
