"""A 二八杠 hand through the runtime: bots and 托管 play it, the ledger settles it, 战绩 and verify show its tiles."""

import re

import pytest
from django.urls import reverse

from rooms.tables.tests.test_verify_page import finished_hand
from wallets.models import LedgerTransaction

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


def tiles_on(html: str) -> list[tuple[str, int, int]]:
    """Every tile drawn on a page: (tile, its dots, its frames)."""
    found = []
    for tile, svg in re.findall(
        r'<span class="mtile[^"]*"[^>]*data-tile="([^"]+)"><svg(.*?)</svg>', html, re.S
    ):
        found.append((tile, svg.count("<circle"), svg.count("<rect")))
    return found


def test_a_hand_settles_with_the_rake_and_its_record_draws_the_tiles(client, make_player):
    alice = make_player(coins=5000)
    hand = finished_hand("erbagang", alice)
    outcome = hand.outcome
    assert sum(outcome["deltas"]) == 0
    # 5% of each winner's profit, rounded down (001:291).
    assert outcome["rake"] == sum(d * 5 // 100 for d in outcome["deltas"] if d > 0)
    tx = LedgerTransaction.objects.get(key=f"hand:{hand.pk}:settle")
    assert sum(tx.entries.values_list("amount", flat=True)) == 0
    banker = outcome["details"]["banker"]
    assert -outcome["deltas"][banker] <= outcome["details"]["pledge"]

    client.force_login(alice, backend="django.contrib.auth.backends.ModelBackend")
    record = client.get(reverse("tables:history"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'data-hand="{hand.pk}"' in record
    assert 'data-fact="banker"' in record and 'data-fact="die"' in record
    drawn = tiles_on(record)
    assert sorted(t for t, _dots, _frames in drawn) == sorted(t for h in hand.state["hands"] for t in h)
    for tile, dots, frames in drawn:  # 筒 with their dots (1筒 has a ring more), 白板 blank in its frame
        assert (dots, frames) == ((0, 1) if tile == "5z" else (2 * int(tile[0]) + (tile == "1p"), 0)), tile
    verify = client.get(reverse("tables:verify", kwargs={"hand_id": hand.pk}), HTTP_ACCEPT_LANGUAGE="en")
    html = verify.content.decode()
    assert 'class="verify-replay" data-ok="true"' in html
    assert len(tiles_on(html)) == 2 * len(hand.players)
