"""The two pages of the table runtime: the 斗地主 table and the player's 战绩 (hand history).

The table page only renders a shell; static/js/table.js fills it from the
WebSocket snapshots. Every word the client shows comes from TABLE_LABELS,
translated here and passed as one JSON script tag, so the client holds no
strings of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rooms.tables.models import Hand, Table

HISTORY_PAGE_SIZE = 10

# Placeholders in braces ({points}) are filled in by the client.
TABLE_LABELS = {
    # Connection indicator.
    "connected": _("Connected"),
    "connecting": _("Connecting…"),
    "reconnecting": _("Reconnecting in {seconds}s…"),
    "disconnected": _("Disconnected"),
    "login_again": _("Your session has ended. Please log in again."),
    "table_gone": _("This table no longer exists. Back to the lobby"),
    "too_many_tables": _(
        "Too many tables open: close one and this one connects (trying again in {seconds}s)"
    ),
    # Phases (斗地主).
    "phase_waiting": _("Waiting for the next hand"),
    "phase_bidding": _("Bidding"),
    "phase_robbing": _("Robbing the landlord"),
    "phase_doubling": _("Doubling"),
    "phase_playing": _("Playing"),
    "phase_finished": _("Hand over"),
    # Roles and seat badges.
    "landlord": _("Landlord"),
    "farmer": _("Farmer"),
    "bot": _("Bot"),
    "trustee": _("Trustee"),
    "offline": _("Offline"),
    "ready": _("Ready"),
    "you": _("You"),
    "empty_seat": _("Empty seat"),
    "cards_left": _("{count} cards left"),
    # Buttons.
    "bid_points": _("{points} pt"),
    "no_bid": _("No bid"),
    "rob": _("Rob the landlord"),
    "no_rob": _("Don't rob"),
    "double": _("Double"),
    "no_double": _("Don't double"),
    "play": _("Play"),
    "pass": _("Pass"),
    "hint": _("Hint"),
    "trustee_on": _("Trustee"),
    "trustee_off": _("Cancel trustee"),
    "ready_button": _("Ready"),
    "next_hand": _("Next hand"),
    "leave": _("Leave table"),
    # What a seat said, shown beside it.
    "said_bid": _("{points} pt"),
    "said_no_bid": _("No bid"),
    "said_pass": _("Pass"),
    "said_rob": _("Rob"),
    "said_no_rob": _("Don't rob"),
    "said_double": _("Double"),
    "said_no_double": _("Don't double"),
    # The information strip and the centre of the table.
    "multiple": _("Multiple"),
    "bid": _("Bid"),
    "base_stake": _("Base stake"),
    "balance": _("Balance"),
    "level": _("Level"),
    "hand_number": _("Hand {number}"),
    "your_turn": _("Your turn"),
    "waiting_for": _("Waiting for {name}"),
    "seconds": _("{seconds}s"),
    "spectating": _("You are watching this table."),
    "select_cards": _("Select the cards you want to play."),
    "hint_unavailable": _("No hint is available here."),
    "hint_none": _("Nothing beats the last play: pass."),
    "waiting_players": _("Waiting for players to be ready."),
    "big_joker": _("Big joker"),
    "small_joker": _("Small joker"),
    # Result panel.
    "landlord_wins": _("The landlord wins"),
    "farmers_win": _("The farmers win"),
    "hand_void": _("Nobody bid: the hand is void, no coins moved"),
    "spring": _("Spring"),
    "anti_spring": _("Anti-spring"),
    "rake_total": _("Rake taken: {rake}"),
    "settling": _("Settling…"),
}


# 炸金花 (zhajinhua): the words its table client (static/js/zhajinhua.js) adds to TABLE_LABELS.
ZHAJINHUA_LABELS = {
    "phase_betting": _("Betting"),
    "pot": _("Pot"),
    "ante": _("Ante"),
    "round": _("Round {round}"),
    "round_cap": _("Cap {rounds} rounds"),
    "dealer": _("Dealer"),
    "state_blind": _("Blind"),
    "state_seen": _("Seen"),
    "state_folded": _("Folded"),
    "state_lost": _("Out"),
    "bet_in": _("In {amount}"),
    "coins_left": _("Left {amount}"),
    "look": _("Look"),
    "call_amount": _("Call {amount}"),
    "raise_amount": _("Raise {amount}"),
    "compare_amount": _("Compare {amount}"),
    "fold": _("Fold"),
    "choose_target": _("Compare with whom?"),
    "cancel": _("Cancel"),
    "cards_face_down": _("Your cards are face down. Look at them on your turn."),
    "cards_hidden_out": _("Your cards stay hidden until the hand ends."),
    "said_look": _("Looked"),
    "said_call": _("Call {amount}"),
    "said_raise": _("Raise {amount}"),
    "said_fold": _("Fold"),
    "said_cannot_cover": _("Could not cover"),
    "said_compare_won": _("Compared: won"),
    "said_compare_lost": _("Compared: lost"),
    "compare_note": _("{seat} compared with {target}: {winner} won"),
    "cat_leopard": pgettext_lazy("zhajinhua hand", "Leopard"),
    "cat_straight_flush": pgettext_lazy("zhajinhua hand", "Straight flush"),
    "cat_flush": pgettext_lazy("zhajinhua hand", "Flush"),
    "cat_straight": pgettext_lazy("zhajinhua hand", "Straight"),
    "cat_pair": pgettext_lazy("zhajinhua hand", "Pair"),
    "cat_high": pgettext_lazy("zhajinhua hand", "High card"),
    "you_win": _("You win"),
    "winner_is": _("{names} wins"),
    "winners_split": _("{names} split the pot"),
    "ended_fold": _("Everyone else folded"),
    "ended_compare": _("Decided by a comparison"),
    "ended_showdown": _("Showdown"),
    "shown_hands": _("Hands shown"),
}

# 必下德州 (texas): the words its table client (static/js/texas.js) adds to TABLE_LABELS.
TEXAS_LABELS = {
    "phase_betting": _("Betting countdown"),
    "dealer": _("Dealer"),
    "dealer_short": _("D"),
    "small_blind": _("Small blind"),
    "small_blind_short": _("SB"),
    "big_blind": _("Big blind"),
    "big_blind_short": _("BB"),
    "stake_amount": _("Stake {amount}"),
    "coins_left": _("Left {amount}"),
    "state_out": _("Out"),
    "state_folded": _("Folded"),
    "state_all_in": _("All-in"),
    "said_check": _("Checked"),
    "said_raise": _("Raised to {amount}"),
    "said_bet": _("Bet {amount}"),
    "check": _("Check"),
    "fold": _("Fold"),
    "raise_to": _("Raise to {amount}"),
    "costs": _("Costs {amount} more"),
    "bet_amount": _("Bet {amount}"),
    "all_in_amount": _("All-in {amount}"),
    "your_turn_bet": _("Your turn: choose your bet before the countdown ends."),
    "decided_wait": _("Your bet is in. Waiting for the others."),
    "countdown_note": _("Everyone bets at once."),
    "waiting_players_short": _("Waiting"),
    "main_pot": _("Main pot"),
    "side_pot": _("Side pot {n}"),
    "pot_won_by": _("won by {names}"),
    "you_win": _("You win {amount}"),
    "you_lose": _("You lose {amount}"),
    "you_even": _("You break even"),
    "winner_is": _("{names} wins"),
    "winners_are": _("{names} win"),
    "cat_straight_flush": pgettext_lazy("texas hand", "Straight flush"),
    "cat_four_of_a_kind": pgettext_lazy("texas hand", "Four of a kind"),
    "cat_full_house": pgettext_lazy("texas hand", "Full house"),
    "cat_flush": pgettext_lazy("texas hand", "Flush"),
    "cat_straight": pgettext_lazy("texas hand", "Straight"),
    "cat_three_of_a_kind": pgettext_lazy("texas hand", "Three of a kind"),
    "cat_two_pair": pgettext_lazy("texas hand", "Two pair"),
    "cat_pair": pgettext_lazy("texas hand", "Pair"),
    "cat_high_card": pgettext_lazy("texas hand", "High card"),
}

# Per game: the table template and the labels its client adds (default: the 斗地主 table).
GAME_PAGES = {
    "zhajinhua": ("tables/zhajinhua.html", ZHAJINHUA_LABELS),
    "texas": ("tables/texas.html", TEXAS_LABELS),
}


def table_labels(slug: str = "") -> dict[str, str]:
    """Return every client label (with the game's own, if any) translated into the active language."""
    extra = GAME_PAGES.get(slug, ("", {}))[1]
    return {key: str(value) for key, value in {**TABLE_LABELS, **extra}.items()}


@login_required
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    """Render the table shell; the socket at /ws/tables/<id>/ brings the game."""
    # A house-banked table (百家乐) has its own page (rooms/rounds/pages.py) and no seats.
    table = get_object_or_404(
        Table.objects.select_related("tier__game"), pk=table_id, tier__game__family="seated"
    )
    lobby_url = reverse("rooms:lobby")
    context = {
        "table": table,
        "tier": table.tier,
        "lobby_url": lobby_url,
        "ws_path": f"/ws/tables/{table.pk}/",
        "labels": table_labels(table.tier.game.slug),
        "client_config": {
            "tableId": table.pk,
            "wsPath": f"/ws/tables/{table.pk}/",
            "lobbyUrl": lobby_url,
            "historyUrl": reverse("tables:history"),
            # The result panel links a settled hand's provably-fair check; the client puts the id in.
            "verifyUrl": reverse("tables:verify", kwargs={"hand_id": 0}).replace("/0/", "/{id}/"),
        },
    }
    template = GAME_PAGES.get(table.tier.game.slug, ("tables/table.html", {}))[0]
    return render(request, template, context)


_RANKS = "3456789TJQKA2"
_SUITS = {"s": "♠", "h": "♥", "c": "♣", "d": "♦"}


def card_face(card: str) -> dict:
    """Return how one card in notation is drawn: its label, suit symbol and colour."""
    if card in ("DJ", "XJ"):
        return {
            "code": card,
            "label": "大" if card == "DJ" else "小",
            "symbol": "王",
            "red": card == "DJ",
            "joker": True,
        }
    rank, suit = card[:-1], card[-1:]
    return {
        "code": card,
        "label": "10" if rank == "T" else rank,
        "symbol": _SUITS.get(suit, "?"),
        "red": suit in ("h", "d"),
        "joker": False,
    }


def card_faces(cards: list[str]) -> list[dict]:
    """Return the faces of ``cards`` ordered high → low for display (jokers first)."""

    def weight(card: str) -> int:
        if card in ("DJ", "XJ"):
            return 200 if card == "DJ" else 190
        return _RANKS.find(card[:-1]) * 10 + "dchs".find(card[-1:])

    return [card_face(card) for card in sorted(cards, key=weight, reverse=True)]


@dataclass
class SeatRecord:
    """One seat of a finished hand as the history page shows it."""

    index: int
    name: str
    is_bot: bool
    is_me: bool
    is_landlord: bool
    dealt: list[dict] = field(default_factory=list)
    left: list[dict] = field(default_factory=list)


@dataclass
class HandRecord:
    """One line of the 战绩 page: what the player won or lost and every seat's cards."""

    hand: Hand
    tier_name: str
    game_name: str
    when: object
    cancelled: bool
    my_seat: int | None
    delta: int | None
    rake: int
    multiple: int | None
    bid: int | None
    winner: str | None
    spring: str | None
    landlord_name: str
    bottom: list[dict]
    seats: list[SeatRecord]
    seed_hex: str
    # Games other than 斗地主 show what the player's own final view shows, in one column.
    cards_only: bool = False
    board: list[dict] = field(default_factory=list)


def _card_list(value) -> list[str]:
    """Return ``value`` if it is a list of card strings (other games may record other shapes)."""
    if isinstance(value, list) and all(isinstance(card, str) for card in value):
        return list(value)
    return []


def _played_since_deal(state: dict, seats: int) -> list[list[str]]:
    """Return the cards each seat played in the deal that was finished (after the last redeal)."""
    played: list[list[str]] = [[] for _ in range(seats)]
    for entry in state.get("history") or []:
        if "redeal" in entry:
            played = [[] for _ in range(seats)]
            continue
        action = entry.get("action") or {}
        if action.get("type") == "play" and isinstance(entry.get("seat"), int):
            played[entry["seat"]].extend(action.get("cards") or [])
    return played


def _hand_record(hand: Hand, user, settled: dict[str, int]) -> HandRecord:
    players = hand.players or []
    my_seat = next((i for i, p in enumerate(players) if p.get("user") == user.pk), None)
    outcome = hand.outcome or {}
    details = outcome.get("details") or {}
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
    landlord = details.get("landlord")
    finals = details.get("hands") if isinstance(details.get("hands"), list) else []
    bottom = _card_list(details.get("bottom"))
    played = _played_since_deal(hand.state or {}, len(players))
    seats = []
    for index, player in enumerate(players):
        left = _card_list(finals[index]) if index < len(finals) else []
        dealt = left + (played[index] if index < len(played) else [])
        if index == landlord:
            # The landlord took the 底牌 after the deal: show the 17 dealt cards.
            for card in bottom:
                if card in dealt:
                    dealt.remove(card)
        seats.append(
            SeatRecord(
                index=index,
                name=player.get("name") or "",
                is_bot=bool(player.get("is_bot")),
                is_me=index == my_seat,
                is_landlord=index == landlord,
                dealt=card_faces(dealt) if finals else [],
                left=card_faces(left),
            )
        )
    cards_only = hand.game_slug != "doudizhu"
    board: list[str] = []
    if cards_only and not cancelled:
        seats, board = _seen_at_the_end(hand, players, my_seat)
    tier = hand.table.tier
    return HandRecord(
        hand=hand,
        tier_name=tier.name,
        game_name=tier.game.name,
        when=hand.finished_at or hand.started_at,
        cancelled=cancelled,
        my_seat=my_seat,
        delta=delta,
        rake=rake or 0,
        multiple=details.get("multiple"),
        bid=details.get("bid"),
        winner=details.get("winner"),
        spring=details.get("spring"),
        landlord_name=players[landlord]["name"]
        if isinstance(landlord, int) and landlord < len(players)
        else "",
        bottom=card_faces(bottom),
        seats=seats,
        seed_hex=bytes(hand.seed).hex(),
        cards_only=cards_only,
        board=card_faces(board),
    )


def _seen_at_the_end(
    hand: Hand, players: list[dict], my_seat: int | None
) -> tuple[list[SeatRecord], list[str]]:
    """Return every seat with the cards this player's final view shows, and the board if any.

    The engine's view decides: in 炸金花 a player sees only the hands the rules
    reveal to them, in 必下德州 the showdown hands; the revealed seed lets the
    player re-derive the rest.
    """
    import games

    info = games.REGISTRY.get(hand.game_slug)
    if info is None or not hand.state:
        return [], []
    view = info.engine.view(hand.state, my_seat)
    visible = view.get("hands") if isinstance(view.get("hands"), list) else []
    seats = [
        SeatRecord(
            index=index,
            name=player.get("name") or "",
            is_bot=bool(player.get("is_bot")),
            is_me=index == my_seat,
            is_landlord=False,
            left=card_faces(_card_list(visible[index]) if index < len(visible) else []),
        )
        for index, player in enumerate(players)
    ]
    return seats, _card_list(view.get("board"))


def _settlement_paid(user, keys: list[str]) -> dict[str, int]:
    """Return settlement key → coins the player's wallet received in that settlement."""
    from wallets.models import LedgerEntry

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
