"""推筒子 as a state machine: the 底注, the wheel, the deal with one tile up, 加注, two pools.

The rules and their seed lines are in docs/rules/tuitongzi.md. The wheel is
shown for a few seconds with nobody to act (``on_deadline`` deals); the 加注
round is one countdown in which every seat chooses at once. The tiles and the
wheel are drawn in ``new_hand``; the tiles stay under a private key.
"""

from __future__ import annotations

import copy
from typing import Any

from games.base import Action, IllegalAction, Outcome, SeatedEngine, SeatSpec, SeededRng, State, gettext_noop
from games.tuitongzi import rules
from games.tuitongzi.settle import settle_pool

DEFAULT_OPTIONS: dict[str, Any] = {
    "raise_multiples": [1, 2, 5, 10],  # 加注 amounts offered, × 底注
    "wheel_seconds": 3,
    "raise_seconds": 10,
}
WHEEL = 9  # 001:648 the wheel picks 1 to 9
MAX_SEATS = 6
_SHAPES = {"pass": {"type"}, "raise": {"type", "amount"}}


class TuitongziEngine(SeatedEngine):
    """推筒子 Push the Tubes for 2–6 seats: everyone against everyone, two pools."""

    # -- setup -------------------------------------------------------------
    def new_hand(self, config: dict, seats: list[SeatSpec], rng: SeededRng) -> State:
        cfg = {**DEFAULT_OPTIONS, **config}
        n = len(seats)
        if not 2 <= n <= MAX_SEATS:
            raise ValueError(f"推筒子 seats 2 to {MAX_SEATS} players")
        base = int(cfg.get("base_stake") or 1)
        if base <= 0:
            raise ValueError("base_stake must be positive")
        raises = sorted({int(m) for m in cfg["raise_multiples"] if int(m) > 0})
        if not raises:
            raise ValueError("raise_multiples must name a multiple")
        coins = [int(s.coins) for s in seats]
        wheel = rng.randbelow(WHEEL) + 1
        # 001:649: a number with nobody on it passes on to the next seat with a player. Seats
        # are numbered 1 … n; the numbers above n pass on round the table to seat 1.
        start = wheel - 1 if wheel <= n else 0
        deck = list(rules.TILES)
        rng.shuffle(deck)
        hands: list[list[str]] = [[] for _ in range(n)]
        for i in range(n):  # 001:650: two tiles to each player in turn, from the wheel's seat
            hands[(start + i) % n] = deck[2 * i : 2 * i + 2]
        return {
            "game": "tuitongzi",
            "players": [s.player_id for s in seats],
            "coins": coins,
            "base": base,
            "antes": [min(base, c) for c in coins],  # 001:646; 有限责任制: never more than carried
            "raise_multiples": raises,
            "seconds": {"wheel": int(cfg["wheel_seconds"]), "raise": int(cfg["raise_seconds"])},
            "phase": "wheel",
            "wheel": wheel,
            "start": start,
            "raises": [None] * n,
            "hands": None,
            "result": None,
            "_hands": hands,
        }

    # -- reading -----------------------------------------------------------
    def actors(self, state: State) -> list[int]:
        if state["phase"] != "raise":
            return []
        return [i for i, r in enumerate(state["raises"]) if r is None]

    def deadline_seconds(self, state: State) -> int | None:
        return state["seconds"].get(state["phase"])

    def deal_order(self, state: State) -> list[int]:
        """The seats in dealing order, from the wheel's seat."""
        n = len(state["players"])
        return [(state["start"] + i) % n for i in range(n)]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.actors(state):
            return []
        left = state["coins"][seat] - state["antes"][seat]
        base = state["base"]
        return [{"type": "pass"}] + [
            {"type": "raise", "amount": m * base} for m in state["raise_multiples"] if m * base <= left
        ]

    # -- acting ------------------------------------------------------------
    def apply(self, state: State, seat: int, action: Action) -> State:
        if state["phase"] != "raise":
            raise IllegalAction(gettext_noop("Nobody may act now."))
        if not isinstance(action, dict) or set(action) != _SHAPES.get(action.get("type"), set()):
            raise IllegalAction(gettext_noop("That is not an action in this game."))
        if "amount" in action and type(action["amount"]) is not int:
            raise IllegalAction(gettext_noop("That amount is not a whole number."))
        if not isinstance(seat, int) or seat not in self.actors(state):
            raise IllegalAction(gettext_noop("You have already chosen, or it is not your turn."))
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(gettext_noop("That raise is not one offered, or your coins do not cover it."))
        new = {**state, "raises": list(state["raises"])}
        new["raises"][seat] = action.get("amount", 0)
        if all(r is not None for r in new["raises"]):
            new = copy.deepcopy(new)
            self._finish(new)
        return new

    def on_deadline(self, state: State) -> State:
        if state["phase"] == "wheel":
            new = copy.deepcopy(state)
            new["phase"] = "raise"
            # A seat with nothing left after the 底注 cannot raise: it passes at once.
            for seat in range(len(new["players"])):
                if not self.legal_actions(new, seat)[1:]:
                    new["raises"][seat] = 0
            if all(r is not None for r in new["raises"]):
                self._finish(new)
            return new
        return super().on_deadline(state)

    def auto_action(self, state: State, seat: int) -> Action:
        """Time out or 托管: no raise (001:653 "未下注玩家，按放弃处理")."""
        return {"type": "pass"}

    def hint(self, state: State, seat: int) -> Action | None:
        """提示: raise the smallest amount with a 豹子, a 二八杠 or 7 points and more; else pass."""
        legal = self.legal_actions(state, seat)
        if not legal:
            return None
        value = rules.rank(state["_hands"][seat])  # the seat's own tiles, which it sees
        strong = value.kind != "points" or value.points >= 7
        return legal[1] if strong and len(legal) > 1 else legal[0]

    # -- the end -----------------------------------------------------------
    def _finish(self, state: State) -> None:
        """Settle the 加注 pool among those who raised, then the 底注 pool among all (001:654-660)."""
        n = len(state["players"])
        hands = state["_hands"]
        order = self.deal_order(state)
        room = list(state["coins"])  # what each seat may still win (有限责任制)
        deltas = [0] * n
        pools = []
        for name, stakes in (
            ("raise", {s: r for s, r in enumerate(state["raises"]) if r}),
            ("ante", dict(enumerate(state["antes"]))),
        ):
            seats = sorted(stakes)
            winners = [seats[i] for i in rules.best([hands[s] for s in seats])] if seats else []
            moved = settle_pool(stakes, winners, dict(enumerate(room)), order)
            for seat, delta in moved.items():
                deltas[seat] += delta
                room[seat] -= max(0, delta)
            pools.append({"pool": name, "amount": sum(stakes.values()), "seats": seats, "winners": winners})
        ranks = [rules.rank(h) for h in hands]
        state["hands"] = [list(h) for h in hands]
        state["phase"] = "finished"
        state["result"] = {
            "deltas": deltas,
            "winners": [i for i, d in enumerate(deltas) if d > 0],
            "pools": pools,
            "kinds": [r.kind for r in ranks],
            "points": [r.points for r in ranks],
        }

    # -- what leaves the server -------------------------------------------
    def visible_hands(self, state: State, seat: int | None) -> list[list[str | None] | None]:
        """Per seat, its tiles as ``seat`` sees them: None before the deal, a hidden tile as None.

        After the deal every hand's first tile is face up (001:650), each player
        sees their own two, and at the end every hand is shown (001:659).
        """
        n = len(state["players"])
        if state["phase"] == "wheel":
            return [None] * n
        hands = state["_hands"]
        if state["phase"] == "finished":
            return [list(h) for h in hands]
        return [list(h) if i == seat else [h[0], None] for i, h in enumerate(hands)]

    def view(self, state: State, seat: int | None) -> dict:
        hands = self.visible_hands(state, seat)
        mine = hands[seat] if seat is not None else None
        stakes = [a + (r or 0) for a, r in zip(state["antes"], state["raises"], strict=True)]
        return {
            "phase": state["phase"],
            "seat": seat,
            "base": state["base"],
            "wheel": state["wheel"],
            "start": state["start"],
            "antes": list(state["antes"]),
            "raises": list(state["raises"]),
            "ante_pool": sum(state["antes"]),
            "raise_pool": sum(r or 0 for r in state["raises"]),
            "carried": list(state["coins"]),
            "coins": [c - s for c, s in zip(state["coins"], stakes, strict=True)],
            "hands": hands,
            "hand": mine,
            "mine": None
            if not mine or None in mine
            else {"kind": rules.rank(mine).kind, "points": rules.rank(mine).points},
            "choices": self.legal_actions(state, seat) if seat is not None else [],
            "result": copy.deepcopy(state["result"]),
        }

    def outcome(self, state: State) -> Outcome | None:
        result = state["result"]
        if result is None:
            return None
        return Outcome(
            deltas=list(result["deltas"]),
            winners=list(result["winners"]),
            details={
                "wheel": state["wheel"],
                "start": state["start"],
                "antes": list(state["antes"]),
                "raises": list(state["raises"]),
                "pools": copy.deepcopy(result["pools"]),
                "shown_hands": copy.deepcopy(state["hands"]),
                "kinds": list(result["kinds"]),
                "points": list(result["points"]),
            },
        )
