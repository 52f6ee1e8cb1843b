"""炸金花 as a state machine: antes, blind and seen bets, 比牌, caps, showdown.

The rules and their seed lines are in docs/rules/zhajinhua.md. Stakes are kept
in "blind units": ``stake`` is what a blind (暗) player pays to call; a seen
(明) player pays twice as much (001:743, 003:171), so a blind stake is half a
seen one.
"""

from __future__ import annotations

import copy
from typing import Any

from games.base import Action, IllegalAction, Outcome, SeatedEngine, SeatSpec, SeededRng, State, gettext_noop
from games.zhajinhua import rules
from games.zhajinhua.settle import settle

DEFAULT_OPTIONS: dict[str, Any] = {
    "raise_steps": [2, 3, 5, 10],  # blind-unit stakes a raise may reach, × base_stake
    "max_rounds": 20,  # 封顶轮次
    "pot_cap": None,  # 总注封顶 (table total), × base_stake; None = no cap
    "player_cap": None,  # 上限 of 002/003 (one player's total), × base_stake
    "showdown_ties": "split",  # or "first_opens_loses" (002:49)
    "reveal_all_at_end": False,  # True = 002:32 / 003:193 "公开全部玩家的牌"
    "compare_reveal": "end",  # "end" (001:734, 001:736) or "immediate": the two see each other at once
    "turn_seconds": 20,
    "max_players": 5,  # 001:732 says 2-5; 002:30 allows 6 (a tier may set 6)
    "look_any_time": True,  # 001:748 sets no moment for 看牌; False = 002:30 / 003:191 "轮到自己动作时"
}

SUITS = "shcd"
RANKS = "23456789TJQKA"
_SHAPES = {
    "look": {"type"},
    "call": {"type"},
    "fold": {"type"},
    "raise": {"type", "amount"},
    "compare": {"type", "target"},
}


