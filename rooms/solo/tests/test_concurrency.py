"""The same request sent twice at once (a double click, a retry racing the first): one play, one payment."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from rooms.solo import services
from rooms.solo.models import Play
from wallets.models import LedgerTransaction
from wallets.selectors import wallet_balance

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_requests_with_one_key_at_once_make_one_play(solo_tier, make_player):
    ivy = make_player(coins=1_000)
    services.current_pair(ivy)
    start = threading.Barrier(4)
    plays, errors = [], []

    def send(key: str) -> None:
        try:
            start.wait()
            plays.append(services.solo_spin(user=ivy, tier_id=solo_tier.pk, stake=20, request_key=key))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=send, args=(key,))
        for key in ("twin-key-1", "twin-key-1", "other-key-1", "other-key-1")
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len({play.pk for play in plays}) == 2 == Play.objects.filter(user=ivy).count()
    assert sorted(Play.objects.filter(user=ivy).values_list("nonce", flat=True)) == [0, 1]
    keys = [play.ledger_key for play in Play.objects.filter(user=ivy)]
    assert LedgerTransaction.objects.filter(key__in=keys).count() == 2
    assert wallet_balance(user=ivy) == 1_000 + sum(p.net for p in Play.objects.filter(user=ivy))
