"""What one table action costs the database, and that the cheaper broadcast shows the same state.

The load benchmark (bench/load.py) is bound by the work done per action under
the table lock; this pins the statements of ``table_act`` so that a change
which adds one is a conscious decision (update the number and say why).
"""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rooms.tables import broadcast, services
from rooms.tables.models import Hand, Seat
from rooms.tables.tests.conftest import expire
from rooms.tables.tests.helpers import open_hand, per_group

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]

# Lock the table (with tier and game) and bump its event seq in one UPDATE … RETURNING;
# lock the seats (with users) and the open hand and read the seated users' balances and
# levels for the broadcast in one SELECT; append the action and save the hand in one
# UPDATE with the INSERT in a CTE. (Six statements before the last two were folded.)
STATEMENTS_PER_ACTION = 3
TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE", "ROLLBACK")


def _actor(table):
    hand = open_hand(table)
    engine = broadcast.engine_for(hand.game_slug)
    seat = Seat.objects.select_related("user").get(table=table, index=engine.actors(hand.state)[0])
    return hand, engine, seat


@pytest.mark.postgres  # the written-out statements; another database runs the querysets
def test_one_action_costs_a_fixed_number_of_statements(human_table, settings):
    # The locking path, every move (after one, a move goes on the kept play: test_owner.py).
    settings.TABLE_KEPT_PLAY = False
    counts = []
    for n in range(1, 7):
        hand, engine, seat = _actor(human_table)
        action = engine.legal_actions(hand.state, seat.index)[-1]  # pass while bidding: the hand goes on
        with CaptureQueriesContext(connection) as queries:
            services.table_act(table_id=human_table.pk, user=seat.user, action=action, client_seq=n)
        statements = [
            q["sql"] for q in queries.captured_queries if not q["sql"].startswith(TRANSACTION_CONTROL)
        ]
        counts.append(len(statements))
        if open_hand(human_table) is None or open_hand(human_table).status != "playing":
            break
    assert counts and set(counts) == {STATEMENTS_PER_ACTION}, counts


def _sent(monkeypatch) -> list:
    sent: list = []
    monkeypatch.setattr(broadcast, "send_messages", lambda messages: sent.extend(per_group(messages)))
    return sent


def _fresh_states(table) -> dict[str, dict]:
    """Every viewer's state read again from the database, as a resync would build it."""
    ctx = broadcast.load_context(table.pk)
    states = {
        broadcast.seat_group(table.pk, s.index): broadcast.snapshot(
            ctx, seat_index=s.index, balance=ctx.balances.get(s.user_id)
        )
        for s in ctx.seats
    }
    states[broadcast.watch_group(table.pk)] = broadcast.snapshot(ctx, seat_index=None, balance=None)
    return states


def test_the_broadcast_of_an_action_is_the_state_a_resync_reads(human_table, monkeypatch):
    sent = _sent(monkeypatch)
    hand, engine, seat = _actor(human_table)
    seq = services.table_act(
        table_id=human_table.pk, user=seat.user, action=engine.legal_actions(hand.state, seat.index)[0]
    )
    fresh = _fresh_states(human_table)
    assert {group: message["events"][0] for group, message in sent} == fresh
    assert all(state["seq"] == seq for state in fresh.values())
    assert fresh[broadcast.seat_group(human_table.pk, seat.index)]["table"]["seats"][seat.index]["level"]


def test_the_broadcast_of_a_timeout_is_the_state_a_resync_reads(human_table, monkeypatch):
    sent = _sent(monkeypatch)
    hand = open_hand(human_table)
    expire(hand)
    hand.refresh_from_db()
    assert services.table_timeout(hand_id=hand.pk, token=hand.deadline_token)
    fresh = _fresh_states(human_table)
    assert {group: message["events"][0] for group, message in sent} == fresh
    # The seat whose time ran out is under 托管 in what everyone sees.
    assert any(s["trustee"] for s in fresh[broadcast.watch_group(human_table.pk)]["table"]["seats"])
    assert Hand.objects.get(pk=hand.pk).action_count == 1


