"""必下德州 as a state machine: blinds, the whole board at once, one betting countdown, pots.

The rules and their seed lines are in docs/rules/texas.md. The betting round
is one countdown (001:181 "下注倒计时阶段") in which every seat acts once, all
at the same time: ``actors`` lists every seat that has not decided yet.
"""

from __future__ import annotations

import copy
from typing import Any

from games.base import Action, IllegalAction, Outcome, SeatedEngine, SeatSpec, SeededRng, State, gettext_noop
from games.texas import rules

DEFAULT_OPTIONS: dict[str, Any] = {
    "bet_sizes": [1, 2, 4, 8],  # the fixed stakes one may choose, × the big blind
    "turn_seconds": 20,
}

RANKS = "23456789TJQKA"
SUITS = "shcd"
_SHAPES = {"check": {"type"}, "fold": {"type"}, "bet": {"type", "amount"}, "raise": {"type", "amount"}}


class TexasEngine(SeatedEngine):
    """必下德州 must-bet Texas hold'em for 2–9 seats."""

    def new_hand(self, config: dict, seats: list[SeatSpec], rng: SeededRng) -> State:
        cfg = {**DEFAULT_OPTIONS, **config}
        n = len(seats)
        if not 2 <= n <= 9:
            raise ValueError("必下德州 needs 2 to 9 seats")
        small = int(cfg.get("small_blind") or cfg.get("base_stake") or 1)
        if small <= 0:
            raise ValueError("the small blind must be positive")
        big = 2 * small  # 001:180: the big blind is twice the small one
        sizes = sorted({int(s) * big for s in cfg["bet_sizes"] if int(s) > 0})
        if not sizes:
            raise ValueError("bet_sizes must name at least one stake")
        dealer = cfg.get("first_seat")
        if dealer is None:
            dealer = rng.randbelow(n)  # 001:179: the first dealer is random
        if not 0 <= dealer < n:
            raise ValueError("first_seat is not a seat")
        deck = [r + s for r in RANKS for s in SUITS]
        rng.shuffle(deck)
        # One card at a time, starting left of the dealer, twice round the table.
        hands = [[deck[(s - dealer - 1) % n], deck[n + (s - dealer - 1) % n]] for s in range(n)]
        board = deck[2 * n : 2 * n + 5]
        coins = [int(s.coins) for s in seats]
        sb_seat, bb_seat = (dealer + 1) % n, (dealer + 2) % n
        stakes = [0] * n
        stakes[sb_seat] = min(small, coins[sb_seat])  # limited liability (有限责任制)
        stakes[bb_seat] = min(big, coins[bb_seat])
        return {
            "game": "texas",
            "players": [s.player_id for s in seats],
            "coins": coins,
            "dealer": dealer,
            "small_blind": small,
            "big_blind": big,
            "blind_seats": [sb_seat, bb_seat],
            "bet_sizes": sizes,
            "turn_seconds": int(cfg["turn_seconds"]),
            "board": board,
            "stakes": stakes,
            "decided": [False] * n,
            "folded": [False] * n,
            "phase": "betting",
            "result": None,
            "_hands": hands,
        }

    # -- reading -----------------------------------------------------------
    def actors(self, state: State) -> list[int]:
        if state["phase"] != "betting":
            return []
        return [i for i, d in enumerate(state["decided"]) if not d]

    def deadline_seconds(self, state: State) -> int | None:
        return state["turn_seconds"] if state["phase"] == "betting" else None

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state["phase"] != "betting" or state["decided"][seat]:
            return []
        coins = state["coins"][seat]
        posted = state["stakes"][seat]
        if seat in state["blind_seats"]:
            # 001:181: the blinds may raise or check (their blind stands as their stake).
            actions: list[Action] = [{"type": "check"}]
            actions += [{"type": "raise", "amount": s} for s in state["bet_sizes"] if posted < s <= coins]
            return actions
        # Everyone else must bet (必下) one of the fixed stakes, or fold.
        amounts = [s for s in state["bet_sizes"] if s <= coins]
        if not amounts and coins > 0:
            amounts = [coins]  # short of the smallest stake: all of it (limited liability)
        return [{"type": "bet", "amount": a} for a in amounts] + [{"type": "fold"}]

    # -- acting ------------------------------------------------------------
    def apply(self, state: State, seat: int, action: Action) -> State:
        if state["phase"] != "betting":
            raise IllegalAction(gettext_noop("The hand is over."))
        if not 0 <= seat < len(state["players"]) or state["decided"][seat]:
            raise IllegalAction(gettext_noop("You have already made your bet this hand."))
        if not isinstance(action, dict) or ("amount" in action and type(action["amount"]) is not int):
            raise IllegalAction(gettext_noop("That is not a valid bet."))
        if set(action) != _SHAPES.get(action.get("type"), set()):
            raise IllegalAction(gettext_noop("That is not an action in this game."))
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(self._refusal(state, seat, action))
        # Only these lists change in a bet; everything else is shared, never mutated.
        new = {**state, "stakes": list(state["stakes"]), "decided": list(state["decided"])}
        new["folded"] = list(state["folded"])
        kind = action["type"]
        if kind in ("bet", "raise"):
            new["stakes"][seat] = action["amount"]
        elif kind == "fold":
            new["folded"][seat] = True
        new["decided"][seat] = True
        if all(new["decided"]):
            self._settle(new)
        return new

    def _refusal(self, state: State, seat: int, action: Action) -> str:
        kind = action.get("type")
        blind = seat in state["blind_seats"]
        if kind in ("bet", "raise"):
            if blind and kind == "bet":
                return gettext_noop("You posted a blind: check or raise.")
            if not blind and kind == "raise":
                return gettext_noop("Choose one of the table's bets.")
            return gettext_noop("That bet is not one of the table's stakes you can afford.")
        if kind == "check":
            return gettext_noop("Only the blinds may check; choose a bet or fold.")
        if kind == "fold":
            return gettext_noop("The blinds cannot fold: check instead.")
        return gettext_noop("That is not an action in this game.")

    def on_deadline(self, state: State) -> State:
        for seat in self.actors(state):
            state = self.apply(state, seat, self.auto_action(state, seat))
        return state

    def auto_action(self, state: State, seat: int) -> Action:
        """托管 / time out: the least the countdown offers (001:181, 必下 must bet).

        A blind checks (its blind stands), anyone else bets the smallest fixed stake,
        or all it has when that is less; a seat that carried nothing folds.
        """
        legal = self.legal_actions(state, seat)
        return legal[0] if legal else {"type": "fold"}

    def hint(self, state: State, seat: int) -> Action | None:
        """提示: what 托管 would play (check as a blind, else the smallest bet)."""
        legal = self.legal_actions(state, seat)
        return legal[0] if legal else None

    # -- settling ----------------------------------------------------------
    def _settle(self, state: State) -> None:
        """Pay each pot, main pot first, to the best live hand that may win it (001:182-184)."""
        n = len(state["players"])
        order = [(state["dealer"] + 1 + i) % n for i in range(n)]
        values = {
            s: rules.hand_rank(state["_hands"][s] + state["board"])
            for s in range(n)
            if not state["folded"][s]
        }
        won = [0] * n
        pots = []
        for pot in rules.split_pots(state["stakes"], state["folded"]):
            top = max(values[s] for s in pot.eligible)
            winners = [s for s in order if s in pot.eligible and values[s] == top]
            share, odd = divmod(pot.amount, len(winners))
            for i, s in enumerate(winners):
                # The odd coin(s) go one each to the winners first clockwise from the dealer.
                won[s] += share + (1 if i < odd else 0)
            pots.append({"amount": pot.amount, "eligible": list(pot.eligible), "winners": winners})
        deltas = [won[i] - state["stakes"][i] for i in range(n)]
        state["phase"] = "finished"
        state["result"] = {
            "deltas": deltas,
            "pots": pots,
            "winners": [i for i in range(n) if deltas[i] > 0],
            "shown": sorted(values),
            "next_first_seat": (state["dealer"] + 1) % n,
        }

    # -- what leaves the server -------------------------------------------
    def visible_hands(self, state: State, seat: int | None) -> list[list[str] | None]:
        """Return, per seat, the hole cards ``seat`` may see (folded hands stay hidden)."""
        n = len(state["players"])
        shown = set(state["result"]["shown"]) if state["result"] else set()
        if seat is not None:
            shown.add(seat)
        return [list(state["_hands"][i]) if i in shown else None for i in range(n)]

    def view(self, state: State, seat: int | None) -> dict:
        hands = self.visible_hands(state, seat)
        best: list[dict | None] = []
        for h in hands:
            if h is None:
                best.append(None)
            else:
                value = rules.best_hand(h + state["board"])
                best.append({"category": value.category, "cards": value.cards})
        view = {
            "phase": state["phase"],
            "seat": seat,
            "hand": hands[seat] if seat is not None else None,
            "hands": hands,
            "best": best,
            "board": list(state["board"]),
            "dealer": state["dealer"],
            "blind_seats": list(state["blind_seats"]),
            "small_blind": state["small_blind"],
            "big_blind": state["big_blind"],
            "bet_sizes": list(state["bet_sizes"]),
            "stakes": list(state["stakes"]),
            "decided": list(state["decided"]),
            "folded": list(state["folded"]),
            "carried": list(state["coins"]),
            "coins": [c - st for c, st in zip(state["coins"], state["stakes"], strict=True)],
            "pot": sum(state["stakes"]),
            "choices": self.legal_actions(state, seat) if seat is not None else [],
            "result": copy.deepcopy(state["result"]),
        }
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
                "pots": copy.deepcopy(result["pots"]),
                "board": list(state["board"]),
                "shown_hands": hands,
                "categories": [rules.best_hand(h + state["board"]).category if h else None for h in hands],
                "next_first_seat": result["next_first_seat"],
            },
        )
