"""二八杠 as a state machine: 抢庄, bets, the die, the deal and the banker against each player.

The rules and their seed lines are in docs/rules/erbagang.md. Every phase but
the die is one countdown in which its seats act at the same time (``actors``
lists those still to choose); the die is shown for a few seconds with nobody
to act (``on_deadline`` deals). Everything random (the tiles, the die, the
draw that picks the banker) is drawn in ``new_hand`` and kept under private
keys until its moment.
"""

from __future__ import annotations

import copy
from typing import Any

from games.base import Action, IllegalAction, Outcome, SeatedEngine, SeatSpec, SeededRng, State, gettext_noop
from games.erbagang import rules
from games.erbagang.settle import settle

DEFAULT_OPTIONS: dict[str, Any] = {
    "grab_multiples": [1, 5, 10, 20, 50, 100, 200],  # 抢庄倍数 offered, × 底注 (001:287: at most 200)
    "bet_multiples": [1, 2, 3, 5, 10],  # 下注: multiples of 底注 (001:288)
    "grab_seconds": 8,
    "bet_seconds": 8,
    "dice_seconds": 3,
}
MAX_GRAB = 200
FULL_TABLE = 4  # 001:282 at most 4 players; 通杀通赔 only then (001:289)
DRAW_BITS = 53
_SHAPES = {"grab": {"type", "multiple"}, "bet": {"type", "amount"}}


