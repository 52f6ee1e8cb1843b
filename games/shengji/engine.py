"""升级 / 拖拉机 as a state machine: deal one card at a time, 报主, 反主, 盖底, tricks, 扣底, settle.

Four seats, partners opposite (seats 0 and 2, 1 and 3; the side of a seat is ``seat % 2``);
play goes to ``seat + 1`` (004's 逆时针). The rules and every reading are in
docs/rules/shengji.md. The clock deals: ``dealing`` has no actors, each deadline deals one
card to each seat, and a seat holding a declaration may make it out of turn meanwhile.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from games.base import Action, IllegalAction, Outcome, SeatedEngine, SeatSpec, SeededRng, State, gettext_noop
from games.shengji import bots, rules
from games.shengji.rules import Trump

SEATS = 4
HAND = 25
BOTTOM = 8
DEFAULT_OPTIONS: dict[str, Any] = {
    "levels": ["2", "2"],  # each side's level (seats 0/2, seats 1/3) going into the hand
    "deal_seconds": 1,  # the pause between rounds of the deal (one card to each seat)
    "overcall_seconds": 8,
    "bury_seconds": 45,
    "turn_seconds": 25,
}
PASS = {"type": "pass"}
_SHAPES = {
    "declare": {"type", "cards"},
    "overcall": {"type", "cards"},
    "pass": {"type"},
    "bury": {"type", "cards"},
    "play": {"type", "cards"},
}
# 反主 order (004:14 大王 > 小王 > 对级牌); a 报主 of one level card + a joker ranks 1, 定主 2.
RANK_DECLARE, RANK_PAIR, RANK_SMALL_JOKERS, RANK_BIG_JOKERS = 1, 2, 3, 4


def _joker_for(suit: str) -> str:
    """004:4: 大王 declares a red suit, 小王 a black one."""
    return rules.BIG_JOKER if suit in rules.RED else rules.SMALL_JOKER


def _check_levels(levels: Any) -> None:
    if not (isinstance(levels, list) and len(levels) == 2 and all(lv in rules.RANKS for lv in levels)):
        raise ValueError("升级 levels must be two ranks, one per side")


def _options(config: dict) -> dict:
    opts = {key: config.get(key, default) for key, default in DEFAULT_OPTIONS.items()}
    _check_levels(opts["levels"])
    for key in ("deal_seconds", "overcall_seconds", "bury_seconds", "turn_seconds"):
        if type(opts[key]) is not int or opts[key] < 1:
            raise ValueError(f"升级 {key} must be a whole number of seconds")
    return opts


def _carried_match(config: dict, seats: list[SeatSpec]) -> dict | None:
    """The match a table carries into this hand (``config["carry"]``, see ``_finish``), checked."""
    carry = config.get("carry")
    if carry is None:
        return None
    if not isinstance(carry, dict) or carry.get("players") != [s.player_id for s in seats]:
        raise ValueError("升级 carries a match only to its four players in their seats")
    _check_levels(carry.get("levels"))
    if carry.get("declarer") not in range(SEATS):
        raise ValueError("升级 carries the next declarer as a seat")
    return carry


class ShengjiEngine(SeatedEngine):
    """升级 (拖拉机) Tractor for four seats in two partnerships; see docs/rules/shengji.md."""

    # -- setup -------------------------------------------------------------------------------
    def new_hand(self, config: dict, seats: list[SeatSpec], rng: SeededRng) -> State:
        if len(seats) != SEATS:
            raise ValueError("升级 needs exactly four seats")
        opts = _options(config)
        match = _carried_match(config, seats)
        if match is not None:  # 004:1, 004:30: the match goes on from the levels reached
            opts["levels"], first = list(match["levels"]), match["declarer"]
        else:  # a new match (or a test's later hand at the tier's levels)
            first = config.get("first_seat")
        first_hand = first not in range(SEATS)  # 004:4 抢报 only in the first hand
        start = rng.randbelow(SEATS) if first_hand else first
        deck = list(rules.DECK) * 2
        rng.shuffle(deck)
        return {
            "players": [s.player_id for s in seats],
            "coins": [int(s.coins) for s in seats],
            "base": max(1, int(config.get("base_stake") or 1)),
            "options": opts,
            "first_hand": first_hand,
            "levels": list(opts["levels"]),
            "start": start,
            "declarer": None if first_hand else start,
            "level": None if first_hand else opts["levels"][start % 2],
            "suit": None,
            "declaration": None,
            "overcalls": [],
            "queue": [],
            "phase": "dealing",
            "dealt": 0,
            "turn": None,
            "burier": None,
            "buried_by": None,
            "trick": [],
            "last_trick": None,
            "tricks": 0,
            "taken": [0, 0],
            "penalties": [],
            "log": [],
            "result": None,
            "_deck": deck,
            "_hands": [[] for _ in range(SEATS)],
            "_bottom": deck[SEATS * HAND :],
        }

    def check_options(self, config: dict) -> None:
        """Raise ValueError saying what is wrong with a room tier's options."""
        _options(config)

    # -- reading -----------------------------------------------------------------------------
    @staticmethod
    def trump(state: State) -> Trump:
        return Trump(state["level"] or state["levels"][0], state["suit"])

    def actors(self, state: State) -> list[int]:
        return [] if state["turn"] is None else [state["turn"]]

    def deadline_seconds(self, state: State) -> int | None:
        phase, opts = state["phase"], state["options"]
        if phase == "finished":
            return None
        key = {"dealing": "deal_seconds", "overcall": "overcall_seconds", "bury": "bury_seconds"}
        return int(opts[key.get(phase, "turn_seconds")])

    def declarations(self, state: State, seat: int) -> list[Action]:
        """报主 while dealing: a level card and the joker of its colour (two level cards: 定主)."""
        if state["phase"] != "dealing" or state["declaration"] is not None or seat not in range(SEATS):
            return []
        if not state["first_hand"] and seat % 2 != state["declarer"] % 2:
            return []  # 004:5-6: after the first hand only the declaring side declares
        hand = Counter(state["_hands"][seat])
        level = state["levels"][seat % 2]
        found = []
        for suit in rules.SUITS:
            card, joker = level + suit, _joker_for(suit)
            if hand[card] and hand[joker]:
                found.append({"type": "declare", "cards": [card, joker]})
                if hand[card] == 2:
                    found.append({"type": "declare", "cards": [card, card, joker]})
        return found

    def overcalls(self, state: State, seat: int) -> list[Action]:
        """反主 (004:11): a pair of level cards and the joker of its colour, or a pair of jokers."""
        hand = Counter(state["_hands"][seat])
        current = state["overcalls"][-1]["rank"] if state["overcalls"] else _rank(state["declaration"])
        found = []
        if current < RANK_PAIR:
            for suit in rules.SUITS:
                card, joker = state["level"] + suit, _joker_for(suit)
                if hand[card] == 2 and hand[joker]:
                    found.append({"type": "overcall", "cards": [card, card, joker]})
        for rank, joker in ((RANK_SMALL_JOKERS, rules.SMALL_JOKER), (RANK_BIG_JOKERS, rules.BIG_JOKER)):
            if current < rank and hand[joker] == 2:
                found.append({"type": "overcall", "cards": [joker, joker]})
        return found

    def out_of_turn_actions(self, state: State, seat: int) -> list[Action]:
        """报主 while the cards are dealt (only the clock moves the deal on)."""
        return self.declarations(state, seat)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat != state["turn"]:
            return []
        phase = state["phase"]
        if phase == "overcall":
            return [*self.overcalls(state, seat), PASS]
        hand = state["_hands"][seat]
        trump = self.trump(state)
        if phase == "bury":
            low = bots.choose_bury(hand, trump)
            high = sorted(sorted(hand, key=lambda c: -rules.strength(c, trump))[:BOTTOM])
            return [{"type": "bury", "cards": cards} for cards in _unique([low, high])]
        if not state["trick"]:
            return [{"type": "play", "cards": cards} for cards in _leads(hand, trump)]
        led = state["trick"][0]["cards"]
        follows = rules.legal_follows(hand, led, trump) or bots.follow_candidates(hand, led, trump)
        return [{"type": "play", "cards": cards} for cards in follows]

    # -- acting ------------------------------------------------------------------------------
    def apply(self, state: State, seat: int, action: Action) -> State:
        if state["phase"] == "finished":
            raise IllegalAction(gettext_noop("The hand is over."))
        if not isinstance(action, dict) or set(action) != _SHAPES.get(action.get("type"), set()):
            raise IllegalAction(gettext_noop("That is not an action in this game."))
        kind = action["type"]
        cards = action.get("cards", [])
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise IllegalAction(gettext_noop("That is not an action in this game."))
        if kind == "declare":
            if action not in self.declarations(state, seat):
                raise IllegalAction(gettext_noop("You cannot declare the trump with those cards now."))
            return self._declare(state, seat, cards)
        if seat != state["turn"]:
            raise IllegalAction(gettext_noop("It is not your turn."))
        phase = state["phase"]
        if phase == "overcall" and kind in ("overcall", "pass"):
            if kind == "overcall" and action not in self.overcalls(state, seat):
                raise IllegalAction(gettext_noop("Those cards do not overcall the trump now."))
            return self._overcall(state, seat, cards if kind == "overcall" else None)
        if phase == "bury" and kind == "bury":
            if len(cards) != BOTTOM or Counter(cards) - Counter(state["_hands"][seat]):
                raise IllegalAction(gettext_noop("Bury eight cards of your hand."))
            return self._bury(state, seat, cards)
        if phase == "play" and kind == "play":
            return self._play(state, seat, cards)
        raise IllegalAction(gettext_noop("That is not an action in this game."))

    def on_deadline(self, state: State) -> State:
        """Deal the next round while dealing; otherwise the actor's time ran out (``auto_action``)."""
        if state["phase"] == "dealing":
            return self._deal_round(state)
        return super().on_deadline(state)

    def _deal_round(self, state: State) -> State:
        """One card to each seat in turn from the first seat (004:2)."""
        new = copy.deepcopy(state)
        for i in range(SEATS):
            seat = (new["start"] + i) % SEATS
            new["_hands"][seat].append(new["_deck"][new["dealt"] * SEATS + i])
        new["dealt"] += 1
        if new["dealt"] == HAND:
            self._end_deal(new)
        return new

    def _declare(self, state: State, seat: int, cards: list[str]) -> State:
        new = copy.deepcopy(state)
        rank = RANK_PAIR if len(cards) == 3 else RANK_DECLARE
        new["declaration"] = {"seat": seat, "cards": list(cards), "suit": cards[0][1], "rank": rank}
        new["suit"] = cards[0][1]
        if new["first_hand"]:
            new["declarer"] = seat
        new["level"] = new["levels"][new["declarer"] % 2]
        new["log"].append({"seat": seat, "type": "declare", "cards": list(cards)})
        return new

    def _end_deal(self, state: State) -> None:
        """No declaration: the bottom's third card names the trump and its twin's holder declares (004:7)."""
        if state["declaration"] is None:
            card = state["_bottom"][2]
            state["suit"] = None if card in (rules.SMALL_JOKER, rules.BIG_JOKER) else card[1]
            holder = next((s for s in range(SEATS) if card in state["_hands"][s]), None)
            if holder is not None and (state["declarer"] is None or holder % 2 != state["declarer"] % 2):
                state["declarer"] = holder
            elif state["declarer"] is None:
                state["declarer"] = state["start"]
            state["level"] = state["levels"][state["declarer"] % 2]
            state["log"].append({"type": "bottom_card", "card": card, "declarer": state["declarer"]})
        if state["first_hand"]:
            self._open_overcalls(state, state["declarer"])  # 004:12 反主反打, before the bottom is taken
        else:
            self._start_bury(state, state["declarer"])

    def _open_overcalls(self, state: State, after: int) -> None:
        state["phase"] = "overcall"
        state["queue"] = [(after + i) % SEATS for i in range(1, SEATS)]
        self._next_overcaller(state)

    def _next_overcaller(self, state: State) -> None:
        """Ask the next seat in order that holds an overcall; none left: bury or play."""
        declared_by = (state["declaration"] or {}).get("seat")
        while state["queue"]:
            seat = state["queue"][0]
            # 004:11: the declarer may overcall only after another player has.
            if (seat != declared_by or state["overcalls"]) and self.overcalls(state, seat):
                state["turn"] = seat
                return
            state["queue"].pop(0)
        if state["first_hand"] and state["buried_by"] is None:
            self._start_bury(state, state["declarer"])
        else:
            self._start_play(state)

    def _overcall(self, state: State, seat: int, cards: list[str] | None) -> State:
        new = copy.deepcopy(state)
        new["queue"].pop(0)
        if cards is None:
            new["log"].append({"seat": seat, "type": "pass"})
            self._next_overcaller(new)
            return new
        if len(cards) == 3:
            rank = RANK_PAIR
        else:
            rank = RANK_SMALL_JOKERS if cards[0] == rules.SMALL_JOKER else RANK_BIG_JOKERS
        new["overcalls"].append({"seat": seat, "cards": list(cards), "rank": rank})
        new["suit"] = None if len(cards) == 2 else cards[0][1]  # a pair of jokers: 无主
        new["log"].append({"seat": seat, "type": "overcall", "cards": list(cards)})
        if new["first_hand"]:
            new["declarer"] = seat  # 004:12 反主反打: the overcaller declares; its level is the hand's
            new["level"] = new["levels"][seat % 2]
            self._open_overcalls(new, seat)
        else:
            self._start_bury(new, seat)  # 004:13 反主炒底: the overcaller takes up and buries the bottom
        return new

    def _start_bury(self, state: State, seat: int) -> None:
        state["phase"] = "bury"
        state["burier"] = seat
        state["turn"] = seat
        state["_hands"][seat] += state["_bottom"]
        state["_bottom"] = []

    def _bury(self, state: State, seat: int, cards: list[str]) -> State:
        new = copy.deepcopy(state)
        hand = new["_hands"][seat]
        for card in cards:
            hand.remove(card)
        new["_bottom"] = sorted(cards)
        new["buried_by"] = seat
        new["burier"] = None
        new["log"].append({"seat": seat, "type": "bury"})
        if new["first_hand"]:
            self._start_play(new)
        else:
            self._open_overcalls(new, seat)
        return new

    def _start_play(self, state: State) -> None:
        state["phase"] = "play"
        state["queue"] = []
        state["turn"] = state["declarer"]  # 004:18 the declarer leads

    def _play(self, state: State, seat: int, cards: list[str]) -> State:
        hand = state["_hands"][seat]
        trump = self.trump(state)
        if Counter(cards) - Counter(hand) or not cards:
            raise IllegalAction(gettext_noop("You do not hold those cards."))
        new = copy.deepcopy(state)
        if not state["trick"]:
            kind = rules.shape(cards, trump)
            if kind is None:
                raise IllegalAction(
                    gettext_noop("A lead is of one suit: a single, a pair, a tractor or a throw.")
                )
            entry: dict[str, Any] = {"seat": seat, "cards": sorted(cards)}
            if kind == "throw":
                others = [state["_hands"][(seat + i) % SEATS] for i in range(1, SEATS)]
                forced = rules.throw_check(cards, others, trump)
                if forced is not None:  # 004:23: the smallest failing part is played, half the base paid
                    entry = {"seat": seat, "cards": sorted(forced), "failed_throw": sorted(cards)}
                    new["penalties"].append({"seat": seat, "amount": new["base"] // 2})
        else:
            refusal = rules.follow_refusal(hand, state["trick"][0]["cards"], cards, trump)
            if refusal is not None:
                raise IllegalAction(refusal)
            entry = {"seat": seat, "cards": sorted(cards)}
        for card in entry["cards"]:
            new["_hands"][seat].remove(card)
        new["trick"].append(entry)
        new["log"].append({"type": "play", **copy.deepcopy(entry)})
        if len(new["trick"]) < SEATS:
            new["turn"] = (seat + 1) % SEATS
            return new
        self._end_trick(new, trump)
        return new

    def _end_trick(self, state: State, trump: Trump) -> None:
        plays = [p["cards"] for p in state["trick"]]
        winner = state["trick"][rules.trick_winner(plays, trump)]["seat"]
        won = rules.points([c for p in plays for c in p])
        state["taken"][winner % 2] += won
        state["last_trick"] = {"plays": state["trick"], "winner": winner, "points": won}
        state["trick"] = []
        state["tricks"] += 1
        state["turn"] = winner
        if not state["_hands"][winner]:
            self._finish(state, plays[0], winner, trump)

    def _finish(self, state: State, last_lead: list[str], last_winner: int, trump: Trump) -> None:
        declarer = state["declarer"]
        defenders = 1 - declarer % 2
        took_last = last_winner % 2 == defenders
        total = rules.defender_points(
            state["taken"][defenders], state["_bottom"], last_lead, took_last, trump
        )
        side, steps = rules.level_change(total)
        rising = declarer % 2 if side == "declarers" else defenders
        levels = list(state["levels"])
        levels[rising] = rules.raise_level(levels[rising], steps)
        passed_ace = rules.RANKS.index(state["levels"][rising]) + steps >= len(rules.RANKS)
        next_declarer = rules.next_declarer(declarer, side)
        deltas = _settle(state["coins"], state["base"], rising, steps, state["penalties"])
        state["phase"] = "finished"
        state["turn"] = None
        state["result"] = {
            "deltas": deltas,
            "winners": [s for s in range(SEATS) if s % 2 == rising],
            "defender_points": total,
            "face_points": state["taken"][defenders],
            "bottom_points": rules.points(state["_bottom"]),
            "bottom_multiple": rules.bottom_multiplier(last_lead, trump) if took_last else 0,
            "side": side,
            "levels_gained": steps,
            "levels_after": levels,
            "next_declarer": next_declarer,
            "match_over": passed_ace,
            # The match goes on at this table (004:1) until a side passes A: the levels and
            # the next declarer carry to the same four players (a pot of no coins).
            "carry": None
            if passed_ace
            else {
                "pot": 0,
                "players": list(state["players"]),
                "levels": levels,
                "declarer": next_declarer,
                "min_players": SEATS,
            },
        }

    # -- time and help -----------------------------------------------------------------------
    def auto_action(self, state: State, seat: int) -> Action:
        """托管 / time out: pass a 反主, bury the bot's choice, play the 提示."""
        if state["phase"] == "overcall":
            return PASS
        hint = self.hint(state, seat)
        return hint if hint is not None else PASS

    def hint(self, state: State, seat: int) -> Action | None:
        """提示: overcall only with a pair of jokers; bury and play as ``games.shengji.bots`` says."""
        if seat != state["turn"]:
            return None
        phase, hand, trump = state["phase"], state["_hands"][seat], self.trump(state)
        if phase == "overcall":
            jokers = [a for a in self.overcalls(state, seat) if len(a["cards"]) == 2]
            return jokers[-1] if jokers else PASS
        if phase == "bury":
            return {"type": "bury", "cards": bots.choose_bury(hand, trump)}
        if not state["trick"]:
            return {"type": "play", "cards": sorted(bots.choose_lead(hand, trump))}
        plays = [p["cards"] for p in state["trick"]]
        partner = next((i for i, p in enumerate(state["trick"]) if p["seat"] == (seat + 2) % SEATS), None)
        return {"type": "play", "cards": sorted(bots.choose_follow(hand, plays, partner, trump))}

    # -- what leaves the server --------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict:
        finished = state["phase"] == "finished"
        mine = seat is not None and seat in range(SEATS)
        trump = self.trump(state)
        sees_bottom = finished or (mine and seat == state["buried_by"] and state["burier"] is None)
        view = {
            "phase": state["phase"],
            "seat": seat,
            "first_hand": state["first_hand"],
            "levels": list(state["levels"]),
            "level": state["level"],
            "suit": state["suit"],
            "declarer": state["declarer"],
            "declaration": copy.deepcopy(state["declaration"]),
            "overcalls": copy.deepcopy(state["overcalls"]),
            "dealt": state["dealt"],
            "turn": state["turn"],
            "burier": state["burier"],
            "counts": [len(h) for h in state["_hands"]],
            "hand": rules.sort_hand(state["_hands"][seat], trump) if mine else None,
            "bottom": list(state["_bottom"]) if sees_bottom else None,
            "trick": copy.deepcopy(state["trick"]),
            "last_trick": copy.deepcopy(state["last_trick"]),
            "defender_points": state["taken"][1 - state["declarer"] % 2]
            if state["declarer"] is not None
            else 0,
            "penalties": copy.deepcopy(state["penalties"]),
            "declarations": self.declarations(state, seat) if mine else [],
            "choices": self.legal_actions(state, seat) if mine and state["phase"] == "overcall" else [],
            "playable": self.playable(state, seat) if mine else [],
            "hint": None,
            "result": copy.deepcopy(state["result"]),
        }
        if mine and seat == state["turn"] and state["phase"] in ("bury", "play"):
            view["hint"] = self.hint(state, seat)["cards"]
        return view

    def playable(self, state: State, seat: int) -> list[str]:
        """The seat's cards that some legal play now may hold: the led suit's while it must follow it."""
        if seat != state["turn"] or state["phase"] not in ("bury", "play"):
            return []
        hand = state["_hands"][seat]
        if state["phase"] == "play" and state["trick"]:
            trump = self.trump(state)
            led = state["trick"][0]["cards"]
            held = [c for c in hand if rules.suit_of(c, trump) == rules.suit_of(led[0], trump)]
            if len(held) >= len(led):
                return sorted(set(held))
        return sorted(set(hand))

    def outcome(self, state: State) -> Outcome | None:
        result = state["result"]
        if result is None:
            return None
        details = {k: v for k, v in result.items() if k not in ("deltas", "winners")}
        details.update(
            declarer=state["declarer"],
            level=state["level"],
            suit=state["suit"],
            bottom=list(state["_bottom"]),
        )
        return Outcome(deltas=list(result["deltas"]), winners=list(result["winners"]), details=details)


def _rank(declaration: dict | None) -> int:
    return 0 if declaration is None else declaration["rank"]


def _unique(plays: list[list[str]]) -> list[list[str]]:
    found: list[list[str]] = []
    for play in plays:
        if play not in found:
            found.append(play)
    return found


def _leads(hand: list[str], trump: Trump) -> list[list[str]]:
    """Leads to list: every single, pair and tractor, and each suit's whole holding or top two as a throw."""
    found: list[list[str]] = [[c] for c in sorted(set(hand))]
    found += [[c, c] for c, n in sorted(Counter(hand).items()) if n == 2]
    by_suit: dict[str, list[str]] = {}
    for card in hand:
        by_suit.setdefault(rules.suit_of(card, trump), []).append(card)
    for cards in by_suit.values():
        for length in range(2, len(cards) // 2 + 1):
            found += [sorted(t.cards) for t in rules.tractors(cards, trump, length)]
        top_two = sorted(set(cards), key=lambda c: -rules.strength(c, trump))[:2]
        for throw in (sorted(cards), sorted(top_two)):
            if rules.shape(throw, trump) == "throw":
                found.append(throw)
    return _unique(found)


def _settle(coins: list[int], base: int, rising: int, steps: int, penalties: list[dict]) -> list[int]:
    """Coins under 有限责任制: failed throws first, then each seat of the side that did not rise pays
    ``base × levels`` to the opponent on its right (the next seat); nobody moves more than they carry."""
    deltas = [0] * SEATS
    transfers = []
    for penalty in penalties:  # half the base, split between the thrower's two opponents
        seat, amount = penalty["seat"], penalty["amount"]
        transfers += [(seat, (seat + 1) % SEATS, (amount + 1) // 2), (seat, (seat + 3) % SEATS, amount // 2)]
    if steps:
        transfers += [(s, (s + 1) % SEATS, base * steps) for s in range(SEATS) if s % 2 != rising]
    for payer, payee, amount in transfers:
        amount = min(amount, coins[payer] + deltas[payer], coins[payee] - deltas[payee])
        if amount > 0:
            deltas[payer] -= amount
            deltas[payee] += amount
    return deltas
