"""填大坑 (Fill the Big Pit) as a state machine: 九洲游 (000:1-59) and 东北 (000:69-93) variants.

Three cards each (two face down, one face up) and a betting round, then one
face-up card and a betting round at a time, to five cards (000:1, 000:45). The
highest face-up points speak first, ties from the dealer on (000:1). Bets are
1, 3 or 5 × 底注 over the last (000:53, 000:79); each seat may 反踢 (re-raise)
once a round, twice-or-more only two-handed on the last card (000:85); 全压 on
the last round stakes the smallest stack still in (000:53), and no stake ever
exceeds it, so there are no side pots. The best hand takes the pot plus 喜钱
(000:23-25); equal best hands are a 烂锅 (000:39, 000:91): the pot is carried
to the next hand (``Outcome.details["carry"]``), which is dealt with
``config["carry"]``: no ante, 底注 and bets doubled, only the same players.
Every rule, its seed line and every reading chosen: docs/rules/tiandakeng.md.
"""

from __future__ import annotations

import copy
from typing import Any

from games.base import Action, IllegalAction, Outcome, SeatedEngine, SeatSpec, SeededRng, State, gettext_noop
from games.tiandakeng import rules

DEFAULT_OPTIONS: dict[str, Any] = {
    "variant": "jiuzhou",  # or "dongbei" (20 cards 10-A, 借牌)
    "max_players": 5,
    "raise_steps": [1, 3, 5],  # × 底注 (000:53)
    "allow_allin": True,  # 全压 on the last round; 积分房间屏蔽“全压” (000:53)
    "turn_seconds": 60,  # 000:57: a timeout folds
    "carry": None,  # the 烂锅 pot carried from the last hand: {"pot", "level", "players"}
}
_SHAPES = {
    "check": {"type"},
    "call": {"type"},
    "fold": {"type"},
    "allin": {"type"},
    "raise": {"type", "amount"},
}


