"""梭哈 Five-card stud as a state machine: 易发 (seed 002) and 港式五张 (seed 003).

One 底牌 (hole card) and one face-up card, a betting round, then one face-up
card and a betting round at a time up to five cards. The best face-up cards
speak first, then the turn goes round in seat order. 梭 (all-in) always bets
the smallest stack still in the hand (002:56), capped by the room cap, so
everybody still in can call it and there is never a side pot. The 易发 variant
adds 换牌 (swap the dealt card with the 底牌) on rounds 3 and 4, fixed 20×
bets and 开 (open) from round 4, and extra rounds until someone goes 梭.
Every rule, its seed line and every reading chosen: docs/rules/suoha.md.
"""

from __future__ import annotations

import copy
from typing import Any

from games.base import Action, IllegalAction, Outcome, SeatedEngine, SeatSpec, SeededRng, State, gettext_noop
from games.suoha import rules

VARIANTS: dict[str, dict[str, Any]] = {
    # 002 易发棋牌梭哈: caps 5/10/20/20 × 底分 (002:67, 002:76), 梭 from the third card
    # (002:55), 换牌 on rounds 3 and 4 (002:55), fixed 20× bets, 开 and extra rounds from round 4.
    "yifa": {
        "max_players": 4,
        "round_caps": [5, 10, 20, 20],
        "suo_from": 2,
        "swap_rounds": [3, 4],
        "fixed_from": 4,
        "extra_rounds": True,
        "room_cap": 100,
    },
    # 003 港式五张: 梭 from the fourth card (003); 003 gives no per-round cap. 003 says 2–6
    # players, but 28 cards give five to five players only (six need 30): at most 5 here.
    "hk": {
        "max_players": 5,
        "round_caps": None,
        "suo_from": 3,
        "swap_rounds": [],
        "fixed_from": None,
        "extra_rounds": False,
        "room_cap": None,
    },
}
DEFAULT_OPTIONS: dict[str, Any] = {
    "variant": "yifa",
    "ante": 1,  # × 底分, each seat (002:73-75: 底分 1, 锅底 2 at two seats)
    "raise_steps": [1, 2, 5, 10, 20],  # what one 加 may add, × 底分
    "turn_seconds": 20,
    "swap_seconds": 10,
    # None: as the variant says. room_cap: most one seat may stake in a hand, × 底分.
    "room_cap": None,
    "round_caps": None,
}
_SHAPES = {
    "check": {"type"},
    "call": {"type"},
    "fold": {"type"},
    "suo": {"type"},
    "open": {"type"},
    "swap": {"type"},
    "keep": {"type"},
    "raise": {"type", "amount"},
}


