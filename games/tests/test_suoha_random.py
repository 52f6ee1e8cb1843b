"""梭哈 random legal play: coins conserved, no leaked card, JSON states, refusals change nothing."""

import random

from games.base import SeatSpec
from games.suoha import GAME
from games.suoha.rules import deck
from games.testing import InvariantError, check_engine_invariants, strings_in

ENGINE = GAME.engine
DECK = frozenset(deck())


def allowed_cards(state, viewer):
    """What ``viewer`` may see, from the seed rules, independently of the engine's view code."""
    seen = {card for cards in state["up"] for card in cards}  # 明牌 are public (002:57)
    if viewer is not None:
        seen.add(state["_down"][viewer])  # the 底牌: only its owner (002:57)
        if state["_dealt"][viewer]:
            seen.add(state["_dealt"][viewer])  # the card being swapped in, face down
    if state["phase"] == "finished" and state["result"]["ended_by"] == "showdown":
        seen.update(state["_down"][s] for s, st in enumerate(state["status"]) if st == "active")
    return seen


def view_check(state, viewer, view):
    leaked = strings_in(view, DECK) - allowed_cards(state, viewer)
    if leaked:
        raise InvariantError(f"view for {viewer} in phase {state['phase']} leaks {sorted(leaked)}")


def illegal_actions(state, rng):
    actors = ENGINE.actors(state)
    n = len(state["players"])
    others = [s for s in range(n) if s not in actors]
    if others:
        yield rng.choice(others), {"type": "call"}
    if actors:
        seat = actors[0]
        yield seat, {"type": "raise", "amount": 7 * state["base"] + 10**6}
        yield seat, {"type": "raise", "amount": 2.0}
        yield seat, {"type": "raise", "amount": -1}
        yield seat, {"type": "call", "extra": 1}
        yield seat, {"type": "peek"}
        if state["phase"] == "betting":
            yield seat, {"type": "swap"}
            if state["round"] < state["suo_from"]:
                yield seat, {"type": "suo"}
            if seat != state["leader"] or state["fixed_from"] is None:
                yield seat, {"type": "open"}
        else:
            yield seat, {"type": "fold"}


def legal_check(state, seat, actions, rng):
    """Every stake stays within the round cap, the 梭 total and what the seat carried."""
    cap = ENGINE.total_cap(state)
    round_cap = ENGINE._round_cap(state)
    before = state["bets"][seat] - state["round_bets"][seat]
    for a in actions:
        if a["type"] == "raise":
            assert before + a["amount"] <= cap <= state["coins"][seat]
            assert round_cap is None or a["amount"] <= round_cap
    assert ENGINE.hint(state, seat) in actions
    assert ENGINE.auto_action(state, seat) in actions


class Stubborn(random.Random):
    """Random choices that fold and go 梭 less often, so more hands reach round 4, 开 and the extra rounds."""

    def choice(self, seq):
        picked = super().choice(seq)
        if isinstance(picked, dict) and picked.get("type") in ("fold", "suo") and self.random() < 0.8:
            picked = super().choice(seq)
        return picked


def play(variant, hands, rng):
    counts = {"suo": 0, "swap": 0, "open": 0, "extra": 0, "showdown": 0, "fold": 0}
    for k in range(hands):
        n = rng.randint(2, 4 if variant == "yifa" else 5)
        base = rng.choice((1, 5, 10))
        coins = [base * rng.choice((3, 40, 100, 150, 400)) for _ in range(n)]
        config = {
            **GAME.default_options,
            "variant": variant,
            "base_stake": base,
            "room_cap": rng.choice((None, None, 30, 200)),
            "ante": rng.choice((1, 2)),
        }
        seats = [SeatSpec(i + 1, c) for i, c in enumerate(coins)]
        state, _steps, outcome = check_engine_invariants(
            ENGINE,
            config,
            seats,
            seed=f"{variant}{k}",
            rng_for_choices=rng,
            illegal_actions=illegal_actions,
            view_check=view_check,
            legal_check=legal_check,
            deadline_rate=0.03,
            views_per_step=2,
        )
        kinds = {e["type"] for e in state["log"]}
        counts["suo"] += "suo" in kinds
        counts["swap"] += "swap" in kinds
        counts["open"] += "open" in kinds
        counts["extra"] += state["round"] > 4
        counts[outcome.details["ended_by"]] += 1
        if "suo" in kinds:  # everybody who stayed in staked the smallest stack still in
            stayed = [s for s in range(n) if state["status"][s] == "active"]
            assert len({state["bets"][s] for s in stayed}) == 1
        if outcome.details["ended_by"] == "showdown":
            assert all(len(state["up"][s]) == 4 for s in range(n) if state["status"][s] == "active")
    return counts


def test_yifa_random_playouts_keep_every_promise():
    counts = play("yifa", 400, Stubborn(2002))
    assert min(counts.values()) >= 5, counts


def test_hong_kong_random_playouts_keep_every_promise():
    counts = play("hk", 250, Stubborn(2003))
    assert counts["swap"] == counts["open"] == counts["extra"] == 0
    assert counts["suo"] > 20 and counts["showdown"] > 20 and counts["fold"] > 20, counts
