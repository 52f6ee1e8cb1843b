"""The random-legal-play harness every engine's tests reuse (OpenSpiel's random_sim_test, in spirit).

``random_playout`` plays one hand with random legal choices. ``check_engine_invariants``
plays one hand the same way and checks, at every step, what every engine must
guarantee: states round-trip through JSON, ``apply`` never mutates its input (nor do
``view``, ``legal_actions``, ``hint``, ``auto_action`` and ``deadline_seconds``),
a hand with an outcome has no actors, listed actions (which an engine may share between listings, read-only) are left as
they were by applying them and by everything else, and listing again gives equal
actions, refused actions change nothing, views hold no private key and no card their
seat may not see, and the outcome conserves coins and respects limited
liability. An action a seat may take out of turn (``out_of_turn_actions``) is taken now
and then, and must leave the actors, their time and their actions as they were.
Choices come from a ``random.Random`` instance the caller seeds. ``banker_playout`` and
``solo_playout`` do the same for the banker and solo families.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterable
from typing import Any

from games.base import (
    BankerEngine,
    Engine,
    IllegalAction,
    Outcome,
    SeatSpec,
    SeededRng,
    SoloEngine,
    State,
    apply_rake,
)

IllegalSampler = Callable[[State, random.Random], Iterable[tuple[int, dict]]]
ViewCheck = Callable[[State, "int | None", dict], None]


class InvariantError(AssertionError):
    """An engine broke one of the protocol's promises."""


def _seed_bytes(seed: bytes | int | str) -> bytes:
    if isinstance(seed, bytes):
        return seed if len(seed) >= 16 else seed.rjust(16, b"\0")
    if isinstance(seed, int):
        return seed.to_bytes(16, "big")
    return seed.encode().rjust(16, b"\0")


def _step(
    engine: Engine, state: State, rng_for_choices: random.Random
) -> tuple[State, int | None, dict | None]:
    actors = engine.actors(state)
    if not actors:
        return engine.on_deadline(state), None, None
    seat = rng_for_choices.choice(actors)
    actions = engine.legal_actions(state, seat)
    if not actions:
        raise InvariantError(f"seat {seat} may act but has no legal action")
    action = rng_for_choices.choice(actions)
    text = _json_text(action)
    new = engine.apply(state, seat, action)
    if _json_text(action) != text:
        raise InvariantError(f"applying {text} changed the action")
    return new, seat, action


OUT_OF_TURN_RATE = 0.2  # the share of steps a seat off turn acts, when one may


def _out_of_turn(method, state: State, seats: Iterable[int], acting: list[int]) -> list[tuple[int, dict]]:
    """Every (seat, action) that a seat not among ``acting`` may take out of turn now."""
    if method is None:
        return []
    return [(seat, action) for seat in seats if seat not in acting for action in method(state, seat)]


def random_playout(
    engine: Engine,
    config: dict,
    seats: list[SeatSpec],
    seed: bytes | int | str,
    rng_for_choices: random.Random,
    *,
    max_steps: int = 5000,
) -> tuple[State, int]:
    """Play one hand with random legal actions; return the final state and the number of steps.

    Each step draws the action from ``rng_for_choices`` (and the seat too when several may act).
    """
    state = engine.new_hand(config, seats, SeededRng(_seed_bytes(seed), "hand"))
    # ``_step`` inlined, with the protocol's methods looked up once. Unlike ``_step``, the seat
    # is drawn only when more than one may act: a lone actor is not a choice (RLCard's loop
    # draws only the action too), so a turn-based hand makes one draw per step. A hand with
    # an outcome has no actors (``Engine.actors``; ``check_engine_invariants`` checks it), so
    # the outcome is asked only when nobody may act: one call a step fewer, same hands.
    outcome, actors, legal_actions, apply = engine.outcome, engine.actors, engine.legal_actions, engine.apply
    out_of_turn = getattr(engine, "out_of_turn_actions", None)
    choice = rng_for_choices.choice
    everyone = range(len(seats))
    steps = 0
    while True:
        acting = actors(state)
        if acting:
            if steps >= max_steps:
                raise InvariantError(f"no outcome after {max_steps} steps")
            # Now and then a seat off turn takes one of its out-of-turn actions (炸金花's 看牌). The
            # draw is made only when there is one, so other games' hands stay the same.
            free = _out_of_turn(out_of_turn, state, everyone, acting)
            if free and rng_for_choices.random() < OUT_OF_TURN_RATE:
                seat, action = choice(free)
                state = apply(state, seat, action)
                steps += 1
                continue
            seat = acting[0] if len(acting) == 1 else choice(acting)
            actions = legal_actions(state, seat)
            if not actions:
                raise InvariantError(f"seat {seat} may act but has no legal action")
            state = apply(state, seat, choice(actions))
        elif outcome(state) is not None:
            return state, steps
        elif steps >= max_steps:
            raise InvariantError(f"no outcome after {max_steps} steps")
        else:
            state = engine.on_deadline(state)
        steps += 1


