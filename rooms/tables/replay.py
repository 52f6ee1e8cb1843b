"""Replay a finished hand from its seed, config and action log, and check it against what was stored.

A hand is dealt exactly as ``hands.hand_start`` deals it: ``engine.new_hand``
with the stored config, one ``SeatSpec`` per stored player (the coins they
carried) and ``SeededRng(seed, "hand")``. Each ``HandAction`` is then applied in
order as the runtime applied it: a row without a seat is a deadline that moved
the hand on (``on_deadline``), every other row is ``apply(state, seat, action)``.
The replay matches when the final state equals the stored ``Hand.state`` and the
engine's outcome equals the stored outcome. Read-only; usable by the admin page,
a "verify this hand" page or a command.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

import games
from games.base import IllegalAction, SeatSpec, SeededRng
from rooms.tables.models import Hand

# Spectator-view keys worth a column in a step table, when the game's view has them.
TABLE_KEYS = ("phase", "turn", "landlord", "bid", "multiple", "bottom", "last_play")


class HandNotReplayable(Exception):
    """The hand cannot be replayed (still in play, or its game is not installed)."""


@dataclass
class ReplayStep:
    """One step of a replay: the action applied and the table right after it."""

    n: int | None  # the HandAction number; None for the deal
    seat: int | None
    player: str
    action: dict | None
    auto: bool
    at: datetime | None
    cards: list[Any]  # per seat: that seat's own cards in its view (None if the game shows none)
    table: dict[str, Any]  # the spectator view's TABLE_KEYS
    error: str = ""  # the engine refused this action: the replay stops here


@dataclass
class HandReplay:
    """A whole replay and its verdict."""

    hand_id: int
    steps: list[ReplayStep] = field(default_factory=list)
    final_state: dict | None = None
    state_matches: bool = False
    outcome_matches: bool = False
    problems: list[str] = field(default_factory=list)

    @property
    def matches(self) -> bool:
        return self.state_matches and self.outcome_matches and not self.problems


def _plain(value):
    # Stored JSON has lists where an engine may hold tuples; compare like with like.
    return json.loads(json.dumps(value))


def _engine_state(stored: dict) -> dict:
    """Return the stored state as the engine left it (the runtime keeps its clock in ``Hand.clock``)."""
    return _plain(stored)


def _snapshot(engine, state: dict, seat_count: int) -> tuple[list[Any], dict[str, Any]]:
    cards = []
    for seat in range(seat_count):
        view = engine.view(state, seat)
        cards.append(view.get("hand"))
    spectator = engine.view(state, None)
    table = {key: spectator[key] for key in TABLE_KEYS if key in spectator}
    return cards, table


def _player_name(players: list[dict], seat: int | None) -> str:
    if seat is None:
        return _("(the clock)")
    if 0 <= seat < len(players):
        player = players[seat]
        return f"{player.get('name', '')}{_(' (bot)') if player.get('is_bot') else ''}"
    return _("seat %(seat)s") % {"seat": seat}


def hand_replay(*, hand: Hand) -> HandReplay:
    """Re-deal ``hand`` from its seed, apply its action log step by step and compare with what was stored.

    Raises ``HandNotReplayable`` for a hand still in play (its cards are secret)
    or one whose game engine is not installed.
    """
    if not hand.is_over:
        raise HandNotReplayable(_("The hand is still in play: no cards and no replay until it is over."))
    info = games.REGISTRY.get(hand.game_slug)
    if info is None:
        raise HandNotReplayable(_("The game %(slug)s is not installed.") % {"slug": hand.game_slug})
    engine = info.engine
    players = list(hand.players)
    result = HandReplay(hand_id=hand.pk)
    seats = [SeatSpec(player_id=p["user"], coins=p["carried"]) for p in players]
    state = engine.new_hand(dict(hand.config), seats, SeededRng(bytes(hand.seed), "hand"))
    cards, table = _snapshot(engine, state, len(players))
    result.steps.append(
        ReplayStep(
            n=None,
            seat=None,
            player="",
            action=None,
            auto=False,
            at=hand.started_at,
            cards=cards,
            table=table,
        )
    )
    for row in hand.actions.order_by("n"):
        try:
            if row.seat is None:
                state = engine.on_deadline(state)
            else:
                state = engine.apply(state, row.seat, row.action)
        except (IllegalAction, KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            message = _("Step %(n)d: the engine refused %(action)s: %(error)s") % {
                "n": row.n,
                "action": json.dumps(row.action, ensure_ascii=False),
                "error": exc,
            }
            result.problems.append(message)
            result.steps.append(
                ReplayStep(
                    n=row.n,
                    seat=row.seat,
                    player=_player_name(players, row.seat),
                    action=row.action,
                    auto=row.auto,
                    at=row.created_at,
                    cards=[],
                    table={},
                    error=message,
                )
            )
            return result
        cards, table = _snapshot(engine, state, len(players))
        result.steps.append(
            ReplayStep(
                n=row.n,
                seat=row.seat,
                player=_player_name(players, row.seat),
                action=row.action,
                auto=row.auto,
                at=row.created_at,
                cards=cards,
                table=table,
            )
        )
    result.final_state = _plain(state)
    result.state_matches = result.final_state == _engine_state(hand.state)
    if not result.state_matches:
        result.problems.append(_("The replayed final state differs from the stored state."))
    outcome = engine.outcome(state)
    if outcome is None or hand.outcome is None:
        # A hand cancelled mid-play has neither; one side without the other is a mismatch.
        result.outcome_matches = outcome is None and hand.outcome is None
    else:
        result.outcome_matches = _plain(outcome.deltas) == _plain(hand.outcome.get("deltas")) and _plain(
            outcome.winners
        ) == _plain(hand.outcome.get("winners"))
    if not result.outcome_matches:
        result.problems.append(_("The replayed outcome differs from the stored outcome."))
    return result


def hand_dealt_cards(*, hand: Hand) -> list[Any]:
    """Return every seat's cards as dealt (from the seed), for a hand that is over."""
    if not hand.is_over:
        raise HandNotReplayable(_("The hand is still in play: no cards and no replay until it is over."))
    info = games.REGISTRY.get(hand.game_slug)
    if info is None:
        raise HandNotReplayable(_("The game %(slug)s is not installed.") % {"slug": hand.game_slug})
    seats = [SeatSpec(player_id=p["user"], coins=p["carried"]) for p in hand.players]
    state = info.engine.new_hand(dict(hand.config), seats, SeededRng(bytes(hand.seed), "hand"))
    return _snapshot(info.engine, state, len(hand.players))[0]