def settle(bets: list[int], coins: list[int], winner: int) -> list[int]:
    """The winner takes the pot, never winning more than it carried (有限责任制).

    When the cap bites, the losers pay in proportion to their stakes, rounded
    down, and the coins lost to rounding come one each from the first losers
    whose share had a fraction, so the deltas sum to zero.
    """
    n = len(bets)
    losers = [s for s in range(n) if s != winner]
    pool = sum(bets[s] for s in losers)
    total = min(pool, coins[winner])
    deltas = [0] * n
    deltas[winner] = total
    if pool == 0:
        return deltas
    for s in losers:
        deltas[s] = -(bets[s] * total // pool)
    short = total + sum(deltas[s] for s in losers)
    for s in losers:
        if short and (bets[s] * total) % pool:
            deltas[s] -= 1
            short -= 1
    return deltas


class SuohaEngine(SeatedEngine):
    """梭哈 for 2–4 (易发) or 2–5 (港式五张) seats."""

    def check_options(self, options: dict) -> None:
        """Raise ValueError for options no hand could be dealt under."""
        cfg = {**DEFAULT_OPTIONS, **options}
        if cfg["variant"] not in VARIANTS:
            raise ValueError(f"variant must be one of {', '.join(VARIANTS)}")
        steps = cfg["raise_steps"]
        if not isinstance(steps, list) or not steps or any(type(s) is not int or s <= 0 for s in steps):
            raise ValueError("raise_steps must be positive whole numbers")
        for key in ("ante", "turn_seconds", "swap_seconds"):
            if type(cfg[key]) is not int or cfg[key] <= 0:
                raise ValueError(f"{key} must be a positive whole number")
        caps = cfg["round_caps"]
        if caps is not None and (
            not isinstance(caps, list) or len(caps) != 4 or any(type(c) is not int or c <= 0 for c in caps)
        ):
            raise ValueError("round_caps must be four positive whole numbers")
        if cfg["room_cap"] is not None and (type(cfg["room_cap"]) is not int or cfg["room_cap"] <= 0):
            raise ValueError("room_cap must be a positive whole number")

    # -- setup -------------------------------------------------------------
    def new_hand(self, config: dict, seats: list[SeatSpec], rng: SeededRng) -> State:
        cfg = {**DEFAULT_OPTIONS, **config}
        self.check_options({k: cfg[k] for k in DEFAULT_OPTIONS})
        rules_of = VARIANTS[cfg["variant"]]
        n = len(seats)
        if not 2 <= n <= rules_of["max_players"]:
            raise ValueError(f"this 梭哈 table seats 2 to {rules_of['max_players']} players")
        base = int(cfg.get("base_stake") or 1)
        coins = [int(s.coins) for s in seats]
        if base <= 0 or min(coins) <= 0:
            raise ValueError("base_stake and every seat's coins must be positive")
        room_cap = cfg["room_cap"] if cfg["room_cap"] is not None else rules_of["room_cap"]
        round_caps = cfg["round_caps"] if cfg["round_caps"] is not None else rules_of["round_caps"]
        deck = rules.deck()
        rng.shuffle(deck)
        ante = min(cfg["ante"] * base, min(coins))  # nobody stakes more than the smallest stack
        state: State = {
            "game": "suoha",
            "variant": cfg["variant"],
            "players": [s.player_id for s in seats],
            "coins": coins,
            "base": base,
            "room_cap": None if room_cap is None else room_cap * base,
            "round_caps": None if round_caps is None else [c * base for c in round_caps],
            "raise_steps": sorted({s * base for s in cfg["raise_steps"]}),
            "suo_from": rules_of["suo_from"],
            "swap_rounds": list(rules_of["swap_rounds"]),
            "fixed_from": rules_of["fixed_from"],
            "extra_rounds": rules_of["extra_rounds"],
            "turn_seconds": cfg["turn_seconds"],
            "swap_seconds": cfg["swap_seconds"],
            "phase": "betting",
            "round": 1,
            "bets": [ante] * n,
            "round_bets": [0] * n,
            "high": 0,
            "status": ["active"] * n,
            "up": [[deck[n + i]] for i in range(n)],
            "swapped": [[] for _ in range(n)],  # the rounds each seat swapped on
            "pending": [],  # seats yet to act this round, in turn order
            "leader": None,  # who spoke first this round (may 开)
            "suo": None,  # the 梭 total once someone went 梭 (or every stake reached the cap)
            "turn": None,
            "deciding": [],  # seats choosing 换牌 or not
            "log": [],
            "result": None,
            "_down": [deck[i] for i in range(n)],
            "_dealt": [None] * n,  # the card a seat is choosing to swap in, face down
            # Each seat's five cards as the seed deals them: card k of seat i is deck[k·n + i]
            # (docs/rules/suoha.md, "Deal"); a seat that folds is dealt no more of them.
            "_cards": [[deck[k * n + i] for k in range(5)] for i in range(n)],
        }
        self._start_round(state)
        return state

    # -- reading -----------------------------------------------------------
    def actors(self, state: State) -> list[int]:
        if state["phase"] == "swap":
            return list(state["deciding"])
        return [] if state["turn"] is None else [state["turn"]]

    def deadline_seconds(self, state: State) -> int | None:
        if state["phase"] == "swap":
            return state["swap_seconds"]
        return None if state["turn"] is None else state["turn_seconds"]

    def _active(self, state: State) -> list[int]:
        return [i for i, s in enumerate(state["status"]) if s == "active"]

    def total_cap(self, state: State) -> int:
        """The most a seat may stake in the hand: the smallest stack still in (梭), and the room cap."""
        cap = min(state["coins"][i] for i in self._active(state))
        return cap if state["room_cap"] is None else min(cap, state["room_cap"])

    def _round_cap(self, state: State) -> int | None:
        caps = state["round_caps"]
        return None if caps is None else caps[min(state["round"], 4) - 1]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state["phase"] == "swap":
            return [{"type": "swap"}, {"type": "keep"}] if seat in state["deciding"] else []
        if state["turn"] != seat:
            return []
        owed = state["high"] - state["round_bets"][seat]
        actions: list[Action] = []
        fixed = state["fixed_from"] is not None and state["round"] >= state["fixed_from"]
        extra = state["round"] > 4
        if state["suo"] is not None:
            return [{"type": "call"}, {"type": "fold"}]
        if owed == 0 and not extra:
            actions.append({"type": "check"})
        if owed > 0:
            actions.append({"type": "call"})
        cap = self.total_cap(state)
        can_suo = state["round"] >= state["suo_from"]
        limit = cap - 1 if can_suo else cap  # reaching the cap is 梭 once 梭 is allowed
        before = state["bets"][seat] - state["round_bets"][seat]
        round_cap = self._round_cap(state)
        if fixed:
            targets = [round_cap] if round_cap is not None else []
        else:
            targets = [state["high"] + step for step in state["raise_steps"]]
        for target in targets:
            if (
                target > state["high"]
                and (round_cap is None or target <= round_cap)
                and before + target <= limit
            ):
                actions.append({"type": "raise", "amount": target})
        if can_suo and state["bets"][seat] < cap:
            actions.append({"type": "suo"})
        if fixed and seat == state["leader"] and state["high"] == 0:
            actions.append({"type": "open"})
        actions.append({"type": "fold"})
        return actions

    # -- acting ------------------------------------------------------------
    def apply(self, state: State, seat: int, action: Action) -> State:
        if state["phase"] == "finished":
            raise IllegalAction(gettext_noop("The hand is over."))
        if not isinstance(action, dict):
            raise IllegalAction(gettext_noop("That is not an action."))
        if seat not in self.actors(state):
            raise IllegalAction(gettext_noop("It is not your turn."))
        kind = action.get("type")
        if "amount" in action and type(action["amount"]) is not int:
            raise IllegalAction(gettext_noop("That amount is not a whole number."))
        if set(action) != _SHAPES.get(kind, set()):
            raise IllegalAction(gettext_noop("That is not an action in this game."))
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(self._refusal(state, kind))
        new = copy.deepcopy(state)
        if kind in ("swap", "keep"):
            self._decide(new, seat, kind)
            return new
        new["pending"].remove(seat)
        entry: dict[str, Any] = {"seat": seat, "type": kind, "round": new["round"]}
        if kind == "fold":
            new["status"][seat] = "folded"
        elif kind == "call":
            self._put(new, seat, new["high"] - new["round_bets"][seat])
        elif kind in ("raise", "suo"):
            target = (
                action["amount"]
                if kind == "raise"
                else new["round_bets"][seat] + self.total_cap(new) - new["bets"][seat]
            )
            self._put(new, seat, target - new["round_bets"][seat])
            new["high"] = target
            if kind == "suo":
                new["suo"] = new["bets"][seat]
            n = len(new["players"])
            order = [(seat + k) % n for k in range(1, n)]
            new["pending"] = [s for s in order if new["status"][s] == "active"]
        if kind in ("call", "raise", "suo"):
            entry["amount"] = new["bets"][seat]
        new["log"].append(entry)
        if kind == "open":
            self._showdown(new)
            return new
        self._next_turn(new, seat)
        return new

    def _refusal(self, state: State, kind: Any) -> str:
        if kind in ("swap", "keep"):
            return gettext_noop("You can swap cards only when a card is dealt on rounds that allow it.")
        if kind == "raise":
            return gettext_noop("You cannot raise by that amount now.")
        if kind == "suo":
            return gettext_noop("You cannot go all in (梭) now.")
        if kind == "open":
            return gettext_noop("Only the best face-up hand may open, before anybody bets this round.")
        if kind == "check":
            return gettext_noop("You cannot check now.")
        return gettext_noop("That is not an action in this game.")

    @staticmethod
    def _put(state: State, seat: int, amount: int) -> None:
        state["bets"][seat] += amount
        state["round_bets"][seat] += amount

    def _next_turn(self, state: State, seat: int) -> None:
        active = self._active(state)
        if len(active) == 1:
            self._finish(state, active[0], "fold")
            return
        state["pending"] = [s for s in state["pending"] if state["status"][s] == "active"]
        if state["pending"]:
            state["turn"] = state["pending"][0]
            return
        state["turn"] = None
        self._end_round(state)

    def _end_round(self, state: State) -> None:
        """Close a betting round: deal on, play an extra round (易发), or open the hands."""
        active = self._active(state)
        if state["suo"] is None and all(state["bets"][s] == self.total_cap(state) for s in active):
            state["suo"] = self.total_cap(state)  # every stake reached the cap: nothing left to bet
        if state["round"] >= 4:
            if state["suo"] is None and state["extra_rounds"]:
                state["round"] += 1
                self._start_round(state)
            else:
                self._showdown(state)
            return
        state["round"] += 1
        card = state["round"]  # round r deals each seat still in its card r (0 is the 底牌)
        if state["round"] in state["swap_rounds"]:
            for s in active:
                state["_dealt"][s] = state["_cards"][s][card]
            state["phase"] = "swap"
            state["deciding"] = active
            return
        for s in active:
            state["up"][s].append(state["_cards"][s][card])
        self._start_round(state)

    def _decide(self, state: State, seat: int, kind: str) -> None:
        """换牌 (002:56): the dealt card becomes the 底牌 and the old 底牌 goes face up, or it goes face up itself."""
        dealt = state["_dealt"][seat]
        if kind == "swap":
            state["up"][seat].append(state["_down"][seat])
            state["_down"][seat] = dealt
            state["swapped"][seat].append(state["round"])
        else:
            state["up"][seat].append(dealt)
        state["_dealt"][seat] = None
        state["deciding"].remove(seat)
        state["log"].append({"seat": seat, "type": kind, "round": state["round"]})
        if not state["deciding"]:
            self._start_round(state)

    def _start_round(self, state: State) -> None:
        """Open a betting round, led by the best face-up cards (002:55); skipped once the stakes are all in."""
        state["phase"] = "betting"
        state["round_bets"] = [0] * len(state["players"])
        state["high"] = 0
        active = self._active(state)
        if state["suo"] is not None:
            state["turn"] = state["leader"] = None
            state["pending"] = []
            self._end_round(state)
            return
        leader = active[0]
        for s in active[1:]:
            if rules.compare_shown(state["up"][s], state["up"][leader]) > 0:
                leader = s
        n = len(state["players"])
        state["leader"] = leader
        state["pending"] = [s for s in ((leader + k) % n for k in range(n)) if state["status"][s] == "active"]
        state["turn"] = leader

    def _showdown(self, state: State) -> None:
        """开牌: the best five cards still in take the pot."""
        active = self._active(state)
        best = max(active, key=lambda s: rules.best_hand([state["_down"][s], *state["up"][s]]))
        self._finish(state, best, "showdown")

    def _finish(self, state: State, winner: int, ended_by: str) -> None:
        shown = self._active(state) if ended_by == "showdown" else []
        state.update(phase="finished", turn=None, pending=[], deciding=[])
        state["result"] = {
            "ended_by": ended_by,
            "winner": winner,
            "deltas": settle(state["bets"], state["coins"], winner),
            "pot": sum(state["bets"]),
            "shown": shown,
            "categories": [
                rules.best_hand([state["_down"][s], *state["up"][s]]).category if s in shown else None
                for s in range(len(state["players"]))
            ],
        }

    def auto_action(self, state: State, seat: int) -> Action:
        """托管 / time out: keep the dealt card, check when free, else fold (002:69-70, 断线: 放弃)."""
        legal = self.legal_actions(state, seat)
        for choice in ({"type": "keep"}, {"type": "check"}, {"type": "open"}):
            if choice in legal:
                return choice
        return {"type": "fold"}

    def hint(self, state: State, seat: int) -> Action | None:
        """提示: keep, check or call; fold only when nothing is free."""
        legal = self.legal_actions(state, seat)
        for choice in ({"type": "keep"}, {"type": "check"}, {"type": "call"}, {"type": "open"}):
            if choice in legal:
                return choice
        return legal[-1] if legal else None

    # -- what leaves the server -------------------------------------------
    def visible_down(self, state: State, seat: int | None) -> list[str | None]:
        """Each seat's 底牌 as ``seat`` may see it: its own, and those opened at the showdown."""
        shown = set(state["result"]["shown"]) if state["result"] else set()
        return [state["_down"][s] if s == seat or s in shown else None for s in range(len(state["players"]))]

    def view(self, state: State, seat: int | None) -> dict:
        n = len(state["players"])
        turn = state["turn"]
        view = {
            "phase": state["phase"],
            "variant": state["variant"],
            "seat": seat,
            "round": state["round"],
            "up": [list(cards) for cards in state["up"]],
            "down": self.visible_down(state, seat),
            "dealt": state["_dealt"][seat] if seat is not None else None,
            "swapped": [list(r) for r in state["swapped"]],
            "deciding": list(state["deciding"]),
            "status": list(state["status"]),
            "bets": list(state["bets"]),
            "round_bets": list(state["round_bets"]),
            "coins": [state["coins"][i] - state["bets"][i] for i in range(n)],
            "pot": sum(state["bets"]),
            "high": state["high"],
            "suo": state["suo"],
            "suo_total": self.total_cap(state),
            "round_cap": self._round_cap(state),
            "base": state["base"],
            "leader": state["leader"],
            "turn": turn,
            "choices": self.legal_actions(state, seat) if seat is not None else [],
            "log": copy.deepcopy(state["log"][-12:]),
            "result": copy.deepcopy(state["result"]),
        }
        if seat is not None and turn == seat:
            view["to_call"] = state["high"] - state["round_bets"][seat]
        return view

    def outcome(self, state: State) -> Outcome | None:
        result = state["result"]
        if result is None:
            return None
        down = self.visible_down(state, None)
        return Outcome(
            deltas=list(result["deltas"]),
            winners=[result["winner"]],
            details={
                "ended_by": result["ended_by"],
                "pot": result["pot"],
                "up": [list(c) for c in state["up"]],
                "down": down,
                "categories": list(result["categories"]),
            },
        )