_JSON_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_JSON_PRIVATE_KEY = re.compile(r'"(_(?:[^"\\]|\\.)*)"\s*:')


def _json_text(obj: Any) -> str | None:
    """Return ``obj`` as JSON (C-speed to scan), or None when it is not JSON-able."""
    try:
        return json.dumps(obj)
    except (TypeError, ValueError):
        return None


def _unescape(raw: str) -> str:
    return json.loads(f'"{raw}"') if "\\" in raw else raw


def private_keys(obj: Any) -> list[str]:
    """Return every dict key starting with "_" anywhere inside ``obj``."""
    text = _json_text(obj)
    if text is not None:
        return [_unescape(raw) for raw in _JSON_PRIVATE_KEY.findall(text)]
    found = []
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.extend(k for k in item if isinstance(k, str) and k.startswith("_"))
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def strings_in(obj: Any, vocabulary: set[str] | frozenset[str]) -> set[str]:
    """Return every string of ``vocabulary`` (e.g. the deck's card names) found anywhere in ``obj``."""
    text = _json_text(obj)
    if text is not None:
        return {_unescape(raw) for raw in set(_JSON_STRING.findall(text))} & set(vocabulary)
    found: set[str] = set()
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if item in vocabulary:
                found.add(item)
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
    return found


def _frozen(state: State) -> str:
    return json.dumps(state, sort_keys=True)


def check_outcome(
    outcome: Outcome, seats: list[SeatSpec], *, rake_bps: int = 500, zero_sum: bool = True
) -> None:
    """Check that an outcome conserves coins (with rake) and respects 有限责任制."""
    if len(outcome.deltas) != len(seats):
        raise InvariantError("one delta per seat")
    if not all(isinstance(d, int) for d in outcome.deltas):
        raise InvariantError(f"deltas must be integers: {outcome.deltas}")
    if zero_sum and sum(outcome.deltas) != 0:
        raise InvariantError(f"deltas do not sum to zero: {outcome.deltas}")
    net, rake = apply_rake(outcome.deltas, rake_bps)
    if sum(net) + rake != sum(outcome.deltas) or rake < 0:
        raise InvariantError(f"rake breaks conservation: {net} + {rake}")
    # A pot carried over from earlier hands (a tie that rolls the pot on) is not won from this
    # hand's seats: ``details["from_carried_pot"]`` gives what each seat collects of it.
    carried = outcome.details.get("from_carried_pot") or [0] * len(seats)
    for delta, seat, collected in zip(outcome.deltas, seats, carried, strict=True):
        if not 0 <= collected <= max(delta, 0) or abs(delta - collected) > seat.coins:
            raise InvariantError(
                f"a seat carrying {seat.coins} moves {delta} ({collected} from a carried pot)"
            )
    json.dumps({"deltas": outcome.deltas, "winners": outcome.winners, "details": outcome.details})


