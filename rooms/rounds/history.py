"""战绩 of the banker tables: the player's paid or refunded rounds, each with its bets, its result and its shoe.

Every banker game alike: a round shows the pieces its reveal steps showed
(cards or dice, by side), the player's bets area by area with their net (the
``payout`` notice the table sent, ``selectors.user_payout``), and the shoe's
verify page, where the seed deals the round again once the shoe is finished.
The area and side names are the game page's own words (``area_<area>``,
``side_<side>``, ``hand_<side>``), as its table shows them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from rooms.game_pages import page_for
from rooms.rounds.models import Round
from rooms.rounds.selectors import user_payout

ROUNDS_PAGE_SIZE = 10


@dataclass
class BetRow:
    area: str
    name: str
    amount: int
    net: int


@dataclass
class RoundRecord:
    """One line of the rounds' record: when, where, the result by side, the player's bets and net."""

    round: Round
    game_name: str
    tier_name: str
    refunded: bool
    net: int
    bets: list[BetRow]
    sides: list[tuple[str, str]]  # (side's name, its pieces as text)
    verify_url: str


def _word(labels: dict, *keys: str) -> str:
    for key in keys:
        if key in labels:
            return str(labels[key])
    return keys[-1].split("_", 1)[-1]


def _record(rnd: Round, user) -> RoundRecord | None:
    payout = user_payout(round_id=rnd.pk, user_id=user.pk)
    if payout is None:
        return None
    page = page_for(rnd.game_slug)
    labels = page.labels if page else {}
    sides: dict[str, list[str]] = {}
    for step in (rnd.result or {}).get("steps") or []:
        sides.setdefault(str(step["side"]), []).append(str(step["card"]))
    tier = rnd.table.tier
    return RoundRecord(
        round=rnd,
        game_name=tier.game.name,
        tier_name=tier.display_name,
        refunded=bool(payout.get("refunded")),
        net=payout["net"],
        bets=[
            BetRow(
                area=bet["area"],
                name=_word(labels, f"area_{bet['area']}"),
                amount=bet["amount"],
                net=bet["net"],
            )
            for bet in payout["bets"]
        ],
        sides=[
            (_word(labels, f"side_{side}", f"hand_{side}", f"area_{side}"), " ".join(pieces))
            for side, pieces in sides.items()
        ],
        verify_url=reverse("rounds:verify_shoe", args=[rnd.table_id, rnd.shoe.number]),
    )


@login_required
def round_history_page(request: HttpRequest) -> HttpResponse:
    """The player's paid or refunded rounds at banker tables, newest first (bets they cancelled do not count)."""
    rounds = (
        Round.objects.filter(
            status__in=[Round.Status.SETTLED, Round.Status.REFUNDED],
            bets__user=request.user,
            bets__cancel_key="",
        )
        .distinct()
        .select_related("table__tier__game", "shoe")
        .order_by("-pk")
    )
    page = Paginator(rounds, ROUNDS_PAGE_SIZE).get_page(request.GET.get("page"))
    records = [r for r in (_record(rnd, request.user) for rnd in page.object_list) if r is not None]
    return render(request, "rounds/history.html", {"page": page, "records": records})
