"""A pot carried from hand to hand (烂锅) through the table runtime, with a tiny game that ties on demand.

Each hand every seat stakes the 底注 (within what it carried); the first seat
says ``tie`` (the pot carries on, to the same players) or ``win`` (it takes this
hand's stakes and the carried pot). Coins are counted over wallets, the main
escrow, the tables' carried pots and the rake after every hand.
"""

import pytest
from django.db.models import Sum
from django.utils import timezone

import games
from games.base import GameInfo, IllegalAction, Outcome, SeatedEngine
from rooms.models import Game, RoomTier
from rooms.tables import seating, selectors, services
from rooms.tables.models import Hand, Seat, Table
from rooms.tables.tests.conftest import run_clock
from rooms.tables.tests.helpers import open_hand
from wallets.models import Account
from wallets.selectors import ledger_check

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]

SLUG = "pitstub"


class TieOrWin(SeatedEngine):
    def new_hand(self, config, seats, rng):
        carry = config.get("carry")
        if carry and any(s.player_id not in carry["players"] for s in seats):
            raise ValueError("only the carry's players")
        stake = int(config["base_stake"])
        return {
            "players": [s.player_id for s in seats],
            "bets": [min(stake, s.coins) for s in seats],
            "carry_in": carry["pot"] if carry else 0,
            "level": carry["level"] if carry else 0,
            "result": None,
            "script": list(config["script"]),
        }

    def actors(self, state):
        return [] if state["result"] else [0]

    def legal_actions(self, state, seat):
        return [{"type": "tie"}, {"type": "win"}] if seat in self.actors(state) else []

    def apply(self, state, seat, action):
        if seat not in self.actors(state) or action.get("type") not in ("tie", "win"):
            raise IllegalAction("Say tie or win.")
        return {**state, "result": action["type"]}

    def on_deadline(self, state):
        return self.apply(state, 0, self.auto_action(state, 0))

    def auto_action(self, state, seat):
        script = state["script"]
        return {"type": script[state["level"]] if state["level"] < len(script) else "win"}

    def deadline_seconds(self, state):
        return 30

    def view(self, state, seat):
        return {"phase": "finished" if state["result"] else "playing", "result": state["result"]}

    def outcome(self, state):
        if not state["result"]:
            return None
        bets, n = state["bets"], len(state["bets"])
        if state["result"] == "tie":
            carry = {"pot": state["carry_in"] + sum(bets), "level": state["level"] + 1}
            carry["players"] = list(state["players"])
            return Outcome([-b for b in bets], [], {"carry": carry})
        deltas = [-b for b in bets]
        deltas[0] = state["carry_in"] + sum(bets[1:])
        from_pot = [state["carry_in"]] + [0] * (n - 1)
        return Outcome(deltas, [0], {"carry": None, "from_carried_pot": from_pot})


GAME = GameInfo(
    slug=SLUG,
    name_zh="坑",
    name_en="Pit",
    family="seated",
    min_seats=2,
    max_seats=3,
    engine=TieOrWin(),
    default_options={"script": []},
)


@pytest.fixture
def pit_tier(db):
    games.REGISTRY[SLUG] = GAME
    game = Game.objects.create(
        slug=SLUG, name_zh="坑", name_en="Pit", family="seated", min_seats=2, max_seats=3
    )
    yield lambda script: RoomTier.objects.create(
        game=game,
        code=f"pit{len(script)}",
        name="坑",
        base_stake=10,
        minimum_rule=RoomTier.MinimumRule.FIXED,
        fixed_minimum=10,
        rake_bps=500,
        seats=3,
        bots_enabled=False,
        options={"script": script},
    )
    games.REGISTRY.pop(SLUG, None)


def coins() -> dict[str, int]:
    by = {"wallets": Account.Kind.PLAYER, "escrow": Account.Kind.ESCROW, "rake": Account.Kind.RAKE}
    out = {
        name: Account.objects.filter(kind=kind).aggregate(s=Sum("balance"))["s"] or 0
        for name, kind in by.items()
    }
    out["pot"] = (
        Account.objects.filter(code__startswith="escrow:table:").aggregate(s=Sum("balance"))["s"] or 0
    )
    return out


def total() -> int:
    c = coins()
    return c["wallets"] + c["escrow"] + c["rake"]  # escrow holds the carried pots too (kind escrow)


def seat_three(tier, make_player):
    players = [make_player(coins=45) for _ in range(3)]
    table = None
    for user in players:
        table = services.table_quick_start(tier_id=tier.pk, user=user)
        services.table_presence(table_id=table.pk, user=user, connected=True)
    return Table.objects.get(pk=table.pk), players


def play_hand(table) -> Hand:
    """Let the clock play the open hand (the first seat's scripted word) and settle it."""
    hand = open_hand(table)
    assert hand is not None and hand.status == "playing"
    Hand.objects.filter(pk=hand.pk).update(deadline=hand.started_at)  # its time is up
    from rooms.tables import play

    play.forget(table.pk)
    run_clock()
    hand.refresh_from_db()
    assert hand.status == "settled", hand.status
    for player, net in zip(hand.players, hand.outcome["net"], strict=True):
        assert net >= -player["carried"]  # nobody loses more than they carried into the hand
    assert ledger_check() == []
    return hand


def ready(table, users) -> None:
    for user in users:
        seating.table_ready(table_id=table.pk, user=user)


