"""血战 and 推倒胡 hands through the runtime: bots and 托管 play them, the ledger settles them with the
rake, and 战绩 and verify show their tiles."""

import re
from collections import Counter

import pytest
from django.urls import reverse

from rooms.tables.tests.test_verify_page import finished_hand
from wallets.models import LedgerTransaction

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


def tiles_on(html: str) -> Counter:
    return Counter(re.findall(r'<span class="mtile[^"]*"[^>]*data-tile="([^"]+)">', html))


@pytest.mark.parametrize("slug", ["xuezhan", "tuidaohu"])
def test_a_hand_settles_with_the_rake_and_its_record_draws_the_tiles(client, make_player, slug):
    alice = make_player(coins=5000)
    hand = finished_hand(slug, alice)
    outcome = hand.outcome
    # The engine's payments move coins between players (有限责任制 inside them): they sum to nothing.
    assert sum(outcome["deltas"]) == 0
    assert all(-p["carried"] <= d for p, d in zip(hand.players, outcome["deltas"], strict=True))
    # 5% of each winner's profit, rounded down.
    assert outcome["rake"] == sum(d * 5 // 100 for d in outcome["deltas"] if d > 0)
    tx = LedgerTransaction.objects.get(key=f"hand:{hand.pk}:settle")
    assert sum(tx.entries.values_list("amount", flat=True)) == 0

    client.force_login(alice, backend="django.contrib.auth.backends.ModelBackend")
    record = client.get(reverse("tables:history"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'data-hand="{hand.pk}"' in record and 'data-fact="ended_by"' in record
    dealt = Counter(t for h in hand.state["_dealt"] for t in h)
    assert tiles_on(record) >= dealt  # every seat's thirteen as dealt (and its tiles at the end)
    verify = client.get(reverse("tables:verify", kwargs={"hand_id": hand.pk}), HTTP_ACCEPT_LANGUAGE="en")
    html = verify.content.decode()
    assert 'class="verify-replay" data-ok="true"' in html
    assert tiles_on(html) >= dealt
