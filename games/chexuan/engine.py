"""扯旋 as a state machine: 簸簸, 底皮, three betting rounds, the split and the showdown.

The rules and their seed lines are in docs/rules/chexuan.md. Phases: ``bobo`` (every
seat at once sets its 簸簸, the most it may lose), ``betting`` (one seat at a time:
大 raise, 跟 call, 敲 all of the 簸簸, 休 check, 丢 fold), ``split`` (every seat still
in at once splits its four cards into head and tail), ``finished``. Stakes are totals
for the hand: ``bets[i]`` is all seat ``i`` has put in, ``level`` the highest of them.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from games.base import Action, IllegalAction, Outcome, SeatedEngine, SeatSpec, SeededRng, State, gettext_noop
from games.chexuan import rules
from games.chexuan.settle import settle

DEFAULT_OPTIONS: dict[str, Any] = {
    "bobo_steps": [20, 50, 100, 200],  # the 簸簸 a seat may set, × base_stake (capped by what it carried)
    "raise_steps": [1, 2, 5, 10, 20],  # how far a 大 lifts the highest stake, × base_stake
    "bobo_seconds": 15,
    "turn_seconds": 20,
    "split_seconds": 30,
}
ROUNDS = 3  # two cards down, then one up before each of rounds 2 and 3 (003:58)
SANHUA = ("sanhua_shi", "sanhua_liu")
_SHAPES = {
    "bobo": {"type", "amount"},
    "check": {"type"},
    "call": {"type"},
    "raise": {"type", "amount"},
    "allin": {"type"},
    "fold": {"type"},
    "split": {"type", "head"},
}


def pair_label(cards: list[str]) -> str:
    """Name two cards for a page: a named pair of 003 ("tian"), else "points_<n>" ("points_7")."""
    rank = rules.pair_rank(cards)
    return f"points_{rank.points}" if rank.name == "points" else rank.name


class ChexuanEngine(SeatedEngine):
    """扯旋 Che Xuan for 2–6 seats."""

    # -- setup -------------------------------------------------------------
    def new_hand(self, config: dict, seats: list[SeatSpec], rng: SeededRng) -> State:
        cfg = {**DEFAULT_OPTIONS, **config}
        n = len(seats)
        if not 2 <= n <= 6:
            raise ValueError("a 扯旋 table seats 2 to 6 players")
        base = int(cfg.get("base_stake") or 1)
        if base <= 0:
            raise ValueError("base_stake must be positive")
        dealer = cfg.get("first_seat")
        if dealer is None:
            dealer = rng.randbelow(n)
        if not 0 <= dealer < n:
            raise ValueError("first_seat is not a seat")
        coins = [int(s.coins) for s in seats]
        if min(coins) <= 0:
            raise ValueError("every seat must carry coins")
        deck = list(rules.DECK)
        rng.shuffle(deck)
        # Dealt one card at a time from the dealer (003:59); the third and fourth cards of
        # each seat are turned up before rounds 2 and 3, and never dealt to a seat that folded.
        hands: list[list[str]] = [[] for _ in range(n)]
        for i in range(4 * n):
            hands[(dealer + i) % n].append(deck[i])
        return {
            "game": "chexuan",
            "players": [s.player_id for s in seats],
            "coins": coins,
            "dealer": dealer,
            "base": base,
            "bobo_choices": [
                sorted({min(c, int(m) * base) for m in cfg["bobo_steps"] if int(m) > 0}) or [c] for c in coins
            ],
            "raise_steps": sorted({int(m) * base for m in cfg["raise_steps"] if int(m) > 0}),
            "seconds": {
                "bobo": int(cfg["bobo_seconds"]),
                "betting": int(cfg["turn_seconds"]),
                "split": int(cfg["split_seconds"]),
            },
            "phase": "bobo",
            "bobo": [None] * n,
            "bets": [0] * n,
            "level": 0,
            "status": ["active"] * n,
            "dealt": [0] * n,
            "round": 0,
            "opened": False,
            "acted": [False] * n,
            "turn": None,
            "splits": [None] * n,
            "log": [],
            "result": None,
            "_hands": hands,
        }

    # -- reading -----------------------------------------------------------
    def order(self, state: State) -> list[int]:
        """Every seat from the dealer's next: the order of speaking (003:59)."""
        n = len(state["players"])
        return [(state["dealer"] + 1 + i) % n for i in range(n)]

    def actors(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase == "bobo":
            return [i for i, b in enumerate(state["bobo"]) if b is None]
        if phase == "betting":
            return [state["turn"]]
        if phase == "split":
            return [i for i in self._in_hand(state) if state["splits"][i] is None]
        return []

    def deadline_seconds(self, state: State) -> int | None:
        return state["seconds"].get(state["phase"])

    @staticmethod
    def _in_hand(state: State) -> list[int]:
        return [i for i, s in enumerate(state["status"]) if s != "folded"]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.actors(state):
            return []
        phase = state["phase"]
        if phase == "bobo":
            return [{"type": "bobo", "amount": a} for a in state["bobo_choices"][seat]]
        if phase == "split":
            return [{"type": "split", "head": head} for head, _tail in rules.splits(state["_hands"][seat])]
        left = state["bobo"][seat] - state["bets"][seat]
        need = state["level"] - state["bets"][seat]
        actions: list[Action] = []
        if not state["opened"] and need == 0:
            actions.append({"type": "check"})  # 休: only while nobody has bet this round (003:65)
        if state["opened"] and 0 < need < left:
            actions.append({"type": "call"})
        others = [i for i, s in enumerate(state["status"]) if s == "active" and i != seat]
        if others:  # a raise nobody can answer is no raise
            for step in state["raise_steps"]:
                if need + step < left:
                    actions.append({"type": "raise", "amount": need + step})
        actions.append({"type": "allin"})
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
            raise IllegalAction(self._refusal(state, action))
        new = json.loads(json.dumps(state))  # a deep copy; states are JSON
        if kind == "bobo":
            new["bobo"][seat] = action["amount"]
            if None not in new["bobo"]:
                self._ante(new)
        elif kind == "split":
            head = list(action["head"])
            new["splits"][seat] = [head, [c for c in new["_hands"][seat] if c not in head]]
            if not self.actors(new):
                self._showdown(new)
        else:
            self._bet(new, seat, kind, action.get("amount", 0))
            self._after_bet(new, seat)
        return new

    def _refusal(self, state: State, action: Action) -> str:
        kind = action.get("type")
        phase = state["phase"]
        if phase == "bobo":
            return gettext_noop("Choose one of the limits offered.")
        if phase == "split" or kind == "split":
            return gettext_noop("Split your four cards into two pairs, the larger as the head.")
        if kind == "check":
            return gettext_noop("Somebody has bet this round: you cannot check.")
        if kind == "call":
            return gettext_noop("There is nothing to call, or calling needs all your limit: go all in.")
        if kind == "raise":
            return gettext_noop("You cannot raise by that amount now.")
        return gettext_noop("That is not an action in this game.")

    def _ante(self, state: State) -> None:
        """押底皮: every seat puts in the ante (its 簸簸 if smaller), then round 1 (003:59)."""
        for i, limit in enumerate(state["bobo"]):
            state["bets"][i] = min(state["base"], limit)
            if state["bets"][i] == limit:
                state["status"][i] = "allin"
        state["level"] = max(state["bets"])
        state["dealt"] = [2] * len(state["players"])
        state["phase"] = "betting"
        self._start_round(state, 1)

    def _bet(self, state: State, seat: int, kind: str, amount: int) -> None:
        entry: dict[str, Any] = {"seat": seat, "round": state["round"], "type": kind}
        if kind == "fold":
            state["status"][seat] = "folded"
        elif kind in ("call", "raise", "allin"):
            put = {
                "call": state["level"] - state["bets"][seat],
                "raise": amount,
                "allin": state["bobo"][seat] - state["bets"][seat],
            }[kind]
            state["bets"][seat] += put
            entry["amount"] = put
            state["opened"] = True
            if kind == "allin":
                state["status"][seat] = "allin"
            if state["bets"][seat] > state["level"]:
                state["level"] = state["bets"][seat]
                state["acted"] = [False] * len(state["players"])  # everyone answers a raise
        state["acted"][seat] = True
        state["log"].append(entry)

    def _after_bet(self, state: State, seat: int) -> None:
        if len(self._in_hand(state)) == 1:
            self._finish(state, "fold")
            return
        n = len(state["players"])
        for k in range(1, n + 1):
            nxt = (seat + k) % n
            if state["status"][nxt] == "active" and not state["acted"][nxt]:
                state["turn"] = nxt
                return
        said = [e["type"] for e in state["log"] if e["round"] == state["round"]]
        if not state["opened"] and all(t == "check" for t in said):
            self._finish(state, "void")  # 003:69: everyone checked, the hand ends with no result
            return
        self._start_round(state, state["round"] + 1)

    def _start_round(self, state: State, number: int) -> None:
        """Turn up the next card for everyone still in, then let the betting start, or skip it."""
        while True:
            if number > ROUNDS:
                state["turn"] = None
                state["phase"] = "split"
                return
            if number > 1:
                for i in self._in_hand(state):
                    state["dealt"][i] = number + 1
            state["round"] = number
            state["opened"] = False
            state["acted"] = [False] * len(state["players"])
            active = [i for i in self.order(state) if state["status"][i] == "active"]
            if len(active) >= 2:
                state["turn"] = active[0]
                return
            number += 1  # nobody left to bet against: the cards are turned up without betting

    def _showdown(self, state: State) -> None:
        self._finish(state, "showdown")

    def _finish(self, state: State, ended_by: str) -> None:
        n = len(state["players"])
        in_hand = self._in_hand(state)
        folded = [i for i in range(n) if i not in in_hand]
        specials: list[str | None] = [None] * n
        names: list[list[str] | None] = [None] * n
        showdown = list(in_hand)
        if ended_by == "showdown":
            for i in in_hand:
                head, tail = state["splits"][i]
                specials[i] = rules.four_card_hand(state["_hands"][i])
                names[i] = [pair_label(head), pair_label(tail)]
            showdown = [i for i in in_hand if specials[i] not in SANHUA]
        splits = state["splits"]

        def beats(i: int, j: int) -> int:
            return rules.compare_split(splits[i], splits[j]) if ended_by == "showdown" else 0

        if ended_by == "void":
            deltas = [0] * n
        else:
            deltas = settle(state["bets"], state["coins"], showdown, folded, beats, self.order(state))
        state["phase"] = "finished"
        state["turn"] = None
        state["result"] = {
            "ended_by": ended_by,
            "deltas": deltas,
            "winners": [i for i in range(n) if deltas[i] > 0],
            "pot": sum(state["bets"]),
            "shown": in_hand if ended_by == "showdown" else [],
            "specials": specials,
            "names": names,
            "next_first_seat": (state["dealer"] + 1) % n,
        }

    def auto_action(self, state: State, seat: int) -> Action:
        """Time out: the smallest 簸簸, 丢 fold while betting (003:68), ``best_split`` at the split."""
        phase = state["phase"]
        if phase == "bobo":
            return {"type": "bobo", "amount": state["bobo_choices"][seat][0]}
        if phase == "split":
            return {"type": "split", "head": rules.best_split(state["_hands"][seat])[0]}
        return {"type": "fold"}

    def hint(self, state: State, seat: int) -> Action | None:
        """提示, and how bots play: a plain strategy reading only what the seat may see.

        The middle 簸簸; open the betting with 4+ points among its cards (敲 when no raise
        is left), raise small bets with a named pair or 7+ points (once a round), call
        small bets with 4+ points, check when free, else fold; ``best_split`` at the split.
        """
        legal = self.legal_actions(state, seat)
        if not legal:
            return None
        phase = state["phase"]
        if phase == "bobo":
            return legal[len(legal) // 2]
        if phase == "split":
            return self.auto_action(state, seat)
        cards = state["_hands"][seat][: state["dealt"][seat]]  # the seat's own cards: it sees them
        best = max(rules.pair_rank([a, b]) for k, a in enumerate(cards) for b in cards[k + 1 :])
        strong = best.name != "points" or best.points >= 7
        fair = strong or best.points >= 4
        kinds = {a["type"]: a for a in legal}
        raises = [a for a in legal if a["type"] == "raise"]
        need = state["level"] - state["bets"][seat]
        small = need <= 2 * state["base"]
        raised = any(
            e["seat"] == seat and e["round"] == state["round"] and e["type"] == "raise" for e in state["log"]
        )
        if raises and not raised and ((strong and small) or (fair and not state["opened"])):
            return raises[0]
        if "check" in kinds:
            return kinds["allin"] if fair and not raises else kinds["check"]
        if "call" in kinds and (strong or (fair and small)):
            return kinds["call"]
        return kinds["allin"] if strong else kinds["fold"]

    # -- what leaves the server -------------------------------------------
    def visible_hands(self, state: State, seat: int | None) -> list[list[str | None]]:
        """Return, per seat, the cards dealt to it as ``seat`` sees them (None = face down)."""
        shown = set(state["result"]["shown"]) if state["result"] else set()
        if seat is not None:
            shown.add(seat)
        hands = []
        for i, hand in enumerate(state["_hands"]):
            # The first two cards are dealt face down, the others face up (003:63).
            hands.append(
                [c if (i in shown or k >= 2) else None for k, c in enumerate(hand[: state["dealt"][i]])]
            )
        return hands

    def view(self, state: State, seat: int | None) -> dict:
        finished = state["phase"] == "finished"
        all_set = None not in state["bobo"]
        splits = [
            copy.deepcopy(s) if s is not None and (finished or i == seat) else None
            for i, s in enumerate(state["splits"])
        ]
        view = {
            "phase": state["phase"],
            "seat": seat,
            "dealer": state["dealer"],
            "base": state["base"],
            "round": state["round"],
            "turn": state["turn"],
            "hands": self.visible_hands(state, seat),
            "bobo": [b if all_set or i == seat else None for i, b in enumerate(state["bobo"])],
            "bobo_set": [b is not None for b in state["bobo"]],
            "bets": list(state["bets"]),
            "level": state["level"],
            "opened": state["opened"],
            "status": list(state["status"]),
            "pot": sum(state["bets"]),
            "coins": list(state["coins"]),
            "split_done": [s is not None for s in state["splits"]],
            "splits": splits,
            "split_names": [[pair_label(p) for p in s] if s is not None else None for s in splits],
            "split_options": [],
            "log": copy.deepcopy(state["log"]),
            "choices": self.legal_actions(state, seat) if seat is not None else [],
            "call_cost": None,
            "left": None,
            "result": copy.deepcopy(state["result"]),
        }
        if seat is not None and state["phase"] == "split" and state["splits"][seat] is None:
            view["split_options"] = [
                [pair_label(p) for p in split] for split in rules.splits(state["_hands"][seat])
            ]
        if seat is not None and state["bobo"][seat] is not None:
            view["left"] = state["bobo"][seat] - state["bets"][seat]
            if state["phase"] == "betting" and state["turn"] == seat:
                view["call_cost"] = state["level"] - state["bets"][seat]
        return view

    def outcome(self, state: State) -> Outcome | None:
        result = state["result"]
        if result is None:
            return None
        return Outcome(
            deltas=list(result["deltas"]),
            winners=list(result["winners"]),
            details={
                "ended_by": result["ended_by"],
                "pot": result["pot"],
                "next_first_seat": result["next_first_seat"],
                "shown_hands": self.visible_hands(state, None),
                "splits": [
                    state["splits"][i] if i in result["shown"] else None for i in range(len(state["players"]))
                ],
                "names": result["names"],
                "specials": result["specials"],
            },
        )