def test_the_locking_reads_return_what_the_querysets_return(human_table):
    from django.db import transaction

    from rooms.tables import core

    def fields(obj) -> dict:
        return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}

    with transaction.atomic():
        table = core.lock_table(human_table.pk)
        seats = core.lock_seats(table)
        hand = core.open_hand(table)
    orm_table = type(human_table).objects.select_related("tier__game").get(pk=human_table.pk)
    assert fields(table) == fields(orm_table)
    assert fields(table.tier) == fields(orm_table.tier)
    assert fields(table.tier.game) == fields(orm_table.tier.game)
    orm_seats = list(Seat.objects.filter(table=human_table).select_related("user").order_by("index"))
    assert [fields(s) for s in seats] == [fields(s) for s in orm_seats]
    assert [fields(s.user) if s.user_id else None for s in seats] == [
        fields(s.user) if s.user_id else None for s in orm_seats
    ]
    orm_hand = Hand.objects.filter(table=human_table, status__in=["playing", "finished"]).first()
    assert fields(hand) == fields(orm_hand)
    assert isinstance(hand.state, dict) and hand.state == orm_hand.state

    # The action's one statement for the seats, the hand and the broadcast's balances and levels.
    with transaction.atomic():
        table = core.lock_table(human_table.pk)
        play = core.lock_play(table)
    assert [fields(s) for s in play.seats] == [fields(s) for s in orm_seats]
    assert [fields(s.user) if s.user_id else None for s in play.seats] == [
        fields(s.user) if s.user_id else None for s in orm_seats
    ]
    assert fields(play.hand) == fields(orm_hand)
    assert isinstance(play.hand.state, dict) and play.hand.state == orm_hand.state
    ctx = broadcast.load_context(human_table.pk)
    assert play.balances == ctx.balances and len(play.balances) == 3
    assert (
        broadcast._context(table, play.seats, play.hand, None, (play.balances, play.wins)).levels
        == ctx.levels
    )


def test_the_action_statement_finds_no_hand_between_hands(human_table):
    from django.db import transaction

    from rooms.tables import core

    Hand.objects.filter(table=human_table).update(status="cancelled")
    with transaction.atomic():
        play = core.lock_play(core.lock_table(human_table.pk))
    assert play.hand is None and len(play.seats) == 3


def test_each_frame_is_the_text_of_the_viewers_snapshot(human_table):
    """The frames are spliced from their parts' JSON; each must be exactly the snapshot's text."""
    hand, engine, seat = _actor(human_table)
    ctx = broadcast.load_context(human_table.pk)
    message = broadcast.frames_message(ctx, [{"type": "notice", "text": "发牌"}])
    assert len(message["seats"]) == 3
    for index, user_id, frames in message["seats"]:
        expected = broadcast.snapshot(ctx, seat_index=index, balance=ctx.balances.get(user_id))
        assert frames[0] == broadcast.frame_text(expected)
        assert frames[1] == broadcast.frame_text({"type": "notice", "text": "发牌", "seq": ctx.table.seq})
    for index, _user_id, frames in message["seats"]:
        state = json.loads(frames[0])
        assert state["you"]["seat"] == index and state["hand"]["view"] == engine.view(hand.state, index)
    watch = broadcast.snapshot(ctx, seat_index=None, balance=None)
    assert message["watch"][0] == broadcast.frame_text(watch) and watch["hand"]["hint"] is None


