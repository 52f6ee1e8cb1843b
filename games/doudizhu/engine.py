"""斗地主 hand state machine: deal, 叫分 (bid), 抢地主 (rob), 加倍 (double), play, settle.

One engine serves the three variants of docs/rules/doudizhu.md, chosen by
``config["variant"]``; every difference is a row in ``VARIANTS``. States are
JSON-able dicts; ``apply`` copies what it changes and never touches its input.
"""

from __future__ import annotations

from games.base import IllegalAction, Outcome, SeatedEngine, SeatSpec, SeededRng, State, gettext_noop
from games.doudizhu import assist, moves, rules
from games.doudizhu.scoring import close_hand
from games.doudizhu.views import build_view, build_views

SEATS = 3
HAND_SIZE = 17

VARIANTS: dict[str, dict] = {
    # first: who bids first; rob: 抢地主 phase; rob_needs_bid: only callers may rob (001 加倍 1.1.3);
    # double: which farmers may 加倍; stake: which config number is the 底分.
    "classic": {
        "first": "seat",
        "rob": False,
        "rob_needs_bid": False,
        "double": "none",
        "stake": "base_stake",
    },
    "yifa": {
        "first": "shown_card",
        "rob": True,
        "rob_needs_bid": False,
        "double": "unbid",
        "stake": "room_factor",
    },
    "jiabei": {
        "first": "seat",
        "rob": True,
        "rob_needs_bid": True,
        "double": "farmers",
        "stake": "base_stake",
    },
}

DEFAULT_OPTIONS = {
    "variant": "classic",
    "turn_seconds": 30,
    "bid_seconds": 20,
    "cap_multiple": 30,
    "doubling_cap": 4,
    "farmer_cap": 128,
    "landlord_cap": 256,
    # Deals redone after everybody passed, before ``all_pass`` ends the bidding for good
    # (the seeds redeal without a limit; see docs/rules/doudizhu.md, "All pass").
    "redeal_limit": 3,
    # "void": the hand ends with no result (every delta 0, 流局);
    # "first_bidder": the first bidder is made landlord at 1 point.
    "all_pass": "void",
}

ALL_PASS_RULES = ("void", "first_bidder")

PASS = {"type": "pass"}
# The keys each action carries, and nothing else (a "seat" or any other extra key is refused).
_SHAPES = {
    "bid": frozenset(("type", "points")),
    "pass": frozenset(("type",)),
    "rob": frozenset(("type",)),
    "double": frozenset(("type",)),
    "play": frozenset(("type", "cards")),
}


def _options(config: dict) -> dict:
    opts = {key: config.get(key, default) for key, default in DEFAULT_OPTIONS.items()}
    if opts["variant"] not in VARIANTS:
        raise ValueError(f"unknown 斗地主 variant {opts['variant']!r}")
    if opts["all_pass"] not in ALL_PASS_RULES:
        raise ValueError(f"unknown 斗地主 all_pass rule {opts['all_pass']!r}")
    limit = opts["redeal_limit"]
    if type(limit) is not int or limit < 0:
        raise ValueError(f"斗地主 redeal_limit must be a whole number >= 0, not {limit!r}")
    opts.update(VARIANTS[opts["variant"]])
    opts["stake_amount"] = int(config.get(opts["stake"]) or 1)
    return opts


def _next(seat: int) -> int:
    return (seat + 1) % SEATS


def _deal(state: State, rng: SeededRng, first_seat: int | None) -> None:
    """Shuffle, deal 17 each and pick the first bidder into ``state`` (a fresh copy)."""
    deck = list(rules.FULL_DECK)
    rng.shuffle(deck)
    sort = rules.sort_cards  # three calls written out: a comprehension builds a function and a frame
    state["hands"] = [
        sort(deck[0:HAND_SIZE]),
        sort(deck[HAND_SIZE : 2 * HAND_SIZE]),
        sort(deck[2 * HAND_SIZE : 3 * HAND_SIZE]),
    ]
    state["bottom"] = sort(deck[SEATS * HAND_SIZE :])
    if state["options"]["first"] == "shown_card":
        # 002 叫牌: a random dealt card is turned face up (明牌); its holder bids first.
        index = rng.randbelow(SEATS * HAND_SIZE)
        seat = index // HAND_SIZE
        state["shown_card"] = {"card": deck[index], "seat": seat}
        first = seat
    else:
        state["shown_card"] = None
        first = first_seat if first_seat is not None else rng.randbelow(SEATS)
    state.update(
        phase="bidding",
        turn=first,
        first_bidder=first,
        bids=[None] * SEATS,
        bid=0,
        bidder=None,
    )


