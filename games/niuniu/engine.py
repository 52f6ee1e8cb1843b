"""牛牛 (抢庄) and 通比牛牛 as one state machine: 抢庄, bets, 摊牌, settlement.

``NiuniuEngine("banker")`` plays 牛牛 (001:411-459): every seat bids for the bank
(抢庄) at once, the highest bid banks (a tie is broken by the hand's seeded draw
and shown to all), the other seats choose their bet multiple, five cards are
dealt to each, every seat shows (摊牌) and the banker settles with each player.
``NiuniuEngine("tongbi")`` plays 通比牛牛 (001:572-628): no bank, every seat bets,
and the best hand takes from every other. Each phase is a simultaneous countdown;
a seat whose time runs out bids nothing, bets the least and shows its best
split. Rules, seed lines and readings: docs/rules/niuniu.md.
"""

from __future__ import annotations

from typing import Any

from games.base import Action, IllegalAction, Outcome, SeatedEngine, SeatSpec, SeededRng, State, gettext_noop
from games.niuniu import rules
from games.niuniu.settle import banker_settle, tongbi_claims, tongbi_settle

DEFAULT_OPTIONS: dict[str, Any] = {
    "grab_multiples": [1, 2, 3, 4],  # 抢庄 bids besides 不抢 (0)
    "bet_multiples": [1, 2, 3, 4, 5],  # 下注 multiples a player may choose
    "grab_seconds": 8,
    "bet_seconds": 8,
    "show_seconds": 15,
}
MODES = {"banker": ("niuniu", "niuniu"), "tongbi": ("tongbi_niuniu", "tongbi")}  # game slug, table
_SHAPES = {"grab": {"type", "multiple"}, "bet": {"type", "multiple"}, "show": {"type", "three"}}
_PHASE_ACTION = {"grab": "grab", "bet": "bet", "show": "show"}


def _multiples(values: Any, name: str, low: int) -> list[int]:
    found = sorted({int(v) for v in values})
    if not found or found[0] < low:
        raise ValueError(f"{name} must list whole multiples of at least {low}")
    return found


