"""斗地主 hand state machine: deal, 叫分 (bid), 抢地主 (rob), 加倍 (double), play, settle.

One engine serves the three variants of docs/rules/doudizhu.md, chosen by
``config["variant"]``; every difference is a row in ``VARIANTS``. States are
JSON-able dicts; ``apply`` copies what it changes and never touches its input.
"""

from __future__ import annotations

from games.base import IllegalAction, Outcome, SeatedEngine, SeatSpec, SeededRng, State, gettext_noop
from games.doudizhu import moves, rules
from games.doudizhu.assist import suggest_lead
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


_COMBOS: dict[tuple, rules.Combo] = {}


def _combo(kind: str, rank: int, size: int, chain: int) -> rules.Combo:
    """Return the (shared) Combo of a play on the table; there are only a few hundred."""
    key = (kind, rank, size, chain)
    found = _COMBOS.get(key)
    if found is None:
        if len(_COMBOS) >= 4096:
            _COMBOS.clear()
        found = _COMBOS[key] = rules.Combo(kind, rank, size, chain)
    return found


def _next(seat: int) -> int:
    return (seat + 1) % SEATS


def _cards_text(cards: list[str]) -> str:
    return "-".join(rules.rank_name(rules.RANK_OF[c]) for c in rules.sort_cards(cards)[::-1])


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
        """List every action ``seat`` may take now (plays deduped by suit choice)."""
        phase = state["phase"]
        if phase == "playing":  # the hot path: hands are kept high to low, as legal_plays needs
            if seat != state["turn"]:
                return []
            last = state["last_play"]
            if last is None:
                return _leads(state["hands"][seat])
            return _follows(state["hands"][seat], last)
        if phase == "finished" or seat != state["turn"]:
            return []
        # Shared, read-only actions, as ``moves`` lists plays (see ``Engine.legal_actions``).
        if phase == "bidding":
            return list(_BID_CHOICES[state["bid"]])
        if phase == "robbing":
            return [_ROB_ACTION, _PASS_ACTION]
        return [_DOUBLE_ACTION, _PASS_ACTION]  # doubling

    @staticmethod
    def _previous(state: State) -> rules.Combo | None:
        last = state["last_play"]
        if last is None:
            return None
        return _combo(last["kind"], last["rank"], last["size"], last["chain"])

    # -- apply -------------------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: dict) -> State:
        """Return the state after ``seat`` takes ``action``; raise IllegalAction, changing nothing."""
        if type(action) is dict and state["phase"] == "playing" and seat == state["turn"]:
            # The common case first: a well-formed play or pass. Anything this path does not
            # accept goes on to the full checks below, which give the refusal its reason.
            kind = action.get("type")
            if kind == "play":
                cards = action.get("cards")
                if type(cards) is list and cards and len(action) == 2:
                    new = _play_checked(state, seat, cards)
                    if new is not None:
                        return new
            elif kind == "pass" and len(action) == 1 and state["last_play"] is not None:
                return _pass(state, seat)
        if state["phase"] == "finished":
            raise IllegalAction(gettext_noop("The hand is over."))
        if seat != state["turn"]:
            raise IllegalAction(gettext_noop("It is not your turn."))
        kind = action.get("type") if isinstance(action, dict) else None
        if kind not in _SHAPES or set(action) != _SHAPES[kind]:
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
        if kind == "pass":
            if state["last_play"] is None:
                raise IllegalAction(gettext_noop("You lead this round, so you must play."))
            return _pass(state, seat)
        previous = self._previous(state)
        if kind != "play":
            raise IllegalAction(gettext_noop("Play cards or pass."))
        cards = action.get("cards")
        hand = state["hands"][seat]
        last = state["last_play"]
        combo = self.check_play(hand, cards, previous, last["cards"] if last else None)
        chosen = set(cards)
        remaining = [card for card in hand if card not in chosen]
        played = list(cards) if len(cards) == 1 else rules.sort_cards(cards)
        return _laid(
            state,
            seat,
            state["hands"],
            last,
            played,
            remaining,
            combo.kind,
            combo.rank,
            combo.size,
            combo.chain,
        )

    @staticmethod
    def check_play(
        hand: list[str], cards, previous: rules.Combo | None, previous_cards: list[str] | None = None
    ) -> rules.Combo:
        """Return the reading of ``cards`` to play from ``hand``, or raise IllegalAction saying why."""
        if not isinstance(cards, list) or not cards:
            raise IllegalAction(gettext_noop("Choose the cards to play."))
        rank_of = rules.RANK_OF
        counts = [0] * rules.N_RANKS
        unknown = None
        for card in cards:
            if not isinstance(card, str):
                raise IllegalAction(gettext_noop("Choose the cards to play."))
            rank = rank_of.get(card)
            if rank is None:
                unknown = card if unknown is None else unknown
            else:
                counts[rank] += 1
        if unknown is not None:
            raise IllegalAction(gettext_noop("{card} is not a card."), card=unknown)
        if len(set(cards)) != len(cards):
            raise IllegalAction(gettext_noop("You chose the same card twice."))
        held = hand if len(cards) < 3 else set(hand)
        for card in cards:
            if card not in held:
                raise IllegalAction(gettext_noop("You do not hold {card}."), card=card)
        combo = rules.best_reading_of(tuple(counts), previous)
        if combo is None:
            if previous is None or not rules.readings(cards):
                raise IllegalAction(gettext_noop("{cards} is not a legal play."), cards=_cards_text(cards))
            target = _cards_text(previous_cards) if previous_cards else previous.kind.replace("_", " ")
            raise IllegalAction(
                gettext_noop("Your {cards} does not beat {target}."), cards=_cards_text(cards), target=target
            )
        return combo

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
        """托管: pass when allowed (never bid, rob or double), else the gentlest legal play."""
        if state["phase"] != "playing" or state["last_play"] is not None:
            return dict(PASS)
        hand = state["hands"][seat]
        first = moves.play_keys(tuple(rules.parse(hand)), None)[0]
        return {"type": "play", "cards": rules.cards_for(hand, moves.decode(first)[1])}

    def on_deadline(self, state: State) -> State:
        """Apply the 托管 action for every seat whose time ran out."""
        for seat in self.actors(state):
            state = self.apply(state, seat, self.auto_action(state, seat))
        return state

    def hint(self, state: State, seat: int) -> dict | None:
        """提示: the smallest play that beats the table, a sensible lead, or pass."""
        if state["phase"] != "playing" or seat != state["turn"]:
            return None
        hand = state["hands"][seat]
        counts = rules.parse(hand)
        previous = self._previous(state)
        if previous is None:
            if rules.readings(hand):
                return {"type": "play", "cards": rules.sort_cards(hand)}
            return {"type": "play", "cards": rules.cards_for(hand, suggest_lead(counts))}
        keys = moves.play_keys(tuple(counts), previous)
        if not keys:
            return dict(PASS)
        return {"type": "play", "cards": rules.cards_for(hand, moves.decode(keys[0])[1])}

    def view(self, state: State, seat: int | None) -> dict:
        return build_view(self, state, seat)

    def views(self, state: State, seats) -> list[dict]:
        """``view`` for each of ``seats`` at once (every viewer of a change): the public part built once."""
        return build_views(self, state, seats)