class DoudizhuEngine(SeatedEngine):
    """斗地主 for three seats; see docs/rules/doudizhu.md."""

    # -- lifecycle ---------------------------------------------------------------------------

    def new_hand(self, config: dict, seats: list[SeatSpec], rng: SeededRng) -> State:
        """Deal a new hand and open the bidding."""
        if len(seats) != SEATS:
            raise ValueError("斗地主 needs exactly three seats")
        state: State = {
            "variant": None,
            "options": _options(config),
            "players": [s.player_id for s in seats],
            "coins": [int(s.coins) for s in seats],
            "landlord": None,
            "candidate": None,
            "robs": [None] * SEATS,
            "rob_queue": [],
            "rob_events": [],
            "doubles": [None] * SEATS,
            "double_queue": [],
            "last_play": None,
            "trick": [None] * SEATS,
            "passes": 0,
            "plays": [0] * SEATS,
            "bombs": 0,
            "history": [],
            "redeals": 0,
            "spring": None,
            "result": None,
            "_seed": rng.seed.hex(),
            "_label": rng.label,
        }
        state["variant"] = state["options"]["variant"]
        first = config.get("first_seat")
        _deal(state, rng, first if first in (0, 1, 2) else None)
        return state

    def check_options(self, config: dict) -> None:
        """Raise ValueError saying what is wrong with a room tier's options (checked when staff save it)."""
        _options(config)

    def actors(self, state: State) -> list[int]:
        turn = state["turn"]  # None once the hand is finished, and only then
        return [] if turn is None else [turn]

    # -- legality ----------------------------------------------------------------------------

    def legal_actions(self, state: State, seat: int) -> list[dict]:
        """List every action ``seat`` may take now: each distinct play once (its lowest suits), pass last."""
        phase = state["phase"]
        if phase == "finished" or seat != state["turn"]:
            return []
        # Shared, read-only actions where they are constants (see ``Engine.legal_actions``).
        if phase == "playing":
            return moves.legal_actions(state["hands"][seat], _previous(state))
        if phase == "bidding":
            return list(_BID_CHOICES[state["bid"]])
        if phase == "robbing":
            return [_ROB_ACTION, _PASS_ACTION]
        return [_DOUBLE_ACTION, _PASS_ACTION]  # doubling

    # -- apply -------------------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: dict) -> State:
        """Return the state after ``seat`` takes ``action``; raise IllegalAction, changing nothing."""
        if state["phase"] == "finished":
            raise IllegalAction(gettext_noop("The hand is over."))
        if seat != state["turn"]:
            raise IllegalAction(gettext_noop("It is not your turn."))
        kind = action.get("type") if isinstance(action, dict) else None
        if kind not in _SHAPES or action.keys() != _SHAPES[kind]:
            raise IllegalAction(gettext_noop("That is not an action in this game."))
        phase = state["phase"]
        if phase == "playing":
            return self._apply_play(state, seat, kind, action)
        if phase == "bidding":
            return self._apply_bid(state, seat, kind, action)
        if phase == "robbing":
            return self._apply_rob(state, seat, kind, action)
        return self._apply_double(state, seat, kind, action)

    def _apply_bid(self, state: State, seat: int, kind, action) -> State:
        if kind == "bid":
            points = action.get("points")
            if type(points) is not int or points not in (1, 2, 3):  # not 2.0, not True
                raise IllegalAction(gettext_noop("A bid is 1, 2 or 3 points."))
            if points <= state["bid"]:
                raise IllegalAction(
                    gettext_noop("You must bid higher than {bid}, or pass."), bid=state["bid"]
                )
        elif kind != "pass":
            raise IllegalAction(gettext_noop("Bid 1, 2 or 3 points, or pass."))
        new = dict(state)
        new["bids"] = list(state["bids"])
        # A checked bid or pass holds a str and an int at most: a plain copy is a full one.
        new["history"] = [*state["history"], {"seat": seat, "action": dict(action)}]
        if kind == "bid":
            new["bids"][seat] = points
            new["bid"] = points
            new["bidder"] = seat
        else:
            new["bids"][seat] = 0
        done = new["bid"] == 3 or None not in new["bids"]
        if not done:
            new["turn"] = _next(seat)
            return new
        if new["bid"] == 0:
            if new["redeals"] < new["options"].get("redeal_limit", DEFAULT_OPTIONS["redeal_limit"]):
                return self._redeal(new)
            if new["options"].get("all_pass", "void") == "first_bidder":
                # Forced landlord: the first bidder takes the hand at the lowest bid.
                first = new["first_bidder"]
                new["bids"][first] = 1
                new["bid"] = 1
                new["bidder"] = first
                # Logged as his 1-point bid, marked forced (every history reader expects an action).
                new["history"].append({"seat": first, "action": {"type": "bid", "points": 1}, "forced": True})
            else:
                return _void(new)
        new["candidate"] = new["bidder"]
        return self._open_robbing(new)

    def _redeal(self, state: State) -> State:
        """All passed (流局): deal again from a child stream of the hand's seed, same first bidder."""
        state["redeals"] = state["redeals"] + 1
        rng = SeededRng(bytes.fromhex(state["_seed"]), state["_label"]).child(f"redeal-{state['redeals']}")
        state["history"] = [*state["history"], {"redeal": state["redeals"]}]
        _deal(state, rng, state["first_bidder"])
        return state

    def _open_robbing(self, state: State) -> State:
        opts = state["options"]
        if not opts["rob"]:
            return self._crown(state)
        caller = state["candidate"]
        queue = [s for s in (_next(caller), _next(_next(caller))) if self._may_rob(state, s)]
        state["rob_queue"] = queue
        return self._advance_robbing(state)

    def _may_rob(self, state: State, seat: int) -> bool:
        return not state["options"]["rob_needs_bid"] or bool(state["bids"][seat])

    def _advance_robbing(self, state: State) -> State:
        queue = list(state["rob_queue"])
        caller = state["bidder"]
        # The caller may rob back once someone has robbed him (each player robs at most once).
        if (
            not queue
            and state["rob_events"]
            and state["robs"][caller] is None
            and state["candidate"] != caller
        ):
            queue = [caller]
        if not queue:
            state["rob_queue"] = []
            return self._crown(state)
        state["phase"] = "robbing"
        state["turn"] = queue[0]
        state["rob_queue"] = queue
        return state

    def _apply_rob(self, state: State, seat: int, kind, action) -> State:
        if kind not in ("rob", "pass"):
            raise IllegalAction(gettext_noop("Rob the landlord or pass."))
        new = dict(state)
        new["robs"] = list(state["robs"])
        new["robs"][seat] = kind == "rob"
        new["rob_queue"] = state["rob_queue"][1:]
        new["history"] = [*state["history"], {"seat": seat, "action": dict(action)}]  # a type alone
        if kind == "rob":
            new["rob_events"] = [*state["rob_events"], [seat, state["candidate"]]]
            new["candidate"] = seat
        return self._advance_robbing(new)

    def _crown(self, state: State) -> State:
        """Make the candidate the landlord: he takes the 底牌, shown to all, then farmers may double."""
        landlord = state["candidate"]
        state["landlord"] = landlord
        hands = list(state["hands"])
        hands[landlord] = rules.sort_cards(hands[landlord] + state["bottom"])
        state["hands"] = hands
        mode = state["options"]["double"]
        farmers = [_next(landlord), _next(_next(landlord))]
        if mode == "farmers":
            queue = farmers
        elif mode == "unbid":
            # 002 农民加倍: only farmers who never had a chance to bid may double.
            queue = [f for f in farmers if state["bids"][f] is None]
        else:
            queue = []
        state["double_queue"] = queue
        return self._advance_doubling(state)

    def _advance_doubling(self, state: State) -> State:
        if state["double_queue"]:
            state["phase"] = "doubling"
            state["turn"] = state["double_queue"][0]
        else:
            state["phase"] = "playing"
            state["turn"] = state["landlord"]
        return state

    def _apply_double(self, state: State, seat: int, kind, action) -> State:
        if kind not in ("double", "pass"):
            raise IllegalAction(gettext_noop("Double or pass."))
        new = dict(state)
        new["doubles"] = list(state["doubles"])
        new["doubles"][seat] = kind == "double"
        new["double_queue"] = state["double_queue"][1:]
        new["history"] = [*state["history"], {"seat": seat, "action": dict(action)}]  # a type alone
        return self._advance_doubling(new)

    def _apply_play(self, state: State, seat: int, kind, action) -> State:
        last = state["last_play"]
        if kind == "pass":
            if last is None:
                raise IllegalAction(gettext_noop("You lead this round, so you must play."))
            return _pass(state, seat)
        if kind != "play":
            raise IllegalAction(gettext_noop("Play cards or pass."))
        cards = action["cards"]
        hand = state["hands"][seat]
        combo, remaining = moves.check_play(hand, cards, _previous(state), last["cards"] if last else None)
        played = rules.sort_cards(cards) if len(cards) > 1 else list(cards)
        return _laid(state, seat, played, remaining, combo)

    # -- the end -----------------------------------------------------------------------------

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "finished":  # asked after every action: the cheap test first
            return None
        result = state.get("result")
        if result is None:
            return None
        details = {k: v for k, v in result.items() if k not in ("deltas", "winners")}
        details["hands"] = [list(h) for h in result["hands"]]
        return Outcome(deltas=list(result["deltas"]), winners=list(result["winners"]), details=details)

    # -- time and help -----------------------------------------------------------------------

    def deadline_seconds(self, state: State) -> int | None:
        if state["phase"] == "finished":
            return None
        opts = state["options"]
        return int(opts["turn_seconds"] if state["phase"] == "playing" else opts["bid_seconds"])

    def auto_action(self, state: State, seat: int) -> dict:
        """托管: pass while bidding, robbing and doubling; while playing, the first 提示 (hint).

        A farmer lets his partner's play stand (passes) unless the hint empties his hand.
        """
        if state["phase"] != "playing":
            return dict(PASS)
        suggested = self.hint(state, seat)
        if suggested is None:  # not his turn: nothing he may do but pass
            return dict(PASS)
        goes_out = len(suggested.get("cards", ())) == len(state["hands"][seat])
        if assist.is_partners_play(state, seat) and not goes_out:
            return dict(PASS)
        return suggested

    def hint(self, state: State, seat: int) -> dict | None:
        """提示: the cheapest play that leads or beats the table, pass when none beats (None: not his turn)."""
        found = self.hints(state, seat)
        return found[0] if found else None

    def hints(self, state: State, seat: int) -> list[dict]:
        """提示, every press: the plays to suggest in order, cheapest first (see ``assist``).

        ``[pass]`` when no play beats the table; empty when ``seat`` may not play now.
        """
        if state["phase"] != "playing" or seat != state["turn"]:
            return []
        previous = _previous(state)
        found = assist.suggestions(state["hands"][seat], previous)
        if not found:
            return [dict(PASS)]
        return [{"type": "play", "cards": cards} for cards in found]

    def view(self, state: State, seat: int | None) -> dict:
        return build_view(self, state, seat)

    def views(self, state: State, seats) -> list[dict]:
        """``view`` for each of ``seats`` at once (every viewer of a change): the public part built once."""
        return build_views(self, state, seats)