def test_a_refused_action_leaves_the_event_sequence_where_it_was(human_table):
    from rooms.tables.errors import NotYourTurn
    from rooms.tables.models import Table

    hand, engine, seat = _actor(human_table)
    other = Seat.objects.select_related("user").exclude(index=seat.index).filter(table=human_table).first()
    before = Table.objects.get(pk=human_table.pk).seq
    with pytest.raises(NotYourTurn):
        services.table_act(table_id=human_table.pk, user=other.user, action={"type": "pass"})
    assert Table.objects.get(pk=human_table.pk).seq == before
    seq = services.table_act(
        table_id=human_table.pk, user=seat.user, action=engine.legal_actions(hand.state, seat.index)[-1]
    )
    assert seq == before + 1 == Table.objects.get(pk=human_table.pk).seq


def test_frame_text_is_the_compact_json_of_its_value():
    """``frame_text`` (orjson) writes json.dumps's text, character for character, with one exception:
    a non-finite number, which JSON cannot carry, is null (json.dumps wrote ``Infinity``, which a
    browser's ``JSON.parse`` refuses)."""
    values = [
        None,
        'a"b\\c\n\u4e2d\u6587 \u2603 \U0001f0cf \u2028 \x00 \x7f',
        [1, -2.5, 1e100, 1e16, 0.1, -0.0, 12345678901234567890, True, False],
        {"seat": 0, 1: "int key", "nested": {"cards": ["As", "XJ"], "empty": [], "none": None}},
        [2**70, -(2**64)],  # past 64 bits: the standard library writes them
    ]
    for value in values:
        assert broadcast.frame_text(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    assert broadcast.frame_text([float("inf"), float("nan")]) == "[null,null]"
    with pytest.raises(TypeError):
        broadcast.frame_text({"when": object()})


@pytest.mark.postgres  # prepared statements are PostgreSQL's
def test_the_written_out_statements_are_prepared_and_read_the_same(human_table):
    """Past ``prepare_threshold`` runs the statements are prepared on the connection, and read the same rows."""
    from django.db import transaction

    from rooms.tables import core

    threshold = connection.settings_dict["OPTIONS"].get("prepare_threshold")  # DB_PREPARE_THRESHOLD

    def prepared() -> set[str]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT statement FROM pg_prepared_statements")
            return {row[0] for row in cursor.fetchall()}

    reads = []
    for _ in range((threshold or 5) + 2):
        with transaction.atomic():
            table = core.lock_table(human_table.pk)
            play = core.lock_play(table)
        reads.append((table, play))
    if threshold is None:  # "off" (a pooler that cannot keep them): nothing is prepared
        assert not prepared()
    else:
        assert any("FOR UPDATE OF s" in text for text in prepared())
        assert any("FOR UPDATE OF t" in text for text in prepared())

    def fields(obj) -> dict:
        return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}

    first, last = reads[0], reads[-1]
    assert fields(first[0]) == fields(last[0]) and fields(first[1].hand) == fields(last[1].hand)
    assert [fields(s.user) for s in first[1].seats] == [fields(s.user) for s in last[1].seats]
    orm_hand = Hand.objects.get(pk=last[1].hand.pk)
    # The same aware datetimes, in the same zone, as the ORM's own loader gives.
    assert last[1].hand.started_at == orm_hand.started_at
    assert last[1].hand.started_at.tzinfo is orm_hand.started_at.tzinfo


# A press of ready that leaves the table waiting for the others: lock the table and bump its seq
# (one UPDATE … RETURNING); lock the player's seat with their balance for the entry check; list
# and lock the tier's other waiting tables with a ready human (分组), then ask which of them has
# a free seat (only when any was locked); save the seat; lock the seats for the start check and
# the broadcast; read the latest hand and the balances and levels for the broadcast. Before
# 30 Nov: 13 statements alone in the tier, 20 with three other waiting tables (two per table).
STATEMENTS_PER_READY = 8
# The press that deals: the same up to the seats' lock, then every seated user's wallet locked
# with their wins and the escrow account's id (one SELECT, deal_statements.stake_lock); the hand,
# its participants, the seats not ready and the table playing in one INSERT with CTEs, the hand's
# first deadline and stake key in it; the stake through ledger_post_many (the transaction's
# INSERT … ON CONFLICT, the accounts' lock, the balances with the entries): 3. The broadcast
# reads nothing (the balances are the stake's, the wins the wallets' lock read). Before 30 Nov:
# 35 alone in the tier, 42 with three other waiting tables; before 1 Dec: 25 (9 the ledger's).
STATEMENTS_PER_DEALING_READY = 11


