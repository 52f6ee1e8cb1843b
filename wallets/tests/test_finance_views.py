"""Finance pages, CSV downloads and API: who may read them, what they show, the banner and the nav link."""

import csv
import io
import re

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from wallets.finance_models import ReconciliationRecord
from wallets.reconciliation import reconciliation_run
from wallets.tests.factories import UserFactory
from wallets.tests.finance_books import build_books

pytestmark = pytest.mark.django_db

PAGES = ["index", "trial_balance", "rake", "bank", "statement", "search"]
CSVS = ["trial_balance_csv", "rake_csv", "bank_csv", "statement_csv", "search_csv"]
APIS = [
    "finance-api-trial-balance",
    "finance-api-rake",
    "finance-api-bank",
    "finance-api-statement",
    "finance-api-transactions",
]
RANGE = "?start=2026-03-01&end=2026-03-02"


@pytest.fixture
def books(monkeypatch, settings):
    settings.TIME_ZONE = "Asia/Shanghai"
    return build_books(UserFactory, monkeypatch)


def member_of(name: str):
    user = UserFactory(username=f"{name}-member", is_staff=name != "player")
    if name != "player":
        user.groups.add(Group.objects.get(name=name))
    return user


@pytest.fixture
def finance_client(client):
    client.force_login(member_of("finance"))
    return client


def page_url(name: str) -> str:
    return reverse(f"finance:{name}")


@pytest.mark.parametrize("who", ["player", "support", "operators"])
@pytest.mark.parametrize("url", PAGES + CSVS + APIS)
def test_only_finance_staff_and_superusers_get_in(client, who, url):
    target = reverse(url) if url.startswith("finance-api") else page_url(url)
    client.force_login(member_of(who))
    assert client.get(target).status_code == 403


@pytest.mark.parametrize("url", PAGES + CSVS)
def test_anonymous_visitors_are_sent_to_log_in(client, url):
    response = client.get(page_url(url))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


@pytest.mark.parametrize("url", APIS)
def test_the_api_refuses_anonymous_requests(client, url):
    assert client.get(reverse(url)).status_code == 403


@pytest.mark.parametrize("url", PAGES)
def test_finance_and_superusers_read_every_page(client, url):
    for user in (member_of("finance"), UserFactory(username="root", is_staff=True, is_superuser=True)):
        client.force_login(user)
        assert client.get(page_url(url)).status_code == 200


def _csv(response) -> list[list[str]]:
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))


def test_the_trial_balance_page_and_csv(books, finance_client):
    page = finance_client.get(page_url("trial_balance") + "?on=2026-03-02").content.decode()
    assert "Every invariant holds" in page
    assert "-4,300" in page and "3,248" in page and "1,030" in page
    rows = _csv(finance_client.get(page_url("trial_balance_csv") + "?on=2026-03-02"))
    assert rows[0] == ["line", "coins", "entries"]
    assert ["player", "3248", "21"] in rows
    assert ["grand_total", "0", ""] in rows and ["issued", "4300", ""] in rows


def test_the_rake_page_draws_a_chart_and_the_csv_totals(books, finance_client):
    page = finance_client.get(page_url("rake") + RANGE).content.decode()
    assert "<svg" in page and page.count('class="finance-chart__bar"') == 2
    assert "中级场" in page
    rows = _csv(finance_client.get(page_url("rake_csv") + RANGE))
    assert rows[0] == ["day", "game", "tier", "coins", "transactions"]
    assert rows[1] == ["2026-03-01", "斗地主", "初级场", "10", "1"]
    assert rows[-1] == ["total", "", "", "22", "3"]


def test_the_bank_page_explains_an_empty_table(finance_client):
    page = finance_client.get(page_url("bank")).content.decode()
    assert "No house-banked game is registered yet" in page
    assert "No house-banked play in this range." in page


def test_the_bank_csv(books, finance_client):
    rows = _csv(finance_client.get(page_url("bank_csv") + RANGE))
    assert rows == [
        ["day", "game", "coins", "transactions"],
        ["2026-03-02", "扎金花", "30", "2"],
        ["total", "", "30", "2"],
    ]


