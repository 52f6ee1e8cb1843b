"""The chip-dumping report: pairs who often share tables while coins flow one way, as page, CSV and API.

The settled hands are written as the settlement leaves them (``players`` and
``outcome["deltas"]``); the worked figures are in each test.
"""

import csv
import datetime as dt
import io
import itertools
import zoneinfo

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.urls import reverse

from rooms.models import Game, RoomTier
from rooms.tables.models import Hand, Table
from rooms.tables.reports import chip_dumping

pytestmark = pytest.mark.django_db

SHANGHAI = zoneinfo.ZoneInfo("Asia/Shanghai")
DAY = dt.date(2026, 3, 1)
RANGE = "start=2026-03-01&end=2026-03-01"
_numbers = itertools.count(1)


@pytest.fixture(autouse=True)
def _site_zone(settings):
    settings.TIME_ZONE = "Asia/Shanghai"


@pytest.fixture
def table(db):
    game = Game.objects.create(
        slug="doudizhu",
        name_zh="斗地主",
        name_en="Fight the Landlord",
        family="seated",
        min_seats=3,
        max_seats=3,
    )
    tier = RoomTier.objects.create(game=game, code="low", name="初级场", base_stake=1, room_factor=1)
    return Table.objects.create(tier=tier, seat_count=3)


@pytest.fixture
def people(db):
    User = get_user_model()
    return {name: User.objects.create(username=name) for name in ("dumper", "taker", "honest", "bot_0001")}


def settle(table, seats: list, deltas: list[int], *, when: dt.datetime | None = None, status="settled"):
    """Write one hand as the settlement leaves it: who sat where and each seat's result."""
    when = when or dt.datetime(2026, 3, 1, 12, tzinfo=SHANGHAI)
    return Hand.objects.create(
        table=table,
        number=next(_numbers),
        game_slug="doudizhu",
        seed=b"s" * 32,
        players=[
            {
                "user": user.pk,
                "name": user.username,
                "is_bot": user.username.startswith("bot_"),
                "carried": 500,
            }
            for user in seats
        ],
        status=status,
        outcome={"deltas": deltas, "winners": [i for i, d in enumerate(deltas) if d > 0], "net": deltas},
        settled_at=when if status == "settled" else None,
    )


def dump(table, people, hands: int = 12) -> None:
    """The dumper loses 200 a hand, 160 to the taker and 40 to the bot; once the taker loses 20 back."""
    d, t, b = people["dumper"], people["taker"], people["bot_0001"]
    for _ in range(hands - 1):
        settle(table, [d, t, b], [-200, 160, 40])  # 160 of the 200 reach the taker
    settle(table, [d, t, b], [40, -20, -20])  # the taker's 20 reach the dumper


def test_a_pair_with_coins_flowing_one_way_is_reported(table, people):
    dump(table, people)
    # An honest player who shares a few hands and wins and loses evenly is not.
    for deltas in ([60, -60, 0], [-60, 60, 0]):
        settle(table, [people["honest"], people["taker"], people["bot_0001"]], deltas)

    report = chip_dumping(start=DAY, end=DAY)

    assert report.hands_read == 14
    (pair,) = report.pairs
    assert (pair.sender, pair.receiver) == ("dumper", "taker")
    assert (pair.hands, pair.sender_hands) == (12, 12)
    assert (pair.sent, pair.returned, pair.net) == (11 * 160, 20, 1740)
    assert pair.one_sided == 98  # 1760 of the 1780 that flowed between them, rounded down
    assert pair.together == 100


@pytest.mark.parametrize(
    ("thresholds", "listed"),
    [
        ({"min_hands": 13}, False),  # they shared only 12
        ({"min_coins": 1741}, False),  # the net is 1740
        ({"min_share": 99}, False),  # 98.9% went one way
        ({"min_hands": 12, "min_coins": 1740, "min_share": 98}, True),
    ],
)
def test_the_thresholds_decide_who_is_listed(table, people, thresholds, listed):
    dump(table, people)
    assert bool(chip_dumping(start=DAY, end=DAY, **thresholds).pairs) is listed


