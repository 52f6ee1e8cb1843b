"""What the 血战 and 推倒胡 random-play tests share: the view check, illegal moves, a keen player."""

from __future__ import annotations

import random
from collections import Counter

from games.base import SeatSpec, SeededRng
from games.mahjong.tiles import TILES
from games.testing import InvariantError, strings_in

TILESET = frozenset(TILES)
# Fields of a view that may carry tiles, each checked against the state below.
TILE_FIELDS = (
    "hand",
    "drawn",
    "picked",
    "received",
    "melds",
    "discards",
    "shown_hands",
    "payments",
    "claim",
    "wild",
    "indicator",
    "result",
    "actions",
)


def view_check(state, viewer, view):
    """Independently of ``view``'s code: a seat sees its own tiles and the public ones, nothing else."""
    finished = state["phase"] == "finished"
    rest = {k: v for k, v in view.items() if k not in TILE_FIELDS}
    if strings_in(rest, TILESET):
        raise InvariantError(f"tiles outside the tile fields: {strings_in(rest, TILESET)}")
    if viewer is None:
        if view["hand"] is not None or view["drawn"] is not None or view["actions"] or view["picked"]:
            raise InvariantError("a spectator sees a seat's own tiles")
    else:
        if view["hand"] != sorted(state["_hands"][viewer], key=TILES.index):
            raise InvariantError("a seat's hand is not its own")
        if view["picked"] != state["_picks"][viewer]:
            raise InvariantError("a seat sees another seat's 换三张 picks")
    for s in range(4):
        shown = view["shown_hands"][s]
        if shown is not None and not (finished or s in state["won"]):
            raise InvariantError(f"seat {s}'s hand is shown before it won")
        for m, real in zip(view["melds"][s], state["melds"][s], strict=True):
            if real["concealed"] and m["tile"] is not None and viewer != s and not finished:
                raise InvariantError("a concealed kong is shown to another seat")
        if view["voids"][s] is not None and viewer != s and None in state["voids"]:
            raise InvariantError("a 定缺 choice is shown before every seat chose")
    if view["claim"] is not None and set(view["claim"]) != {"kind", "tile", "from"}:
        raise InvariantError("a claim window tells more than its tile and who let it go")
    if not finished and view["result"] is not None:
        raise InvariantError("a result before the end")


def illegal_actions(engine, state, rng: random.Random):
    actors = engine.actors(state)
    others = [s for s in range(4) if s not in actors]
    if others:
        yield rng.choice(others), {"type": "discard", "tile": "1m"}
        yield rng.choice(others), {"type": "pass"}
    if not actors:
        return
    seat = actors[0]
    hand = state["_hands"][seat]
    missing = next(t for t in TILES if t not in hand)
    yield seat, {"type": "discard", "tile": missing}
    yield seat, {"type": "kong", "tile": missing}
    yield seat, {"type": "discard"}
    yield seat, {"type": "win", "extra": 1}
    yield seat, "win"
    if state["phase"] == "exchange":
        yield seat, {"type": "exchange", "tiles": hand[:2]}
        yield seat, {"type": "exchange", "tiles": ["1m", "1p", "1s"]}
    if state["phase"] == "void":
        yield seat, {"type": "void", "suit": "z"}
    if state["phase"] == "claim" and "win" not in state["claim"]["options"][str(seat)]:
        yield seat, {"type": "win"}
    if state["wild"] is not None and state["wild"] in hand and state["phase"] == "turn":
        yield seat, {"type": "discard", "tile": state["wild"]}  # 001:296: a wild is never discarded


def _isolation(hand: list[str], tile: str) -> int:
    """How many tiles of ``hand`` ``tile`` works with (itself twice, its neighbours): lower is lonelier."""
    n = hand.count(tile) - 1
    if tile[1] != "z":
        for d in (-2, -1, 1, 2):
            k = int(tile[0]) + d
            if 1 <= k <= 9:
                n += hand.count(f"{k}{tile[1]}") * (2 if abs(d) == 1 else 1)
    return n


def keen_choice(engine, state, seat, rng: random.Random):
    """A player who wins, kongs and pungs when it can and throws its loneliest tile: many wins, robbed kongs."""
    actions = engine.legal_actions(state, seat)
    kinds = {a["type"] for a in actions}
    for kind, p in (("win", 0.95), ("kong", 0.8), ("pung", 0.6)):
        if kind in kinds and rng.random() < p:
            return next(a for a in actions if a["type"] == kind)
    discards = [a for a in actions if a["type"] == "discard"]
    if not discards:
        return rng.choice(actions)
    hand = state["_hands"][seat]
    void = state["voids"][seat]
    return min(discards, key=lambda a: (a["tile"][1] != void, _isolation(hand, a["tile"]), rng.random()))


def keen_playouts(engine, config, hands: int, seed: int, coins: int = 100_000) -> Counter:
    """Play ``hands`` hands with :func:`keen_choice`; count the events the issue asks to see."""
    rng = random.Random(seed)
    seats = [SeatSpec(i + 1, coins) for i in range(4)]
    seen: Counter = Counter()
    for k in range(hands):
        state = engine.new_hand(config, seats, SeededRng((seed * 100_000 + k).to_bytes(16, "big"), "hand"))
        while engine.outcome(state) is None:
            actors = engine.actors(state)
            seat = rng.choice(actors)
            action = keen_choice(engine, state, seat, rng)
            if state["phase"] == "claim" and len(state["claim"]["options"]) > 1 and action["type"] == "win":
                seen["win offered to several"] += 1
            state = engine.apply(state, seat, action)
            if action["type"] == "pung":
                seen["pung"] += 1
        outcome = engine.outcome(state)
        if sum(outcome.deltas) != 0 or any(abs(d) > coins for d in outcome.deltas):
            raise InvariantError(f"coins not conserved: {outcome.deltas}")
        seen["hands"] += 1
        seen[f"ended {state['result']['ended_by']}"] += 1
        for p in state["payments"]:
            seen[p["kind"] if p["kind"] != "kong" else f"kong {p['kong']}"] += 1
            if p["kind"] == "win":
                seen["self-drawn win" if p["self_drawn"] else "win on a discard"] += 1
                seen["robbed kong"] += p["robbed"]
        # 一炮多响: each win made together with another on one discard or one robbed kong.
        seen["wins sharing a discard"] += sum(
            1 for p in state["payments"] if p["kind"] == "win" and p["shared"] > 1
        )
    return seen
