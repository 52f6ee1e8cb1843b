"""Provably fair hands: the seed's hash is published during play, the seed after it, and a command verifies."""

import hashlib

import pytest
from django.core.management import CommandError, call_command

from rooms.tables.broadcast import snapshot
from rooms.tables.models import Hand, HandAction
from rooms.tables.play import read as load_context
from rooms.tables.tests.helpers import my_seat, open_hand, sit_connected
from rooms.tables.tests.test_doudizhu import play_hand_under_trustee

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


def test_the_seed_hash_is_published_in_play_and_the_seed_revealed_after(ddz_tier, make_player):
    alice = make_player(coins=5000)
    table = sit_connected(alice, ddz_tier)
    hand = open_hand(table)
    seat = my_seat(alice).index
    seed = bytes(hand.seed)

    during = snapshot(load_context(table.pk), seat_index=seat, balance=0)
    assert during["hand"]["seed_sha256"] == hashlib.sha256(seed).hexdigest()
    assert seed.hex() not in str(during)  # the seed itself stays secret while the hand is played

    play_hand_under_trustee(table, alice)
    after = snapshot(load_context(table.pk), seat_index=seat, balance=0)
    assert after["hand"] is None
    revealed = bytes.fromhex(after["last_hand"]["seed"])
    assert hashlib.sha256(revealed).hexdigest() == during["hand"]["seed_sha256"]

    # A spectator sees the hash, not the seed: re-dealt, it would show every hand, folded ones too.
    watching = snapshot(load_context(table.pk), seat_index=None, balance=None)
    assert watching["last_hand"]["seed_sha256"] == during["hand"]["seed_sha256"]
    assert watching["last_hand"]["seed"] is None
    assert seed.hex() not in str(watching)


def test_hand_verify_reproduces_a_finished_hand_and_catches_a_tampered_log(ddz_tier, make_player, capsys):
    alice = make_player(coins=5000)
    table = sit_connected(alice, ddz_tier)
    hand = play_hand_under_trustee(table, alice)
    assert hand.status == "settled"

    call_command("hand_verify", hand.pk)
    out = capsys.readouterr().out
    assert "OK: the seed and the action log reproduce the stored hand." in out
    assert hashlib.sha256(bytes(hand.seed)).hexdigest() in out

    row = HandAction.objects.filter(hand=hand, seat__isnull=False).order_by("n").first()
    tampered = {"type": "pass"} if row.action["type"] != "pass" else {"type": "bid", "points": 3}
    HandAction.objects.filter(pk=row.pk).update(action=tampered)
    with pytest.raises(CommandError, match="MISMATCH"):
        call_command("hand_verify", hand.pk)


def test_hand_verify_refuses_an_unknown_or_unfinished_hand(ddz_tier, make_player):
    with pytest.raises(CommandError, match="There is no hand 999999"):
        call_command("hand_verify", 999999)
    alice = make_player(coins=5000)
    table = sit_connected(alice, ddz_tier)
    hand = open_hand(table)
    assert Hand.objects.get(pk=hand.pk).status == "playing"
    with pytest.raises(CommandError):
        call_command("hand_verify", hand.pk)


def _seated_slugs() -> list[str]:
    import games

    return sorted(slug for slug, info in games.REGISTRY.items() if info.family == "seated")


@pytest.mark.parametrize("slug", _seated_slugs())
def test_every_seated_game_shows_the_seed_hash_from_the_deal_and_never_the_seed_during_the_hand(
    make_player, slug
):
    import json

    from rooms.tables import services
    from rooms.tables.tests.conftest import expire, run_clock
    from rooms.tables.tests.test_abuse import game_tier

    alice = make_player(coins=20000)
    table = sit_connected(alice, game_tier(slug))
    hand = open_hand(table)
    seed = bytes(hand.seed)
    digest = hashlib.sha256(seed).hexdigest()
    services.table_trustee(table_id=table.pk, user=alice, on=True)
    states = 0
    while hand.status == Hand.Status.PLAYING:
        play = load_context(table.pk)
        for viewer in [*(s.index for s in play.seats), None]:
            state = snapshot(play, seat_index=viewer, balance=None)
            assert state["hand"]["seed_sha256"] == digest
            assert "seed" not in state["hand"] and state["last_hand"] is None
            assert seed.hex() not in json.dumps(state)
            states += 1
        expire(hand)
        run_clock(1)
        hand.refresh_from_db()
    assert states > len(hand.players)
    after = snapshot(load_context(table.pk), seat_index=my_seat(alice).index, balance=0)
    assert after["last_hand"]["seed"] == seed.hex() and after["last_hand"]["seed_sha256"] == digest