class TiandakengEngine(SeatedEngine):
    """填大坑 for 2–5 seats (one seat only to collect a 烂锅 pot nobody else may contest)."""

    def check_options(self, options: dict) -> None:
        cfg = {**DEFAULT_OPTIONS, **options}
        rules.deck(cfg["variant"])
        steps = cfg["raise_steps"]
        if not isinstance(steps, list) or not steps or any(type(s) is not int or s <= 0 for s in steps):
            raise ValueError("raise_steps must be positive whole numbers")
        if type(cfg["turn_seconds"]) is not int or cfg["turn_seconds"] <= 0:
            raise ValueError("turn_seconds must be a positive whole number")
        if type(cfg["max_players"]) is not int or not 2 <= cfg["max_players"] <= 5:
            raise ValueError("max_players must be 2 to 5")
        carry = cfg["carry"]
        if carry is not None and not (
            isinstance(carry, dict)
            and type(carry.get("pot")) is int
            and carry["pot"] >= 0
            and type(carry.get("level")) is int
            and carry["level"] >= 0
            and isinstance(carry.get("players"), list)
        ):
            raise ValueError("carry must be {pot, level, players}")

    # -- setup -------------------------------------------------------------
    def new_hand(self, config: dict, seats: list[SeatSpec], rng: SeededRng) -> State:
        cfg = {**DEFAULT_OPTIONS, **config}
        self.check_options({k: cfg[k] for k in DEFAULT_OPTIONS})
        carry = cfg["carry"]
        n = len(seats)
        low = 1 if carry else 2
        if not low <= n <= cfg["max_players"]:
            raise ValueError(f"this 填大坑 table seats {low} to {cfg['max_players']} players")
        if carry and any(s.player_id not in carry["players"] for s in seats):
            raise ValueError("after a 烂锅 only the players of that hand may play (000:91)")
        coins = [int(s.coins) for s in seats]
        if min(coins) < (0 if carry else 1):
            # After a 烂锅 a player whose coins all went into the pot still plays for it, staking nothing more.
            raise ValueError("every seat must carry coins")
        level = carry["level"] if carry else 0
        base = int(cfg.get("base_stake") or 1) * 2**level  # 烂锅 doubles 底分 and bets (000:91)
        dealer = cfg.get("first_seat")
        if dealer is None or not 0 <= dealer < n:
            dealer = rng.randbelow(n)  # 000:43: the first dealer is drawn
        deck = rules.deck(cfg["variant"])
        rng.shuffle(deck)
        order = [(dealer + k) % n for k in range(n)]
        down: list[list[str]] = [[] for _ in range(n)]
        up: list[list[str]] = [[] for _ in range(n)]
        for k in range(3 * n):  # one card at a time from the dealer: two down, the third up
            seat = order[k % n]
            (down if k < 2 * n else up)[seat].append(deck[k])
        ante = 0 if carry else min(base, min(coins))  # 下锅; skipped after a 烂锅 (000:91)
        state: State = {
            "game": "tiandakeng",
            "variant": cfg["variant"],
            "players": [s.player_id for s in seats],
            "coins": coins,
            "base": base,
            "level": level,
            "carry_in": carry["pot"] if carry else 0,
            "raise_steps": sorted({int(s) * base for s in cfg["raise_steps"]}),
            "allow_allin": bool(cfg["allow_allin"]),
            "turn_seconds": cfg["turn_seconds"],
            "dealer": dealer,
            "phase": "betting",
            "round": 1,
            "bets": [ante] * n,
            "round_bets": [0] * n,
            "high": 0,
            "status": ["active"] * n,
            "up": up,
            "shared": [],  # 借牌: {"card", "seats"} (东北, 000:93)
            "kicked": [],  # seats that re-raised (反踢) this round
            "pending": [],
            "leader": None,
            "allin": None,
            "turn": None,
            "log": [],
            "result": None,
            "_down": down,
            "_deck": deck[3 * n :],
        }
        if n == 1:  # 000:39: the only player left takes the carried pot
            self._finish(state, 0, "alone")
        else:
            self._start_round(state)
        return state

    # -- reading -----------------------------------------------------------
    def actors(self, state: State) -> list[int]:
        return [] if state["turn"] is None else [state["turn"]]

    def deadline_seconds(self, state: State) -> int | None:
        return None if state["turn"] is None else state["turn_seconds"]

    def _active(self, state: State) -> list[int]:
        return [i for i, s in enumerate(state["status"]) if s == "active"]

    def total_cap(self, state: State) -> int:
        """The most a seat may stake in the hand: the smallest stack still in (what 全压 stakes)."""
        return min(state["coins"][i] for i in self._active(state))

    def hand_of(self, state: State, seat: int) -> list[str]:
        """The seat's cards: its two face-down ones and its face-up ones (借牌 included)."""
        return [*state["_down"][seat], *state["up"][seat]]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state["turn"] != seat:
            return []
        if state["allin"] is not None:
            return [{"type": "call"}, {"type": "fold"}]
        actions: list[Action] = [{"type": "check"} if state["high"] == 0 else {"type": "call"}]
        last = state["round"] == 3
        may_kick = seat not in state["kicked"] or (last and len(self._active(state)) == 2)
        cap = self.total_cap(state)
        before = state["bets"][seat] - state["round_bets"][seat]
        if state["high"] == 0 or may_kick:
            for step in state["raise_steps"]:
                target = state["high"] + step
                if before + target < cap or (before + target == cap and not (last and state["allow_allin"])):
                    actions.append({"type": "raise", "amount": target})
        if last and state["allow_allin"] and state["bets"][seat] < cap:
            actions.append({"type": "allin"})
        actions.append({"type": "fold"})
        return actions

    # -- acting ------------------------------------------------------------
    def apply(self, state: State, seat: int, action: Action) -> State:
        if state["phase"] == "finished":
            raise IllegalAction(gettext_noop("The hand is over."))
        if not isinstance(action, dict):
            raise IllegalAction(gettext_noop("That is not an action."))
        if state["turn"] != seat:
            raise IllegalAction(gettext_noop("It is not your turn."))
        kind = action.get("type")
        if "amount" in action and type(action["amount"]) is not int:
            raise IllegalAction(gettext_noop("That amount is not a whole number."))
        if set(action) != _SHAPES.get(kind, set()):
            raise IllegalAction(gettext_noop("That is not an action in this game."))
        if action not in self.legal_actions(state, seat):
            if kind == "raise":
                raise IllegalAction(gettext_noop("You cannot raise by that amount now."))
            if kind == "allin":
                raise IllegalAction(gettext_noop("全压 (all in) is only for the last round."))
            raise IllegalAction(gettext_noop("That is not an action in this game."))
        new = copy.deepcopy(state)
        new["pending"].remove(seat)
        entry: dict[str, Any] = {"seat": seat, "type": kind, "round": new["round"]}
        if kind == "fold":
            new["status"][seat] = "folded"
        elif kind == "call":
            self._put(new, seat, new["high"] - new["round_bets"][seat])
        elif kind in ("raise", "allin"):
            if kind == "raise":
                target = action["amount"]
            else:
                target = new["round_bets"][seat] + self.total_cap(new) - new["bets"][seat]
                new["allin"] = self.total_cap(new)
            if new["high"] > 0:
                new["kicked"].append(seat)  # 反踢: raising over a bet already made
            self._put(new, seat, target - new["round_bets"][seat])
            new["high"] = target
            n = len(new["players"])
            new["pending"] = [
                s for s in ((seat + k) % n for k in range(1, n)) if new["status"][s] == "active"
            ]
        if kind != "fold" and kind != "check":
            entry["amount"] = new["bets"][seat]
        new["log"].append(entry)
        self._next_turn(new)
        return new

    @staticmethod
    def _put(state: State, seat: int, amount: int) -> None:
        state["bets"][seat] += amount
        state["round_bets"][seat] += amount

    def _next_turn(self, state: State) -> None:
        active = self._active(state)
        if len(active) == 1:
            self._finish(state, active[0], "fold")
            return
        state["pending"] = [s for s in state["pending"] if state["status"][s] == "active"]
        if state["pending"]:
            state["turn"] = state["pending"][0]
            return
        state["turn"] = None
        if state["round"] == 3:
            self._showdown(state)
            return
        state["round"] += 1
        self._deal(state)
        self._start_round(state)

    def _deal(self, state: State) -> None:
        """One face-up card to each seat still in, from the dealer on; 借牌 when the deck runs short (000:93)."""
        n = len(state["players"])
        order = [s for s in ((state["dealer"] + k) % n for k in range(n)) if state["status"][s] == "active"]
        deck = state["_deck"]
        if not deck:
            return  # 东北 with five still in: no fifth card (docs/rules/tiandakeng.md)
        own = order if len(deck) >= len(order) else order[: len(deck) - 1]
        for s in own:
            state["up"][s].append(deck.pop(0))
        sharing = order[len(own) :]
        if sharing:  # the last card serves every seat left: 共张
            card = deck.pop(0)
            for s in sharing:
                state["up"][s].append(card)
            state["shared"].append({"card": card, "seats": sharing})

    def _start_round(self, state: State) -> None:
        """Open a betting round: the highest face-up points first, ties from the dealer on (000:1)."""
        n = len(state["players"])
        state["round_bets"] = [0] * n
        state["high"] = 0
        state["kicked"] = []
        order = [s for s in ((state["dealer"] + k) % n for k in range(n)) if state["status"][s] == "active"]
        if state["allin"] is not None:  # everything is staked: deal on and open
            state["turn"] = state["leader"] = None
            state["pending"] = []
            if state["round"] == 3:
                self._showdown(state)
            else:
                state["round"] += 1
                self._deal(state)
                self._start_round(state)
            return
        leader = max(order, key=lambda s: (rules.points(state["up"][s]), -order.index(s)))
        state["leader"] = leader
        state["pending"] = [s for s in ((leader + k) % n for k in range(n)) if state["status"][s] == "active"]
        state["turn"] = leader

    def _showdown(self, state: State) -> None:
        """开牌: the best hand wins; equal best hands are a 烂锅 (000:39, 000:91)."""
        active = self._active(state)
        keys = {s: rules.key(self.hand_of(state, s), state["variant"]) for s in active}
        best = max(keys.values())
        winners = [s for s in active if keys[s] == best]
        if len(winners) > 1:
            self._finish(state, None, "lanpot")
        else:
            self._finish(state, winners[0], "showdown")

    def _finish(self, state: State, winner: int | None, ended_by: str) -> None:
        n = len(state["players"])
        bets, coins = state["bets"], state["coins"]
        shown = self._active(state) if ended_by in ("showdown", "lanpot") else []
        xiqian = [0] * n
        carry_out = None
        if winner is None:  # 烂锅: every stake stays in the pot for the next hand
            deltas = [-b for b in bets]
            carry_out = {
                "pot": state["carry_in"] + sum(bets),
                "level": state["level"] + 1,
                "players": list(state["players"]),
            }
        else:
            fan = (
                rules.xiqian_fan(self.hand_of(state, winner), state["variant"])
                if ended_by == "showdown"
                else 0
            )
            for s in range(n):
                if s != winner:  # 喜钱 from every other player, within what it has left (000:23)
                    xiqian[s] = min(fan * state["base"], coins[s] - bets[s])
            owed = [0 if s == winner else bets[s] + xiqian[s] for s in range(n)]
            # 有限责任制: the winner takes from this hand's seats at most what it carried; the pot
            # carried from a 烂锅 is paid in full (000:39: the next winner takes it).
            deltas = self._share(owed, coins[winner])
            deltas[winner] = state["carry_in"] - sum(deltas)
        state.update(phase="finished", turn=None, pending=[])
        state["result"] = {
            "ended_by": ended_by,
            "winner": winner,
            "deltas": deltas,
            "pot": state["carry_in"] + sum(bets),
            "xiqian": xiqian,
            "carry": carry_out,
            "from_carried_pot": [state["carry_in"] if s == winner else 0 for s in range(n)],
            "shown": shown,
            "specials": [
                rules.special(self.hand_of(state, s))
                if s in shown and len(self.hand_of(state, s)) == 5 and state["variant"] == "jiuzhou"
                else None
                for s in range(n)
            ],
            "points": [
                rules.score(self.hand_of(state, s), state["variant"]) if s in shown else None
                for s in range(n)
            ],
            "next_first_seat": state["dealer"] if winner is None else winner,  # 000:43: the winner deals
        }

    @staticmethod
    def _share(owed: list[int], limit: int) -> list[int]:
        """Each seat's payment (negative), the whole of ``owed`` or, over ``limit``, a share pro rata rounded down plus odd coins."""
        total = sum(owed)
        if total <= limit:
            return [-o for o in owed]
        paid = [o * limit // total for o in owed]
        short = limit - sum(paid)
        for s, o in enumerate(owed):
            if short and (o * limit) % total:
                paid[s] += 1
                short -= 1
        return [-p for p in paid]

    def auto_action(self, state: State, seat: int) -> Action:
        """Timeout: 放弃, fold (000:57); a free check is no loss, so it checks when nobody bet."""
        legal = self.legal_actions(state, seat)
        return {"type": "check"} if {"type": "check"} in legal else {"type": "fold"}

    def hint(self, state: State, seat: int) -> Action | None:
        """提示: check or call."""
        legal = self.legal_actions(state, seat)
        for choice in ({"type": "check"}, {"type": "call"}):
            if choice in legal:
                return choice
        return legal[-1] if legal else None

    # -- what leaves the server -------------------------------------------
    def visible_down(self, state: State, seat: int | None) -> list[list[str] | None]:
        """Each seat's face-down cards as ``seat`` may see them: its own, and those opened at the end."""
        shown = set(state["result"]["shown"]) if state["result"] else set()
        return [
            list(state["_down"][s]) if s == seat or s in shown else None for s in range(len(state["players"]))
        ]

    def view(self, state: State, seat: int | None) -> dict:
        n = len(state["players"])
        view = {
            "phase": state["phase"],
            "variant": state["variant"],
            "seat": seat,
            "round": state["round"],
            "dealer": state["dealer"],
            "up": [list(c) for c in state["up"]],
            "down": self.visible_down(state, seat),
            "shared": copy.deepcopy(state["shared"]),
            "status": list(state["status"]),
            "bets": list(state["bets"]),
            "round_bets": list(state["round_bets"]),
            "coins": [state["coins"][i] - state["bets"][i] for i in range(n)],
            "pot": state["carry_in"] + sum(state["bets"]),
            "carry_in": state["carry_in"],
            "level": state["level"],
            "base": state["base"],
            "high": state["high"],
            "allin": state["allin"],
            "allin_total": self.total_cap(state) if len(self._active(state)) else None,
            "leader": state["leader"],
            "turn": state["turn"],
            "choices": self.legal_actions(state, seat) if seat is not None else [],
            "log": copy.deepcopy(state["log"][-12:]),
            "result": copy.deepcopy(state["result"]),
        }
        if seat is not None and state["turn"] == seat:
            view["to_call"] = state["high"] - state["round_bets"][seat]
        return view

    def outcome(self, state: State) -> Outcome | None:
        result = state["result"]
        if result is None:
            return None
        return Outcome(
            deltas=list(result["deltas"]),
            winners=[] if result["winner"] is None else [result["winner"]],
            details={
                "ended_by": result["ended_by"],
                "pot": result["pot"],
                "carry": copy.deepcopy(result["carry"]),
                "from_carried_pot": list(result["from_carried_pot"]),
                "xiqian": list(result["xiqian"]),
                "specials": list(result["specials"]),
                "points": list(result["points"]),
                "next_first_seat": result["next_first_seat"],
                "up": [list(c) for c in state["up"]],
                "down": self.visible_down(state, None),
            },
        )