def _between_hands(table) -> list:
    """Cancel the table's hand: it waits, every human to press ready. Return its players by seat."""
    services.hand_cancel(hand_id=open_hand(table).pk, reason="test")
    return [s.user for s in Seat.objects.filter(table=table).select_related("user").order_by("index")]


def _full_waiting_tables(tier, make_player, count: int) -> None:
    """Other tables of the tier between hands, each full of humans, one of them ready (no seat for 分组)."""
    from django.utils import timezone

    from rooms.tables.models import Table

    for _ in range(count):
        table = Table.objects.create(tier=tier, seat_count=3)
        players = [make_player(coins=5000) for _ in range(3)]
        Seat.objects.bulk_create(
            [
                Seat(table=table, index=i, user=user, ready=i == 0, seated_at=timezone.now())
                for i, user in enumerate(players)
            ]
        )


def _statements(queries) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(TRANSACTION_CONTROL)]


@pytest.mark.postgres  # the written-out statements; another database runs the querysets
@pytest.mark.parametrize("others", [0, 3], ids=["alone-in-the-tier", "three-tables-waiting"])
def test_a_ready_costs_a_fixed_number_of_statements_whatever_waits_in_the_tier(
    human_table, ddz_tier, make_player, others
):
    players = _between_hands(human_table)
    _full_waiting_tables(ddz_tier, make_player, others)
    counts = []
    for user in players:
        with CaptureQueriesContext(connection) as queries:
            assert services.table_ready(table_id=human_table.pk, user=user) == human_table
        counts.append(len(_statements(queries)))
    free_seats_asked = 1 if others else 0  # only when 分组 locked another table
    waiting = STATEMENTS_PER_READY - 1 + free_seats_asked
    assert counts == [waiting, waiting, STATEMENTS_PER_DEALING_READY - 1 + free_seats_asked], counts
    assert open_hand(human_table).status == "playing"


def test_the_broadcasts_of_readies_are_the_states_a_resync_reads(human_table, monkeypatch):
    """Each press's frames (built from the rows the press locked) are what ``load_context`` reads."""
    players = _between_hands(human_table)
    sent = _sent(monkeypatch)
    for n, user in enumerate(players, 1):
        sent.clear()
        services.table_ready(table_id=human_table.pk, user=user)
        fresh = _fresh_states(human_table)
        assert {group: message["events"][0] for group, message in sent} == fresh
        watch = fresh[broadcast.watch_group(human_table.pk)]
        if n < len(
            players
        ):  # still waiting: the cancelled hand is the last one, the presses so far are ready
            assert watch["hand"] is None and watch["last_hand"]["status"] == "cancelled"
            assert [s["ready"] for s in watch["table"]["seats"]] == [i < n for i in range(len(players))]
        else:  # dealt: nobody is ready any more, the new hand is on
            assert watch["hand"]["number"] == 2 and watch["last_hand"] is None
            assert [s["ready"] for s in watch["table"]["seats"]] == [False] * len(players)
            assert [s["carried"] for s in watch["table"]["seats"]] == [5000] * len(players)


