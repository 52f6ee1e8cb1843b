"""十三水 as a state machine: deal, arrange all at once, 比牌, settle.

The rules and their seed lines are in docs/rules/shisanshui.md. Phases:

- ``arranging`` (理牌, 001:463): one countdown in which every seat that has not
  confirmed is an actor, all at the same time. A seat confirms with
  ``{"type": "arrange", "front", "middle", "back"}`` (its own 13 cards, no
  倒水) or ``{"type": "special"}`` (declare its special hand). Nobody sees
  another seat's cards, nor whether they declared a special hand, before 比牌;
  only who has confirmed.
- ``finished``: 比牌 (001:464-466): every arrangement, every pair's 水 and the
  outcome in coins (001:570) are public at once; the page reveals them pile by pile.

``legal_actions`` lists the confirmations worth making (the best suggestions
of :func:`games.shisanshui.rules.suggest`, and the special hand); there are up
to 72,072 legal arrangements, so ``apply`` also takes any other legal one
(:meth:`ShisanshuiEngine.is_legal` says which).
"""

from __future__ import annotations

import copy
from typing import Any

from games.base import Action, IllegalAction, Outcome, SeatedEngine, SeatSpec, SeededRng, State, gettext_noop
from games.shisanshui import rules
from games.shisanshui.piles import DECK, RANK_OF, SUIT_OF
from games.shisanshui.settle import coins_for

DEFAULT_OPTIONS: dict[str, Any] = {
    "arrange_seconds": 60,  # 理牌倒计时 (001:464); the seed gives no length
    "suggestions": 6,  # how many of suggest's arrangements a seat is offered as quick picks
}
PILES = rules.PILES
_ARRANGE_KEYS = {"type", *PILES}
_SPECIAL_ACTION: Action = {"type": "special"}


def _sorted(cards: list[str]) -> list[str]:
    return sorted(cards, key=lambda c: (RANK_OF[c[0]], SUIT_OF[c[1]]), reverse=True)


