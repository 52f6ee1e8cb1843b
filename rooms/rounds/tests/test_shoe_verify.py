"""The shoe verify page of every banker game: the published hash, the seed once the shoe is finished, each coup dealt again."""

import hashlib

import pytest
from django.urls import reverse

from rooms.rounds.models import Round, Shoe
from rooms.rounds.tests.conftest import live_round, open_round, run_to
from rooms.rounds.tests.conftest import make_tier as baccarat_tier
from rooms.rounds.tests.test_yaoyaole_rounds import make_tier as dice_tier

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fast_rounds")]


def finish_shoe(table, rnd) -> Shoe:
    shoe = Shoe.objects.get(pk=rnd.shoe_id)
    while shoe.finished_at is None:
        run_to(rnd, "over")
        rnd = live_round(table) or rnd
        shoe.refresh_from_db()
    return shoe


def page(client, shoe):
    url = reverse("rounds:verify_shoe", args=[shoe.table_id, shoe.number])
    return client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()


def short_baccarat_shoe(table, rnd):
    shoe = Shoe.objects.get(pk=rnd.shoe_id)
    shoe.state = {**shoe.state, "cut_position": shoe.state["position"] + 12}  # two or three coups
    shoe.save()


@pytest.mark.parametrize("game", ["dice", "cards"])
def test_a_finished_shoe_is_verified_coup_by_coup(client, make_player, game):
    alice = make_player(coins=1000)
    tier = dice_tier(coups_per_shoe=3) if game == "dice" else baccarat_tier()
    table, rnd = open_round(tier, alice)
    if game == "cards":
        short_baccarat_shoe(table, rnd)
    client.force_login(alice)
    shoe = Shoe.objects.get(pk=rnd.shoe_id)
    html = page(client, shoe)
    assert 'data-ok="pending"' in html and bytes(shoe.seed).hex() not in html  # still secret
    assert hashlib.sha256(bytes(shoe.seed)).hexdigest() in html

    shoe = finish_shoe(table, rnd)
    html = page(client, shoe)
    assert f'<code class="verify-seed">{bytes(shoe.seed).hex()}</code>' in html
    assert 'class="verify-verdict message success" data-ok="true"' in html
    coups = list(Round.objects.filter(shoe=shoe, dealt_at__isnull=False).order_by("coup"))
    assert len(coups) >= 2
    for coup in coups:
        assert f'data-coup="{coup.coup}" data-ok="true"' in html
        first = coup.result["steps"][0]
        assert f'data-side="{first["side"]}">{first["card"]}' in html


def test_a_coup_that_differs_from_its_seed_is_reported(client, make_player):
    alice = make_player(coins=1000)
    table, rnd = open_round(dice_tier(coups_per_shoe=2), alice)
    shoe = finish_shoe(table, rnd)
    first = Round.objects.filter(shoe=shoe).order_by("coup").first()
    steps = [dict(step) for step in first.result["steps"]]
    steps[0]["card"] = steps[0]["card"] % 6 + 1  # what a dishonest table would have shown
    Round.objects.filter(pk=first.pk).update(result={**first.result, "steps": steps})
    client.force_login(alice)
    html = page(client, shoe)
    assert 'data-ok="false"' in html and "Not verified" in html
    assert f'data-coup="{first.coup}" data-ok="false"' in html


def test_only_a_banker_tables_shoe_has_the_page(client, make_player):
    client.force_login(make_player(coins=1000))
    assert client.get(reverse("rounds:verify_shoe", args=[999999, 1])).status_code == 404