def test_the_broadcasts_of_a_regrouping_ready_are_the_states_a_resync_reads(
    human_table, ddz_tier, make_player, monkeypatch
):
    """分组 moves the player: both tables' frames are what ``load_context`` reads of each."""
    from django.utils import timezone

    from rooms.tables import seating
    from rooms.tables.models import Table

    players = _between_hands(human_table)
    there = Table.objects.create(tier=ddz_tier, seat_count=3)
    Seat.objects.bulk_create([Seat(table=there, index=i) for i in range(3)])
    Seat.objects.filter(table=there, index=0).update(
        user=make_player(coins=5000), ready=True, seated_at=timezone.now()
    )
    monkeypatch.setattr(seating.secrets, "choice", lambda choices: choices[-1])
    sent = _sent(monkeypatch)

    assert services.table_ready(table_id=human_table.pk, user=players[0]) == there

    fresh = {**_fresh_states(human_table), **_fresh_states(there)}
    assert {group: message["events"][0] for group, message in sent} == fresh
    mine = fresh[broadcast.watch_group(human_table.pk)]["table"]["seats"]
    theirs = fresh[broadcast.watch_group(there.pk)]["table"]["seats"]
    assert [s["name"] is not None for s in mine] == [False, True, True]
    assert [(s["name"] is not None, s["ready"]) for s in theirs] == [
        (True, True),
        (True, True),
        (False, False),
    ]


def test_the_broadcasts_of_presence_and_trustee_between_hands_show_the_last_hand_as_a_resync_does(
    human_table, monkeypatch
):
    """A page closing and a 托管 switch after a hand: everyone's frames keep the finished hand's panel."""
    from rooms.tables.tests.helpers import play_until_over

    players = [
        s.user for s in Seat.objects.filter(table=human_table).select_related("user").order_by("index")
    ]
    hand, engine, seat = _actor(human_table)
    # Someone bids: 托管 never does, and three seats under it would pass every deal (a void hand).
    services.table_act(
        table_id=human_table.pk, user=seat.user, action=engine.legal_actions(hand.state, seat.index)[0]
    )
    for user in players:
        services.table_trustee(table_id=human_table.pk, user=user, on=True)
    hand = play_until_over(open_hand(human_table).pk)
    assert hand.status == "settled" and open_hand(human_table) is None
    sent = _sent(monkeypatch)
    changes = [
        lambda: services.table_presence(table_id=human_table.pk, user=players[0], connected=False),
        lambda: services.table_trustee(table_id=human_table.pk, user=players[1], on=False),
    ]
    for change in changes:
        sent.clear()
        change()
        fresh = _fresh_states(human_table)
        assert {group: message["events"][0] for group, message in sent} == fresh
        watch = fresh[broadcast.watch_group(human_table.pk)]
        assert watch["hand"] is None and watch["last_hand"]["id"] == hand.pk
        assert watch["last_hand"]["status"] == "settled" and watch["last_hand"]["view"]
    mine = fresh[broadcast.seat_group(human_table.pk, 1)]
    assert mine["you"]["trustee"] is False and mine["last_hand"]["seed"] == bytes(hand.seed).hex()


@pytest.mark.postgres  # the written-out statements; another database runs the querysets
def test_the_ready_reads_return_what_the_querysets_return(human_table, ddz_tier, make_player):
    from django.db import transaction
    from django.utils import timezone

    from rooms.tables import ready_reads
    from rooms.tables.models import Table

    def fields(obj) -> dict:
        return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}

    players = _between_hands(human_table)
    _full_waiting_tables(ddz_tier, make_player, 2)
    roomy = Table.objects.create(tier=ddz_tier, seat_count=3)
    Seat.objects.bulk_create([Seat(table=roomy, index=i) for i in range(3)])
    Seat.objects.filter(table=roomy, index=0).update(user=make_player(), ready=True, seated_at=timezone.now())
    stranger = make_player()  # seated nowhere, no coins yet
    for user in [players[0], stranger]:
        with transaction.atomic():
            seat, balance = ready_reads.own_seat_lock(human_table, user)
            orm_seat, orm_balance = ready_reads.own_seat_lock_orm(human_table, user)
        assert (fields(seat) if seat else None, balance) == (
            fields(orm_seat) if orm_seat else None,
            orm_balance,
        )
    assert balance == 0 and seat is None and players[0].pk != stranger.pk

    with transaction.atomic():
        others = ready_reads.regroup_candidates(human_table)
        orm_others = ready_reads.regroup_candidates_orm(human_table)
    assert [t.pk for t in others] == [roomy.pk]
    assert [(fields(t), fields(t.tier), fields(t.tier.game)) for t in others] == [
        (fields(t), fields(t.tier), fields(t.tier.game)) for t in orm_others
    ]

    hand = ready_reads.latest_hand(human_table)
    orm_hand = ready_reads.latest_hand_orm(human_table)
    assert fields(hand) == fields(orm_hand) and hand.status == "cancelled"
    assert isinstance(hand.state, dict) and hand.state == orm_hand.state
    assert ready_reads.latest_hand(roomy) is None

    # The press's write: the seat's readiness and time, the other fields as they were.
    seat = Seat.objects.get(table=human_table, user=players[1])
    before = fields(seat)
    seat.ready, seat.seated_at = True, timezone.now()
    ready_reads.seat_ready_save(seat)
    assert fields(Seat.objects.get(pk=seat.pk)) == {**before, "ready": True, "seated_at": seat.seated_at}