def test_the_statement_page_and_csv(books, finance_client):
    query = "?player=alice&start=2026-03-02"
    page = finance_client.get(page_url("statement") + query).content.decode()
    assert "1,690" in page and "1,723" in page and f"hand:{books.hands[2].pk}" in page
    # One line per hand with its net: credits 133 and debits 100, not the 933 carried in and back.
    body = re.findall(r"<tbody>.*?</tbody>", page, flags=re.S)[0]
    assert body.count("<tr>") == 2 and "Game result" in body and "Stake" not in body
    assert ">-100<" in body and ">+133<" in body and "斗地主 · 中级场" in body
    assert re.search(r"<dt>Credits</dt><dd>133</dd>.*<dt>Debits</dt><dd>100</dd>", page, flags=re.S)
    rows = _csv(finance_client.get(page_url("statement_csv") + query))
    assert rows[0] == ["time", "kind", "reference", "game", "tier", "transaction", "amount", "balance_after"]
    assert rows[1][-1] == "1690" and rows[-1][-2:] == ["33", "1723"]
    h2 = books.hands[1].pk
    assert rows[2][:5] == ["2026-03-02 07:31:00", "settlement", f"hand:{h2}", "斗地主", "中级场"]
    assert rows[2][-2:] == ["-100", "1590"] and len(rows) == 5


def test_the_statement_names_an_unknown_player(finance_client):
    page = finance_client.get(page_url("statement") + "?player=nobody").content.decode()
    assert "No player is called nobody." in page


def test_the_search_page_and_csv(books, finance_client):
    page = finance_client.get(page_url("search") + "?reference=zhajinhua:*").content.decode()
    assert "2 transactions found." in page
    rows = _csv(finance_client.get(page_url("search_csv") + "?kind=grant"))
    assert rows[0] == ["id", "time", "kind", "reference", "amount", "legs", "key", "memo"]
    assert [row[2] for row in rows[1:]] == ["grant"] * 3 and {row[4] for row in rows[1:]} == {"1000"}


def test_the_api_answers_with_the_same_figures(books, finance_client):
    tb = finance_client.get(reverse("finance-api-trial-balance") + "?on=2026-03-02").json()
    assert (tb["grand_total"], tb["issued"], tb["held_by_house"], tb["alerts"]) == (0, 4300, 1052, [])
    rake = finance_client.get(reverse("finance-api-rake") + RANGE).json()
    assert rake["total"] == 22 and len(rake["rows"]) == 3
    statement = finance_client.get(reverse("finance-api-statement") + "?player=alice&start=2026-03-02").json()
    assert (statement["opening"], statement["closing"], len(statement["entries"])) == (1690, 1723, 2)
    assert [(e["amount"], e["balance_after"], e["tier"]) for e in statement["entries"]] == [
        (-100, 1590, "中级场"),
        (133, 1723, "初级场"),
    ]
    found = finance_client.get(reverse("finance-api-transactions") + "?kind=deposit").json()
    assert found["count"] == 1 and found["results"][0]["amount"] == 500
    bad = finance_client.get(reverse("finance-api-rake") + "?start=2026-03-05&end=2026-03-01")
    assert bad.status_code == 400 and "The range starts after it ends." in bad.content.decode()


def test_every_report_is_in_the_openapi_schema(client):
    schema = client.get(reverse("api-schema")).content.decode()
    for path in ("trial-balance", "rake", "house-bank", "statement", "transactions"):
        assert f"/api/finance/{path}/" in schema


def test_a_failed_reconciliation_puts_a_banner_on_every_finance_page(books, finance_client):
    from wallets.models import Account

    assert "latest reconciliation failed" not in finance_client.get(page_url("index")).content.decode()
    Account.objects.filter(user=books.a).update(balance=5)
    record = reconciliation_run(trigger=ReconciliationRecord.Trigger.MANUAL)
    for name in PAGES:
        page = finance_client.get(page_url(name)).content.decode()
        assert "The latest reconciliation failed." in page
        assert f"account #{record.problems[0]['row'].split('#')[1].split(' ')[0]}" in page
    reconciliation_run(trigger=ReconciliationRecord.Trigger.MANUAL)  # still broken: the banner stays
    Account.objects.filter(user=books.a).update(balance=1723)
    reconciliation_run(trigger=ReconciliationRecord.Trigger.MANUAL)
    assert "latest reconciliation failed" not in finance_client.get(page_url("rake")).content.decode()


