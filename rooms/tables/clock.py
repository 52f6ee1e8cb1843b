"""A hand's clock: when its next deadline falls, and who the server plays for when it does.

The engine says how long the actors have (``deadline_seconds``); the runtime
keeps its own record of the time in ``Hand.clock`` so that nothing a player
does outside their turn moves it:

- a lone actor's turn (``"turn"``) keeps its deadline until an action is
  recorded (an action another seat takes out of turn, such as looking at its cards, is not one): going away shortens it to the disconnect grace, coming back gives
  back what was left of it, never a fresh turn (or reloading the page would
  stall the table);
- a simultaneous countdown (``"countdown"``, several seats acting at once)
  keeps its deadline while the same phase goes on and its actors only shrink,
  so one seat acting never gives the others more (or less) time.

Bots, seats under 托管 and away players are played for sooner: after
``TABLE_AUTO_DELAY`` (bots "think"), or ``TABLE_DISCONNECT_GRACE`` for a player
whose page is gone (it may be reloading), never later than the actors' own time.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.conf import settings

import games
from games.base import Outcome
from rooms.tables.models import Hand, Seat


def setting(name: str, default):
    return getattr(settings, name, default)


def engine_for(slug: str):
    return games.REGISTRY[slug].engine


def seat_is_auto(seat: Seat) -> bool:
    """Say whether the server plays for this seat now (bot, 托管, or away)."""
    return seat.is_bot or seat.trustee or not seat.connected


def away_past_grace(seat: Seat, now: datetime) -> bool:
    """Whether the seat's player has been away ``TABLE_DISCONNECT_GRACE`` by ``now``.

    Counted from their last socket's close, or from sitting down for a page that never
    connected. Within the grace an away player is a page reloading or reconnecting.
    """
    since = seat.away_since or seat.seated_at
    grace = timedelta(seconds=setting("TABLE_DISCONNECT_GRACE", 5.0))
    return since is None or since + grace <= now


def ready_by(seat: Seat, seats: list[Seat], last_end: datetime | None) -> datetime | None:
    """When a seated player who has not pressed ready stands up between hands, or None.

    ``TABLE_READY_LEAVE`` seconds after the last hand ended (``last_end``) or
    they sat down, whichever is later, and only once another human at the table
    is ready: nobody is stood up while nobody waits for them.
    """
    if seat.user_id is None or seat.is_bot or seat.ready:
        return None
    if not any(s.ready and s.user_id and not s.is_bot for s in seats if s is not seat):
        return None
    since = max((moment for moment in (seat.seated_at, last_end) if moment is not None), default=None)
    return since + timedelta(seconds=setting("TABLE_READY_LEAVE", 30.0)) if since else None


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def _at(record: dict | None) -> datetime | None:
    return datetime.fromtimestamp(record["deadline"] / 1000, tz=UTC) if record else None


def actors_deadline(hand: Hand) -> datetime | None:
    """The actors' own deadline (a countdown's or a lone turn's), or None."""
    clock = hand.clock or {}
    return _at(clock.get("countdown")) or _at(clock.get("turn"))


def actors_time_over(hand: Hand, now: datetime) -> bool:
    """Whether the actors' own time is up, as opposed to a bot's quicker turn within it."""
    deadline = actors_deadline(hand)
    return deadline is not None and deadline <= now


def shown_deadline(hand: Hand) -> datetime | None:
    """The deadline players are shown: a countdown's own, not a bot's quicker turn within it."""
    if hand.status == Hand.Status.PLAYING:
        countdown = _at((hand.clock or {}).get("countdown"))
        if countdown is not None:
            return countdown
    return hand.deadline


def plan_next(hand: Hand, seats: list[Seat], now: datetime, *, keep: bool = False) -> Outcome | None:
    """Set the hand's next deadline, clock and a new token in memory; return the outcome if it is over.

    ``keep``: the change was only actions out of turn, which move nobody's turn on: the
    deadline and its token stay, and the turn's record counts them as part of the same turn.
    """
    engine = engine_for(hand.game_slug)
    state = hand.state
    outcome = engine.outcome(state)
    if keep and outcome is None:
        turn = (hand.clock or {}).get("turn")
        if turn:
            hand.clock = {**hand.clock, "turn": {**turn, "n": hand.action_count}}
        return None
    hand.deadline_token += 1
    if outcome is not None:
        hand.clock = {}
        hand.deadline = None
        return outcome
    actors = engine.actors(state)
    seconds = engine.deadline_seconds(state)
    clock = dict(hand.clock or {})
    previous = clock.get("countdown")
    phase = engine.phase(state)
    if previous and actors and previous["phase"] == phase and set(actors) <= set(previous["actors"]):
        clock["countdown"] = {**previous, "actors": sorted(actors)}
        clock.pop("turn", None)
    elif len(actors) > 1 and seconds is not None:
        clock["countdown"] = {
            "phase": phase,
            "actors": sorted(actors),
            "deadline": _ms(now + timedelta(seconds=seconds)),
        }
        clock.pop("turn", None)
    else:
        clock.pop("countdown", None)
        turn = clock.get("turn")
        if len(actors) != 1 or seconds is None:
            clock.pop("turn", None)
        elif not turn or turn["n"] != hand.action_count:
            clock["turn"] = {"n": hand.action_count, "deadline": _ms(now + timedelta(seconds=seconds))}
    hand.clock = clock
    own = _at(clock.get("countdown")) or _at(clock.get("turn"))
    by_index = {seat.index: seat for seat in seats}
    auto = [by_index[i] for i in actors if i in by_index and seat_is_auto(by_index[i])]
    if auto:
        away = all(not s.is_bot and not s.trustee for s in auto)
        delay = setting("TABLE_DISCONNECT_GRACE", 5.0) if away else setting("TABLE_AUTO_DELAY", 0.8)
        hand.deadline = now + timedelta(seconds=delay)
        if own is not None:  # going away or 托管 never lengthens the actors' own time
            hand.deadline = min(hand.deadline, own)
    elif own is not None:
        hand.deadline = own
    elif not actors:  # only the clock moves the hand on
        hand.deadline = now + timedelta(seconds=seconds or 0)
    else:
        hand.deadline = None
    return None


def due_seats(hand: Hand, seats: list[Seat], now: datetime) -> list[int] | None:
    """The actors the server plays for now, or None when no seat may act (the engine's ``on_deadline``)."""
    actors = engine_for(hand.game_slug).actors(hand.state)
    if not actors:
        return None
    by_index = {seat.index: seat for seat in seats}
    auto = [i for i in actors if seat_is_auto(by_index[i])]
    if not auto or actors_time_over(hand, now):
        # Nobody is played for, or the actors' own time ran out (a simultaneous countdown's,
        # or a lone actor's turn that ends before their grace would).
        return actors
    # Bots and 托管 now; a player whose page is not there yet (or has gone) only once their
    # grace is over: the bots' quick turn in the same countdown must not play for them.
    seat = by_index.__getitem__
    return [i for i in auto if seat(i).is_bot or seat(i).trustee or away_past_grace(seat(i), now)]
