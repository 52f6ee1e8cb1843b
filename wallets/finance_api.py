"""Finance reports as JSON (finance staff and superusers; session auth)."""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.generics import ListAPIView
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from wallets import reports
from wallets.finance_access import IsFinance
from wallets.finance_forms import DateRangeForm, SearchForm, StatementForm, TrialBalanceForm
from wallets.statement import player_statement

TAGS = ["finance"]
DATE = OpenApiTypes.DATE
RANGE = [
    OpenApiParameter("start", DATE, description="First site-timezone day (default: 29 days before end)"),
    OpenApiParameter("end", DATE, description="Last site-timezone day, included (default: today)"),
]


class KindTotalSerializer(serializers.Serializer):
    kind = serializers.CharField()
    total = serializers.IntegerField()
    entries = serializers.IntegerField()


class TrialBalanceSerializer(serializers.Serializer):
    on = serializers.DateField()
    kinds = KindTotalSerializer(many=True)
    grand_total = serializers.IntegerField()
    grants = serializers.IntegerField()
    deposits = serializers.IntegerField()
    withdrawals = serializers.IntegerField()
    adjustments = serializers.IntegerField()
    issued = serializers.IntegerField()
    held_by_players = serializers.IntegerField()
    held_by_bots = serializers.IntegerField(
        help_text=_("the part of held_by_players in the house bots' wallets (bankroll granted by the house)")
    )
    in_escrow = serializers.IntegerField()
    held_by_house = serializers.IntegerField()
    alerts = serializers.ListField(child=serializers.CharField())


class DayRowSerializer(serializers.Serializer):
    day = serializers.DateField()
    game = serializers.CharField()
    tier = serializers.CharField()
    amount = serializers.IntegerField()
    count = serializers.IntegerField(help_text=_("ledger transactions in the cell"))


class DayReportSerializer(serializers.Serializer):
    start = serializers.DateField()
    end = serializers.DateField()
    total = serializers.IntegerField()
    rows = DayRowSerializer(many=True)


class StatementEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text=_("the line's transaction: a hand's or round's settlement"))
    time = serializers.DateTimeField(source="at")
    kind = serializers.CharField()
    reference = serializers.CharField()
    game = serializers.CharField(source="transaction.game_slug")
    tier = serializers.CharField(help_text=_("the room tier's name"))
    transaction = serializers.IntegerField(source="id")
    amount = serializers.IntegerField(help_text=_("the line's net: a hand's or round's result"))
    balance_after = serializers.IntegerField(
        help_text=_("the wallet's total after it, at the table included")
    )


class StatementSerializer(serializers.Serializer):
    player = serializers.CharField(source="player.username")
    start = serializers.DateField()
    end = serializers.DateField()
    opening = serializers.IntegerField()
    closing = serializers.IntegerField()
    credits = serializers.IntegerField()
    debits = serializers.IntegerField()
    at_table = serializers.IntegerField(help_text=_("coins in the player's open hands and rounds now"))
    count = serializers.IntegerField(help_text=_("lines in the range, on every page"))
    next = serializers.URLField(allow_null=True, help_text=_("the next page of lines"))
    previous = serializers.URLField(allow_null=True, help_text=_("the previous page of lines"))
    entries = StatementEntrySerializer(
        many=True,
        help_text=_("one page of lines, oldest first: one per hand or round, one per other movement"),
    )


class TransactionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    kind = serializers.CharField()
    reference = serializers.CharField()
    amount = serializers.IntegerField(help_text=_("coins moved: the sum of the credits"))
    legs = serializers.IntegerField()
    key = serializers.CharField()
    memo = serializers.CharField()


def _invalid(form) -> Response:
    return Response(form.errors.get_json_data(), status=400)


class TrialBalanceView(APIView):
    permission_classes = [IsFinance]

    @extend_schema(
        operation_id="finance_trial_balance",
        summary="Balances by account kind at the end of a site-timezone day, with failed invariants",
        parameters=[OpenApiParameter("on", DATE, description="The day (default: today)")],
        responses=TrialBalanceSerializer,
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        form = TrialBalanceForm(request.query_params)
        if not form.is_valid():
            return _invalid(form)
        report = reports.trial_balance(on=form.cleaned_data["on"])
        report_kinds = [{"kind": k, "total": t, "entries": n} for k, _label, t, n in report.kinds]
        data = {**report.__dict__, "kinds": report_kinds, "held_by_house": report.held_by_house}
        return Response(TrialBalanceSerializer(data).data)


class _DayReportView(APIView):
    permission_classes = [IsFinance]
    build = None

    def get(self, request: Request) -> Response:
        form = DateRangeForm(request.query_params)
        if not form.is_valid():
            return _invalid(form)
        report = type(self).build(start=form.cleaned_data["start"], end=form.cleaned_data["end"])
        return Response(DayReportSerializer(report).data)


class RakeView(_DayReportView):
    build = staticmethod(reports.rake_income)

    @extend_schema(
        operation_id="finance_rake",
        summary="Rake income by site day × game × room tier",
        parameters=RANGE,
        responses=DayReportSerializer,
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        return super().get(request)


class BankView(_DayReportView):
    build = staticmethod(reports.bank_result)

    @extend_schema(
        operation_id="finance_house_bank",
        summary="The house bank's result by site day × game (positive: the house won)",
        parameters=RANGE,
        responses=DayReportSerializer,
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        return super().get(request)


class StatementView(APIView):
    permission_classes = [IsFinance]

    @extend_schema(
        operation_id="finance_statement",
        summary="One player's wallet entries over a range with opening and closing balances",
        parameters=[OpenApiParameter("player", str, required=True, description="username"), *RANGE],
        responses=StatementSerializer,
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        form = StatementForm(request.query_params)
        if not form.is_valid():
            return _invalid(form)
        data = form.cleaned_data
        report = player_statement(player=data["player"], start=data["start"], end=data["end"])
        # Paged as the statement page and the transaction search are: a bot or a busy player has
        # thousands of entries a month. Opening, closing and the sums are the whole range's.
        paginator = PageNumberPagination()
        page = report.lines(paginator.paginate_queryset(report.rows, request, view=self))
        body = {
            **report.__dict__,
            "count": paginator.page.paginator.count,
            "next": paginator.get_next_link(),
            "previous": paginator.get_previous_link(),
            "entries": page,
        }
        return Response(StatementSerializer(body).data)


class TransactionSearchView(ListAPIView):
    permission_classes = [IsFinance]
    serializer_class = TransactionSerializer

    @extend_schema(
        operation_id="finance_transactions",
        summary="Search ledger transactions, newest first",
        parameters=[
            OpenApiParameter("reference", str, description='exact, or a prefix ending in "*"'),
            OpenApiParameter("kind", str),
            OpenApiParameter("amount_min", int),
            OpenApiParameter("amount_max", int),
            OpenApiParameter("player", str, description="username"),
            OpenApiParameter("start", DATE),
            OpenApiParameter("end", DATE),
        ],
        tags=TAGS,
    )
    def get(self, request: Request, *args, **kwargs) -> Response:
        self.form = SearchForm(request.query_params)
        if not self.form.is_valid():
            return _invalid(self.form)
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        return reports.transaction_search(
            **{k: v for k, v in self.form.cleaned_data.items() if v not in (None, "")}
        )