_NEXT_SEAT = (1, 2, 0)  # _next(seat), looked up

_PASS_ACTION = moves.PASS_ACTION
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


_CODE_OF = rules.CODE_OF
_RANK_OF = rules.RANK_OF
_leads, _follows = moves.leads, moves.follows
# rules.readings_of_code's memo, looked up first so that a play seen before costs no call
# (it is cleared in place when full, so this name stays the same dict).
_BY_CODE = rules._BY_CODE


def _play_checked(state: State, seat: int, cards: list) -> State | None:
    """Play ``cards`` if they are distinct held cards that make a legal play now, else return None.

    The same rules as ``check_play`` (a set of held cards, read as its preferred reading
    when leading, else the first reading that beats the table), in a few set and table
    operations; None sends the action to ``check_play``, which says what is wrong.
    """
    hands = state["hands"]
    hand = hands[seat]
    n = len(cards)
    try:
        start = hand.index(cards[0])
    except ValueError:
        return None
    last = state["last_play"]
    if n == 1:
        # A single (a third of all plays): held, and it reads as a single of its rank alone.
        card = hand[start]
        rank = _RANK_OF[card]
        if last is None or (last["kind"] == "single" and rank > last["rank"]):
            remaining = hand.copy()
            del remaining[start]
            return _laid(state, seat, hands, last, [card], remaining, "single", rank, 1, 1)
        return None
    played = hand[start : start + n]
    if played == cards:
        # Cards that sit together in the hand (one rank's lowest suits, as listed): held,
        # distinct and already high to low. (A copy less the slice: one new list, not three.)
        remaining = hand.copy()
        del remaining[start : start + n]
    else:
        try:
            chosen = set(cards)
        except TypeError:  # an unhashable "card"
            return None
        if len(chosen) != n:
            return None
        remaining = [card for card in hand if card not in chosen]
        if len(remaining) + n != len(hand):
            return None  # some card is not held (a hand holds each card once)
        # A hand is kept high to low, so its chosen cards come out sorted the same way.
        played = [card for card in hand if card in chosen]
    code = sum(map(_CODE_OF.__getitem__, played))
    found = _BY_CODE.get(code)
    if found is None:
        found = rules.readings_of_code(code)
    if not found:
        return None
    if last is None:
        kind, rank, size, chain = found[0]
        return _laid(state, seat, hands, None, played, remaining, kind, rank, size, chain)
    # rules.beats, written out on the table's fields: the rocket beats all; a bomb beats
    # any non-bomb; otherwise the same kind and size with a higher body.
    table_kind, table_rank, table_size = last["kind"], last["rank"], last["size"]
    for kind, rank, size, chain in found:
        if kind == "rocket" or (
            table_kind != "rocket"
            and (
                (kind == "bomb" and table_kind != "bomb")
                or (kind == table_kind and size == table_size and rank > table_rank)
            )
        ):
            return _laid(state, seat, hands, last, played, remaining, kind, rank, size, chain)
    return None


