"""The solo runtime: one transaction per play, retried requests, the fee, the double-up and seed rotation."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

import games
from games.base import seed_digest
from rooms.solo import services
from rooms.solo.models import Offer, Play, SeedPair
from wallets.models import LedgerTransaction
from wallets.selectors import wallet_balance

pytestmark = pytest.mark.django_db


def _spin_until(user, tier, *, win: bool, stake: int = 20, limit: int = 400) -> Play:
    for i in range(limit):
        play = services.solo_spin(
            user=user, tier_id=tier.pk, stake=stake, request_key=f"spin-{win}-{i}-{user.pk}"
        )
        if (play.win > 0) == win:
            return play
    raise AssertionError("no such spin in the limit")


def test_a_spin_is_one_transaction_of_stake_and_win_with_the_fee_on_its_profit(solo_tier, make_player):
    alice = make_player(coins=10_000)
    play = _spin_until(alice, solo_tier, win=True)
    pair = SeedPair.objects.get(user=alice, revealed_at__isnull=True)
    # The engine alone, from the seed pair and nonce, gives the same reels.
    again = games.REGISTRY["duocaiduofu"].engine.spin(
        services.tier_config(solo_tier), bytes(pair.server_seed), pair.client_seed, play.nonce, 20
    )
    assert again == play.result
    assert play.win == 20 * play.result["multiple"]
    assert play.rake == (play.win - 20) * 500 // 10000
    assert play.net == play.win - 20 - play.rake
    tx = LedgerTransaction.objects.get(key=play.ledger_key)
    assert sum(e.amount for e in tx.entries.all()) == 0
    spent = sum(p.net for p in Play.objects.filter(user=alice))
    assert wallet_balance(user=alice) == 10_000 + spent


def test_a_retried_request_gets_its_play_back_and_never_pays_twice(solo_tier, make_player):
    bob = make_player(coins=1_000)
    first = services.solo_spin(user=bob, tier_id=solo_tier.pk, stake=20, request_key="same-request-1")
    balance = wallet_balance(user=bob)
    again = services.solo_spin(user=bob, tier_id=solo_tier.pk, stake=20, request_key="same-request-1")
    assert again.pk == first.pk and wallet_balance(user=bob) == balance
    assert Play.objects.filter(user=bob).count() == 1
    assert SeedPair.objects.get(user=bob, revealed_at__isnull=True).next_nonce == 1


def test_bad_stakes_and_short_balances_are_refused_with_nothing_changed(solo_tier, make_player):
    carol = make_player(coins=30)
    for stake, code in ((25, "bad_stake"), ("20", "bad_stake"), (40, "insufficient")):
        with pytest.raises(services.SoloError) as refused:
            services.solo_spin(
                user=carol, tier_id=solo_tier.pk, stake=stake, request_key=f"bad-stake-{stake}"
            )
        assert refused.value.code == code
    assert wallet_balance(user=carol) == 30 and not Play.objects.filter(user=carol).exists()
    with pytest.raises(services.SoloError):
        services.solo_spin(user=carol, tier_id=solo_tier.pk, stake=20, request_key="short")


def test_a_win_opens_a_double_up_that_stakes_the_win_times_the_multiple(solo_tier, make_player):
    dan = make_player(coins=20_000)
    spin = _spin_until(dan, solo_tier, win=True)
    offer = Offer.objects.get(user=dan)
    assert offer.amount == spin.stake + spin.net and offer.wins == 0
    before = wallet_balance(user=dan)
    gamble = services.solo_gamble(user=dan, multiple=2, pick="boy", request_key="gamble-one")
    assert gamble.kind == "gamble" and gamble.stake == 2 * offer.amount and gamble.origin_id == spin.pk
    card = gamble.result["card"]
    if card == "boy":
        assert gamble.win == 2 * gamble.stake
        assert gamble.rake == gamble.stake * 500 // 10000
        assert Offer.objects.get(user=dan).amount == gamble.stake + gamble.net
    else:
        assert gamble.win == 0 and not Offer.objects.filter(user=dan).exists()
    assert wallet_balance(user=dan) == before + gamble.net
    # The same request again: the same play.
    assert services.solo_gamble(user=dan, multiple=2, pick="boy", request_key="gamble-one").pk == gamble.pk


def test_the_double_up_is_collected_after_its_seconds_and_by_the_next_spin(solo_tier, make_player):
    erin = make_player(coins=20_000)
    _spin_until(erin, solo_tier, win=True)
    Offer.objects.filter(user=erin).update(deadline=timezone.now() - timedelta(seconds=1))
    with pytest.raises(services.SoloError) as refused:
        services.solo_gamble(user=erin, multiple=1, pick="girl", request_key="too-late-1")
    assert refused.value.code == "no_offer"
    _spin_until(erin, solo_tier, win=True)
    services.solo_spin(user=erin, tier_id=solo_tier.pk, stake=20, request_key="collects-by-spin")
    offer = Offer.objects.filter(user=erin).first()
    assert offer is None or offer.origin.request_key == "collects-by-spin"


def test_at_most_eight_double_ups_are_won_then_the_win_is_collected(solo_tier, make_player):
    from games.duocaiduofu.rules import gamble_card

    fay = make_player(coins=10**9)
    _spin_until(fay, solo_tier, win=True)
    for i in range(8):
        assert Offer.objects.get(user=fay).wins == i
        # The test reads the secret seed to pick the card the draw will turn: eight wins in a row.
        pair = SeedPair.objects.get(user=fay, revealed_at__isnull=True)
        card = gamble_card(bytes(pair.server_seed), pair.client_seed, pair.next_nonce)
        play = services.solo_gamble(user=fay, multiple=1, pick=card, request_key=f"chain-win-{i}")
        assert play.win == 2 * play.stake
    assert not Offer.objects.filter(user=fay).exists()


def test_a_double_up_the_balance_cannot_cover_is_refused_and_a_short_balance_collects(solo_tier, make_player):
    gus2 = make_player(coins=5_000)
    _spin_until(gus2, solo_tier, win=True)
    offer = Offer.objects.get(user=gus2)
    from wallets.services import wallet_adjust

    wallet_adjust(user=gus2, amount=-(wallet_balance(user=gus2) - offer.amount), key="drain", reason="test")
    with pytest.raises(services.SoloError) as refused:
        services.solo_gamble(user=gus2, multiple=2, pick="boy", request_key="too-much-1")
    assert refused.value.code == "insufficient" and Offer.objects.filter(user=gus2).exists()
    wallet_adjust(user=gus2, amount=-1, key="drain-1", reason="test")
    with pytest.raises(services.SoloError) as refused:
        services.solo_gamble(user=gus2, multiple=1, pick="boy", request_key="too-much-2")
    assert refused.value.code == "collected" and not Offer.objects.filter(user=gus2).exists()


def test_rotating_reveals_the_seed_whose_hash_was_shown_and_starts_a_new_pair(solo_tier, make_player):
    hal = make_player(coins=1_000)
    shown = services.current_pair(hal).server_hash
    play = services.solo_spin(user=hal, tier_id=solo_tier.pk, stake=20, request_key="before-rotate")
    assert services.verify_play(play) == {"revealed": False}
    revealed, current = services.solo_rotate(user=hal, client_seed="my-own-seed")
    assert seed_digest(bytes(revealed.server_seed)) == shown == revealed.server_hash
    assert current.client_seed == "my-own-seed" and current.next_nonce == 0 and current.server_hash != shown
    check = services.verify_play(Play.objects.get(pk=play.pk))
    assert check["revealed"] and check["hash_matches"] and check["matches"]
    with pytest.raises(services.SoloError):
        services.solo_rotate(user=hal, client_seed="no spaces allowed")
    assert SeedPair.objects.get(user=hal, revealed_at__isnull=True).pk == current.pk
