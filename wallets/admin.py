"""Staff views of accounts and the ledger: read-only lists, plus forms that post through the services.

Nothing here edits a balance or a ledger row. Deposits, withdrawals,
adjustments and reversals are custom admin views that call the ledger services
with the staff member as actor and a required reason; they need the
``wallets.move_money`` permission, and refuse to touch the staff member's own
wallet (another staff member must post that).
"""

from platform.staff.display import ReadableMedia, readable
from platform.staff.otp import second_factor_redirect

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from wallets import sources
from wallets.errors import LedgerError
from wallets.forms import MoneyMoveForm, ReversalForm
from wallets.models import Account, LedgerEntry, LedgerTransaction
from wallets.services import ledger_reverse, wallet_adjust, wallet_deposit, wallet_withdraw
from wallets.templatetags.coins import coins

MOVE_MONEY_PERMISSION = "wallets.move_money"

OPERATIONS = {
    MoneyMoveForm.Operation.DEPOSIT: wallet_deposit,
    MoneyMoveForm.Operation.WITHDRAWAL: wallet_withdraw,
    MoneyMoveForm.Operation.ADJUSTMENT: wallet_adjust,
}


class ReadOnlyAdmin(admin.ModelAdmin):
    """Show rows, never add, change or delete them: money moves only through the services."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


def _own_wallet_refused(request: HttpRequest, form, *owner_ids) -> bool:
    """Refuse (with a form error) a staff money move touching the staff member's own wallet.

    Coins for oneself need a second person: another staff member posts them.
    """
    if request.user.pk not in owner_ids:
        return False
    form.add_error(None, gettext("This moves coins in your own wallet: another staff member must post it."))
    return True


def _staff_form_page(admin_obj, request, *, title, form, obj, template):
    context = {
        **admin_obj.admin_site.each_context(request),
        "title": title,
        "form": form,
        "original": obj,
        "opts": admin_obj.model._meta,
    }
    return TemplateResponse(request, template, context)


@admin.register(Account)
class AccountAdmin(ReadOnlyAdmin):
    list_display = ["id", "kind", "owner", "balance_display", "created_at", "move_money_link"]
    list_filter = ["kind"]
    search_fields = ["user__username", "user__nickname", "user__email", "code"]
    list_select_related = ["user"]
    ordering = ["id"]
    change_form_template = "admin/wallets/account/change_form.html"

    @admin.display(description=_("owner"), ordering="user__username")
    def owner(self, obj: Account) -> str:
        return obj.user.username if obj.user_id else str(obj)  # a house account by its kind, in words

    @admin.display(description=_("balance"), ordering="balance")
    def balance_display(self, obj: Account) -> str:
        return coins(obj.balance)

    @admin.display(description=_("coins"))
    def move_money_link(self, obj: Account) -> str:
        if obj.kind != Account.Kind.PLAYER:
            return "—"
        url = reverse("admin:wallets_account_move_money", args=[obj.pk])
        return format_html('<a href="{}">{}</a>', url, gettext("Move coins"))

    def get_urls(self):
        return [
            path(
                "<int:object_id>/move-money/",
                self.admin_site.admin_view(self.move_money_view),
                name="wallets_account_move_money",
            ),
            *super().get_urls(),
        ]

    def move_money_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        """Deposit, withdraw or adjust a player's coins with a reason, recorded with the staff actor."""
        if not request.user.has_perm(MOVE_MONEY_PERMISSION):
            raise PermissionDenied
        if (verify := second_factor_redirect(request)) is not None:
            return verify  # nothing is posted before the second factor
        account = get_object_or_404(
            Account.objects.select_related("user"), pk=object_id, kind=Account.Kind.PLAYER
        )
        form = MoneyMoveForm(request.POST or None)
        if (
            request.method == "POST"
            and form.is_valid()
            and not _own_wallet_refused(request, form, account.user_id)
        ):
            data = form.cleaned_data
            try:
                txn = OPERATIONS[data["operation"]](
                    user=account.user,
                    amount=data["amount"],
                    key=f"staff:{data['key']}",
                    actor=request.user,
                    reason=data["reason"],
                )
            except LedgerError as error:
                form.add_error(None, str(error))
            else:
                messages.success(
                    request,
                    gettext("Posted transaction #%(pk)d: %(kind)s of %(amount)s coins for %(user)s.")
                    % {
                        "pk": txn.pk,
                        "kind": txn.get_kind_display(),
                        "amount": coins(data["amount"]),
                        "user": account.user.username,
                    },
                )
                return HttpResponseRedirect(reverse("admin:wallets_account_change", args=[account.pk]))
        return _staff_form_page(
            self,
            request,
            title=gettext("Move coins: %(account)s") % {"account": account},
            form=form,
            obj=account,
            template="admin/wallets/staff_form.html",
        )