class ShisanshuiEngine(SeatedEngine):
    """十三水 Thirteen Cards for 2–4 seats."""

    def new_hand(self, config: dict, seats: list[SeatSpec], rng: SeededRng) -> State:
        cfg = {**DEFAULT_OPTIONS, **config}
        n = len(seats)
        if not 2 <= n <= 4:
            raise ValueError("十三水 needs 2 to 4 seats")  # 001:467
        base = int(cfg.get("base_stake") or 1)
        if base <= 0:
            raise ValueError("the base stake must be positive")
        deck = list(DECK)
        rng.shuffle(deck)
        hands = [_sorted(deck[13 * i : 13 * (i + 1)]) for i in range(n)]  # 001:462: 13 cards each
        keep = max(1, int(cfg["suggestions"]))
        options = []
        specials = []
        for hand in hands:
            suggested = rules.suggest(hand)
            special = suggested[-1] if "special" in suggested[-1] else None
            normal = [o for o in suggested if "special" not in o][:keep]
            options.append([{"type": "arrange", **o} for o in normal])
            specials.append(special)
        return {
            "game": "shisanshui",
            "players": [s.player_id for s in seats],
            "coins": [int(s.coins) for s in seats],
            "base": base,
            "arrange_seconds": int(cfg["arrange_seconds"]),
            "phase": "arranging",
            "confirmed": [False] * n,
            "arrangements": None,
            "result": None,
            "_hands": hands,
            "_options": options,
            "_specials": specials,
            "_arranged": [None] * n,
        }

    # -- reading -----------------------------------------------------------
    def actors(self, state: State) -> list[int]:
        if state["phase"] != "arranging":
            return []
        return [i for i, done in enumerate(state["confirmed"]) if not done]

    def deadline_seconds(self, state: State) -> int | None:
        return state["arrange_seconds"] if state["phase"] == "arranging" else None

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """The best suggested arrangements of the seat's cards, then its special hand if it has one.

        Any other legal arrangement is accepted too (:meth:`is_legal`).
        """
        if (
            state["phase"] != "arranging"
            or not 0 <= seat < len(state["confirmed"])
            or state["confirmed"][seat]
        ):
            return []
        actions = list(state["_options"][seat])
        if state["_specials"][seat]:
            actions.append(_SPECIAL_ACTION)
        return actions

    def is_legal(self, state: State, seat: int, action: Action) -> bool:
        """Say whether ``apply`` takes ``action`` from ``seat`` now."""
        try:
            self._check(state, seat, action)
        except IllegalAction:
            return False
        return True

    # -- acting ------------------------------------------------------------
    def _check(self, state: State, seat: int, action: Action) -> None:
        if state["phase"] != "arranging":
            raise IllegalAction(gettext_noop("The cards are no longer being arranged."))
        if not isinstance(seat, int) or not 0 <= seat < len(state["confirmed"]):
            raise IllegalAction(gettext_noop("You have no seat in this hand."))
        if state["confirmed"][seat]:
            raise IllegalAction(gettext_noop("You have already confirmed your arrangement."))
        if not isinstance(action, dict):
            raise IllegalAction(gettext_noop("That is not an action in this game."))
        kind = action.get("type")
        if kind == "special" and set(action) == {"type"}:
            if not state["_specials"][seat]:
                raise IllegalAction(gettext_noop("Your cards form no special hand."))
            return
        if kind != "arrange" or set(action) != _ARRANGE_KEYS:
            raise IllegalAction(gettext_noop("That is not an action in this game."))
        piles = [action[p] for p in PILES]
        if not all(isinstance(p, list) and all(isinstance(c, str) for c in p) for p in piles):
            raise IllegalAction(gettext_noop("Each pile must be a list of cards."))
        if [len(p) for p in piles] != list(rules.PILE_SIZES):
            raise IllegalAction(
                gettext_noop("The front pile takes 3 cards, the middle and back piles 5 each.")
            )
        if sorted(sum(piles, [])) != sorted(state["_hands"][seat]):
            raise IllegalAction(gettext_noop("Arrange exactly the 13 cards you were dealt."))
        if not rules.is_valid(*piles):
            raise IllegalAction(
                gettext_noop(
                    "Not allowed: the front pile may not beat the middle one, nor the middle one the back one."
                )
            )

    def apply(self, state: State, seat: int, action: Action) -> State:
        self._check(state, seat, action)
        if action["type"] == "special":
            arranged = copy.deepcopy(state["_specials"][seat])
        else:
            arranged = {p: list(action[p]) for p in PILES}
        new = {**state, "confirmed": list(state["confirmed"]), "_arranged": list(state["_arranged"])}
        new["confirmed"][seat] = True
        new["_arranged"][seat] = arranged
        if all(new["confirmed"]):
            self._compare(new)
        return new

    def auto_action(self, state: State, seat: int) -> Action:
        """托管 / time out: the special hand if the cards form one (the greatest, 001:463, 485), else the best suggestion."""
        legal = self.legal_actions(state, seat)
        if not legal:
            return {"type": "arrange", **{p: [] for p in PILES}}
        return legal[-1] if state["_specials"][seat] else legal[0]

    def hint(self, state: State, seat: int) -> Action | None:
        """提示: what a timeout would play."""
        return self.auto_action(state, seat) if self.legal_actions(state, seat) else None

    def on_deadline(self, state: State) -> State:
        for seat in self.actors(state):
            state = self.apply(state, seat, self.auto_action(state, seat))
        return state

    # -- 比牌 ---------------------------------------------------------------
    def _compare(self, state: State) -> None:
        """Reveal every arrangement and score them (001:464-466, 472-474, 485-487, 502-571)."""
        arranged = state["_arranged"]
        scoring = rules.compare_all(arranged)
        deltas = coins_for(scoring.totals, state["base"], state["coins"])
        state["phase"] = "finished"
        state["arrangements"] = copy.deepcopy(arranged)
        state["result"] = {
            "water": scoring.totals,
            "pairs": [c.as_dict() for c in scoring.pairs],
            "home_run": scoring.home_run,
            "kinds": [
                None if a.get("special") else [rules.pile_type(a[p]).kind for p in PILES] for a in arranged
            ],
            "deltas": deltas,
            "winners": [i for i, d in enumerate(deltas) if d > 0],
        }

    # -- what leaves the server -------------------------------------------
    def visible_hands(self, state: State, seat: int | None) -> list[list[str] | None]:
        """Each seat's 13 cards as ``seat`` may see them: its own, and everyone's from 比牌 on."""
        shown = state["phase"] != "arranging"
        return [list(h) if shown or i == seat else None for i, h in enumerate(state["_hands"])]

    def view(self, state: State, seat: int | None) -> dict:
        """What ``seat`` may see; the piles and the result are the state's own, shared and never changed."""
        mine = seat is not None and 0 <= seat < len(state["players"])
        special = state["_specials"][seat] if mine else None
        return {
            "phase": state["phase"],
            "seat": seat,
            "base": state["base"],
            "players": len(state["players"]),
            "hand": list(state["_hands"][seat]) if mine else None,
            "hands": self.visible_hands(state, seat),
            "confirmed": list(state["confirmed"]),
            "mine": state["_arranged"][seat] if mine else None,
            "special": {"name": special["special"], "water": special["water"]} if special else None,
            "choices": self.legal_actions(state, seat) if mine else [],
            "arrangements": state["arrangements"],
            "result": state["result"],
            "arrange_seconds": state["arrange_seconds"],
        }

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "finished":
            return None
        result = state["result"]
        return Outcome(
            deltas=list(result["deltas"]),
            winners=list(result["winners"]),
            details={
                "water": list(result["water"]),
                "pairs": copy.deepcopy(result["pairs"]),
                "home_run": result["home_run"],
                "kinds": copy.deepcopy(result["kinds"]),
                "arrangements": copy.deepcopy(state["arrangements"]),
                "base": state["base"],
            },
        )
