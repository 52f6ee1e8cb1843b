"""The player's wallet page and the wallet API."""

import re

import pytest
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator

from wallets import api_urls, sources
from wallets.services import house_account, ledger_post, wallet_for_user, wallet_grant, wallet_withdraw
from wallets.sources import LedgerSource, ReferenceLabel

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_en(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def test_the_wallet_page_needs_a_login(client_en):
    response = client_en.get(reverse("wallets:wallet"))
    assert response.status_code == 302
    assert "next=/wallet/" in response["Location"]


def _rows(html: str) -> list[str]:
    return re.findall(r'<tr class="wallet-entry.*?</tr>', html, flags=re.S)


def test_the_wallet_page_shows_the_grouped_balance_and_every_line_with_its_running_balance(
    client_en, player, make_player
):
    grant = wallet_grant(user=player, amount=1_234_567, key="g", reason="start")
    wallet_withdraw(user=player, amount=4_567, key="w", reason="cash out")
    ledger_post(
        key="fix",
        kind="adjustment",
        legs=[(wallet_for_user(user=player), -1000), (house_account(code="cashier"), 1000)],
        reference="correction:17",
    )
    wallet_grant(user=make_player(), amount=999, key="other", reason="someone else")
    client_en.force_login(player)

    html = client_en.get(reverse("wallets:wallet")).content.decode()

    assert 'data-balance="1229000"' in html and ">1,229,000<" in html
    rows = _rows(html)
    assert len(rows) == 3
    assert (
        "Adjustment" in rows[0]
        and "correction:17" in rows[0]
        and "-1,000" in rows[0]
        and "1,229,000" in rows[0]
    )
    assert "Withdrawal" in rows[1] and "-4,567" in rows[1] and "1,230,000" in rows[1]
    assert "Grant" in rows[2] and "+1,234,567" in rows[2]
    # Shown in the site's time zone (Asia/Shanghai), not UTC.
    assert timezone.localtime(grant.created_at).strftime("%Y-%m-%d %H:%M:%S") in rows[2]
    # Not the other player's grant (a bare "999" matched a timestamp's microseconds now and then).
    assert "someone else" not in html and "+999<" not in html and ">999<" not in html


@pytest.fixture
def named_hands(monkeypatch):
    """A ledger source that names hand and round references, as the rooms do (wallets imports no rooms)."""

    class Names(LedgerSource):
        def reference_labels(self, references):
            return {
                ref: ReferenceLabel(f"斗地主 · 初级场 · 3号桌 · 第{ref.split(':')[1]}局", f"/verify/{ref}/")
                for ref in references
                if ref.startswith("hand:")
            }

    monkeypatch.setattr(sources, "sources", lambda: [Names()])


def _stake(player, hand: int, carried: int, key: str = "stake"):
    ledger_post(
        key=f"{key}:{hand}",
        kind="stake",
        legs=[(wallet_for_user(user=player), -carried), (house_account(code="escrow"), carried)],
        reference=f"hand:{hand}",
        game_slug="doudizhu",
        tier_id=1,
    )


def _settle(player, hand: int, carried: int, back: int, *, others=()):
    legs = [(wallet_for_user(user=player), back)] if back else []
    rake = carried - back - sum(amount for _user, amount in others)
    legs += [(wallet_for_user(user=user), amount) for user, amount in others]
    ledger_post(
        key=f"settle:{hand}",
        kind="settlement",
        legs=[(house_account(code="escrow"), -carried), *legs]
        + ([(house_account(code="rake"), rake)] if rake else []),
        reference=f"hand:{hand}",
        game_slug="doudizhu",
        tier_id=1,
    )


@pytest.mark.usefixtures("named_hands")
def test_a_hand_is_one_line_with_its_net_and_its_game_not_a_stake_and_a_settlement(client_en, player):
    """The issue: '入局押金 −9,995 (变动后余额 0)' then '结算 +9,989'. Now: one line, −6, balance 9,989."""
    wallet_grant(user=player, amount=10_000, key="g", reason="start")
    wallet_withdraw(user=player, amount=5, key="w", reason="out")
    _stake(player, 41, 9_995)
    _settle(player, 41, 9_995, 9_989)
    client_en.force_login(player)

    html = client_en.get(reverse("wallets:wallet")).content.decode()

    rows = _rows(html)
    assert len(rows) == 3
    assert (
        "Game result" in rows[0]
        and '<a href="/verify/hand:41/">斗地主 · 初级场 · 3号桌 · 第41局</a>' in rows[0]
    )
    assert ">-6<" in rows[0] and ">9,989<" in rows[0]
    assert "Withdrawal" in rows[1] and ">9,995<" in rows[1]
    history = "".join(rows)  # no stake line, no 0 balance in the middle of a hand, no gross return
    assert "Stake" not in history and "+9,989" not in history and ">0<" not in history
    assert 'data-balance="9989"' in html and 'data-at-table="0"' in html


@pytest.mark.usefixtures("named_hands")
def test_during_a_hand_the_balance_is_what_is_available_plus_what_is_at_the_table(client_en, player):
    """A carried hand does not read as a wallet of 0: the coins are at the table until it settles."""
    wallet_grant(user=player, amount=10_000, key="g", reason="start")
    _stake(player, 7, 9_995)
    client_en.force_login(player)

    html = client_en.get(reverse("wallets:wallet")).content.decode()

    assert 'data-balance="10000"' in html and ">10,000<" in html
    assert 'data-available="5"' in html and 'data-at-table="9995"' in html
    # No source here says which table: the page still says the coins are out in a hand.
    assert "9,995 coins are in hands or bets not settled yet." in html
    rows = _rows(html)
    assert len(rows) == 1 and "Grant" in rows[0] and ">10,000<" in rows[0]


@pytest.mark.usefixtures("named_hands")
def test_a_hand_that_lost_all_it_carried_is_a_line_of_the_whole_loss(client_en, player, make_player):
    winner = make_player()
    wallet_grant(user=player, amount=300, key="g", reason="start")
    _stake(player, 8, 300)
    _settle(player, 8, 300, 0, others=[(winner, 285)])
    client_en.force_login(player)

    rows = _rows(client_en.get(reverse("wallets:wallet")).content.decode())

    assert len(rows) == 2 and ">-300<" in rows[0] and ">0<" in rows[0] and "第8局" in rows[0]


def test_a_banker_round_is_one_line_however_many_bets(client_en, player):
    wallet = wallet_for_user(user=player)
    escrow = house_account(code="escrow")
    wallet_grant(user=player, amount=1_000, key="g", reason="start")
    for n, amount in enumerate([100, 50, 20]):
        ledger_post(
            key=f"bet:{n}", kind="bet", legs=[(wallet, -amount), (escrow, amount)], reference="round:5"
        )
    # Banker won 100 at 5% commission: 195 back; player lost 50; tie lost 20.
    ledger_post(
        key="payout",
        kind="payout",
        legs=[(escrow, -170), (wallet, 195), (house_account(code="bank"), -25)],
        reference="round:5",
    )
    client_en.force_login(player)

    rows = _rows(client_en.get(reverse("wallets:wallet")).content.decode())

    assert len(rows) == 2
    assert "Game result" in rows[0] and ">+25<" in rows[0] and ">1,025<" in rows[0] and "round:5" in rows[0]


def test_the_wallet_page_is_paginated_by_lines(client_en, player):
    for n in range(28):
        wallet_grant(user=player, amount=n + 1, key=f"g{n}", reason="drip")
    for hand in range(2):
        _stake(player, 100 + hand, 10)
        _settle(player, 100 + hand, 10, 15 if hand else 5, others=[])
    client_en.force_login(player)

    first = client_en.get(reverse("wallets:wallet")).content.decode()
    second = client_en.get(reverse("wallets:wallet"), {"page": 2}).content.decode()

    # 28 grants and 2 hands are 30 lines (the 4 transactions of the hands are 2 of them).
    assert first.count('<tr class="wallet-entry') == 25 and "Page 1 of 2" in first
    assert second.count('<tr class="wallet-entry') == 5 and "Page 2 of 2" in second
    # The running balance carries across pages: the oldest line of page 1 follows the newest of page 2.
    last_on_first = re.findall(r'class="num after"[^>]*>([0-9,]+)<', first)[-1]
    newest_on_second = re.findall(r'class="num after"[^>]*>([0-9,]+)<', second)[0]
    oldest_amount_on_first = int(re.findall(r'class="num amount">([+-][0-9,]+)<', first)[-1].replace(",", ""))
    assert int(last_on_first.replace(",", "")) - oldest_amount_on_first == int(
        newest_on_second.replace(",", "")
    )


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
