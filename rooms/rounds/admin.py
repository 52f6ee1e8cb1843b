"""Staff views of banker-game shoes, rounds and bets: read-only, with links to their ledger transactions.

Nothing here changes money: bets, payouts and refunds move only through the
services. The one action, refunding a round cut short, calls ``round_refund``;
it moves coins, so it needs what every staff money move needs: the
``wallets.move_money`` permission and a session that passed the second factor,
and it is refused for a round the staff member bet in.
"""

from __future__ import annotations

import hashlib
from platform.staff.otp import second_factor_redirect

from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rooms.rounds import services
from rooms.rounds.models import Bet, Round, Shoe
from wallets.admin import MOVE_MONEY_PERMISSION
from wallets.models import LedgerTransaction


def _ledger_link(key: str) -> str:
    if not key:
        return "–"

    tx = LedgerTransaction.objects.filter(key=key).first()
    if tx is None:
        return key
    url = reverse(f"admin:{tx._meta.app_label}_{tx._meta.model_name}_change", args=[tx.pk])
    return format_html('<a href="{}">{}</a>', url, key)


class ReadOnly:
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class BetInline(ReadOnly, admin.TabularInline):
    model = Bet
    extra = 0
    ordering = ["pk"]
    fields = ["user", "area", "amount", "net", "ledger", "cancelled_by", "created_at"]
    readonly_fields = fields
    can_delete = False

    @admin.display(description=_("bet transaction"))
    def ledger(self, obj: Bet) -> str:
        return _ledger_link(obj.ledger_key)

    @admin.display(description=_("cancel transaction"))
    def cancelled_by(self, obj: Bet) -> str:
        return _ledger_link(obj.cancel_key)


@admin.register(Shoe)
class ShoeAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["id", "table", "number", "started_at", "finished_at"]
    list_filter = [("finished_at", admin.EmptyFieldListFilter)]
    search_fields = ["=id", "=table__id"]
    fields = ["table", "number", "seed_sha256", "seed_hex", "started_at", "finished_at"]
    readonly_fields = fields

    @admin.display(description=_("seed SHA-256"))
    def seed_sha256(self, obj: Shoe) -> str:
        return hashlib.sha256(bytes(obj.seed)).hexdigest()

    @admin.display(description=_("seed"))
    def seed_hex(self, obj: Shoe) -> str:
        # The seed fixes every card still to come: secret until the shoe is finished.
        return bytes(obj.seed).hex() if obj.finished_at else gettext("hidden until the shoe is finished")


@admin.register(Round)
class RoundAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["id", "table", "number", "shoe", "coup", "phase", "status", "staked", "paid", "opened_at"]
    list_filter = ["phase", "status", "game_slug", "table__tier"]
    search_fields = ["=id", "=table__id", "settle_key", "refund_key"]
    date_hierarchy = "opened_at"
    inlines = [BetInline]
    actions = ["refund_rounds"]
    fields = [
        "table",
        "shoe",
        "number",
        "coup",
        "game_slug",
        "phase",
        "status",
        "deadline",
        "result_when_shown",
        "area_totals",
        "staked",
        "paid",
        "rake",
        "payout_link",
        "refund_link",
        "refund_reason",
        "config",
        "opened_at",
        "dealt_at",
        "result_at",
        "settled_at",
    ]
    readonly_fields = fields

    @admin.display(description=_("result"))
    def result_when_shown(self, obj: Round):
        # Staff see a coup's cards only once players see them.
        if obj.result is None:
            return "–"
        if obj.phase in (Round.Phase.BETTING, Round.Phase.DEALING):
            return gettext("hidden until the result is shown")
        return {k: v for k, v in obj.result.items() if k != "steps"}

    @admin.display(description=_("payout transaction"))
    def payout_link(self, obj: Round) -> str:
        return _ledger_link(obj.settle_key)

    @admin.display(description=_("refund transaction"))
    def refund_link(self, obj: Round) -> str:
        return _ledger_link(obj.refund_key)

    @admin.action(
        description=_("Refund the selected rounds' bets (rounds not paid out yet)"),
        permissions=["move_money"],
    )
    def refund_rounds(self, request, queryset):
        if (verify := second_factor_redirect(request)) is not None:
            return verify  # nothing is refunded before the second factor
        # A refund hands every bet back, the staff member's own too: as with any money move on
        # their own wallet, another staff member must do it.
        own = set(queryset.filter(bets__user=request.user).values_list("pk", flat=True))
        for rnd in queryset.filter(pk__in=own):
            self.message_user(
                request,
                gettext(
                    "Round %(round)s was not refunded: you bet in it: another staff member must refund it."
                )
                % {"round": rnd},
                messages.ERROR,
            )
        reason = gettext("Refunded by staff.")
        done = sum(
            services.round_refund(round_id=rnd.pk, reason=reason, actor=request.user)
            for rnd in queryset.exclude(pk__in=own)
        )
        self.message_user(request, gettext("%(n)d round(s) refunded.") % {"n": done}, messages.SUCCESS)

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_move_money_permission(self, request) -> bool:
        # The wallets' permission: a refund pays coins out of escrow, as a staff reversal would.
        return request.user.has_perm(MOVE_MONEY_PERMISSION)


@admin.register(Bet)
class BetAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ["id", "round", "user", "area", "amount", "net", "created_at"]
    list_filter = ["area", "round__status", "round__table__tier"]
    search_fields = ["=round__id", "user__username", "ledger_key", "cancel_key"]
    list_select_related = ["round", "user"]
    fields = ["round", "user", "area", "amount", "net", "ledger", "cancelled_by", "created_at"]
    readonly_fields = fields

    @admin.display(description=_("bet transaction"))
    def ledger(self, obj: Bet) -> str:
        return _ledger_link(obj.ledger_key)

    @admin.display(description=_("cancel transaction"))
    def cancelled_by(self, obj: Bet) -> str:
        return _ledger_link(obj.cancel_key)
