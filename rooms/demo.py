"""The demo data ``manage.py load_demo`` installs: default tiers per game and a few logins.

Everything here is created only when missing, so running it again changes
nothing: tiers are looked up by (game, code), users by username, and the one
extra deposit carries a fixed idempotency key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

import games
from rooms import services
from rooms.models import Game, RoomTier

ADMIN_USERNAME = "admin"
ADMIN_PASSWORD = "cardroom-admin"
PLAYER_PASSWORD = "cardroom-play"
# (username, nickname); created through user_create so each gets the sign-up grant.
PLAYERS = (("alice", "阿丽"), ("bob", "老鲍"), ("carol", "小卡"))
# carol gets enough for the 大师场 (200 × 96 = 19200) that alice and bob cannot enter.
EXTRA_DEPOSIT = ("carol", 20000, "demo:deposit:carol:1")

# 斗地主: the minimum follows seed 002, 房间系数 N × 96.
DOUDIZHU_TIERS: tuple[dict[str, Any], ...] = (
    {
        "code": "novice",
        "name": "初级场",
        "base_stake": 1,
        "room_factor": 1,
        "options": {"variant": "classic"},
    },
    {"code": "middle", "name": "中级场", "base_stake": 2, "room_factor": 5, "options": {"variant": "yifa"}},
    {
        "code": "senior",
        "name": "高级场",
        "base_stake": 5,
        "room_factor": 10,
        "options": {"variant": "jiabei"},
    },
    {
        "code": "master",
        "name": "大师场",
        "base_stake": 10,
        "room_factor": 200,
        "options": {"variant": "yifa"},
    },
)

# Any other seated game: the minimum is 100 × 底分 (seed 002's 梭哈 rule, a safe default).
SEATED_TIERS: tuple[dict[str, Any], ...] = tuple(
    {
        "code": code,
        "name": name,
        "base_stake": base,
        "minimum_rule": RoomTier.MinimumRule.BASE_MULTIPLE,
        "minimum_multiplier": 100,
    }
    for code, name, base in (("novice", "初级场", 1), ("middle", "中级场", 5), ("senior", "高级场", 20))
)

# House-banked games: the base is the smallest bet; enter with 20 bets' worth.
BANKER_TIERS: tuple[dict[str, Any], ...] = tuple(
    {
        "code": code,
        "name": name,
        "base_stake": base,
        "minimum_rule": RoomTier.MinimumRule.BASE_MULTIPLE,
        "minimum_multiplier": 20,
    }
    for code, name, base in (("novice", "初级场", 10), ("middle", "中级场", 50), ("senior", "高级场", 200))
)

# 扎金花 (seed 002): the minimum to enter is the table cap (房间的上限); cap = 100 × 底分.
ZHAJINHUA_TIERS: tuple[dict[str, Any], ...] = tuple(
    {
        "code": code,
        "name": name,
        "base_stake": base,
        "minimum_rule": RoomTier.MinimumRule.TABLE_CAP,
        "table_cap": base * 100,
        # The engine's own cap on one player's total stake, in 底分 units, so the two agree.
        "options": {"player_cap": 100},
    }
    for code, name, base in (("novice", "初级场", 1), ("middle", "中级场", 5), ("senior", "高级场", 20))
)

# 必下德州 (seed 001): the base is the small blind (the big blind is twice it); the fixed
# stakes are 1, 2, 4 and 8 big blinds (the 高级场 has the seed's 200/400/800/1600);
# enter with 100 small blinds, so even the largest stake leaves coins for the next hand.
TEXAS_TIERS: tuple[dict[str, Any], ...] = tuple(
    {
        "code": code,
        "name": name,
        "base_stake": base,
        "minimum_rule": RoomTier.MinimumRule.BASE_MULTIPLE,
        "minimum_multiplier": 100,
        "seats": 6,
        # The small blind is the base (底分), the engine's default; the stakes are data.
        "options": {"bet_sizes": [1, 2, 4, 8]},
    }
    for code, name, base in (("novice", "初级场", 5), ("middle", "中级场", 25), ("senior", "高级场", 100))
)

# 百家乐 (seeds 001, 003): one table per tier, bets from 10 coins (the engine's min_bet);
# enter with 20 minimum bets. No rake: the house edge is the game's own (经典场's 5%
# commission on banker wins, 免佣场's half pay on a banker 6), so rake_bps is 0.
BACCARAT_TIERS: tuple[dict[str, Any], ...] = (
    {
        "code": "classic",
        "name": "经典场",
        "base_stake": 10,
        "minimum_rule": RoomTier.MinimumRule.FIXED,
        "fixed_minimum": 200,
        "rake_bps": 0,
        "options": {"variant": "commission"},
    },
    {
        "code": "no-commission",
        "name": "免佣场",
        "base_stake": 10,
        "minimum_rule": RoomTier.MinimumRule.FIXED,
        "fixed_minimum": 200,
        "rake_bps": 0,
        "options": {"variant": "super6"},
    },
)

GAME_TIERS = {
    "doudizhu": DOUDIZHU_TIERS,
    "zhajinhua": ZHAJINHUA_TIERS,
    "texas": TEXAS_TIERS,
    "baccarat": BACCARAT_TIERS,
}
FAMILY_TIERS = {Game.Family.SEATED: SEATED_TIERS, Game.Family.BANKER: BANKER_TIERS}


@dataclass
class DemoReport:
    games: int = 0
    tiers_created: int = 0
    users_created: int = 0
    deposits: int = 0


def demo_tiers_for(game: Game) -> tuple[dict[str, Any], ...]:
    return GAME_TIERS.get(game.slug) or FAMILY_TIERS.get(game.family, SEATED_TIERS)


def demo_load() -> DemoReport:
    """Install the catalogue, default tiers, the staff login and the demo players."""
    from platform.accounts.services import user_create
    from platform.accounts.validators import nickname_fold

    from wallets.services import wallet_deposit

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
    from wallets.models import LedgerTransaction

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