_NEXT_SEAT = (1, 2, 0)  # _next(seat), looked up

_PASS_ACTION = moves.PASS
_ROB_ACTION = {"type": "rob"}
_DOUBLE_ACTION = {"type": "double"}
# What a seat may bid after the highest bid so far (0, 1 or 2), pass last.
_BID_CHOICES = tuple(
    (*({"type": "bid", "points": points} for points in range(bid + 1, 4)), _PASS_ACTION) for bid in range(3)
)


def _void(state: State) -> State:
    """End the hand with no result (流局): every deal was passed by all and no redeal is left."""
    state["phase"] = "finished"
    state["turn"] = None
    state["result"] = {
        "landlord": None,
        "winner": "void",
        "winners": [],
        "bid": 0,
        "multiple": 1,
        "multiples": None,
        "spring": None,
        "bombs": 0,
        "robs": 0,
        "doubles": [False] * SEATS,
        "scores": [0] * SEATS,
        "deltas": [0] * SEATS,
        "limited": False,
        "void": True,
        "redeals": state["redeals"],
        "hands": [list(h) for h in state["hands"]],
        "bottom": list(state["bottom"]),
        # Nobody went out first: the same seat keeps the first bid next hand.
        "next_first_seat": state["first_bidder"],
    }
    return state