class LedgerEntryInline(admin.TabularInline):
    model = LedgerEntry
    fields = ["account", "amount", "balance_after"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(LedgerTransaction)
class LedgerTransactionAdmin(ReadOnlyAdmin):
    list_display = ["id", "created_at", "kind", "reference", "actor", "memo", "key"]
    list_filter = ["kind", "created_at"]
    search_fields = ["key", "reference", "memo", "actor__username", "entries__account__user__username"]
    list_select_related = ["actor"]
    date_hierarchy = "created_at"
    ordering = ["-id"]
    inlines = [LedgerEntryInline]
    change_form_template = "admin/wallets/ledgertransaction/change_form.html"
    exclude = ["game_slug", "tier_id"]
    readonly_fields = ["game_display", "tier_display"]

    @admin.display(description=_("game"))
    def game_display(self, obj: LedgerTransaction) -> str:
        if not obj.game_slug:
            return "—"
        return sources.game_names({obj.game_slug}).get(obj.game_slug, obj.game_slug)

    @admin.display(description=_("room tier"))
    def tier_display(self, obj: LedgerTransaction) -> str:
        if obj.tier_id is None:
            return "—"
        tier = sources.tier_names({obj.tier_id}).get(obj.tier_id)
        return tier.name if tier else f"#{obj.tier_id}"

    def get_urls(self):
        return [
            path(
                "<int:object_id>/reverse/",
                self.admin_site.admin_view(self.reverse_view),
                name="wallets_ledgertransaction_reverse",
            ),
            *super().get_urls(),
        ]

    def reverse_view(self, request: HttpRequest, object_id: int) -> HttpResponse:
        """Post the opposite legs of a transaction, with a reason, recorded with the staff actor."""
        if not request.user.has_perm(MOVE_MONEY_PERMISSION):
            raise PermissionDenied
        if (verify := second_factor_redirect(request)) is not None:
            return verify  # nothing is posted before the second factor
        original = get_object_or_404(LedgerTransaction, pk=object_id)
        form = ReversalForm(request.POST or None)
        owners = set(original.entries.values_list("account__user_id", flat=True))
        if request.method == "POST" and form.is_valid() and not _own_wallet_refused(request, form, *owners):
            try:
                reversal = ledger_reverse(
                    transaction=original,
                    key=f"staff-reversal:{form.cleaned_data['key']}",
                    actor=request.user,
                    reason=form.cleaned_data["reason"],
                )
            except LedgerError as error:
                form.add_error(None, str(error))
            else:
                messages.success(
                    request,
                    gettext("Transaction #%(pk)d reversed by #%(by)d.")
                    % {"pk": original.pk, "by": reversal.pk},
                )
                return HttpResponseRedirect(
                    reverse("admin:wallets_ledgertransaction_change", args=[reversal.pk])
                )
        return _staff_form_page(
            self,
            request,
            title=gettext("Reverse transaction #%(pk)d") % {"pk": original.pk},
            form=form,
            obj=original,
            template="admin/wallets/staff_form.html",
        )


@admin.register(LedgerEntry)
class LedgerEntryAdmin(ReadOnlyAdmin):
    list_display = ["id", "created_at", "transaction", "kind", "account", "amount", "balance_after"]
    list_filter = ["transaction__kind", "account__kind"]
    search_fields = ["account__user__username", "account__code", "transaction__reference", "transaction__key"]
    list_select_related = ["transaction", "account", "account__user"]
    ordering = ["-id"]

    @admin.display(description=_("created at"), ordering="transaction__created_at")
    def created_at(self, obj: LedgerEntry):
        return obj.transaction.created_at

    @admin.display(description=_("kind"), ordering="transaction__kind")
    def kind(self, obj: LedgerEntry) -> str:
        return obj.transaction.get_kind_display()


# --- reconciliation (finance) ---------------------------------------------------

from django.db import transaction  # noqa: E402

from wallets.finance_models import ReconciliationRecord  # noqa: E402
from wallets.tasks import reconcile  # noqa: E402


@admin.register(ReconciliationRecord)
class ReconciliationRecordAdmin(ReadOnlyAdmin):
    """Dated results of the nightly ledger check, with a button that runs it now."""

    list_display = ["started_at", "trigger", "actor", "passed", "transactions", "entries", "problem_count"]
    list_filter = ["passed", "trigger"]
    fields = [
        *(f.name for f in ReconciliationRecord._meta.fields if f.name not in ("id", "totals", "problems")),
        "totals_display",
        "problems_display",
    ]
    readonly_fields = fields
    change_list_template = "admin/wallets/reconciliationrecord/change_list.html"
    Media = ReadableMedia

    @admin.display(description=_("totals"))
    def totals_display(self, obj: ReconciliationRecord):
        # Balances by account kind, each named as the trial balance names it.
        names = {**dict(Account.Kind.choices), "total": gettext("Grand total")}
        return readable({str(names.get(kind, kind)): total for kind, total in obj.totals.items()})

    @admin.display(description=_("offending rows"))
    def problems_display(self, obj: ReconciliationRecord):
        if not obj.problems:
            return "—"
        return format_html_join(
            "", "<p>[{}] {}: {}</p>", ((p.get("check"), p.get("row"), p.get("message")) for p in obj.problems)
        )

    @admin.display(description=_("problems"))
    def problem_count(self, obj: ReconciliationRecord) -> int:
        return len(obj.problems)

    def get_urls(self):
        run = self.admin_site.admin_view(self.run_view)
        return [path("run/", run, name="wallets_reconciliationrecord_run"), *super().get_urls()]

    def run_view(self, request: HttpRequest) -> HttpResponse:
        """Queue a reconciliation run now (it runs in-process when Celery is eager)."""
        if request.method != "POST" or not self.has_view_permission(request):
            raise PermissionDenied
        actor_id = request.user.pk
        transaction.on_commit(lambda: reconcile.delay(trigger="manual", actor_id=actor_id))
        messages.info(
            request, gettext("Reconciliation started; its record appears in this list when it finishes.")
        )
        return HttpResponseRedirect(reverse("admin:wallets_reconciliationrecord_changelist"))
