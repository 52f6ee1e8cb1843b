"""The hand's admin page and its replay: a real 斗地主 (doudizhu) hand played by bots, replayed from its seed."""

import pytest
from django.urls import reverse

from rooms.tables import services
from rooms.tables.models import Hand, HandAction
from rooms.tables.replay import HandNotReplayable, hand_replay
from rooms.tables.tests.conftest import run_clock
from rooms.tables.tests.helpers import open_hand, sit_connected

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


def play_whole_hand(table, user) -> Hand:
    """Put the player under 托管 and let the clock play the hand through to settlement."""
    hand = open_hand(table)
    assert hand is not None and hand.status == "playing"
    services.table_trustee(table_id=table.pk, user=user, on=True)
    for _ in range(20):
        run_clock(max_steps=1000)
        hand.refresh_from_db()
        if hand.status != "playing":
            break
    assert hand.status == "settled", hand.cancel_reason
    return hand


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser(username="boss", password="pw-Secret-123")


@pytest.fixture
def settled_hand(ddz_tier, make_player):
    alice = make_player(coins=5000)
    table = sit_connected(alice, ddz_tier)
    return play_whole_hand(table, alice)


def test_a_bot_played_doudizhu_hand_replays_to_its_stored_state(settled_hand):
    replay = hand_replay(hand=settled_hand)

    assert replay.matches, replay.problems
    assert replay.final_state == settled_hand.state
    # The deal plus one step per logged action, each showing every seat's cards.
    assert len(replay.steps) == settled_hand.action_count + 1
    dealt = replay.steps[0].cards
    assert [len(cards) for cards in dealt] == [17, 17, 17]
    assert all(step.table["phase"] for step in replay.steps)
    assert replay.steps[-1].table["phase"] == "finished"


def test_the_replay_page_shows_every_step_and_says_it_matches(client, staff, settled_hand):
    client.force_login(staff)
    change = client.get(reverse("admin:tables_hand_change", args=[settled_hand.pk]))
    replay_url = reverse("admin:tables_hand_replay", args=[settled_hand.pk])
    assert replay_url in change.content.decode()
    # Who played, with the dealt cards, and the settlement transaction linked.
    settle_tx = change.context["adminform"].form.instance.settlement_key
    assert settle_tx == f"hand:{settled_hand.pk}:settle"
    assert "/admin/wallets/ledgertransaction/" in change.content.decode()
    assert "hidden until the hand is over" not in change.content.decode()

    page = client.get(replay_url)

    assert page.status_code == 200
    html = page.content.decode()
    assert "Replay matches" in html
    assert "MISMATCH" not in html
    assert len(page.context["rows"]) == settled_hand.action_count + 1
    first_play = HandAction.objects.filter(hand=settled_hand, action__type="play").order_by("n").first()
    assert first_play is not None
    assert first_play.action["cards"][0] in html


def test_a_tampered_action_log_is_a_mismatch(client, staff, settled_hand):
    # Someone rewrites the first bid/play in the log: the replay no longer gives the stored hand.
    row = HandAction.objects.filter(hand=settled_hand, seat__isnull=False).order_by("n").first()
    tampered = {"type": "pass"} if row.action["type"] != "pass" else {"type": "bid", "points": 3}
    HandAction.objects.filter(pk=row.pk).update(action=tampered)

    replay = hand_replay(hand=Hand.objects.get(pk=settled_hand.pk))

    assert not replay.matches
    assert replay.problems
    client.force_login(staff)
    html = client.get(reverse("admin:tables_hand_replay", args=[settled_hand.pk])).content.decode()
    assert "MISMATCH" in html
    assert "Replay matches" not in html


def test_a_tampered_final_state_is_a_mismatch(settled_hand):
    state = dict(settled_hand.state)
    state["bombs"] = state["bombs"] + 1
    Hand.objects.filter(pk=settled_hand.pk).update(state=state)

    replay = hand_replay(hand=Hand.objects.get(pk=settled_hand.pk))

    assert not replay.state_matches
    assert "differs from the stored state" in " ".join(replay.problems)


def test_a_player_cannot_open_the_replay(client, make_player, settled_hand):
    player = make_player()
    client.force_login(player)

    response = client.get(reverse("admin:tables_hand_replay", args=[settled_hand.pk]))

    # The admin sends a non-staff user to its login page, with no hand data.
    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]


def test_staff_without_the_hand_permission_are_refused(client, django_user_model, settled_hand):
    clerk = django_user_model.objects.create_user(username="clerk", password="pw-Secret-123", is_staff=True)
    client.force_login(clerk)

    response = client.get(reverse("admin:tables_hand_replay", args=[settled_hand.pk]))

    assert response.status_code == 403


def test_a_hand_in_play_shows_no_cards_and_no_replay(client, staff, ddz_tier, make_player):
    alice = make_player(coins=5000)
    table = sit_connected(alice, ddz_tier)
    hand = open_hand(table)
    assert hand.status == "playing"
    client.force_login(staff)

    change = client.get(reverse("admin:tables_hand_change", args=[hand.pk])).content.decode()
    replay = client.get(reverse("admin:tables_hand_replay", args=[hand.pk])).content.decode()

    assert "hidden until the hand is over" in change
    for card in hand.state["hands"][0]:
        assert f">{card} " not in change and f" {card} " not in change
    assert "still in play" in replay
    assert "Replay matches" not in replay
    with pytest.raises(HandNotReplayable, match="still in play"):
        hand_replay(hand=hand)


def test_the_hand_list_filters_by_game_from_the_catalogue(client, staff, settled_hand):
    client.force_login(staff)
    url = reverse("admin:tables_hand_changelist")
    everything = client.get(url)
    assert everything.status_code == 200
    # The filter offers the catalogue's seated games, not a DISTINCT over every hand.
    assert "?game=doudizhu" in everything.content.decode()

    doudizhu = client.get(url, {"game": "doudizhu"})
    assert list(doudizhu.context["cl"].result_list) == [settled_hand]
    other = client.get(url, {"game": "zhajinhua"})
    assert list(other.context["cl"].result_list) == []