def _pass(state: State, seat: int) -> State:
    new = dict(state)
    trick = new["trick"] = state["trick"].copy()
    trick[seat] = "pass"
    # One list built at its size (a copy then an append grew it a second time).
    new["history"] = [*state["history"], {"seat": seat, "action": {"type": "pass"}}]
    new["turn"] = _NEXT_SEAT[seat]
    passes = state["passes"] + 1
    if passes == 2:  # SEATS - 1
        new["last_play"] = None  # two passes: the last player leads again
        passes = 0
    new["passes"] = passes
    return new


def _previous(state: State) -> rules.Combo | None:
    """The play on the table to beat, None when ``state``'s turn leads."""
    last = state["last_play"]
    return None if last is None else rules.combo(last["kind"], last["rank"], last["size"])


def _laid(state: State, seat: int, played: list, remaining: list, combo: rules.Combo) -> State:
    """The state after ``seat`` lays ``played`` (read as ``combo``), keeping ``remaining``."""
    hands = state["hands"].copy()
    hands[seat] = remaining
    trick = [None, None, None] if state["last_play"] is None else state["trick"].copy()
    trick[seat] = {"cards": played, "kind": combo.kind}
    plays = state["plays"].copy()
    plays[seat] += 1
    new = dict(
        state,
        hands=hands,
        trick=trick,
        last_play={
            "seat": seat,
            "cards": played,
            "kind": combo.kind,
            "rank": combo.rank,
            "size": combo.size,
            "chain": combo.chain,
        },
        passes=0,
        plays=plays,
        history=[*state["history"], {"seat": seat, "action": {"type": "play", "cards": played}}],
        turn=_NEXT_SEAT[seat],
    )
    if combo.kind in ("bomb", "rocket"):
        new["bombs"] = state["bombs"] + 1
    if not remaining:
        return close_hand(new, seat)
    return new
