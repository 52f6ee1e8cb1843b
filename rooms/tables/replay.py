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
    table: dict[str, Any]  # the public summary of the table (the game's ``Presentation.summary``)
    error: str = ""  # the engine refused this action: the replay stops here


@dataclass
class HandReplay:
    """A whole replay and its verdict."""

    hand_id: int
    steps: list[ReplayStep] = field(default_factory=list)
    reached: dict | None = None  # the last state the replay reached (the final one if no step was refused)
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


def _snapshot(info, state: dict, seat_count: int) -> tuple[list[Any], dict[str, Any]]:
    cards = []
    for seat in range(seat_count):
        view = info.engine.view(state, seat)
        cards.append(view.get("hand"))
    table = info.presentation.summary(state) if info.presentation else {}
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
    state = result.reached = engine.new_hand(dict(hand.config), seats, SeededRng(bytes(hand.seed), "hand"))
    cards, table = _snapshot(info, state, len(players))
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
        result.reached = state
        cards, table = _snapshot(info, state, len(players))
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


def hand_dealt_cards(*, hand: Hand) -> list[list[str]] | None:
    """Return every seat's cards as dealt in the deal that was played, for a hand that is over.

    None when the game has no presentation to say what its deal was.
    """
    if not hand.is_over:
        raise HandNotReplayable(_("The hand is still in play: no cards and no replay until it is over."))
    info = games.REGISTRY.get(hand.game_slug)
    if info is None:
        raise HandNotReplayable(_("The game %(slug)s is not installed.") % {"slug": hand.game_slug})
    if info.presentation is None or not hand.state:
        return None
    return info.presentation.deals(hand.state)[-1].hands