def test_a_chain_of_three_ties_carries_the_pot_and_a_leaver_loses_their_share(pit_tier, make_player):
    table, (alice, bob, carol) = seat_three(pit_tier(["tie", "tie", "tie"]), make_player)
    start = total()
    first = play_hand(table)  # 烂锅 1: 30 into the pot
    table.refresh_from_db()
    assert table.carry["pot"] == 30 and set(table.carry["players"]) == {alice.pk, bob.pk, carol.pk}
    assert coins()["pot"] == 30 and total() == start

    newcomer = make_player(coins=100)
    other = services.table_quick_start(tier_id=table.tier_id, user=newcomer)
    assert other.pk != table.pk  # newcomers may not join a chain

    first_seat_user = Seat.objects.get(table=table, index=0).user
    leaver = next(u for u in (alice, bob, carol) if u != first_seat_user)
    seating.table_leave(table_id=table.pk, user=leaver)  # their 10 stay in the pot
    stayers = [u for u in (alice, bob, carol) if u != leaver]
    ready(table, stayers)
    second = open_hand(table)
    assert second.config["carry"] == {"pot": 30, "level": 1, "players": table.carry["players"]}
    assert {p["user"] for p in second.players} == {u.pk for u in stayers}
    assert [s.index for s in Seat.objects.filter(table=table, user__isnull=False)] == [0, 1]
    play_hand(table)  # 烂锅 2
    ready(table, stayers)
    play_hand(table)  # 烂锅 3
    table.refresh_from_db()
    assert table.carry["level"] == 3 and coins()["pot"] == table.carry["pot"] == 30 + 20 + 20
    ready(table, stayers)
    last = play_hand(table)  # the first seat wins the pot
    winner = last.players[0]["user"]
    assert last.outcome["details"]["from_carried_pot"][0] == 70
    profit = last.outcome["deltas"][0]
    assert profit == 70 + 10 and last.outcome["rake"] == profit * 500 // 10000  # the rake on the profit
    table.refresh_from_db()
    assert table.carry is None and coins()["pot"] == 0 and coins()["escrow"] == 0
    assert total() == start + 100  # and the newcomer's coins
    assert first.number == 1 and last.number == 4
    leaver_wallet = Account.objects.get(user=leaver).balance
    assert leaver_wallet == 35 and Account.objects.get(user_id=winner).balance > 25


def test_a_chain_left_with_one_player_pays_them_the_pot(pit_tier, make_player):
    table, players = seat_three(pit_tier(["tie", "tie", "tie", "tie"]), make_player)
    start = total()
    play_hand(table)
    seated = [s.user for s in Seat.objects.filter(table=table).order_by("index")]
    seating.table_leave(table_id=table.pk, user=seated[2])
    ready(table, seated[:2])
    play_hand(table)  # 烂锅 2: pot 50
    table.refresh_from_db()
    assert table.carry["pot"] == 50
    seating.table_leave(table_id=table.pk, user=seated[1])  # the chain cannot go on: the last one takes it
    table.refresh_from_db()
    assert table.carry is None and coins()["pot"] == 0 and ledger_check() == []
    assert Account.objects.get(user=seated[0]).balance == 45 - 10 - 10 + 50
    assert total() == start
    other = make_player(coins=100)
    assert services.table_quick_start(tier_id=table.tier_id, user=other).pk == table.pk  # open again


def test_a_chain_whose_table_closes_shares_the_pot_among_its_last_players(pit_tier, make_player):
    from django.utils import timezone

    table, players = seat_three(pit_tier(["tie"]), make_player)
    start = total()
    # Every page goes away during the hand: at its settlement all stand up and the table closes.
    gone = timezone.now() - timezone.timedelta(hours=1)
    Seat.objects.filter(table=table).update(connected=False, away_since=gone, sockets=[])
    play_hand(table)  # 烂锅: 30 in the pot, then nobody is left to play for it
    table.refresh_from_db()
    assert table.status == "closed" and table.carry is None and coins()["pot"] == 0
    assert total() == start and ledger_check() == []
    # Shared equally by the players of its last hand: each gets their 10 back.
    assert [Account.objects.get(user=u).balance for u in players] == [45, 45, 45]


def test_a_chain_player_who_never_presses_ready_stands_up_and_the_others_play_for_the_pot(
    pit_tier, make_player, settings
):
    """One idle page would hold the pot and the table up for ever: the tick stands it up."""
    settings.TABLE_READY_LEAVE = 30
    table, players = seat_three(pit_tier(["tie", "tie"]), make_player)
    play_hand(table)  # 烂锅: the pot carries to the same three
    idle, *others = players
    ready(table, others)
    assert open_hand(table) is None  # the chain waits for its third player
    rows = selectors.table_snapshot(table_id=table.pk, user=idle)["table"]["seats"]
    waited_for = {row["index"] for row in rows if row["ready_by"] is not None}
    assert waited_for == {Seat.objects.get(table=table, user=idle).index}  # its page counts down
    services.tables_tick()
    assert Seat.objects.filter(table=table, user=idle).exists()  # within the time: still waited for
    ended = timezone.now() - timezone.timedelta(seconds=31)
    Hand.objects.filter(table=table).update(finished_at=ended)
    Seat.objects.filter(table=table).update(seated_at=ended)
    services.tables_tick()
    assert not Seat.objects.filter(table=table, user=idle).exists()
    second = open_hand(table)  # the two left play on for the pot, which keeps the idle one's stake
    assert {p["user"] for p in second.players} == {u.pk for u in others}
    assert second.config["carry"]["pot"] == 30
    assert ledger_check() == []


def test_nobody_is_stood_up_for_not_pressing_ready_while_nobody_else_has(pit_tier, make_player, settings):
    settings.TABLE_READY_LEAVE = 30
    table, players = seat_three(pit_tier(["tie"]), make_player)
    play_hand(table)
    ended = timezone.now() - timezone.timedelta(seconds=31)
    Hand.objects.filter(table=table).update(finished_at=ended)
    Seat.objects.filter(table=table).update(seated_at=ended)
    services.tables_tick()
    assert Seat.objects.filter(table=table, user__in=players).count() == 3
