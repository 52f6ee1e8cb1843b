"""Quick start over HTTP, the staff admin, and the coins at stake being out of reach."""

import pytest
from django.urls import reverse

from rooms.tables.models import Hand, Seat, Table
from rooms.tables.tests.helpers import open_hand

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


def login(client, user):
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")


def test_quick_start_seats_the_player_and_redirects_to_the_table(client, tier, make_player):
    alice = make_player()
    login(client, alice)
    response = client.post(reverse("tables:quick_start", args=[tier.pk]))
    seat = Seat.objects.get(user=alice)
    assert response.status_code == 302
    assert response["Location"] == reverse("tables:table", args=[seat.table_id])
    # Pressing it again goes back to the same table: one table at a time.
    again = client.post(reverse("tables:quick_start", args=[tier.pk]), follow=True)
    assert again.redirect_chain[-1][0] == reverse("tables:table", args=[seat.table_id])
    assert Seat.objects.filter(user=alice).count() == 1


def test_quick_start_needs_login_and_post(client, tier):
    url = reverse("tables:quick_start", args=[tier.pk])
    assert client.get(url).status_code == 405
    response = client.post(url)
    assert response.status_code == 302 and reverse("accounts:login") in response["Location"]


def test_quick_start_refused_below_minimum_says_why(client, tier, make_player):
    poor = make_player(coins=30)
    login(client, poor)
    response = client.post(reverse("tables:quick_start", args=[tier.pk]), follow=True)
    text = " ".join(str(m) for m in response.context["messages"])
    assert "100" in text and "30" in text
    assert not Seat.objects.filter(user=poor).exists()


def test_coins_at_stake_cannot_be_withdrawn(tier, make_player):
    from wallets.errors import InsufficientFunds
    from wallets.services import wallet_withdraw

    alice = make_player(coins=2000)
    from rooms.tables import services

    services.table_quick_start(tier_id=tier.pk, user=alice)  # a hand starts: 1,000 carried (10 × 100)
    with pytest.raises(InsufficientFunds, match="balance"):
        wallet_withdraw(user=alice, amount=1001, key="w-1", reason="cash out mid-hand")
    wallet_withdraw(user=alice, amount=1000, key="w-2", reason="what stayed in the wallet")


def test_admin_hides_a_live_hand_and_fills_seats_with_bots(client, tier, make_player, settings):
    settings.TABLE_BOT_WAIT = 60
    staff = make_player()
    staff.is_staff = staff.is_superuser = True
    staff.save()
    alice = make_player()
    from rooms.tables import services

    table = services.table_quick_start(tier_id=tier.pk, user=alice)
    assert open_hand(table) is None  # alone, waiting for the bots' wait to pass
    login(client, staff)
    response = client.post(
        reverse("admin:tables_table_changelist"),
        {"action": "fill_with_bots", "_selected_action": [table.pk]},
        follow=True,
    )
    assert response.status_code == 200
    assert Seat.objects.filter(table=table, is_bot=True).count() == 1
    hand = Hand.objects.get(table=table)
    page = client.get(
        reverse("admin:tables_hand_change", args=[hand.pk]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "hidden until the hand is over" in page
    assert Table.objects.get(pk=table.pk).status == "playing"


def test_history_api_lists_the_players_settled_hands_with_result(client, tier, make_player):
    from rooms.tables import services
    from rooms.tables.tests.conftest import run_clock

    alice, bob = make_player(), make_player()
    table = services.table_quick_start(tier_id=tier.pk, user=alice)
    services.table_trustee(table_id=table.pk, user=alice, on=True)
    run_clock()
    hand = Hand.objects.get(table=table)
    assert hand.status == "settled"
    login(client, alice)
    rows = client.get("/api/tables/history/").json()["results"]
    assert [row["id"] for row in rows] == [hand.pk]
    row = rows[0]
    mine = row["seat"]
    assert row["delta"] == hand.outcome["net"][mine]
    assert row["won"] == (mine in hand.outcome["winners"])
    assert row["seed"] == bytes(hand.seed).hex()
    login(client, bob)
    assert client.get("/api/tables/history/").json()["results"] == []


def test_history_api_gives_each_games_own_facts_by_name(client, ddz_tier, make_player):
    """The facts come from the game's presentation: for 斗地主 the landlord's seat, the multiple, the winner."""
    from rooms.tables.tests.helpers import sit_connected
    from rooms.tables.tests.test_doudizhu import play_hand_under_trustee

    alice = make_player(coins=5000)
    hand = play_hand_under_trustee(sit_connected(alice, ddz_tier), alice)
    assert hand.status == "settled"
    login(client, alice)
    [row] = client.get("/api/tables/history/").json()["results"]
    details = hand.outcome["details"]
    assert row["multiple"] == details["multiple"]
    assert row["facts"]["multiple"] == details["multiple"]
    assert row["facts"]["winner"] == details["winner"]
    assert row["facts"].get("landlord") == details["landlord"]
    assert "landlord" not in row  # a game's own terms are its facts, not fields of every hand


@pytest.mark.zh
@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            "You are still seated at Race to five · Novice room (table {id}); "
            "leave that table to play Fight the Landlord · Novice room.",
        ),
        ("zh-hans", "你还坐在抢五 · 初级场（{id}号桌）；要玩斗地主 · 初级场，请先离开这张牌桌。"),
    ],
)
def test_quick_start_in_another_game_says_where_the_player_still_sits(
    client, tier, ddz_tier, make_player, language, words
):
    alice = make_player(coins=5000)
    login(client, alice)
    client.cookies["django_language"] = language
    client.post(reverse("tables:quick_start", args=[tier.pk]))
    seat = Seat.objects.get(user=alice)

    response = client.post(reverse("tables:quick_start", args=[ddz_tier.pk]), follow=True)

    assert response.redirect_chain[-1][0] == reverse("tables:table", args=[seat.table_id])
    assert words.format(id=seat.table_id) in response.content.decode()
