"""The "verify this hand" page: published hash, revealed seed, the deal it makes and the replay's verdict."""

import hashlib
import re

import pytest
from django.urls import reverse

import games
from games.base import SeatSpec, SeededRng
from games.tests.test_presentation import REDEAL
from rooms.tables.models import HandAction
from rooms.tables.tests.helpers import open_hand, sit_connected
from rooms.tables.tests.test_abuse import game_tier
from rooms.tables.tests.test_doudizhu import play_hand_under_trustee

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


def finished_hand(slug: str, user):
    table = sit_connected(user, game_tier(slug))
    hand = play_hand_under_trustee(table, user)
    assert hand.status == "settled", hand.cancel_reason
    return hand


def dealt_by_seed(hand) -> dict:
    """Deal the hand again straight from the engine, as a player with the seed would."""
    engine = games.REGISTRY[hand.game_slug].engine
    seats = [SeatSpec(player_id=p["user"], coins=p["carried"]) for p in hand.players]
    return engine.new_hand(dict(hand.config), seats, SeededRng(bytes(hand.seed), "hand"))


def page(client, hand, **params):
    return client.get(
        reverse("tables:verify", kwargs={"hand_id": hand.pk}), params, HTTP_ACCEPT_LANGUAGE="en"
    )


def test_a_player_verifies_a_finished_doudizhu_hand(client, make_player):
    alice = make_player(coins=5000)
    hand = finished_hand("doudizhu", alice)
    client.force_login(alice)
    response = page(client, hand)
    assert response.status_code == 200
    html = response.content.decode()
    seed = bytes(hand.seed)
    assert f'<code class="verify-published">{hashlib.sha256(seed).hexdigest()}</code>' in html
    assert f'<code class="verify-seed">{seed.hex()}</code>' in html
    assert 'class="verify-hash" data-ok="true"' in html
    assert 'class="verify-replay" data-ok="true"' in html
    assert "Verified: the seed matches its published hash" in html
    deal = dealt_by_seed(hand)
    for index in range(3):
        assert f'data-seat="{index}" data-cards="{" ".join(deal["hands"][index])}"' in html
    # The 底牌 (bottom cards) are part of the deal too.
    assert all(f'data-card="{card}"' in html for card in deal["bottom"])
    assert response.context["check"].replay.steps[-1].n == hand.action_count
    # Hands are numbered per table: the page names the table beside the hand's number.
    assert f"Table {hand.table_id} · Hand {hand.number}" in html


def test_the_board_of_a_texas_hand_is_part_of_the_deal(client, make_player):
    alice = make_player(coins=5000)
    hand = finished_hand("texas", alice)
    client.force_login(alice)
    response = page(client, hand)
    html = response.content.decode()
    deal = dealt_by_seed(hand)
    for index, cards in enumerate(deal["_hands"]):
        assert f'data-seat="{index}" data-cards="{" ".join(cards)}"' in html
    [shown] = response.context["deals"]
    assert [label for label, _faces in shown["shared"]] == ["Board"]
    assert all(f'data-card="{card}"' in html for card in deal["board"])
    assert 'class="verify-replay" data-ok="true"' in html


def shown_deals(html: str) -> list[dict]:
    """Read every deal off the page, in order: each seat's cards and the cards dealt to nobody."""
    deals = []
    for block in html.split('class="verify-deal-block"')[1:]:
        block = block.split("</section>", 1)[0]
        seats = re.findall(r'data-seat="(\d+)" data-cards="([^"]*)"', block)
        shared = re.findall(r'data-shared="([^"]*)">(.*?)</p>', block, re.S)
        deals.append(
            {
                "hands": [cards.split() for _index, cards in seats],
                # Cards carry data-card, mahjong tiles data-tile.
                "shared": [
                    (label, re.findall(r'data-(?:card|tile)="([^"]+)"', faces)) for label, faces in shared
                ],
            }
        )
    return deals


@pytest.mark.parametrize("slug", [slug for slug, info in games.REGISTRY.items() if info.family == "seated"])
def test_the_page_shows_every_seats_cards_as_the_seed_deals_them_in_every_game(client, make_player, slug):
    """The seed re-dealt here, as a player would (games/tests/test_presentation.py), gives the page's cards.

    炸金花's page used to show no card at all: it read each seat's view, which hides unseen cards.
    """
    alice = make_player(coins=5000)
    hand = finished_hand(slug, alice)
    client.force_login(alice)
    html = page(client, hand).content.decode()
    deals = shown_deals(html)
    assert deals, "no deal shown"
    for number, shown in enumerate(deals):
        public = games.REGISTRY[slug].engine.view(hand.state, None)
        hands, shared = REDEAL[slug](bytes(hand.seed), dict(hand.config), len(hand.players), number, public)
        assert [sorted(cards) for cards in shown["hands"]] == [sorted(cards) for cards in hands], number
        assert all(len(cards) > 0 for cards in shown["hands"])
        assert [(label, sorted(cards)) for label, cards in shown["shared"]] == [
            (label, sorted(cards)) for label, cards in shared
        ]