def check_engine_invariants(
    engine: Engine,
    config: dict,
    seats: list[SeatSpec],
    seed: bytes | int | str,
    rng_for_choices: random.Random,
    *,
    illegal_actions: IllegalSampler | None = None,
    view_check: ViewCheck | None = None,
    legal_check: Callable[[State, int, list[dict], random.Random], None] | None = None,
    deadline_rate: float = 0.0,
    rake_bps: int = 500,
    zero_sum: bool = True,
    max_steps: int = 5000,
    views_per_step: int | None = None,
) -> tuple[State, int, Outcome]:
    """Play one random hand, checking the engine protocol at every step; return (state, steps, outcome).

    ``illegal_actions(state, rng)`` yields (seat, action) pairs the game must
    refuse; each is tried and must raise IllegalAction and leave the state
    unchanged. ``view_check(state, seat, view)`` asserts what a seat may see.
    ``legal_check(state, seat, actions, rng)`` may compare the listed actions with
    the rules. With ``deadline_rate`` > 0 that share of steps runs ``on_deadline``.
    ``views_per_step`` checks that many random viewers per step instead of all
    seats and a spectator (for long runs).
    """
    state = engine.new_hand(config, seats, SeededRng(_seed_bytes(seed), "hand"))
    steps = 0
    everyone: list[int | None] = [*range(len(seats)), None]
    while True:
        viewers = everyone if views_per_step is None else rng_for_choices.sample(everyone, views_per_step)
        frozen = _frozen(state)
        if json.loads(frozen) != state:
            raise InvariantError("state does not round-trip through JSON")
        for viewer in viewers:
            view = engine.view(state, viewer)
            leaked = private_keys(view)
            if leaked:
                raise InvariantError(f"view for {viewer} shows private keys {leaked}")
            json.dumps(view)
            if view_check is not None:
                view_check(state, viewer, view)
        many = getattr(engine, "views", None)
        if many is not None and many(state, viewers) != [engine.view(state, viewer) for viewer in viewers]:
            raise InvariantError("views() differs from view() for some viewer")
        outcome = engine.outcome(state)
        if outcome is not None:
            if engine.actors(state):
                raise InvariantError(f"the hand has an outcome, yet seats {engine.actors(state)} may act")
            break
        if steps >= max_steps:
            raise InvariantError(f"no outcome after {max_steps} steps")
        actors = engine.actors(state)
        listings = []
        for seat in actors:
            actions = engine.legal_actions(state, seat)
            if not actions:
                raise InvariantError(f"seat {seat} may act but has no legal action")
            if legal_check is not None:
                legal_check(state, seat, actions, rng_for_choices)
            listings.append((seat, actions, _json_text(actions)))
        for seat in range(len(seats)):
            if seat not in actors and engine.legal_actions(state, seat):
                raise InvariantError(f"seat {seat} may not act but has legal actions")
        shown = engine.shown_actors(state) if hasattr(engine, "shown_actors") else actors
        if not set(actors) <= set(shown) <= set(range(len(seats))):
            raise InvariantError(f"the seats shown as acting, {shown}, do not cover the actors {actors}")
        out_of_turn = getattr(engine, "out_of_turn_actions", None)
        for seat in actors if out_of_turn is not None else ():
            if out_of_turn(state, seat):
                raise InvariantError(f"seat {seat} may act, yet lists actions out of turn")
        free = _out_of_turn(out_of_turn, state, range(len(seats)), actors) if actors else []
        free_text = _json_text(free)
        # The runtime shares one parsed state between moves (rooms/tables/state_cache.py):
        # the helpers it calls on the acting seats must leave it as they found it too.
        if hasattr(engine, "deadline_seconds"):
            engine.deadline_seconds(state)
        for seat in actors:
            for helper in ("hint", "auto_action"):
                method = getattr(engine, helper, None)
                if method is not None:
                    method(state, seat)
        if _frozen(state) != frozen:
            raise InvariantError("reading the state (views, actions, hints) mutated it")
        samples = list(illegal_actions(state, rng_for_choices)) if illegal_actions else []
        if actors:
            samples.append((actors[0], {"type": "no-such-action"}))
        for seat, bad in samples:
            try:
                engine.apply(state, seat, bad)
            except IllegalAction as exc:
                if not str(exc):
                    raise InvariantError(f"refusal of {bad} has no message") from None
            else:
                raise InvariantError(f"seat {seat} was allowed the illegal action {bad}")
        if samples and _frozen(state) != frozen:
            raise InvariantError(f"refusing one of {samples} changed the state")
        taken = None
        if free:
            # One out-of-turn action, checked: it moves nobody's turn; now and then it is the step.
            taken = _check_out_of_turn(engine, state, free, rng_for_choices)
            if rng_for_choices.random() >= OUT_OF_TURN_RATE:
                taken = None
        if taken is not None:
            new = taken
        elif actors and deadline_rate and rng_for_choices.random() < deadline_rate:
            new = engine.on_deadline(state)
        else:
            new, _seat, _action = _step(engine, state, rng_for_choices)
        if _frozen(state) != frozen:
            raise InvariantError("apply mutated its input state")
        if _json_text(free) != free_text:
            raise InvariantError("the actions listed out of turn were changed")
        # Listed actions may be shared read-only objects (games/base.py): applying one of them
        # (the step above lists afresh and applies one of the same actions), refusing others,
        # views and hints must leave every listed action as it was, and listing again for the
        # same state must give equal actions.
        for seat, actions, text in listings:
            if _json_text(actions) != text:
                raise InvariantError(f"the actions listed for seat {seat} were changed")
            if engine.legal_actions(state, seat) != actions:
                raise InvariantError(f"listing seat {seat}'s actions again gives other actions")
        state = new
        steps += 1
    check_outcome(outcome, seats, rake_bps=rake_bps, zero_sum=zero_sum)
    return state, steps, outcome


