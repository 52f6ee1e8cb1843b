"""Staff see shoes, rounds, bets and payouts in admin, read-only; a live coup's cards stay hidden."""

from platform.staff.testing import client_pass_second_factor

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from rooms.rounds import services
from rooms.rounds.models import Round
from rooms.rounds.tests.conftest import PLAYER_NATURAL_9, open_round, run_to, stack_shoe

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_rounds")]


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser(username="boss", password="pw-Secret-123")


def refund_as(client, staff, rnd):
    """Post the admin's refund action on ``rnd`` as ``staff``, second factor passed (a refund moves coins)."""
    client.force_login(staff)
    client_pass_second_factor(client, staff)
    return client.post(
        reverse("admin:rounds_round_changelist"),
        {"action": "refund_rounds", "_selected_action": [rnd.pk]},
        follow=True,
    )


def test_staff_see_a_paid_rounds_bets_and_payout(client, staff, bacc_tier, make_player):
    alice = make_player(coins=1000, name="alice")
    table, rnd = open_round(bacc_tier, alice)
    services.round_bet(table_id=table.pk, user=alice, area="player", amount=100)
    stack_shoe(rnd, PLAYER_NATURAL_9)
    rnd = run_to(rnd, "result")
    client.force_login(staff)

    listing = client.get(reverse("admin:rounds_round_changelist"), {"status__exact": "settled"})
    assert listing.status_code == 200
    assert str(rnd.pk) in listing.content.decode()

    page = client.get(reverse("admin:rounds_round_change", args=[rnd.pk])).content.decode()
    assert f"round:{rnd.pk}:settle" in page  # the payout transaction, linked
    assert f"round:{rnd.pk}:bet:" in page  # the bet inline with its transaction
    assert "alice" in page and "player" in page
    assert 'name="_save"' not in page  # read-only

    bets = client.get(reverse("admin:rounds_bet_changelist"), {"area": "player"})
    assert bets.status_code == 200 and "alice" in bets.content.decode()
    assert client.get(reverse("admin:rounds_shoe_changelist")).status_code == 200


def test_a_live_coups_cards_and_shoe_seed_stay_hidden_from_staff(client, staff, bacc_tier, make_player):
    alice = make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    stack_shoe(rnd, ["9s", "7h", "Ks", "Kd"])
    rnd = run_to(rnd, "dealing")
    client.force_login(staff)
    page = client.get(reverse("admin:rounds_round_change", args=[rnd.pk])).content.decode()
    assert "hidden until the result is shown" in page
    shoe = client.get(reverse("admin:rounds_shoe_change", args=[rnd.shoe_id])).content.decode()
    assert "hidden until the shoe is finished" in shoe
    assert bytes(rnd.shoe.seed).hex() not in shoe


def test_staff_can_refund_a_round_cut_short(client, staff, bacc_tier, make_player):
    from wallets.selectors import wallet_balance

    alice = make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    services.round_bet(table_id=table.pk, user=alice, area="banker", amount=100)
    response = refund_as(client, staff, rnd)
    assert "1 round(s) refunded." in response.content.decode()
    assert Round.objects.get(pk=rnd.pk).status == "refunded"
    assert wallet_balance(user=alice) == 1000


def test_refunding_a_round_needs_the_money_permission_and_the_second_factor(client, bacc_tier, make_player):
    """A refund pays coins out of escrow: staff who may only look at rounds may not do it.

    The action was offered to anyone who could view rounds, without the second factor
    that every other staff money move asks for: a support login could hand a round's
    losing bets back while its payout waited.
    """
    from wallets.models import LedgerTransaction
    from wallets.selectors import wallet_balance

    alice = make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    services.round_bet(table_id=table.pk, user=alice, area="banker", amount=100)
    support = make_player(coins=0, name="support")
    support.is_staff = True
    support.save()
    support.user_permissions.add(Permission.objects.get(codename="view_round"))
    client.force_login(support)
    url = reverse("admin:rounds_round_changelist")
    refund = {"action": "refund_rounds", "_selected_action": [rnd.pk]}

    assert "refund_rounds" not in client.get(url).content.decode()
    client.post(url, refund, follow=True)
    assert Round.objects.get(pk=rnd.pk).status == "open"
    assert wallet_balance(user=alice) == 900

    support.user_permissions.add(Permission.objects.get(codename="move_money"))
    response = client.post(url, refund)
    assert response.status_code == 302 and reverse("staff:otp_verify") in response["Location"]
    assert Round.objects.get(pk=rnd.pk).status == "open"
    assert wallet_balance(user=alice) == 900

    client_pass_second_factor(client, support)
    assert "1 round(s) refunded." in client.post(url, refund, follow=True).content.decode()
    assert wallet_balance(user=alice) == 1000
    # The refund transaction names who asked, as every staff money move does.
    assert LedgerTransaction.objects.get(key=f"round:{rnd.pk}:refund").actor == support


def test_staff_cannot_refund_a_round_they_bet_in(client, staff, bacc_tier, make_player):
    """A refund hands every bet back, the staff member's own too: like any money move on their own
    wallet, another staff member must do it (after seeing the coup, a lost bet comes back)."""
    from wallets.selectors import wallet_balance

    alice = make_player(coins=1000)
    table, rnd = open_round(bacc_tier, alice)
    services.round_bet(table_id=table.pk, user=alice, area="banker", amount=100)
    from wallets.services import wallet_grant

    wallet_grant(user=staff, amount=500, key="boss-start", reason="start")
    services.round_bet(table_id=table.pk, user=staff, area="player", amount=200)
    response = refund_as(client, staff, rnd)
    assert "you bet in it: another staff member must refund it" in response.content.decode()
    assert Round.objects.get(pk=rnd.pk).status == "open"
    assert wallet_balance(user=staff) == 300 and wallet_balance(user=alice) == 900