@pytest.mark.postgres  # the written-out statements; another database runs the querysets
def test_the_deal_statements_do_what_the_querysets_do(human_table, make_player):
    """``stake_lock`` reads what its querysets read; ``hand_insert`` writes the rows its ORM form writes."""
    from platform.accounts.models import GameStats

    from django.db import transaction
    from django.utils import timezone

    from rooms.tables import deal_statements
    from rooms.tables.models import Table

    def fields(obj) -> dict:
        return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}

    players = _between_hands(human_table)
    GameStats.objects.create(user=players[1], game_slug="doudizhu", hands=3, wins=2)
    user_ids = [p.pk for p in players] + [make_player().pk]
    with transaction.atomic():
        reads = deal_statements.stake_lock(human_table, user_ids)
        orm = deal_statements.stake_lock_orm(human_table, user_ids)
    assert {k: fields(v) for k, v in reads.wallets.items()} == {k: fields(v) for k, v in orm.wallets.items()}
    pks = [account.pk for account in reads.wallets.values()]
    assert pks == sorted(pks) and len(pks) == len(user_ids)  # locked in primary-key order
    assert reads.wins == orm.wins == {players[1].pk: 2}
    assert (reads.escrow.pk, reads.escrow.kind) == (orm.escrow.pk, orm.escrow.kind)

    def deal(insert) -> Hand:
        hand = Hand(
            table=human_table,
            number=0,
            game_slug="doudizhu",
            seed=b"s" * 32,
            config={"b": 1, "a": [2]},
            players=[{"user": p.pk, "carried": 7} for p in players],
            state={"z": 1, "a": {"b": None}},
            deadline=timezone.now(),
            deadline_token=1,
        )
        hand.started_at = now = timezone.now()
        with transaction.atomic():
            insert(hand, table=human_table, humans=[p.pk for p in players[:2]], staked=True, now=now)
        assert hand.stake_key == f"hand:{hand.pk}:stake" and not hand._state.adding
        saved = Hand.objects.get(pk=hand.pk)
        assert fields(saved) == fields(hand)
        assert sorted(saved.participants.values_list("pk", flat=True)) == sorted(p.pk for p in players[:2])
        table = Table.objects.get(pk=human_table.pk)
        assert (table.status, table.updated_at) == ("playing", now)
        assert not Seat.objects.filter(table=human_table, ready=True).exists()
        return saved

    Seat.objects.filter(table=human_table).update(ready=True)
    first = deal(deal_statements.hand_insert)
    Hand.objects.filter(pk=first.pk).update(status="cancelled")  # no stake was posted to refund
    Seat.objects.filter(table=human_table).update(ready=True)
    second = deal(deal_statements.hand_insert_orm)
    assert (first.number, second.number) == (2, 3)