class NiuniuEngine(SeatedEngine):
    """牛牛 for 2–6 seats: ``mode`` "banker" (抢庄) or "tongbi" (通比, no bank)."""

    def __init__(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown 牛牛 mode {mode!r}")
        self.mode = mode
        self.slug, self.default_table = MODES[mode]

    # -- setup -------------------------------------------------------------
    def new_hand(self, config: dict, seats: list[SeatSpec], rng: SeededRng) -> State:
        cfg = {**DEFAULT_OPTIONS, **config}
        n = len(seats)
        if not 2 <= n <= 6:
            raise ValueError("a 牛牛 table seats 2 to 6 players")
        base = int(cfg.get("base_stake") or 1)
        if base <= 0:
            raise ValueError("base_stake must be positive")
        table = cfg.get("multiplier_table") or self.default_table
        if table not in rules.TABLES:
            raise ValueError(f"unknown multiplier table {table!r}")
        deck = [r + s for r in rules.RANKS for s in rules.SUITS]
        rng.shuffle(deck)
        order = list(range(n))
        rng.shuffle(order)  # drawn now, used only if the top bids tie (抢庄)
        banker_mode = self.mode == "banker"
        return {
            "game": self.slug,
            "mode": self.mode,
            "players": [s.player_id for s in seats],
            "coins": [int(s.coins) for s in seats],
            "base": base,
            "table": table,
            "grab_multiples": [0, *_multiples(cfg["grab_multiples"], "grab_multiples", 1)],
            "bet_multiples": _multiples(cfg["bet_multiples"], "bet_multiples", 1),
            "seconds": {
                "grab": int(cfg["grab_seconds"]),
                "bet": int(cfg["bet_seconds"]),
                "show": int(cfg["show_seconds"]),
            },
            "phase": "grab" if banker_mode else "bet",
            "grabs": [None] * n,
            "banker": None,
            "banker_multiple": 1,
            "grab_tied": [],
            "bets": [None] * n,
            "shown": [None] * n,
            "result": None,
            "_order": order,
            "_hands": [deck[5 * i : 5 * i + 5] for i in range(n)],  # five each, in deck order
        }

    # -- reading -----------------------------------------------------------
    def actors(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase == "grab":
            return [i for i, g in enumerate(state["grabs"]) if g is None]
        if phase == "bet":
            return [i for i, b in enumerate(state["bets"]) if b is None and i != state["banker"]]
        if phase == "show":
            return [i for i, s in enumerate(state["shown"]) if s is None]
        return []

    def deadline_seconds(self, state: State) -> int | None:
        return state["seconds"].get(state["phase"])

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.actors(state):
            return []
        phase = state["phase"]
        if phase == "grab":
            return [{"type": "grab", "multiple": m} for m in state["grab_multiples"]]
        if phase == "bet":
            return [{"type": "bet", "multiple": m} for m in state["bet_multiples"]]
        hand = state["_hands"][seat]
        splits = rules.niu_splits(hand)
        if not splits:
            return [{"type": "show", "three": rules.best_split(hand)[0]}]
        return [
            {"type": "show", "three": sorted(three, key=rules.card_key, reverse=True)} for three in splits
        ]

    # -- acting ------------------------------------------------------------
    def apply(self, state: State, seat: int, action: Action) -> State:
        phase = state["phase"]
        if phase == "finished":
            raise IllegalAction(gettext_noop("The hand is over."))
        if not isinstance(action, dict) or set(action) != _SHAPES.get(action.get("type"), set()):
            raise IllegalAction(gettext_noop("That is not an action in this game."))
        if "multiple" in action and type(action["multiple"]) is not int:
            raise IllegalAction(gettext_noop("That multiple is not a whole number."))
        if seat not in self.actors(state):
            raise IllegalAction(gettext_noop("You have already acted in this phase."))
        if action["type"] != _PHASE_ACTION[phase]:
            raise IllegalAction(self._wrong_phase(phase))
        if action not in self.legal_actions(state, seat) and self._in_order(state, seat, action) not in (
            self.legal_actions(state, seat)
        ):
            raise IllegalAction(self._refusal(state, action))
        new = {**state}
        if phase == "grab":
            new["grabs"] = [*state["grabs"]]
            new["grabs"][seat] = action["multiple"]
            if all(g is not None for g in new["grabs"]):
                self._choose_banker(new)
        elif phase == "bet":
            new["bets"] = [*state["bets"]]
            new["bets"][seat] = action["multiple"]
            if not self.actors(new):
                new["phase"] = "show"
        else:
            three = self._in_order(state, seat, action)["three"]
            two = sorted(
                (c for c in state["_hands"][seat] if c not in three), key=rules.card_key, reverse=True
            )
            new["shown"] = [*state["shown"]]
            new["shown"][seat] = {"three": three, "two": two}
            if not self.actors(new):
                self._settle(new)
        return new

    @staticmethod
    def _in_order(state: State, seat: int, action: Action) -> Action:
        """The show action with its three cards in the hand's order (high to low), if they are the seat's."""
        three, hand = action.get("three"), state["_hands"][seat]
        if action["type"] != "show" or not isinstance(three, list) or not all(c in hand for c in three):
            return action
        return {"type": "show", "three": sorted(three, key=rules.card_key, reverse=True)}

    @staticmethod
    def _wrong_phase(phase: str) -> str:
        return {
            "grab": gettext_noop("Bid for the bank first."),
            "bet": gettext_noop("Choose your bet multiple first."),
            "show": gettext_noop("Show your cards now."),
        }[phase]

    @staticmethod
    def _refusal(state: State, action: Action) -> str:
        kind = action["type"]
        if kind == "grab":
            return gettext_noop("That bid for the bank is not one this table offers.")
        if kind == "bet":
            return gettext_noop("That bet multiple is not one this table offers.")
        return gettext_noop("Those three cards are not yours or do not make a niu while your hand has one.")

    def _choose_banker(self, state: State) -> None:
        """The highest bid banks; among equal bids the hand's seeded draw decides (shown as ``grab_tied``)."""
        top = max(state["grabs"])
        tied = [i for i, g in enumerate(state["grabs"]) if g == top]
        state["banker"] = next(i for i in state["_order"] if i in tied)
        state["banker_multiple"] = max(top, 1)  # nobody bid: the drawn banker banks at ×1
        state["grab_tied"] = tied if len(tied) > 1 else []
        state["phase"] = "bet"

    def auto_action(self, state: State, seat: int) -> Action:
        """托管 / time out: 不抢 (no bid), the least bet (001:452 自动下注), the best split (001:454)."""
        phase = state["phase"]
        if phase == "grab":
            return {"type": "grab", "multiple": 0}
        if phase == "bet":
            return {"type": "bet", "multiple": state["bet_multiples"][0]}
        return {"type": "show", "three": rules.best_split(state["_hands"][seat])[0]}

    def hint(self, state: State, seat: int) -> Action | None:
        """提示: in 摊牌 the split that shows the niu; bots bid and bet by what nobody sees yet."""
        if seat not in self.actors(state):
            return None
        if state["phase"] == "show":
            return self.auto_action(state, seat)
        options = state["grab_multiples"] if state["phase"] == "grab" else state["bet_multiples"]
        kind = "grab" if state["phase"] == "grab" else "bet"
        # A plain, varied choice for bots: by seat and hand count of the table, never by cards.
        return {"type": kind, "multiple": options[(seat + len(state["players"])) % len(options)]}

    # -- settling ----------------------------------------------------------
    def _settle(self, state: State) -> None:
        hands = state["_hands"]
        n = len(hands)
        categories = [rules.category(h) for h in hands]
        multiples = [rules.multiplier(c, state["table"]) for c in categories]
        base = state["base"]
        if self.mode == "banker":
            banker = state["banker"]
            claims = [0] * n
            beats = [None] * n
            for i in range(n):
                if i == banker:
                    continue
                won = rules.compare(hands[i], hands[banker]) > 0
                mult = multiples[i] if won else multiples[banker]
                amount = base * state["banker_multiple"] * state["bets"][i] * mult
                claims[i] = amount if won else -amount
                beats[i] = won
            deltas = banker_settle(claims, state["coins"], banker)
            best = None
        else:
            best = 0
            for i in range(1, n):
                if rules.compare(hands[i], hands[best]) > 0:
                    best = i
            claims = tongbi_claims(base, multiples[best], state["bets"], best)
            deltas = tongbi_settle(claims, state["coins"], best)
            beats = [None if i == best else False for i in range(n)]
        state["phase"] = "finished"
        state["result"] = {
            "categories": categories,
            "multiples": multiples,
            "claims": claims,
            "deltas": deltas,
            "beats_banker": beats,
            "best": best,
            "winners": [i for i, d in enumerate(deltas) if d > 0],
        }

    # -- what leaves the server -------------------------------------------
    def visible_hands(self, state: State, seat: int | None) -> list[list[str] | None]:
        """Per seat, the cards ``seat`` may see: none before the deal, its own from then, shown hands."""
        phase = state["phase"]
        hands = state["_hands"]
        out: list[list[str] | None] = []
        for i, hand in enumerate(hands):
            if phase == "finished" or state["shown"][i] is not None or (phase == "show" and i == seat):
                out.append(list(hand))
            else:
                out.append(None)
        return out

    def view(self, state: State, seat: int | None) -> dict:
        hands = self.visible_hands(state, seat)
        shown = state["shown"]
        finished = state["phase"] == "finished"
        splits = [
            [list(s["three"]), list(s["two"])]
            if s is not None
            else (list(rules.best_split(h)) if finished else None)
            for s, h in zip(shown, state["_hands"], strict=True)
        ]
        categories = [
            rules.category(h) if (shown[i] is not None or finished) else None for i, h in enumerate(hands)
        ]
        own = hands[seat] if seat is not None else None
        view = {
            "phase": state["phase"],
            "mode": state["mode"],
            "seat": seat,
            "base": state["base"],
            "table": state["table"],
            "grab_multiples": list(state["grab_multiples"]),
            "bet_multiples": list(state["bet_multiples"]),
            "grabs": list(state["grabs"]),
            "banker": state["banker"],
            "banker_multiple": state["banker_multiple"],
            "grab_tied": list(state["grab_tied"]),
            "bets": list(state["bets"]),
            "hand": own,
            "hand_category": rules.category(own) if own else None,
            "hand_multiple": rules.multiplier(rules.category(own), state["table"]) if own else None,
            "hands": hands,
            "splits": splits,
            "shown": [s is not None for s in shown],
            "categories": categories,
            "multiples": [rules.multiplier(c, state["table"]) if c else None for c in categories],
            "choices": self.legal_actions(state, seat) if seat is not None else [],
            "result": None,
        }
        if finished:
            result = state["result"]
            view["result"] = {k: list(result[k]) for k in ("deltas", "claims", "beats_banker", "winners")}
            view["result"]["best"] = result["best"]
        return view

    def outcome(self, state: State) -> Outcome | None:
        result = state["result"]
        if result is None:
            return None
        return Outcome(
            deltas=list(result["deltas"]),
            winners=list(result["winners"]),
            details={
                "mode": state["mode"],
                "banker": state["banker"],
                "banker_multiple": state["banker_multiple"],
                "grabs": list(state["grabs"]),
                "grab_tied": list(state["grab_tied"]),
                "bets": list(state["bets"]),
                "hands": [list(h) for h in state["_hands"]],
                "splits": [[s["three"], s["two"]] for s in state["shown"]],
                "categories": list(result["categories"]),
                "multiples": list(result["multiples"]),
                "claims": list(result["claims"]),
                "best": result["best"],
            },
        )