class ZhajinhuaEngine(SeatedEngine):
    """炸金花 Golden Flower for 2–6 seats."""

    # -- setup -------------------------------------------------------------
    def new_hand(self, config: dict, seats: list[SeatSpec], rng: SeededRng) -> State:
        cfg = {**DEFAULT_OPTIONS, **config}
        n = len(seats)
        if not 2 <= n <= min(6, int(cfg["max_players"])):
            raise ValueError(f"this 炸金花 table seats 2 to {min(6, int(cfg['max_players']))} players")
        base = int(cfg.get("base_stake") or 1)
        if base <= 0:
            raise ValueError("base_stake must be positive")
        steps = sorted({int(s) * base for s in cfg["raise_steps"] if int(s) > 1})
        dealer = cfg.get("first_seat")
        if dealer is None:
            dealer = rng.randbelow(n)
        if not 0 <= dealer < n:
            raise ValueError("first_seat is not a seat")
        if cfg["compare_reveal"] not in ("end", "immediate"):
            raise ValueError('compare_reveal must be "end" or "immediate"')
        if cfg["showdown_ties"] not in ("split", "first_opens_loses"):
            raise ValueError('showdown_ties must be "split" or "first_opens_loses"')
        deck = [r + s for r in RANKS for s in SUITS]
        rng.shuffle(deck)
        # Deal one card at a time starting at the dealer (002:29): replayable, and
        # the order does not change any rule.
        hands: list[list[str]] = [[] for _ in range(n)]
        for i in range(3 * n):
            hands[(dealer + i) % n].append(deck[i])
        coins = [int(s.coins) for s in seats]
        antes = [min(base, c) for c in coins]  # limited liability: never more than carried
        state: State = {
            "game": "zhajinhua",
            "players": [s.player_id for s in seats],
            "coins": coins,
            "dealer": dealer,
            "ante": base,
            "stake": base,
            "raise_steps": steps,
            "max_rounds": int(cfg["max_rounds"]),
            "pot_cap": None if cfg["pot_cap"] is None else int(cfg["pot_cap"]) * base,
            "player_cap": None if cfg["player_cap"] is None else int(cfg["player_cap"]) * base,
            "showdown_ties": cfg["showdown_ties"],
            "reveal_all_at_end": bool(cfg["reveal_all_at_end"]),
            "compare_reveal": cfg["compare_reveal"],
            "look_any_time": bool(cfg["look_any_time"]),
            "turn_seconds": int(cfg["turn_seconds"]),
            "bets": antes,
            "looked": [False] * n,
            "status": ["active"] * n,
            "turns": [0] * n,
            "turn": None,
            "phase": "betting",
            "compares": [],
            "log": [],
            "result": None,
            "_hands": hands,
        }
        self._give_turn(state, (dealer + 1) % n)
        return state

    # -- reading -----------------------------------------------------------
    def actors(self, state: State) -> list[int]:
        return [] if state["turn"] is None else [state["turn"]]

    def deadline_seconds(self, state: State) -> int | None:
        return None if state["turn"] is None else state["turn_seconds"]

    @staticmethod
    def _left(state: State, seat: int) -> int:
        return state["coins"][seat] - state["bets"][seat]

    @staticmethod
    def _unit(state: State, seat: int) -> int:
        return 2 if state["looked"][seat] else 1

    def call_cost(self, state: State, seat: int) -> int:
        """Return what ``seat`` pays to call now (a seen player pays double)."""
        return state["stake"] * self._unit(state, seat)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state["turn"] != seat:
            return []
        left = self._left(state, seat)
        unit = self._unit(state, seat)
        actions: list[Action] = []
        if not state["looked"][seat]:
            actions.append({"type": "look"})
        call = state["stake"] * unit
        if left >= call:
            actions.append({"type": "call"})
        for step in state["raise_steps"]:
            if step > state["stake"] and step * unit <= left:
                actions.append({"type": "raise", "amount": step * unit})
        if state["turns"][seat] >= 1 and left >= 2 * call:
            for target in range(len(state["players"])):
                if target != seat and state["status"][target] == "active":
                    actions.append({"type": "compare", "target": target})
        actions.append({"type": "fold"})
        return actions

    def out_of_turn_actions(self, state: State, seat: int) -> list[Action]:
        """看牌 look, for a seat still in the hand that has not looked, while another seat is on turn.

        001:748 sets no moment for looking, so a player may look as soon as the
        cards are dealt; a tier with ``look_any_time`` off follows 002:30 and
        003:191 ("轮到自己动作时") and allows it only on the seat's own turn.
        Looking changes no one's turn: it only makes that seat's later calls seen ones.
        """
        if (
            state["phase"] != "betting"
            or not 0 <= seat < len(state["players"])
            or state["turn"] == seat
            or not state.get("look_any_time", True)  # hands dealt before the option existed: the default
            or state["status"][seat] != "active"
            or state["looked"][seat]
        ):
            return []
        return [{"type": "look"}]

    # -- acting ------------------------------------------------------------
    def apply(self, state: State, seat: int, action: Action) -> State:
        if state["phase"] != "betting":
            raise IllegalAction(gettext_noop("The hand is over."))
        if state["turn"] != seat:
            if action in self.out_of_turn_actions(state, seat):
                return self._look_out_of_turn(state, seat)
            raise IllegalAction(gettext_noop("It is not your turn."))
        if not isinstance(action, dict):
            raise IllegalAction(gettext_noop("That is not an action."))
        kind = action.get("type")
        for key in ("amount", "target"):
            if key in action and type(action[key]) is not int:
                raise IllegalAction(gettext_noop("That amount or seat is not a whole number."))
        if set(action) != _SHAPES.get(kind, set()):
            raise IllegalAction(gettext_noop("That is not an action in this game."))
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(self._refusal(state, seat, action))
        new = copy.deepcopy(state)
        if kind == "look":
            new["looked"][seat] = True
            new["log"].append({"seat": seat, "type": "look"})
            if self._left(new, seat) < self.call_cost(new, seat):
                self._fold(new, seat, "cannot_cover")
                self._after_turn(new, seat)
            return new
        if kind == "fold":
            self._fold(new, seat, "fold")
        elif kind == "call":
            self._bet(new, seat, self.call_cost(new, seat), "call")
        elif kind == "raise":
            new["stake"] = action["amount"] // self._unit(new, seat)
            self._bet(new, seat, action["amount"], "raise")
        elif kind == "compare":
            self._compare(new, seat, action["target"])
        new["turns"][seat] += 1
        self._after_turn(new, seat)
        return new

    def _look_out_of_turn(self, state: State, seat: int) -> State:
        """看牌 while another seat is on turn: the turn and its clock stay where they are.

        A seat that can no longer cover the seen call is folded by the system
        when its turn comes (001:749), not now: folding it here could end the
        hand under the player on turn.
        """
        new = copy.deepcopy(state)
        new["looked"][seat] = True
        new["log"].append({"seat": seat, "type": "look"})
        return new

    def _refusal(self, state: State, seat: int, action: Action) -> str:
        kind = action.get("type")
        if kind == "look":
            return gettext_noop("You have already looked at your cards.")
        if kind == "call":
            return gettext_noop("You do not have enough coins to call.")
        if kind == "raise":
            return gettext_noop("You cannot raise by that amount now.")
        if kind == "compare":
            if state["turns"][seat] < 1:
                return gettext_noop("You can compare only from the second round.")
            return gettext_noop("You cannot compare with that player now.")
        return gettext_noop("That is not an action in this game.")

    def _bet(self, state: State, seat: int, amount: int, kind: str) -> None:
        state["bets"][seat] += amount
        state["log"].append({"seat": seat, "type": kind, "amount": amount})

    def _fold(self, state: State, seat: int, reason: str) -> None:
        state["status"][seat] = "folded"
        state["log"].append({"seat": seat, "type": "fold", "reason": reason})

    def compare_cost(self, state: State, seat: int) -> int:
        """比牌 costs twice the current call (001)."""
        return 2 * self.call_cost(state, seat)

    def _compare(self, state: State, seat: int, target: int) -> None:
        cost = self.compare_cost(state, seat)
        self._bet(state, seat, cost, "compare")
        hands = state["_hands"]
        # Equal hands: the player who asked loses (001:735, 002:35-36).
        winner = seat if rules.compare(hands[seat], hands[target]) > 0 else target
        loser = target if winner == seat else seat
        state["status"][loser] = "lost"
        state["compares"].append({"seat": seat, "target": target, "winner": winner})
        state["log"][-1].update({"target": target, "winner": winner})

    def _active(self, state: State) -> list[int]:
        return [i for i, s in enumerate(state["status"]) if s == "active"]

    def _after_turn(self, state: State, seat: int) -> None:
        active = self._active(state)
        if len(active) == 1:
            ended_by = "compare" if state["log"][-1]["type"] == "compare" else "fold"
            self._finish(state, active, ended_by)
            return
        pot = sum(state["bets"])
        if (state["pot_cap"] is not None and pot >= state["pot_cap"]) or (
            state["player_cap"] is not None and max(state["bets"]) >= state["player_cap"]
        ):
            self._showdown(state)
            return
        self._give_turn(state, (seat + 1) % len(state["players"]))

    def _give_turn(self, state: State, start: int) -> None:
        """Pass the turn to the next active seat from ``start``; fold who cannot pay."""
        n = len(state["players"])
        seat = start
        while True:
            active = self._active(state)
            if len(active) == 1:
                self._finish(state, active, "fold")
                return
            while state["status"][seat] != "active":
                seat = (seat + 1) % n
            if state["turns"][seat] >= state["max_rounds"]:
                self._showdown(state)  # 封顶轮次 reached (001:745)
                return
            if self._left(state, seat) < self.call_cost(state, seat):
                # 001:749: a player who cannot cover the call is folded by the system.
                self._fold(state, seat, "cannot_cover")
                continue
            state["turn"] = seat
            return

    def _showdown(self, state: State) -> None:
        """摊牌: every active hand is opened and the best takes the pot."""
        n = len(state["players"])
        order = [(state["dealer"] + 1 + i) % n for i in range(n)]
        active = [s for s in order if state["status"][s] == "active"]
        best = [active[i] for i in rules.showdown_best([state["_hands"][s] for s in active])]
        if state["showdown_ties"] == "first_opens_loses" and len(best) > 1:
            best = [best[-1]]  # 002:49: hands open in betting order and the first to open loses
        self._finish(state, best, "showdown", shown=active)

    def _finish(
        self, state: State, winners: list[int], ended_by: str, shown: list[int] | None = None
    ) -> None:
        n = len(state["players"])
        pot = sum(state["bets"])
        order = [(state["dealer"] + 1 + i) % n for i in range(n)]
        winners = [s for s in order if s in winners]
        deltas = settle(state["bets"], state["coins"], winners, order)
        if shown is None:
            shown = []
            if ended_by == "compare":
                last = state["compares"][-1]
                shown = sorted([last["seat"], last["target"]])
        state["phase"] = "finished"
        state["turn"] = None
        state["result"] = {
            "ended_by": ended_by,
            "winners": winners,
            "deltas": deltas,
            "pot": pot,
            "shown": sorted(shown),
            "next_first_seat": (state["dealer"] + 1) % n,
        }

    def on_deadline(self, state: State) -> State:
        for seat in self.actors(state):
            state = self.apply(state, seat, self.auto_action(state, seat))
        return state

    def auto_action(self, state: State, seat: int) -> Action:
        """托管 / time out: 自动跟注 (002:39), a call at the seat's own rate, seen or blind.

        It never looks, raises or compares. A seat that cannot cover the call was folded
        before its turn (001:749), so the call is there whenever the seat may act.
        """
        call = {"type": "call"}
        return call if call in self.legal_actions(state, seat) else {"type": "fold"}

    def hint(self, state: State, seat: int) -> Action | None:
        """提示: a plain strategy that reads only what the seat may see.

        Blind: call for two rounds, then look. Seen: raise with a 顺子 or
        better, call with a pair (comparing after the fourth round), compare
        with a 单张 when allowed, else fold. Bots play it too, so hands end.
        """
        legal = self.legal_actions(state, seat)
        if not legal:
            return None
        call, fold = {"type": "call"}, {"type": "fold"}
        if not state["looked"][seat]:
            if state["turns"][seat] >= 2:
                return {"type": "look"}
            return call if call in legal else fold
        strength = rules.strength(state["_hands"][seat])[0]  # the seat has seen these cards
        compares = [a for a in legal if a["type"] == "compare"]
        raises = [a for a in legal if a["type"] == "raise"]
        if strength >= 2:
            return raises[0] if raises else (call if call in legal else fold)
        if strength == 1:
            if compares and state["turns"][seat] >= 4:
                return compares[0]
            return call if call in legal else fold
        return compares[0] if compares else fold

    # -- what leaves the server -------------------------------------------
    def visible_hands(self, state: State, seat: int | None) -> list[list[str] | None]:
        """Return, per seat, the cards ``seat`` may see now (None = hidden)."""
        n = len(state["players"])
        hands = state["_hands"]
        shown: set[int] = set()
        if seat is not None and state["status"][seat] == "active" and state["looked"][seat]:
            shown.add(seat)  # 002:31: a folded player may not look at their cards until the end
        if seat is not None and state["compare_reveal"] == "immediate":
            for c in state["compares"]:
                if seat in (c["seat"], c["target"]):
                    shown.update((c["seat"], c["target"]))
        result = state["result"]
        if result is not None:
            if state["reveal_all_at_end"]:
                shown.update(range(n))
            shown.update(result["shown"])  # the hands that decided the pot (001:737)
            if seat is not None:
                shown.add(seat)
                for c in state["compares"]:  # 001:736: the hands you compared with
                    if seat in (c["seat"], c["target"]):
                        shown.update((c["seat"], c["target"]))
        return [list(hands[i]) if i in shown else None for i in range(n)]

    def view(self, state: State, seat: int | None) -> dict:
        n = len(state["players"])
        hands = self.visible_hands(state, seat)
        view = {
            "phase": state["phase"],
            "seat": seat,
            "hand": hands[seat] if seat is not None else None,
            "hand_category": None,
            "hands": hands,
            "categories": [rules.category(h) if h else None for h in hands],
            "dealer": state["dealer"],
            "turn": state["turn"],
            "round": None if state["turn"] is None else state["turns"][state["turn"]] + 1,
            "ante": state["ante"],
            "stake": state["stake"],
            "looked": list(state["looked"]),
            "status": list(state["status"]),
            "bets": list(state["bets"]),
            "coins": [state["coins"][i] - state["bets"][i] for i in range(n)],
            "pot": sum(state["bets"]),
            "compares": copy.deepcopy(state["compares"]),
            "log": copy.deepcopy(state["log"]),
            "caps": {
                "single_bet": max(state["raise_steps"], default=state["ante"]) * 2,
                "max_rounds": state["max_rounds"],
                "pot": state["pot_cap"],
                "player": state["player_cap"],
            },
            "call_cost": None,
            "compare_cost": None,
            "choices": [],
            "result": None,
        }
        if seat is not None:
            view["hand_category"] = view["categories"][seat]
            if state["turn"] == seat:
                view["call_cost"] = self.call_cost(state, seat)
                view["compare_cost"] = self.compare_cost(state, seat)
                view["choices"] = self.legal_actions(state, seat)
        if state["result"] is not None:
            view["result"] = copy.deepcopy(state["result"])
        return view

    def outcome(self, state: State) -> Outcome | None:
        result = state["result"]
        if result is None:
            return None
        hands = self.visible_hands(state, None)
        return Outcome(
            deltas=list(result["deltas"]),
            winners=list(result["winners"]),
            details={
                "ended_by": result["ended_by"],
                "pot": result["pot"],
                "next_first_seat": result["next_first_seat"],
                "shown_hands": hands,  # only what every seat and spectator may see
                "categories": [rules.category(h) if h else None for h in hands],
            },
        )
