"""Finance pages and their CSV downloads: parse the query, call one report, render it."""

import csv

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils import timezone

from wallets import reports
from wallets.finance_access import finance_required
from wallets.finance_forms import DateRangeForm, SearchForm, StatementForm, TrialBalanceForm
from wallets.reconciliation import reconciliation_latest
from wallets.statement import player_statement

ROWS_PER_PAGE = 100
CHART_WIDTH, CHART_HEIGHT = 720, 180


def _page(request: HttpRequest, template: str, context: dict) -> HttpResponse:
    latest = reconciliation_latest()
    return render(
        request,
        f"finance/{template}",
        {
            **context,
            "reconciliation": latest,
            "query": request.GET.urlencode(),
            "site_zone": str(reports.site_zone()),
        },
    )


def _local(moment) -> str:
    return timezone.localtime(moment, reports.site_zone()).strftime("%Y-%m-%d %H:%M:%S")


class _Echo:
    def write(self, value):
        return value


# A spreadsheet runs a text cell starting with one of these as a formula (CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(value):
    """Quote text a spreadsheet would run as a formula; numbers (negative ones too) stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _csv(filename: str, header: list[str], rows) -> StreamingHttpResponse:
    writer = csv.writer(_Echo())
    lines = (writer.writerow([_cell(value) for value in row]) for part in ([header], rows) for row in part)
    response = StreamingHttpResponse(lines, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# Room around the plot for the axes' labels: the coin scale on the left, the days below.
CHART_MARGIN = {"left": 88, "right": 12, "top": 28, "bottom": 44}


def chart_bars(by_day: list, *, width: int = CHART_WIDTH, height: int = CHART_HEIGHT) -> dict:
    """Lay out one bar per day for a server-side SVG (negative days hang below the zero line).

    The plot is ``width`` × ``height``; the SVG adds ``CHART_MARGIN`` around it for the
    labelled axes (the coin scale: highest, zero, lowest; the first and last day).
    """
    values = [value for _day, value in by_day]
    top, bottom = max([0, *values]), min([0, *values])
    span = (top - bottom) or 1
    zero = round(height * top / span, 1)
    step = width / max(len(by_day), 1)
    bars = []
    for n, (day, value) in enumerate(by_day):
        size = round(height * abs(value) / span, 1)
        bars.append(
            {
                "x": round(n * step + step * 0.1, 1),
                "y": zero - size if value >= 0 else zero,
                "width": round(step * 0.8, 1),
                "height": size,
                "day": day,
                "value": value,
                "negative": value < 0,
            }
        )
    margin = CHART_MARGIN
    return {
        "width": width,
        "height": height,
        "zero": zero,
        "bars": bars,
        "top": top,
        "bottom": bottom,
        "margin": margin,
        "outer_width": width + margin["left"] + margin["right"],
        "outer_height": height + margin["top"] + margin["bottom"],
        "first_day": by_day[0][0] if by_day else None,
        "last_day": by_day[-1][0] if by_day else None,
    }


@finance_required
def index(request: HttpRequest) -> HttpResponse:
    """List the reports and the latest reconciliation."""
    return _page(request, "index.html", {})


@finance_required
def trial_balance(request: HttpRequest, as_csv: bool = False) -> HttpResponse:
    """Balances by account kind at the end of a day, with every invariant that fails."""
    form = TrialBalanceForm(request.GET)
    on = form.cleaned_data["on"] if form.is_valid() else reports.site_today()
    report = reports.trial_balance(on=on)
    if as_csv:
        rows = [[kind, total, entries] for kind, _label, total, entries in report.kinds]
        rows += [
            ["grand_total", report.grand_total, ""],
            ["grants", report.grants, ""],
            ["deposits", report.deposits, ""],
            ["withdrawals", report.withdrawals, ""],
            ["adjustments", report.adjustments, ""],
            ["issued", report.issued, ""],
            ["held_by_bots", report.held_by_bots, ""],
        ]
        return _csv(f"trial-balance-{on}.csv", ["line", "coins", "entries"], rows)
    return _page(request, "trial_balance.html", {"form": form, "report": report})


def _day_report(request, *, build, template: str, name: str, as_csv: bool, with_tier: bool):
    form = DateRangeForm(request.GET)
    if not form.is_valid():
        return _page(request, template, {"form": form, "report": None})
    data = form.cleaned_data
    report = build(start=data["start"], end=data["end"])
    if as_csv:
        header = ["day", "game", *(["tier"] if with_tier else []), "coins", "transactions"]
        rows = [
            [row.day.isoformat(), row.game, *([row.tier] if with_tier else []), row.amount, row.count]
            for row in report.rows
        ]
        rows.append(["total", "", *([""] if with_tier else []), report.total, report.count])
        return _csv(f"{name}-{report.start}-{report.end}.csv", header, rows)
    return _page(
        request,
        template,
        {
            "form": form,
            "report": report,
            "chart": chart_bars(report.by_day),
            "banked_games": reports.banked_games(),
        },
    )


@finance_required
def rake(request: HttpRequest, as_csv: bool = False) -> HttpResponse:
    """Rake income by day × game × room tier, with a bar chart of the daily totals."""
    return _day_report(
        request, build=reports.rake_income, template="rake.html", name="rake", as_csv=as_csv, with_tier=True
    )


@finance_required
def bank(request: HttpRequest, as_csv: bool = False) -> HttpResponse:
    """The house bank's result by day × game."""
    return _day_report(
        request,
        build=reports.bank_result,
        template="bank.html",
        name="house-bank",
        as_csv=as_csv,
        with_tier=False,
    )