class ErbagangEngine(SeatedEngine):
    """二八杠 Two-Eight Bar for 2–4 seats: one banker against every other seat."""

    # -- setup -------------------------------------------------------------
    def new_hand(self, config: dict, seats: list[SeatSpec], rng: SeededRng) -> State:
        cfg = {**DEFAULT_OPTIONS, **config}
        n = len(seats)
        if not 2 <= n <= FULL_TABLE:
            raise ValueError("二八杠 seats 2 to 4 players")
        base = int(cfg.get("base_stake") or 1)
        if base <= 0:
            raise ValueError("base_stake must be positive")
        grabs = sorted({int(m) for m in cfg["grab_multiples"] if 0 < int(m) <= MAX_GRAB})
        bets = sorted({int(m) for m in cfg["bet_multiples"] if int(m) > 0})
        if not grabs or not bets:
            raise ValueError("grab_multiples and bet_multiples must each name a multiple")
        deck = list(rules.TILES)
        rng.shuffle(deck)
        return {
            "game": "erbagang",
            "players": [s.player_id for s in seats],
            "coins": [int(s.coins) for s in seats],
            "base": base,
            "grab_multiples": grabs,
            "bet_multiples": bets,
            "seconds": {k: int(cfg[f"{k}_seconds"]) for k in ("grab", "bet", "dice")},
            "phase": "grab",
            "grabs": [None] * n,
            "banker": None,
            "banker_multiple": None,
            "pledge": None,
            "bets": [None] * n,
            "die": None,
            "first": None,
            "hands": None,
            "result": None,
            "_deck": deck,
            "_die": rng.randbelow(6) + 1,
            "_draw": rng.randbelow(1 << DRAW_BITS),
        }

    # -- reading -----------------------------------------------------------
    def actors(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase == "grab":
            return [i for i, g in enumerate(state["grabs"]) if g is None]
        if phase == "bet":
            return [i for i, b in enumerate(state["bets"]) if b is None]
        return []

    def deadline_seconds(self, state: State) -> int | None:
        return state["seconds"].get(state["phase"])

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.actors(state):
            return []
        base, coins = state["base"], state["coins"][seat]
        if state["phase"] == "grab":
            # The pledge is paid from the coins carried (有限责任制): only multiples they cover.
            return [{"type": "grab", "multiple": 0}] + [
                {"type": "grab", "multiple": m} for m in state["grab_multiples"] if m * base <= coins
            ]
        amounts = [m * base for m in state["bet_multiples"] if m * base <= coins]
        return [{"type": "bet", "amount": a} for a in amounts or [coins]]

    # -- acting ------------------------------------------------------------
    def apply(self, state: State, seat: int, action: Action) -> State:
        if state["phase"] not in ("grab", "bet"):
            raise IllegalAction(gettext_noop("Nobody may act now."))
        if not isinstance(action, dict) or set(action) != _SHAPES.get(action.get("type"), set()):
            raise IllegalAction(gettext_noop("That is not an action in this game."))
        value = action["multiple" if action["type"] == "grab" else "amount"]
        if type(value) is not int:
            raise IllegalAction(gettext_noop("That amount is not a whole number."))
        if not isinstance(seat, int) or seat not in self.actors(state):
            raise IllegalAction(gettext_noop("You have already chosen, or it is not your turn."))
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(self._refusal(state, action))
        new = copy.deepcopy(state)
        if action["type"] == "grab":
            new["grabs"][seat] = value
            if all(g is not None for g in new["grabs"]):
                self._choose_banker(new)
        else:
            new["bets"][seat] = value
            if all(b is not None for b in new["bets"]):
                self._roll(new)
        return new

    def _refusal(self, state: State, action: Action) -> str:
        if state["phase"] != {"grab": "grab", "bet": "bet"}.get(action["type"]):
            if state["phase"] == "grab":
                return gettext_noop("Choose your bid for the bank first.")
            return gettext_noop("The bank is taken: place your bet.")
        if action["type"] == "grab":
            return gettext_noop("That bid is not one offered, or your coins do not cover it.")
        return gettext_noop("That bet is not one offered, or your coins do not cover it.")

    def _choose_banker(self, state: State) -> None:
        """抢庄: a seat's chance of the bank is its multiple over all multiples bid (001:287).

        Nobody bidding: every seat has the same chance, at the smallest multiple.
        """
        n = len(state["players"])
        bids = list(state["grabs"])
        if not any(bids):
            bids = [1] * n
        point = state["_draw"] * sum(bids) >> DRAW_BITS
        banker = 0
        while point >= bids[banker]:
            point -= bids[banker]
            banker += 1
        multiple = state["grabs"][banker] or state["grab_multiples"][0]
        state["banker"] = banker
        state["banker_multiple"] = multiple
        state["pledge"] = min(multiple * state["base"], state["coins"][banker])
        state["bets"][banker] = 0  # the banker bets nothing (001:288)
        for seat in range(n):
            if seat != banker and state["coins"][seat] <= 0:
                state["bets"][seat] = 0
        state["phase"] = "bet"
        if all(b is not None for b in state["bets"]):
            self._roll(state)

    def _roll(self, state: State) -> None:
        """The die (001:285): 1 is the banker, 2 the banker's next seat, and so on round the table."""
        n = len(state["players"])
        state["die"] = state.pop("_die")
        state["first"] = (state["banker"] + state["die"] - 1) % n
        deck = state.pop("_deck")
        order = self.deal_order(state)
        hands: list[list[str]] = [[] for _ in range(n)]
        for i, seat in enumerate(order):
            hands[seat] = deck[2 * i : 2 * i + 2]
        state["_hands"] = hands
        state["phase"] = "dice"

    def deal_order(self, state: State) -> list[int]:
        """The seats in dealing order, from the one the die names."""
        n = len(state["players"])
        return [(state["first"] + i) % n for i in range(n)]

    def on_deadline(self, state: State) -> State:
        if state["phase"] == "dice":
            new = copy.deepcopy(state)
            self._finish(new)
            return new
        return super().on_deadline(state)

    def auto_action(self, state: State, seat: int) -> Action:
        """托管 / time out: no bid for the bank, then the smallest bet."""
        legal = self.legal_actions(state, seat)
        return legal[0] if legal else {"type": "grab", "multiple": 0}

    def hint(self, state: State, seat: int) -> Action | None:
        """提示: bid up to 10× for the bank (as far as the coins cover it), bet the smallest amount."""
        legal = self.legal_actions(state, seat)
        if not legal:
            return None
        if state["phase"] == "grab":
            return [a for a in legal if a["multiple"] <= 10][-1]
        return legal[0]

    # -- the end -----------------------------------------------------------
    def _finish(self, state: State) -> None:
        hands = state.pop("_hands")
        banker = state["banker"]
        players = [s for s in self.deal_order(state) if s != banker]
        player_wins = {s: not rules.banker_wins(hands[banker], hands[s]) for s in players}
        bets = [b or 0 for b in state["bets"]]
        deltas = settle(bets, state["coins"], banker, state["pledge"], player_wins, self.deal_order(state))
        sweep = None
        if len(state["players"]) == FULL_TABLE:
            if not any(player_wins.values()):
                sweep = "all_lose"  # 通杀: the banker beats all three
            elif all(player_wins.values()):
                sweep = "all_win"  # 通赔: the banker loses to all three
        ranks = [rules.rank(h) for h in hands]
        state["hands"] = hands
        state["phase"] = "finished"
        state["result"] = {
            "deltas": deltas,
            "winners": [i for i, d in enumerate(deltas) if d > 0],
            "player_wins": [player_wins.get(i) for i in range(len(hands))],
            "sweep": sweep,
            "kinds": [r.kind for r in ranks],
            "points": [r.points for r in ranks],
        }

    # -- what leaves the server -------------------------------------------
    def view(self, state: State, seat: int | None) -> dict:
        return {
            "phase": state["phase"],
            "seat": seat,
            "base": state["base"],
            "grabs": list(state["grabs"]),
            "banker": state["banker"],
            "banker_multiple": state["banker_multiple"],
            "pledge": state["pledge"],
            "bets": list(state["bets"]),
            "carried": list(state["coins"]),
            "die": state["die"],
            "first": state["first"],
            "hands": copy.deepcopy(state["hands"]),  # None until the tiles are opened
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
                "banker": state["banker"],
                "banker_multiple": state["banker_multiple"],
                "pledge": state["pledge"],
                "bets": list(state["bets"]),
                "die": state["die"],
                "shown_hands": copy.deepcopy(state["hands"]),
                "kinds": list(result["kinds"]),
                "points": list(result["points"]),
                "player_wins": list(result["player_wins"]),
                "sweep": result["sweep"],
            },
        )