def test_the_nav_shows_finance_only_to_finance_staff(client):
    client.force_login(member_of("player"))
    assert reverse("finance:index") not in client.get(reverse("rooms:lobby")).content.decode()
    client.force_login(member_of("finance"))
    assert reverse("finance:index") in client.get(reverse("rooms:lobby")).content.decode()


def test_csv_cells_a_spreadsheet_would_run_as_formulas_are_quoted(finance_client):
    # A staff reason (the transaction's memo) is free text; opened in a spreadsheet, a cell
    # starting with = + - or @ runs as a formula on the finance officer's machine.
    from wallets.services import wallet_deposit, wallet_withdraw

    player = UserFactory(username="formula-victim")
    wallet_deposit(user=player, amount=50, key="csv-1", reason='=HYPERLINK("http://evil.example","x")')
    wallet_withdraw(user=player, amount=20, key="csv-2", reason="@SUM(1+1)")
    rows = _csv(finance_client.get(page_url("search_csv") + "?player=formula-victim"))
    memos = {row[2]: row[7] for row in rows[1:]}
    assert memos == {"deposit": '\'=HYPERLINK("http://evil.example","x")', "withdrawal": "'@SUM(1+1)"}
    # Numbers stay numbers: a statement's withdrawal leg is a negative amount, not text.
    rows = _csv(finance_client.get(page_url("statement_csv") + "?player=formula-victim"))
    assert [row[6] for row in rows[2:-1]] == ["50", "-20"]


def test_the_trial_balance_says_how_many_player_coins_are_the_house_bots_bankroll(finance_client, client):
    # Bots sit in player-kind wallets topped up with granted coins: counted as "held by players"
    # alone, the house's own bankroll read as coins owed to people.
    from rooms.rounds.tests.conftest import make_tier
    from rooms.tables.bots import bot_acquire
    from wallets.selectors import wallet_balance
    from wallets.services import wallet_grant

    person = UserFactory(username="a-person")
    wallet_grant(user=person, amount=700, key="person-start", reason="welcome")
    bot = bot_acquire(tier=make_tier(), exclude=set())
    bankroll = wallet_balance(user=bot)
    assert bankroll > 0

    page = finance_client.get(page_url("trial_balance")).content.decode()
    assert "Every invariant holds" in page
    assert "House bots" in page and f"{bankroll:,}" in page
    rows = _csv(finance_client.get(page_url("trial_balance_csv")))
    assert ["player", str(700 + bankroll), "2"] in rows
    assert ["held_by_bots", str(bankroll), ""] in rows
    data = finance_client.get(reverse("finance-api-trial-balance")).json()
    assert data["held_by_players"] == 700 + bankroll and data["held_by_bots"] == bankroll


def test_the_statement_api_pages_its_entries_as_the_page_does(finance_client, settings):
    # A bot or a busy player has thousands of entries a month: the endpoint returned every one
    # in a single response (the HTML page and the transaction search page theirs).
    from wallets.services import wallet_grant

    player = UserFactory(username="busy")
    total = settings.REST_FRAMEWORK["PAGE_SIZE"] + 10
    for n in range(total):
        wallet_grant(user=player, amount=1, key=f"busy-{n}", reason="test")
    url = reverse("finance-api-statement") + "?player=busy"
    first = finance_client.get(url).json()
    assert first["count"] == total
    assert len(first["entries"]) == settings.REST_FRAMEWORK["PAGE_SIZE"] and first["previous"] is None
    second = finance_client.get(first["next"]).json()
    assert len(second["entries"]) == 10 and second["next"] is None
    # The balances are the whole range's on every page.
    assert (first["opening"], first["closing"]) == (second["opening"], second["closing"]) == (0, total)
    assert second["entries"][-1]["balance_after"] == total