def _laid(
    state: State,
    seat: int,
    hands: list,
    last: dict | None,
    played: list,
    remaining: list,
    kind: str,
    rank: int,
    size: int,
    chain: int,
) -> State:
    """The state after ``seat`` lays ``played`` (read as ``kind``, ``rank``, ``size``, ``chain``), keeping ``remaining``.

    ``hands`` and ``last`` are ``state``'s hands and last play, which the caller has read already.
    """
    hands = hands.copy()
    hands[seat] = remaining
    trick = [None, None, None] if last is None else state["trick"].copy()
    trick[seat] = {"cards": played, "kind": kind}
    plays = state["plays"].copy()
    plays[seat] += 1
    # The copy and its changes in one call: ``dict`` stores keywords in C, cheaper than a
    # store statement each. The keys are the state's own, so their order stays (and a last
    # card's close_hand sets the turn to None after).
    new = dict(
        state,
        hands=hands,
        trick=trick,
        last_play={"seat": seat, "cards": played, "kind": kind, "rank": rank, "size": size, "chain": chain},
        passes=0,
        plays=plays,
        history=[*state["history"], {"seat": seat, "action": {"type": "play", "cards": played}}],
        turn=_NEXT_SEAT[seat],
    )
    if kind == "bomb" or kind == "rocket":
        new["bombs"] = state["bombs"] + 1
    if not remaining:
        return close_hand(new, seat)
    return new