def _check_out_of_turn(
    engine: Engine, state: State, free: list[tuple[int, dict]], rng_for_choices: random.Random
) -> State:
    """Apply one of the ``free`` out-of-turn actions and check it left every actor's turn as it was."""
    seat, action = rng_for_choices.choice(free)
    text = _json_text(action)
    new = engine.apply(state, seat, action)
    if _json_text(action) != text:
        raise InvariantError(f"applying {text} changed the action")
    before = engine.actors(state)
    if engine.actors(new) != before:
        raise InvariantError(f"seat {seat}'s {text} out of turn moved the turn from {before}")
    phase = getattr(engine, "phase", lambda _state: None)
    if phase(new) != phase(state) or engine.deadline_seconds(new) != engine.deadline_seconds(state):
        raise InvariantError(f"seat {seat}'s {text} out of turn changed the phase or the actors' time")
    for actor in before:
        if engine.legal_actions(new, actor) != engine.legal_actions(state, actor):
            raise InvariantError(f"seat {seat}'s {text} out of turn changed seat {actor}'s actions")
    return new


def banker_playout(
    engine: BankerEngine,
    config: dict,
    seed: bytes | int | str,
    rng_for_choices: random.Random,
    *,
    bets_per_coup: int = 3,
    max_coups: int = 1000,
    strict: bool = False,
) -> tuple[State, int]:
    """Deal one whole shoe of a banker-family game with random bets; return (final shoe, coups).

    The banker counterpart of :func:`random_playout` (one shoe is one playout),
    checking the :class:`games.base.BankerEngine` promises at every coup: a bet
    that ``validate_bet`` takes is on an open area and pays within its
    ``bet_exposure`` (which covers at least the stake), closed areas and bad amounts are refused with a
    message, the result's steps are the cards each side holds, and the roads
    count every coup. ``strict`` also checks, at every coup, that the shoe
    round-trips through JSON and that ``deal`` leaves it unchanged (costly: the
    shoe holds 416 cards and a growing history).
    """
    shoe = engine.new_shoe(config, SeededRng(_seed_bytes(seed), "shoe"))
    coups = 0
    while not engine.shoe_finished(shoe):
        if coups >= max_coups:
            raise InvariantError(f"the shoe is not finished after {max_coups} coups")
        frozen = _frozen(shoe) if strict else ""
        if strict and json.loads(frozen) != shoe:
            raise InvariantError("shoe does not round-trip through JSON")
        areas = engine.areas(config, shoe)
        bets = []
        for _ in range(bets_per_coup):
            area = rng_for_choices.choice(areas)
            stake = rng_for_choices.randint(1, 1000)
            try:
                engine.validate_bet(config, shoe, area["area"], stake)
            except IllegalAction as exc:
                if area["open"] or not str(exc):
                    raise InvariantError(f"a bet on the open area {area} was refused: {exc}") from None
                continue
            if not area["open"]:
                raise InvariantError(f"a bet on the closed area {area} was taken")
            bets.append((area["area"], stake))
        for bad in (0, -1, True, 1.5, "10"):
            try:
                engine.validate_bet(config, shoe, areas[0]["area"], bad)
            except IllegalAction as exc:
                if not str(exc):
                    raise InvariantError(f"refusal of amount {bad!r} has no message") from None
            else:
                raise InvariantError(f"the amount {bad!r} was taken")
        result, new = engine.deal(config, shoe)
        if strict:
            if _frozen(shoe) != frozen:
                raise InvariantError("deal mutated its input shoe")
            json.dumps(result)
        for side in dict.fromkeys(step["side"] for step in result["steps"]):
            if [s["card"] for s in result["steps"] if s["side"] == side] != result[side]:
                raise InvariantError(f"the steps do not deal the {side}'s cards {result[side]}")
        for area, stake in bets:
            net = engine.payout(config, result, area, stake)
            most_lost, most_won = engine.bet_exposure(config, area, stake)
            if not isinstance(net, int) or not -most_lost <= net <= most_won or most_lost < stake:
                raise InvariantError(f"{stake} on {area} pays {net!r}, outside -{most_lost}..{most_won}")
        shoe = new
        coups += 1
    if json.loads(json.dumps(shoe)) != shoe:
        raise InvariantError("the finished shoe does not round-trip through JSON")
    roads = engine.roads(shoe)
    json.dumps(roads)
    if "bead_plate" in roads and sum(len(column) for column in roads["bead_plate"]) != coups:
        raise InvariantError("the bead plate does not show every coup")
    return shoe, coups


