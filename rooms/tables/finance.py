"""The chip-dumping report's page, CSV download and API, beside the finance reports under /finance/.

Same readers as every finance report (the finance group and superusers:
``wallets.finance_access``), same date range form, same banner.
"""

from __future__ import annotations

import csv

from django import forms
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from rooms.tables import reports
from wallets.finance_access import IsFinance, finance_required
from wallets.finance_forms import DateRangeForm
from wallets.finance_views import FORMULA_STARTS
from wallets.reconciliation import reconciliation_latest
from wallets.reports import site_zone

PAGE_ROWS = 500
CSV_HEADER = [
    "sender",
    "receiver",
    "hands_together",
    "sender_hands",
    "sent",
    "returned",
    "net",
    "one_sided_percent",
]


class ChipDumpingForm(DateRangeForm):
    """The range, and how often and how one-sidedly a pair must have played to be listed."""

    min_hands = forms.IntegerField(label=_("Hands together, at least"), required=False, min_value=1)
    min_share = forms.IntegerField(
        label=_("One way, at least (%)"), required=False, min_value=50, max_value=100
    )
    min_coins = forms.IntegerField(label=_("Net coins, at least"), required=False, min_value=1)

    def clean(self):
        data = super().clean()
        for name, default in (
            ("min_hands", reports.MIN_HANDS),
            ("min_share", reports.MIN_SHARE),
            ("min_coins", reports.MIN_COINS),
        ):
            if data.get(name) is None:
                data[name] = default
        return data


def _build(form: ChipDumpingForm) -> reports.DumpingReport:
    return reports.chip_dumping(**form.cleaned_data)


def _row(pair: reports.DumpingPair) -> list:
    return [
        pair.sender,
        pair.receiver,
        pair.hands,
        pair.sender_hands,
        pair.sent,
        pair.returned,
        pair.net,
        pair.one_sided,
    ]


def _cell(value):
    # A username may start with + - or @: a spreadsheet would run it as a formula.
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value


class _Echo:
    def write(self, value):
        return value


@finance_required
def chip_dumping_page(request: HttpRequest, as_csv: bool = False) -> HttpResponse:
    """Pairs of players whose shared hands moved coins one way, as a page or a CSV."""
    form = ChipDumpingForm(request.GET)
    report = _build(form) if form.is_valid() else None
    if as_csv and report is not None:
        writer = csv.writer(_Echo())
        rows = [CSV_HEADER, *(_row(pair) for pair in report.pairs)]
        response = StreamingHttpResponse(
            (writer.writerow([_cell(value) for value in row]) for row in rows),
            content_type="text/csv; charset=utf-8",
        )
        response["Content-Disposition"] = (
            f'attachment; filename="chip-dumping-{report.start}-{report.end}.csv"'
        )
        return response
    context = {
        "form": form,
        "report": report,
        "pairs": report.pairs[:PAGE_ROWS] if report else [],
        "page_rows": PAGE_ROWS,
        "reconciliation": reconciliation_latest(),
        "query": request.GET.urlencode(),
        "site_zone": str(site_zone()),
    }
    return render(request, "finance/chip_dumping.html", context)


class DumpingPairSerializer(serializers.Serializer):
    sender = serializers.CharField(help_text=_("username of the player the coins left"))
    receiver = serializers.CharField(help_text=_("username of the player they reached"))
    hands = serializers.IntegerField(help_text=_("settled hands both played in the range"))
    sender_hands = serializers.IntegerField(help_text=_("all the sender's settled hands in the range"))
    sent = serializers.IntegerField(help_text=_("coins that flowed sender → receiver, before rake"))
    returned = serializers.IntegerField(help_text=_("coins that flowed receiver → sender, before rake"))
    net = serializers.IntegerField()
    one_sided = serializers.IntegerField(help_text=_("percent of the flow between them that went one way"))


class DumpingReportSerializer(serializers.Serializer):
    start = serializers.DateField()
    end = serializers.DateField()
    min_hands = serializers.IntegerField()
    min_share = serializers.IntegerField()
    min_coins = serializers.IntegerField()
    hands_read = serializers.IntegerField(help_text=_("settled hands in the range"))
    pairs = DumpingPairSerializer(many=True)


class ChipDumpingApi(APIView):
    permission_classes = [IsFinance]

    @extend_schema(
        operation_id="finance_chip_dumping",
        summary="Pairs of players who often share tables with coins flowing one way between them",
        parameters=[
            OpenApiParameter("start", OpenApiTypes.DATE, description="First site-timezone day"),
            OpenApiParameter("end", OpenApiTypes.DATE, description="Last site-timezone day, included"),
            OpenApiParameter("min_hands", int, description=f"default {reports.MIN_HANDS}"),
            OpenApiParameter("min_share", int, description=f"percent, default {reports.MIN_SHARE}"),
            OpenApiParameter("min_coins", int, description=f"default {reports.MIN_COINS}"),
        ],
        responses=DumpingReportSerializer,
        tags=["finance"],
    )
    def get(self, request: Request) -> Response:
        form = ChipDumpingForm(request.query_params)
        if not form.is_valid():
            return Response(form.errors.get_json_data(), status=400)
        return Response(DumpingReportSerializer(_build(form)).data)