def test_only_settled_hands_of_the_range_count(table, people):
    dump(table, people)
    settle(
        table,
        [people["dumper"], people["taker"]],
        [-5000, 5000],
        when=dt.datetime(2026, 3, 2, 0, 1, tzinfo=SHANGHAI),
    )
    settle(table, [people["dumper"], people["taker"]], [-5000, 5000], status="cancelled")

    (pair,) = chip_dumping(start=DAY, end=DAY).pairs

    assert (pair.hands, pair.net) == (12, 1740)


def test_bots_are_never_reported(table, people):
    for _ in range(20):
        settle(table, [people["honest"], people["bot_0001"], people["taker"]], [-100, 100, 0])
    assert chip_dumping(start=DAY, end=DAY).pairs == []


# --- page, CSV and API -------------------------------------------------------------------


def member_of(name: str):
    user = get_user_model().objects.create(username=f"{name}-member", is_staff=name != "player")
    if name != "player":
        user.groups.add(Group.objects.get(name=name))
    return user


@pytest.mark.parametrize("name", ["chip_dumping", "chip_dumping_csv", "chip_dumping_api"])
@pytest.mark.parametrize("who", ["player", "support", "operators"])
def test_only_finance_staff_and_superusers_get_in(client, who, name):
    client.force_login(member_of(who))
    assert client.get(reverse(f"tables_finance:{name}")).status_code == 403


def test_anonymous_visitors_are_sent_to_log_in(client):
    response = client.get(reverse("tables_finance:chip_dumping"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("accounts:login"))


def test_the_page_lists_the_pair_with_links_to_their_statements(client, table, people):
    dump(table, people)
    client.force_login(member_of("finance"))

    page = client.get(f"{reverse('tables_finance:chip_dumping')}?{RANGE}").content.decode()

    assert "1 pairs found in 12 settled hands." in page
    assert "?player=dumper&amp;start=2026-03-01&amp;end=2026-03-01" in page
    assert ">1,740<" in page and ">98%<" in page
    # Reached from the finance reports' menu and overview.
    index = client.get(reverse("finance:index")).content.decode()
    assert reverse("tables_finance:chip_dumping") in index


def test_the_csv_has_one_row_per_pair_and_quotes_formula_names(client, table, people):
    people["dumper"].username = "+dumper"
    people["dumper"].save(update_fields=["username"])
    dump(table, people)
    client.force_login(member_of("finance"))

    response = client.get(f"{reverse('tables_finance:chip_dumping_csv')}?{RANGE}")

    assert response["Content-Type"].startswith("text/csv")
    assert 'filename="chip-dumping-2026-03-01-2026-03-01.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert rows == [
        [
            "sender",
            "receiver",
            "hands_together",
            "sender_hands",
            "sent",
            "returned",
            "net",
            "one_sided_percent",
        ],
        ["'+dumper", "taker", "12", "12", "1760", "20", "1740", "98"],
    ]


def test_the_api_returns_the_pairs_and_refuses_a_bad_range(client, table, people):
    dump(table, people)
    client.force_login(member_of("finance"))
    url = reverse("tables_finance:chip_dumping_api")

    body = client.get(f"{url}?{RANGE}&min_hands=5").json()

    assert body["min_hands"] == 5 and body["hands_read"] == 12
    assert body["pairs"] == [
        {
            "sender": "dumper",
            "receiver": "taker",
            "hands": 12,
            "sender_hands": 12,
            "sent": 1760,
            "returned": 20,
            "net": 1740,
            "one_sided": 98,
        }
    ]
    bad = client.get(f"{url}?start=2026-03-02&end=2026-03-01")
    assert bad.status_code == 400
    assert "The range starts after it ends." in bad.content.decode()