@finance_required
def statement(request: HttpRequest, as_csv: bool = False) -> HttpResponse:
    """One player's wallet over a range: a line per hand, round or other movement, with the running total."""
    form = StatementForm(request.GET or None)
    if not form.is_valid():
        return _page(request, "statement.html", {"form": form, "report": None})
    data = form.cleaned_data
    report = player_statement(player=data["player"], start=data["start"], end=data["end"])
    if as_csv:
        rows = (
            [
                _local(line.at),
                line.kind,
                line.reference,
                line.game,
                line.tier,
                line.id,
                line.amount,
                line.balance_after,
            ]
            for line in report.lines(list(report.rows))
        )
        header = ["time", "kind", "reference", "game", "tier", "transaction", "amount", "balance_after"]
        opening = [["opening", "", "", "", "", "", "", report.opening]]
        closing = [["closing", "", "", "", "", "", report.credits - report.debits, report.closing]]
        return _csv(
            f"statement-{data['player'].username}-{report.start}-{report.end}.csv",
            header,
            (row for part in (opening, rows, closing) for row in part),
        )
    page = Paginator(report.rows, ROWS_PER_PAGE).get_page(request.GET.get("page"))
    return _page(
        request,
        "statement.html",
        {"form": form, "report": report, "page_obj": page, "lines": report.lines(list(page.object_list))},
    )


@finance_required
def search(request: HttpRequest, as_csv: bool = False) -> HttpResponse:
    """Find transactions by reference, kind, amount, player and date."""
    form = SearchForm(request.GET or None)
    if not form.is_valid():
        return _page(request, "search.html", {"form": form, "page_obj": None})
    found = reports.transaction_search(**{k: v for k, v in form.cleaned_data.items() if v not in (None, "")})
    if as_csv:
        rows = (
            [txn.pk, _local(txn.created_at), txn.kind, txn.reference, txn.amount, txn.legs, txn.key, txn.memo]
            for txn in found.iterator()
        )
        return _csv(
            "transactions.csv", ["id", "time", "kind", "reference", "amount", "legs", "key", "memo"], rows
        )
    page = Paginator(found, ROWS_PER_PAGE).get_page(request.GET.get("page"))
    return _page(request, "search.html", {"form": form, "page_obj": page, "searched": True})
