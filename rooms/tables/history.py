"""战绩: the player's finished hands, each with its result, its game's facts, the cards and the seed.

What a hand's record shows beyond the coins comes from its game's
presentation (``games.presentation``): the facts (a role, a multiple), the
card columns and which cards this player may see. The words are msgids,
translated here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from platform.accounts.names import player_name

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

import games
from games.presentation import Fact
from rooms.tables.cards import card_faces
from rooms.tables.models import Hand
from wallets.models import LedgerEntry

HISTORY_PAGE_SIZE = 10


@dataclass
class FactRow:
    """One fact as the page shows it: its API key, its label and its words, translated."""

    key: str
    label: str
    text: str


@dataclass
class SeatRow:
    """One seat of a finished hand as the history page shows it: its player and its card cells."""

    index: int
    name: str
    is_bot: bool
    is_me: bool
    role: str
    cells: list[tuple[str, list[dict] | None]] = field(
        default_factory=list
    )  # (column, faces or None: not shown)


@dataclass
class HandRecord:
    """One line of the 战绩 page: what the player won or lost, the game's facts and every seat's cards."""

    hand: Hand
    tier_name: str
    game_name: str
    when: object
    cancelled: bool
    my_seat: int | None
    delta: int | None
    rake: int
    facts: list[FactRow]
    columns: list[str]
    seats: list[SeatRow]
    shared: list[tuple[str, list[dict]]]  # (label, faces): cards dealt to nobody
    seed_hex: str


def fact_text(fact: Fact, players: list[dict]) -> str:
    """Say ``fact`` in the active language; a seat's value is that seat's player's name."""
    value = fact.value
    if fact.seat:
        value = players[value].get("name", "") if isinstance(value, int) and 0 <= value < len(players) else ""
    return " · ".join(_(words).format(value=value) for words in fact.words)


def _record_cards(hand: Hand, players: list[dict], my_seat: int | None):
    """Return (columns, seat rows, shared groups) of the cards this player's record shows."""
    info = games.REGISTRY.get(hand.game_slug)
    presentation = info.presentation if info else None
    record = presentation.record(hand.state, my_seat) if presentation and hand.state else None
    columns = [_(column) for column in record.columns] if record else []
    tiles = getattr(presentation, "pieces", "cards") == "tiles"
    rows = []
    for index, player in enumerate(players):
        shown = record.seats[index] if record and index < len(record.seats) else None
        rows.append(
            SeatRow(
                index=index,
                name=player_name(player.get("name") or "", is_bot=bool(player.get("is_bot"))),
                is_bot=bool(player.get("is_bot")),
                is_me=index == my_seat,
                role=_(shown.role) if shown and shown.role else "",
                cells=[
                    (column, None if cell is None else card_faces(cell, tiles=tiles))
                    for column, cell in zip(columns, shown.cells, strict=True)
                ]
                if shown
                else [],
            )
        )
    if record is None:
        return [], rows, []
    shared = [
        (_(group.label), card_faces(group.cards, tiles=tiles)) for group in record.shared if group.cards
    ]
    return columns, rows, shared


def _hand_record(hand: Hand, user, settled: dict[str, int]) -> HandRecord:
    players = hand.players or []
    my_seat = next((i for i, p in enumerate(players) if p.get("user") == user.pk), None)
    outcome = hand.outcome or {}
    cancelled = hand.status == Hand.Status.CANCELLED
    delta = rake = None
    if not cancelled and my_seat is not None:
        gross = (outcome.get("deltas") or [0] * len(players))[my_seat]
        if hand.settlement_key:
            # The settlement paid the wallet carried ± result after rake (nothing when that is 0).
            delta = settled.get(hand.settlement_key, 0) - players[my_seat]["carried"]
        else:
            delta = gross
        rake = max(gross - delta, 0)
    info = games.REGISTRY.get(hand.game_slug)
    facts = []
    if info and info.presentation and not cancelled:
        details = outcome.get("details") or {}
        facts = [FactRow(f.key, _(f.label), fact_text(f, players)) for f in info.presentation.facts(details)]
    columns, seats, shared = ([], [], []) if cancelled else _record_cards(hand, players, my_seat)
    tier = hand.table.tier
    return HandRecord(
        hand=hand,
        tier_name=tier.display_name,
        game_name=tier.game.name,
        when=hand.finished_at or hand.started_at,
        cancelled=cancelled,
        my_seat=my_seat,
        delta=delta,
        rake=rake or 0,
        facts=facts,
        columns=columns,
        seats=seats,
        shared=shared,
        seed_hex=bytes(hand.seed).hex(),
    )


def _settlement_paid(user, keys: list[str]) -> dict[str, int]:
    """Return settlement key → coins the player's wallet received in that settlement."""
    rows = LedgerEntry.objects.filter(transaction__key__in=keys, account__user=user).values_list(
        "transaction__key", "amount"
    )
    return dict(rows)


@login_required
def history_page(request: HttpRequest) -> HttpResponse:
    """战绩: the player's finished hands, newest first, with every seat's cards and the seed."""
    hands = (
        Hand.objects.filter(
            participants=request.user, status__in=[Hand.Status.SETTLED, Hand.Status.CANCELLED]
        )
        .select_related("table__tier__game")
        .order_by("-pk")
    )
    page = Paginator(hands, HISTORY_PAGE_SIZE).get_page(request.GET.get("page"))
    keys = [hand.settlement_key for hand in page.object_list if hand.settlement_key]
    paid = _settlement_paid(request.user, keys)
    records = [_hand_record(hand, request.user, paid) for hand in page.object_list]
    return render(request, "tables/history.html", {"page": page, "records": records})