def solo_playout(
    engine: SoloEngine, config: dict, seed: bytes | int | str, plays: int, rng_for_choices: random.Random
) -> dict[str, int]:
    """Play ``plays`` spins of a solo-family game (a double-up after each win, when it has one) and
    check the :class:`games.base.SoloEngine` promises; return the coins staked and won per kind.

    Every result round-trips through JSON with a whole ``"win"`` ≥ 0; the same seed pair, nonce and
    stake give the same result (a play replays from its revealed seed) and a different nonce is
    drawn apart; stakes off :meth:`stakes`, a bad client seed and a pick off the double-up's list
    are refused with a message; ``returns`` gives each kind of play a return between 0 and 100%.
    """
    server = _seed_bytes(seed)
    client = "harness"
    stakes = engine.stakes(config)
    rules = engine.gamble_rules(config)
    if not stakes or stakes != sorted(stakes) or any(not isinstance(s, int) or s <= 0 for s in stakes):
        raise InvariantError(f"stakes must be positive whole coins, smallest first: {stakes}")
    totals = {"spin_staked": 0, "spin_won": 0, "gamble_staked": 0, "gamble_won": 0}

    def refused(call: Callable[[], object], what: str) -> None:
        try:
            call()
        except IllegalAction as exc:
            if not str(exc):
                raise InvariantError(f"the refusal of {what} has no message") from None
        else:
            raise InvariantError(f"{what} was taken")

    for bad in (0, -stakes[0], stakes[0] + 1, True, float(stakes[0]), str(stakes[0])):
        if bad not in stakes or isinstance(bad, bool | float | str):
            refused(lambda bad=bad: engine.spin(config, server, client, 0, bad), f"the stake {bad!r}")
    refused(lambda: engine.check_client_seed("has a space"), "a client seed with a space")
    nonce = 0
    for _ in range(plays):
        stake = rng_for_choices.choice(stakes)
        result = engine.spin(config, server, client, nonce, stake)
        if json.loads(json.dumps(result)) != result:
            raise InvariantError("a spin's result does not round-trip through JSON")
        if engine.spin(config, server, client, nonce, stake) != result:
            raise InvariantError("the same seed pair and nonce gave another spin")
        win = result["win"]
        if not isinstance(win, int) or isinstance(win, bool) or win < 0:
            raise InvariantError(f"a spin's win must be whole coins ≥ 0, not {win!r}")
        totals["spin_staked"] += stake
        totals["spin_won"] += win
        nonce += 1
        if rules and win:
            refused(
                lambda n=nonce, w=win: engine.gamble(config, server, client, n, w, "nobody"),
                "an unknown pick",
            )
            pick = rng_for_choices.choice(rules["picks"])
            gamble = engine.gamble(config, server, client, nonce, win, pick)
            if json.loads(json.dumps(gamble)) != gamble or gamble["win"] < 0:
                raise InvariantError(f"a double-up's result is not whole coins in JSON: {gamble}")
            totals["gamble_staked"] += win
            totals["gamble_won"] += gamble["win"]
            nonce += 1
    draws = {json.dumps(engine.spin(config, server, client, n, stakes[0]), sort_keys=True) for n in range(50)}
    if len(draws) < 2:
        raise InvariantError("fifty nonces drew one and the same spin")
    for kind, figures in engine.returns(config, 500).items():
        if isinstance(figures, dict) and "return" in figures and not 0 <= float(figures["return"]) <= 100:
            raise InvariantError(f"the published return of {kind} is not a percentage: {figures}")
    return totals
