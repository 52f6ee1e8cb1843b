"""The player's wallet page and the wallet API."""

import re

import pytest
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator

from wallets import api_urls
from wallets.services import house_account, ledger_post, wallet_for_user, wallet_grant, wallet_withdraw

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_en(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def test_the_wallet_page_needs_a_login(client_en):
    response = client_en.get(reverse("wallets:wallet"))
    assert response.status_code == 302
    assert "next=/wallet/" in response["Location"]


def test_the_wallet_page_shows_the_grouped_balance_and_every_entry_with_its_running_balance(
    client_en, player, make_player
):
    grant = wallet_grant(user=player, amount=1_234_567, key="g", reason="start")
    wallet_withdraw(user=player, amount=4_567, key="w", reason="cash out")
    ledger_post(
        key="hand",
        kind="settlement",
        legs=[(wallet_for_user(user=player), -1000), (house_account(code="rake"), 1000)],
        reference="hand:17",
    )
    wallet_grant(user=make_player(), amount=999, key="other", reason="someone else")
    client_en.force_login(player)

    html = client_en.get(reverse("wallets:wallet")).content.decode()

    assert 'data-balance="1229000"' in html and ">1,229,000<" in html
    rows = re.findall(r'<tr class="wallet-entry.*?</tr>', html, flags=re.S)
    assert len(rows) == 3
    assert "Settlement" in rows[0] and "hand:17" in rows[0] and "-1,000" in rows[0] and "1,229,000" in rows[0]
    assert "Withdrawal" in rows[1] and "-4,567" in rows[1] and "1,230,000" in rows[1]
    assert "Grant" in rows[2] and "+1,234,567" in rows[2]
    # Shown in the site's time zone (Asia/Shanghai), not UTC.
    assert timezone.localtime(grant.created_at).strftime("%Y-%m-%d %H:%M:%S") in rows[2]
    # Not the other player's grant (a bare "999" matched a timestamp's microseconds now and then).
    assert "someone else" not in html and "+999<" not in html and ">999<" not in html


def test_the_wallet_page_is_paginated(client_en, player):
    for n in range(30):
        wallet_grant(user=player, amount=n + 1, key=f"g{n}", reason="drip")
    client_en.force_login(player)

    first = client_en.get(reverse("wallets:wallet")).content.decode()
    second = client_en.get(reverse("wallets:wallet"), {"page": 2}).content.decode()

    assert first.count('<tr class="wallet-entry') == 25 and "Page 1 of 2" in first
    assert second.count('<tr class="wallet-entry') == 5 and "Page 2 of 2" in second


def test_a_new_player_sees_an_empty_wallet(client_en, player):
    client_en.force_login(player)
    html = client_en.get(reverse("wallets:wallet")).content.decode()
    assert 'data-balance="0"' in html and "No coins have moved in your wallet yet." in html


def test_the_api_needs_a_signed_in_player(client_en):
    assert client_en.get("/api/wallet/").status_code == 403
    assert client_en.get("/api/wallet/entries/").status_code == 403


def test_the_api_returns_the_balance_and_paginated_entries(client_en, player):
    wallet_grant(user=player, amount=500, key="g", reason="start")
    txn = wallet_withdraw(user=player, amount=120, key="w", reason="out", reference="cashout:1")
    client_en.force_login(player)

    assert client_en.get("/api/wallet/").json() == {"balance": 380}
    page = client_en.get("/api/wallet/entries/").json()

    assert page["count"] == 2 and page["next"] is None
    newest = page["results"][0]
    assert {
        k: newest[k] for k in ("transaction", "amount", "balance_after", "kind", "kind_label", "reference")
    } == {
        "transaction": txn.pk,
        "amount": -120,
        "balance_after": 380,
        "kind": "withdrawal",
        "kind_label": "Withdrawal",
        "reference": "cashout:1",
    }


def test_the_wallet_api_is_in_the_openapi_schema():
    schema = SchemaGenerator(patterns=api_urls.urlpatterns).get_schema(request=None, public=True)
    assert schema["paths"]["/wallet/"]["get"]["operationId"] == "wallet_retrieve"
    entries = schema["paths"]["/wallet/entries/"]["get"]
    assert entries["operationId"] == "wallet_entries_list"
    assert "page" in {p["name"] for p in entries["parameters"]}
