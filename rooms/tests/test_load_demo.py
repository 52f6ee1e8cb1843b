"""load_demo: the catalogue, default tiers and logins, and a second run that changes nothing."""

import dataclasses
import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

import games
from rooms.models import Game, RoomTier
from rooms.tests.conftest import FAKE_BANKER
from wallets.models import LedgerTransaction
from wallets.selectors import wallet_balance

pytestmark = pytest.mark.django_db

# The real game's catalogue data (its demo rooms, its variants) with an engine that is never asked.
DOUDIZHU = dataclasses.replace(games.REGISTRY["doudizhu"], engine=object())


def run_demo() -> str:
    out = io.StringIO()
    call_command("load_demo", stdout=out, stderr=io.StringIO())
    return out.getvalue()


def snapshot() -> dict:
    users = get_user_model().objects.order_by("username")
    return {
        "games": list(Game.objects.values_list("slug", flat=True)),
        "tiers": list(
            RoomTier.objects.values_list("game__slug", "code", "base_stake", "room_factor", "options")
        ),
        "users": list(users.values_list("username", flat=True)),
        "transactions": LedgerTransaction.objects.count(),
        "balances": {u.username: wallet_balance(user=u) for u in users},
    }


def test_load_demo_installs_doudizhu_tiers_and_logins_and_is_idempotent(registry, settings):
    settings.SIGNUP_GRANT_COINS = 10000
    registry["doudizhu"] = DOUDIZHU
    registry[FAKE_BANKER.slug] = FAKE_BANKER
    output = run_demo()
    first = snapshot()
    again = run_demo()
    assert snapshot() == first

    tiers = {t.name: t for t in RoomTier.objects.filter(game__slug="doudizhu")}
    assert {
        name: (t.options["variant"], t.base_stake, t.room_factor, t.minimum_coins)
        for name, t in tiers.items()
    } == {
        "初级场": ("classic", 1, 1, 96),
        "中级场": ("yifa", 2, 5, 480),
        "高级场": ("jiabei", 5, 10, 960),
        "大师场": ("yifa", 10, 200, 19200),
    }
    assert all(t.bots_enabled and t.is_open and t.rake_bps == 500 for t in tiers.values())
    assert RoomTier.objects.filter(game__slug="fakedice").count() == 3

    users = {u.username: u for u in get_user_model().objects.all()}
    assert users["admin"].is_superuser and users["admin"].is_staff
    assert users["alice"].nickname and not users["alice"].is_staff
    # The first part of the sign-up grant; the rest comes as they play (platform/accounts/grants.py).
    assert first["balances"]["alice"] == first["balances"]["bob"] == settings.SIGNUP_GRANT_FIRST == 2000
    assert first["balances"]["carol"] == 22000
    for text in (output, again):
        assert "admin  / cardroom-admin" in text
        for name in ("alice", "bob", "carol"):
            assert f"{name}" in text and "cardroom-play" in text
    assert "0 new user(s)" in again and "0 new room tier(s)" in again


def test_load_demo_with_an_empty_registry_still_creates_the_logins(registry):
    run_demo()
    assert Game.objects.count() == 0
    assert get_user_model().objects.filter(username__in=["admin", "alice", "bob", "carol"]).count() == 4
