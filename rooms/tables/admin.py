"""Staff views of tables, hands and their action logs, and the step-by-step replay of a finished hand."""

import json
from platform.staff.display import (
    KEY_LABELS,
    PLATFORM_CONFIG_KEYS,
    ReadableMedia,
    action_text,
    option_codes,
    plain_text,
    readable,
)

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, Subquery
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

import games
from rooms.models import Game
from rooms.tables import services
from rooms.tables.history import fact_text
from rooms.tables.models import Hand, HandAction, Seat, Table
from rooms.tables.replay import HandNotReplayable, hand_dealt_cards, hand_replay
from wallets.models import LedgerTransaction


def _cards(cards) -> str:
    return " ".join(str(card) for card in cards) if cards else "–"


def _game_name(slug: str, name_zh: str | None = None, name_en: str | None = None) -> str:
    """The game's name in the active language, from the catalogue (read here unless already annotated)."""
    if name_zh is None:
        game = Game.objects.filter(slug=slug).first()
        if game is None:
            return slug
        name_zh, name_en = game.name_zh, game.name_en
    return name_en if (get_language() or "").startswith("en") and name_en else name_zh


def _replay_rows(replay) -> list[dict]:
    """Flatten a replay into what the step table shows: text per cell, nothing computed in the template."""
    return [
        {
            "n": step.n,
            "at": step.at,
            "seat": step.seat,
            "player": step.player,
            "action": action_text(step.action) if step.action is not None else gettext("deal"),
            "auto": step.auto,
            "cards": [_cards(cards) if cards is not None else "–" for cards in step.cards],
            "table": [(KEY_LABELS.get(key, key), plain_text(value)) for key, value in step.table.items()],
            "error": step.error,
        }
        for step in replay.steps
    ]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["index", "user", "is_bot", "ready", "trustee", "connected", "seated_at"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["id", "tier", "status", "seat_count", "seq", "updated_at"]
    list_filter = ["status", "tier"]
    readonly_fields = [
        "tier",
        "status",
        "seat_count",
        "seq",
        "next_first_seat",
        "carry",
        "created_at",
        "updated_at",
    ]
    inlines = [SeatInline]
    actions = ["fill_with_bots"]

    # Seating bots changes a live table (and tops the bots up with granted coins): a staff
    # login that may only view tables must not do it by posting the action.
    @admin.action(description=_("Fill empty seats with bots"), permissions=["change"])
    def fill_with_bots(self, request, queryset) -> None:
        filled = sum(services.table_fill_bots(table_id=table.pk) for table in queryset)
        self.message_user(request, _("%(n)d bot(s) sat down.") % {"n": filled}, messages.SUCCESS)

    def has_add_permission(self, request) -> bool:
        # Tables open only through quick start, with the tier's seats (the form has no field to fill).
        return False

    def save_model(self, request, obj, form, change) -> None:
        # Every field is read-only, and the runtime moves ``seq`` and ``status`` under the table's
        # lock: writing back the copy this request read could put a live table's seq back.
        return None

    def has_delete_permission(self, request, obj=None) -> bool:
        # Seats cascade: deleting a table would unseat its players behind the runtime's back.
        return False


class HandActionInline(admin.TabularInline):
    model = HandAction
    extra = 0
    ordering = ["n"]
    fields = ["n", "seat", "player", "action_display", "auto", "created_at"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description=_("action"))
    def action_display(self, obj: HandAction) -> str:
        return action_text(obj.action)

    @admin.display(description=_("player"))
    def player(self, obj: HandAction) -> str:
        players = obj.hand.players
        if obj.seat is None or obj.seat >= len(players):
            return "–"
        return players[obj.seat].get("name", "")


class HandGameFilter(admin.SimpleListFilter):
    """Hands by game, the choices read from the game catalogue.

    Django's filter on the field itself lists the games with a ``DISTINCT``
    over every hand ever played, on each page; hands have no index by game
    (every move writes each index of its hand: tables migration 0004).
    """

    title = _("game")
    parameter_name = "game"

    def lookups(self, request, model_admin):
        return [(game.slug, game.name) for game in Game.objects.filter(family=Game.Family.SEATED)]

    def queryset(self, request, queryset):
        if self.value():
            return queryset.filter(game_slug=self.value())
        return queryset


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["id", "table", "number", "game_display", "status", "started_at", "settlement_link"]
    list_filter = ["status", HandGameFilter]
    search_fields = ["=id", "=table__id", "settlement_key"]
    inlines = [HandActionInline]
    change_form_template = "admin/tables/hand/change_form.html"
    Media = ReadableMedia
    readonly_fields = [
        "table",
        "number",
        "game_display",
        "status",
        "seats_table",
        "config_display",
        "players_display",
        "deadline",
        "deadline_token",
        "action_count",
        "clock_display",
        "outcome_display",
        "cancel_reason",
        "stake_key",
        "settlement_link",
        "seed_hex",
        "state_when_over",
        "started_at",
        "finished_at",
        "settled_at",
    ]
    exclude = ["seed", "state", "participants", "game_slug", "config", "players", "outcome", "clock"]

    def get_queryset(self, request):
        # The settlement transaction's id in the same read as the hand (by its unique key), not
        # one lookup per row of the list.

        settlement = LedgerTransaction.objects.filter(key=OuterRef("settlement_key")).values("pk")[:1]
        game = Game.objects.filter(slug=OuterRef("game_slug"))
        return (
            super()
            .get_queryset(request)
            .annotate(
                settlement_tx_id=Subquery(settlement),
                game_name_zh=Subquery(game.values("name_zh")[:1]),
                game_name_en=Subquery(game.values("name_en")[:1]),
            )
        )

    @admin.display(description=_("settlement transaction"))
    def settlement_link(self, obj: Hand) -> str:
        if not obj.settlement_key:
            return "–"
        tx_id = getattr(obj, "settlement_tx_id", None)
        if tx_id is None:
            return obj.settlement_key
        url = reverse("admin:wallets_ledgertransaction_change", args=[tx_id])
        return format_html('<a href="{}">{}</a>', url, obj.settlement_key)

    @admin.display(description=_("game"), ordering="game_slug")
    def game_display(self, obj: Hand) -> str:
        return _game_name(
            obj.game_slug, getattr(obj, "game_name_zh", None), getattr(obj, "game_name_en", None)
        )

    @admin.display(description=_("config"))
    def config_display(self, obj: Hand):
        # What the platform dealt the hand under, in words; the game's own options as the codes
        # staff type in a tier's options (the game words them on its pages, not here).
        config = obj.config or {}
        shown = {key: config[key] for key in PLATFORM_CONFIG_KEYS if key in config}
        options = {key: value for key, value in config.items() if key not in PLATFORM_CONFIG_KEYS}
        return readable({**shown, gettext("game options"): option_codes(options)})

    @admin.display(description=_("players"))
    def players_display(self, obj: Hand):
        return readable(obj.players)

    @admin.display(description=_("outcome"))
    def outcome_display(self, obj: Hand):
        # Coins by seat as the platform settles them, then the facts the game's record shows (its
        # presentation words them), in place of the engine's details.
        outcome = dict(obj.outcome or {})
        details = outcome.pop("details", None)
        info = games.REGISTRY.get(obj.game_slug)
        if details is not None and info is not None and info.presentation is not None:
            for fact in info.presentation.facts(details):
                outcome[gettext(fact.label)] = fact_text(fact, obj.players)
        return readable(outcome)

    @admin.display(description=_("clock"))
    def clock_display(self, obj: Hand):
        # The runtime's record of whose turn runs out when: for tracing a timeout, as stored.
        if not obj.clock:
            return "–"
        return format_html("<pre>{}</pre>", json.dumps(obj.clock, indent=2, ensure_ascii=False, default=str))

    @admin.display(description=_("seed"))
    def seed_hex(self, obj: Hand) -> str:
        # The seed is secret while the hand is being played.
        return bytes(obj.seed).hex() if obj.is_over else _("hidden until the hand is over")

    @admin.display(description=_("state"))
    def state_when_over(self, obj: Hand):
        # Hidden while playing: staff must not see the cards of a live hand.
        if not obj.is_over:
            return _("hidden until the hand is over")
        # The engine's own record, keyed in its code's names: for a developer tracing a hand, so
        # laid out as indented JSON and folded away (the seats, outcome and actions say the rest).
        return format_html(
            '<details><summary>{}</summary><pre class="engine-state">{}</pre></details>',
            gettext("The engine's state, as it stores it (JSON)"),
            json.dumps(obj.state, indent=2, ensure_ascii=False),
        )

    @admin.display(description=_("seats"))
    def seats_table(self, obj: Hand) -> str:
        # Who played, what they carried and won; the dealt cards only once the hand is over.
        try:
            dealt = hand_dealt_cards(hand=obj) if obj.is_over else None
        except HandNotReplayable:
            dealt = None
        dealt = dealt or []
        net = (obj.outcome or {}).get("net") or (obj.outcome or {}).get("deltas") or []
        rows = []
        for index, player in enumerate(obj.players):
            user_url = reverse("admin:accounts_user_change", args=[player["user"]])
            if not obj.is_over:
                cards = gettext("hidden until the hand is over")
            else:
                cards = _cards(dealt[index] if index < len(dealt) else None)
            rows.append(
                (
                    index,
                    user_url,
                    player.get("name", ""),
                    gettext("bot") if player.get("is_bot") else "",
                    player.get("carried", 0),
                    net[index] if index < len(net) else "–",
                    cards,
                )
            )
        body = format_html_join(
            "",
            '<tr><td>{}</td><td><a href="{}">{}</a> {}</td><td>{}</td><td>{}</td><td class="cards">{}</td></tr>',
            rows,
        )
        return format_html(
            "<table><thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead>"
            "<tbody>{}</tbody></table>",
            gettext("seat"),
            gettext("player"),
            gettext("carried"),
            gettext("result"),
            gettext("cards dealt"),
            body,
        )

    def get_urls(self):
        return [
            path(
                "<int:object_id>/replay/",
                self.admin_site.admin_view(self.replay_view),
                name="tables_hand_replay",
            ),
            *super().get_urls(),
        ]

    def replay_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        """Show the hand re-dealt from its seed and replayed action by action, and whether it matches."""
        hand = get_object_or_404(Hand.objects.select_related("table"), pk=object_id)
        if not self.has_view_permission(request, hand):
            raise PermissionDenied
        replay, refusal = None, ""
        try:
            replay = hand_replay(hand=hand)
        except HandNotReplayable as exc:
            refusal = str(exc)
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Replay of hand %(id)s") % {"id": hand.pk},
            "opts": self.model._meta,
            "original": hand,
            "hand": hand,
            "replay": replay,
            "rows": _replay_rows(replay) if replay else [],
            "refusal": refusal,
            "seat_names": [p.get("name", "") for p in hand.players],
            "game_name": _game_name(hand.game_slug),
        }
        return TemplateResponse(request, "admin/tables/hand/replay.html", context)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        # Every field is read-only, and the runtime writes the hand under the table's lock:
        # saving the page would write back the copy this request read over a newer move.
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(HandAction)
class HandActionAdmin(admin.ModelAdmin):
    list_display = ["hand", "n", "seat", "action_display", "auto", "created_at"]
    list_filter = ["auto"]
    search_fields = ["=hand__id"]
    fields = ["hand", "n", "seat", "action_display", "auto", "created_at"]
    readonly_fields = fields

    @admin.display(description=_("action"))
    def action_display(self, obj: HandAction) -> str:
        return action_text(obj.action)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        # The log is what a settled (or disputed) hand is replayed and verified from.
        return False
