"""Chip dumping (输送筹码): pairs of players who often share tables while coins flow one way.

A player who loses on purpose to a partner moves coins to them through the
game (a farm of sign-up grants feeding one account, or coins sold for money).
This report reads the settled hands of a range of site days (``Hand.players``
for who sat where, ``Hand.outcome["deltas"]`` for each seat's result under the
game's rules, before the house's rake) and, for every pair of human players who
shared hands, adds up what flowed between them.

Within one hand the losers' losses are what the winners won (a seated game's
deltas sum to zero). Each loser's loss is shared among the winners in
proportion to what each won, so the flow from loser ``a`` to winner ``b`` is
``loss(a) × win(b) / all wins`` (rounded down per hand). A bot winner takes its
share too; bots are never reported. A pair is reported when it shared at least
``min_hands`` hands, the net flow between them is at least ``min_coins``, and
at least ``min_share`` percent of what flowed between them went one way.

It reads rooms' hands, so it lives in rooms and is served under /finance/ by
``rooms.tables.finance_urls`` with the finance reports' permissions (the
wallets app reads no game data).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from itertools import combinations

from django.contrib.auth import get_user_model
from django.db.models.fields.json import KeyTransform

from rooms.tables.models import Hand
from wallets.reports import day_range

MIN_HANDS = 10
MIN_SHARE = 80  # percent
MIN_COINS = 1000


@dataclass(frozen=True)
class DumpingPair:
    """Two players, the hands they shared and the coins that flowed between them."""

    sender_id: int
    receiver_id: int
    sender: str
    receiver: str
    hands: int  # settled hands both played in
    sender_hands: int  # all the sender's settled hands in the range
    sent: int  # sender → receiver
    returned: int  # receiver → sender

    @property
    def net(self) -> int:
        return self.sent - self.returned

    @property
    def one_sided(self) -> int:
        """Return the percent of the coins that flowed between them that went sender → receiver."""
        return self.sent * 100 // (self.sent + self.returned) if self.sent + self.returned else 0

    @property
    def together(self) -> int:
        """Return the percent of the sender's hands that the receiver shared."""
        return self.hands * 100 // self.sender_hands if self.sender_hands else 0


@dataclass
class DumpingReport:
    start: dt.date
    end: dt.date
    min_hands: int
    min_share: int
    min_coins: int
    hands_read: int = 0
    pairs: list[DumpingPair] = field(default_factory=list)


def _hand_flows(players: list[dict], deltas: list[int]) -> list[tuple[int, int, int]]:
    """Return (loser's user id, winner's user id, coins) for one hand's pairs of humans."""
    total_won = sum(delta for delta in deltas if delta > 0)
    if not total_won:
        return []
    flows = []
    for loser, loss in zip(players, deltas, strict=True):
        if loss >= 0 or loser["is_bot"]:
            continue
        for winner, won in zip(players, deltas, strict=True):
            if won > 0 and not winner["is_bot"] and winner["user"] != loser["user"]:
                flows.append((loser["user"], winner["user"], -loss * won // total_won))
    return flows


def chip_dumping(
    *,
    start: dt.date,
    end: dt.date,
    min_hands: int = MIN_HANDS,
    min_share: int = MIN_SHARE,
    min_coins: int = MIN_COINS,
) -> DumpingReport:
    """Return the pairs whose shared hands in ``start..end`` moved coins one way, largest net first."""
    report = DumpingReport(
        start=start, end=end, min_hands=min_hands, min_share=min_share, min_coins=min_coins
    )
    since, until = day_range(start, end)
    rows = (
        Hand.objects.filter(status=Hand.Status.SETTLED, settled_at__gte=since, settled_at__lt=until)
        .annotate(deltas=KeyTransform("deltas", "outcome"))
        .values_list("players", "deltas")
    )
    hands_of: Counter[int] = Counter()
    shared: Counter[tuple[int, int]] = Counter()
    flow: defaultdict[tuple[int, int], int] = defaultdict(int)  # (from, to) → coins
    for players, deltas in rows.iterator(chunk_size=2000):
        report.hands_read += 1
        humans = sorted({p["user"] for p in players if not p["is_bot"]})
        hands_of.update(humans)
        shared.update(combinations(humans, 2))
        if deltas and len(deltas) == len(players):
            for source, target, coins in _hand_flows(players, deltas):
                flow[source, target] += coins
    found = []
    for (a, b), hands in shared.items():
        if hands < min_hands:
            continue
        a_to_b, b_to_a = flow[a, b], flow[b, a]
        sender, receiver = (a, b) if a_to_b >= b_to_a else (b, a)
        sent, returned = max(a_to_b, b_to_a), min(a_to_b, b_to_a)
        if sent - returned < min_coins or sent * 100 < min_share * (sent + returned):
            continue
        found.append((sender, receiver, hands, sent, returned))
    names = dict(
        get_user_model()
        .objects.filter(pk__in={user for row in found for user in row[:2]})
        .values_list("pk", "username")
    )
    report.pairs = sorted(
        (
            DumpingPair(
                sender_id=sender,
                receiver_id=receiver,
                sender=names.get(sender, str(sender)),
                receiver=names.get(receiver, str(receiver)),
                hands=hands,
                sender_hands=hands_of[sender],
                sent=sent,
                returned=returned,
            )
            for sender, receiver, hands, sent, returned in found
        ),
        key=lambda pair: (-pair.net, pair.sender, pair.receiver),
    )
    return report