def test_a_tampered_action_log_is_not_verified(client, make_player):
    alice = make_player(coins=5000)
    hand = finished_hand("doudizhu", alice)
    row = HandAction.objects.filter(hand=hand, seat__isnull=False).order_by("n").first()
    tampered = {"type": "pass"} if row.action["type"] != "pass" else {"type": "bid", "points": 3}
    HandAction.objects.filter(pk=row.pk).update(action=tampered)
    client.force_login(alice)
    html = page(client, hand).content.decode()
    assert 'class="verify-replay" data-ok="false"' in html
    assert "Not verified" in html
    assert 'class="verify-problems"' in html


def test_only_players_of_the_hand_and_staff_may_verify_it(client, make_player):
    alice, mallory, staff = make_player(coins=5000), make_player(), make_player()
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    hand = finished_hand("doudizhu", alice)
    anonymous = page(client, hand)
    assert anonymous.status_code == 302 and reverse("accounts:login") in anonymous["Location"]
    client.force_login(mallory)
    assert page(client, hand).status_code == 404
    client.force_login(staff)
    assert page(client, hand).status_code == 200
    assert client.get(reverse("tables:verify", kwargs={"hand_id": 999999})).status_code == 404


def test_a_hand_still_in_play_cannot_be_verified(client, make_player):
    alice = make_player(coins=5000)
    table = sit_connected(alice, game_tier("doudizhu"))
    hand = open_hand(table)
    client.force_login(alice)
    response = page(client, hand)
    assert response.status_code == 404
    assert bytes(hand.seed).hex() not in response.content.decode()


def test_the_quick_check_of_a_pasted_hash(client, make_player):
    alice = make_player(coins=5000)
    hand = finished_hand("doudizhu", alice)
    client.force_login(alice)
    good = hashlib.sha256(bytes(hand.seed)).hexdigest()
    assert "The seed hashes to that value." in page(client, hand, sha256=good).content.decode()
    wrong = hashlib.sha256(b"another seed").hexdigest()
    assert "The seed does not hash to that value." in page(client, hand, sha256=wrong).content.decode()
    other_seed = page(client, hand, seed="00" * 32, sha256=hashlib.sha256(bytes(32)).hexdigest())
    assert 'data-ok="true"' in other_seed.content.decode().split('class="verify-quick"')[1]
    for bad in ({"sha256": "xyz"}, {"seed": "zz", "sha256": good}, {"sha256": good[:-1]}):
        html = page(client, hand, **bad).content.decode()
        assert "Enter the seed and the hash as hexadecimal" in html, bad


def test_the_history_page_links_each_hand_to_its_verification(client, make_player):
    alice = make_player(coins=5000)
    hand = finished_hand("doudizhu", alice)
    client.force_login(alice)
    html = client.get(reverse("tables:history"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'href="{reverse("tables:verify", kwargs={"hand_id": hand.pk})}"' in html


@pytest.mark.zh
def test_the_history_and_verify_headings_name_the_page_once_in_each_language(client, make_player):
    import re

    alice = make_player(coins=5000)
    hand = finished_hand("doudizhu", alice)
    client.force_login(alice)

    def heading(url, language):
        html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        return re.sub(r"<[^>]+>", "", re.search(r"<h1>(.*?)</h1>", html, re.S).group(1)).split()

    history = reverse("tables:history")
    verify = reverse("tables:verify", kwargs={"hand_id": hand.pk})
    # The Chinese page said 战绩 战绩: the Chinese gloss repeated the translated title.
    assert heading(history, "zh-hans") == ["战绩"]
    # An English page reads as English: no Chinese gloss beside the title.
    assert heading(history, "en") == ["Game", "record"]
    assert heading(verify, "zh-hans")[-1] != "验证"
    assert heading(verify, "en") == ["Verify", "hand", str(hand.pk)]


@pytest.mark.zh
def test_the_quick_check_button_says_check_not_the_poker_check(client, make_player):
    """The verify form's button shared its msgid with 必下德州's 过牌 (check), so it read 过牌."""
    alice = make_player(coins=5000)
    hand = finished_hand("doudizhu", alice)
    client.force_login(alice)
    url = reverse("tables:verify", kwargs={"hand_id": hand.pk})
    for language, label in (("zh-hans", "核对"), ("en", "Check")):
        html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert f'<button type="submit" class="btn btn--small">{label}</button>' in html
        assert "过牌" not in html
