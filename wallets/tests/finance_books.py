"""A small ledger built by hand for the finance report tests; every figure is worked out below.

Days are Asia/Shanghai days (UTC+8). Hands post their game and tier, as the
table runtime does (hand 3 does not, as it did before). Balances after each step:

- 02-28 12:00  grants 1000 to a, b, c                    a 1000  b 1000  c 1000
- 03-01 09:00  deposit 500 to a; withdraw 200 from b    a 1500  b  800
- 03-01 10:00  hand 1 (初级场): a, b, c stake 300;         a 1690  b  700  c  900  rake 10
               settled: a +490, b +200, c +200, rake 10
- 03-01 23:30 UTC (= 03-02 07:30 Shanghai) hand 2 (中级场): a, b stake 400;
               settled: a +300, b +495, rake 5          a 1590  b  795          rake 15
- 03-02 08:00  staff funds the bank: cashier → bank 1000 (adjustment)          bank 1000
- 03-02 20:00  hand 3 (初级场): a, c stake 200;            a 1723          c  760  rake 22
               settled: a +333, c +60, rake 7 (posted without its game and tier)
- 03-02 21:00  zhajinhua:1 bet: c −50 → bank; zhajinhua:2 payout: bank −20 → c
                                                                       c  730  bank 1030
"""

import datetime as dt
import zoneinfo
from contextlib import contextmanager
from dataclasses import dataclass

from rooms.models import Game, RoomTier
from rooms.tables.models import Hand, Table
from wallets.models import LedgerTransaction
from wallets.services import (
    house_account,
    ledger_post,
    wallet_deposit,
    wallet_for_user,
    wallet_grant,
    wallet_withdraw,
)

SHANGHAI = zoneinfo.ZoneInfo("Asia/Shanghai")
UTC = dt.UTC


def shanghai(month: int, day: int, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(2026, month, day, hour, minute, tzinfo=SHANGHAI)


@contextmanager
def posted_at(moment: dt.datetime, monkeypatch):
    """Stamp every transaction posted inside the block with ``moment``."""
    field = LedgerTransaction._meta.get_field("created_at")
    with monkeypatch.context() as patch:
        patch.setattr(field, "_get_default", lambda: moment)
        yield


@dataclass
class Books:
    a: object
    b: object
    c: object
    staff: object
    low: RoomTier
    mid: RoomTier
    hands: list


def _hand(tier: RoomTier, number: int) -> Hand:
    table = Table.objects.create(tier=tier, seat_count=3)
    return Hand.objects.create(table=table, number=number, game_slug=tier.game.slug, seed=b"s" * 32)


def _play(
    hand: Hand, stakes: dict, payouts: dict, rake: int, moment: dt.datetime, monkeypatch, attributed=True
) -> None:
    """Stake and settle ``hand``; ``attributed``: name its game and tier, as the posters do."""
    escrow, rake_account = house_account(code="escrow"), house_account(code="rake")
    names = {"game_slug": hand.game_slug, "tier_id": hand.table.tier_id} if attributed else {}
    with posted_at(moment, monkeypatch):
        legs = [(wallet_for_user(user=user), -amount) for user, amount in stakes.items()]
        ledger_post(
            key=f"hand:{hand.pk}:stake",
            kind="stake",
            legs=[*legs, (escrow, sum(stakes.values()))],
            reference=f"hand:{hand.pk}",
            **names,
        )
    with posted_at(moment + dt.timedelta(minutes=1), monkeypatch):
        legs = [(wallet_for_user(user=user), amount) for user, amount in payouts.items() if amount]
        ledger_post(
            key=f"hand:{hand.pk}:settle",
            kind="settlement",
            legs=[(escrow, -sum(stakes.values())), *legs, (rake_account, rake)],
            reference=f"hand:{hand.pk}",
            **names,
        )


def build_books(make_user, monkeypatch) -> Books:
    a, b, c = make_user(username="alice"), make_user(username="bob"), make_user(username="carol")
    staff = make_user(username="cashier-clerk", is_staff=True)
    ddz = Game.objects.create(
        slug="doudizhu",
        name_zh="斗地主",
        name_en="Fight the Landlord",
        family="seated",
        min_seats=3,
        max_seats=3,
    )
    Game.objects.create(
        slug="zhajinhua", name_zh="扎金花", name_en="Three cards", family="banker", min_seats=2, max_seats=6
    )
    low = RoomTier.objects.create(game=ddz, code="low", name="初级场", base_stake=1)
    mid = RoomTier.objects.create(game=ddz, code="mid", name="中级场", base_stake=5)
    with posted_at(shanghai(2, 28, 12), monkeypatch):
        for user in (a, b, c):
            wallet_grant(user=user, amount=1000, key=f"grant:{user.username}", reason="sign-up")
    with posted_at(shanghai(3, 1, 9), monkeypatch):
        wallet_deposit(user=a, amount=500, key="dep:a", actor=staff, reason="paid in")
        wallet_withdraw(user=b, amount=200, key="wd:b", actor=staff, reason="paid out")
    h1, h2, h3 = _hand(low, 1), _hand(mid, 1), _hand(low, 2)
    _play(h1, {a: 300, b: 300, c: 300}, {a: 490, b: 200, c: 200}, 10, shanghai(3, 1, 10), monkeypatch)
    _play(h2, {a: 400, b: 400}, {a: 300, b: 495}, 5, dt.datetime(2026, 3, 1, 23, 30, tzinfo=UTC), monkeypatch)
    with posted_at(shanghai(3, 2, 8), monkeypatch):
        ledger_post(
            key="fund-bank",
            kind="adjustment",
            legs=[(house_account(code="cashier"), -1000), (house_account(code="bank"), 1000)],
            reference=f"staff:{staff.pk}",
            actor=staff,
        )
    # Posted as the runtime did before it named game and tier: the reports read the reference.
    _play(h3, {a: 200, c: 200}, {a: 333, c: 60}, 7, shanghai(3, 2, 20), monkeypatch, attributed=False)
    bank, wallet_c = house_account(code="bank"), wallet_for_user(user=c)
    with posted_at(shanghai(3, 2, 21), monkeypatch):
        ledger_post(key="zjh:1", kind="bet", legs=[(wallet_c, -50), (bank, 50)], reference="zhajinhua:1")
        ledger_post(key="zjh:2", kind="payout", legs=[(bank, -20), (wallet_c, 20)], reference="zhajinhua:2")
    return Books(a=a, b=b, c=c, staff=staff, low=low, mid=mid, hands=[h1, h2, h3])
