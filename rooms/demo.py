"""The demo data ``manage.py load_demo`` installs: default tiers per game and a few logins.

Everything here is created only when missing, so running it again changes
nothing: tiers are looked up by (game, code), users by username, and the one
extra deposit carries a fixed idempotency key.
"""

from __future__ import annotations

from dataclasses import dataclass
from platform.accounts.services import user_create
from platform.accounts.validators import nickname_fold
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

import games
from rooms import services
from rooms.models import Game, RoomTier
from wallets.models import LedgerTransaction
from wallets.services import wallet_deposit

ADMIN_USERNAME = "admin"
ADMIN_PASSWORD = "cardroom-admin"
PLAYER_PASSWORD = "cardroom-play"
# (username, nickname); created through user_create so each gets the sign-up grant.
PLAYERS = (("alice", "阿丽"), ("bob", "老鲍"), ("carol", "小卡"))
# carol gets enough for the 大师场 (200 × 96 = 19200) that alice and bob cannot enter.
EXTRA_DEPOSIT = ("carol", 20000, "demo:deposit:carol:1")

# A seated game that names no demo rooms of its own (``GameInfo.demo_tiers``): the minimum is
# 100 × 底分 (a rule of seed 002, a safe default).
SEATED_TIERS: tuple[dict[str, Any], ...] = tuple(
    {
        "code": code,
        "name": name,
        "name_en": name_en,
        "base_stake": base,
        "minimum_rule": RoomTier.MinimumRule.BASE_MULTIPLE,
        "minimum_multiplier": 100,
    }
    for code, name, name_en, base in (
        ("novice", "初级场", "Novice room", 1),
        ("middle", "中级场", "Intermediate room", 5),
        ("senior", "高级场", "Senior room", 20),
    )
)

# A house-banked game without its own: the base is the smallest bet; enter with 20 bets' worth.
BANKER_TIERS: tuple[dict[str, Any], ...] = tuple(
    {
        "code": code,
        "name": name,
        "name_en": name_en,
        "base_stake": base,
        "minimum_rule": RoomTier.MinimumRule.BASE_MULTIPLE,
        "minimum_multiplier": 20,
    }
    for code, name, name_en, base in (
        ("novice", "初级场", "Novice room", 10),
        ("middle", "中级场", "Intermediate room", 50),
        ("senior", "高级场", "Senior room", 200),
    )
)

FAMILY_TIERS = {Game.Family.SEATED: SEATED_TIERS, Game.Family.BANKER: BANKER_TIERS}


@dataclass
class DemoReport:
    games: int = 0
    tiers_created: int = 0
    users_created: int = 0
    deposits: int = 0


def demo_tiers_for(game: Game) -> tuple[dict[str, Any], ...]:
    """Return the demo rooms of ``game``: its own (``GameInfo.demo_tiers``), else its family's."""
    info = games.REGISTRY.get(game.slug)
    return (info.demo_tiers if info else ()) or FAMILY_TIERS.get(game.family, SEATED_TIERS)


def demo_load() -> DemoReport:
    """Install the catalogue, default tiers, the staff login and the demo players."""

    report = DemoReport()
    services.catalogue_sync()
    for game in Game.objects.filter(slug__in=list(games.REGISTRY)).order_by("sort_order", "slug"):
        report.games += 1
        for index, spec in enumerate(demo_tiers_for(game)):
            _tier, created = services.tier_ensure(
                game=game, sort_order=(index + 1) * 10, bots_enabled=True, **spec
            )
            report.tiers_created += created

    User = get_user_model()
    admin = User.objects.filter(username=ADMIN_USERNAME).first()
    if admin is None:
        with transaction.atomic():
            admin = User.objects.create_superuser(
                username=ADMIN_USERNAME,
                password=ADMIN_PASSWORD,
                email="",
                nickname="管理员",
                nickname_key=nickname_fold("管理员"),  # no player may then call themselves 管理员
            )
        report.users_created += 1

    for username, nickname in PLAYERS:
        if not User.objects.filter(username=username).exists():
            user_create(username=username, password=PLAYER_PASSWORD, nickname=nickname)
            report.users_created += 1

    username, amount, key = EXTRA_DEPOSIT

    if not LedgerTransaction.objects.filter(key=key).exists():
        wallet_deposit(
            user=User.objects.get(username=username),
            amount=amount,
            key=key,
            actor=admin,
            reason="Demo top-up for the 大师场",
        )
        report.deposits += 1
    return report
