"""Moves made on the play a process keeps in memory and committed in groups (rooms/tables/owner.py).

What a player must never see: a move lost, a move applied to a hand that had
moved on, frames ahead of the database, or a refusal the database's state
would not give. What the path is for: after one locking move, a table's next
moves cost the calling thread no statement, and moves of several tables share
one transaction.
"""

import asyncio
import random
import threading
from datetime import UTC, datetime, timedelta
from datetime import timezone as dt_timezone

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rooms.tables import broadcast, owner, services, state_cache
from rooms.tables.errors import NotYourTurn
from rooms.tables.models import Hand, HandAction, Seat, Table
from rooms.tables.replay import hand_replay
from rooms.tables.tests.conftest import expire
from rooms.tables.tests.helpers import open_hand, per_group
from rooms.tables.tests.test_queries import TRANSACTION_CONTROL, _actor, _fresh_states, _sent
from wallets.selectors import ledger_check

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_tables", "fresh_group_commit"),
    pytest.mark.postgres,  # the kept play needs PostgreSQL's row versions
]


def _pass(table, n: int) -> int:
    """The actor passes (while bidding the hand goes on); return the new seq."""
    hand, engine, seat = _actor(table)
    action = engine.legal_actions(hand.state, seat.index)[-1]
    return services.table_act(table_id=table.pk, user=seat.user, action=action, client_seq=n)


def test_after_one_locking_move_the_next_ones_cost_the_caller_no_statement(human_table):
    counts = []
    seqs = [Table.objects.get(pk=human_table.pk).seq]
    for n in range(1, 4):
        hand, engine, seat = _actor(human_table)
        action = engine.legal_actions(hand.state, seat.index)[-1]
        with CaptureQueriesContext(connection) as queries:
            seqs.append(
                services.table_act(table_id=human_table.pk, user=seat.user, action=action, client_seq=n)
            )
        counts.append(
            len([q for q in queries.captured_queries if not q["sql"].startswith(TRANSACTION_CONTROL)])
        )
    assert counts == [3, 0, 0]  # test_queries.py pins the locking move's three
    assert owner.group_commit().moves == 2 and owner.group_commit().transactions == 2
    assert seqs == list(range(seqs[0], seqs[0] + 4))
    table = Table.objects.get(pk=human_table.pk)
    hand = open_hand(human_table)
    assert table.seq == seqs[-1]
    assert hand.action_count == 3
    assert list(HandAction.objects.filter(hand=hand).order_by("n").values_list("n", flat=True)) == [1, 2, 3]


def test_the_frames_of_a_kept_move_are_the_state_a_resync_reads(human_table, monkeypatch):
    _pass(human_table, 1)
    sent = _sent(monkeypatch)
    seq = _pass(human_table, 2)
    assert owner.group_commit().moves == 1
    fresh = _fresh_states(human_table)
    assert {group: message["events"][0] for group, message in sent} == fresh
    assert all(state["seq"] == seq for state in fresh.values())


def test_a_whole_hand_of_kept_moves_replays_and_settles_once(human_table):
    """Random legal play to the end: the log replays to the stored state, and the ledger balances."""
    chooser = random.Random(7)
    hand = open_hand(human_table)
    for n in range(1, 400):
        if Hand.objects.get(pk=hand.pk).status != Hand.Status.PLAYING:
            break
        hand, engine, seat = _actor(human_table)
        action = chooser.choice(engine.legal_actions(hand.state, seat.index))
        services.table_act(table_id=human_table.pk, user=seat.user, action=action, client_seq=n)
    done = Hand.objects.get(pk=hand.pk)
    assert done.status in (Hand.Status.FINISHED, Hand.Status.SETTLED)
    assert owner.group_commit().moves >= done.action_count - 3  # all but the first move and the last
    replay = hand_replay(hand=done)
    assert replay.problems == [] and replay.state_matches and replay.outcome_matches
    assert ledger_check() == []


def test_a_kept_play_the_clock_overtook_refuses_as_the_database_says(human_table):
    """The server played for the actor elsewhere; this process still holds the play from before."""
    _pass(human_table, 1)
    behind = state_cache.play_kept(human_table.pk)
    assert behind is not None
    hand, engine, seat = _actor(human_table)
    expire(hand)
    hand.refresh_from_db()
    assert services.table_timeout(hand_id=hand.pk, token=hand.deadline_token)  # plays for the actor
    state_cache.play_keep(human_table.pk, behind)  # as another process that never saw it would hold it
    before = (Table.objects.get(pk=human_table.pk).seq, HandAction.objects.filter(hand=hand).count())
    with pytest.raises(NotYourTurn):
        services.table_act(
            table_id=human_table.pk,
            user=seat.user,
            action=engine.legal_actions(behind.hand.state, seat.index)[-1],
            client_seq=2,
        )
    assert (Table.objects.get(pk=human_table.pk).seq, HandAction.objects.filter(hand=hand).count()) == before
    assert owner.group_commit().moves == 1  # it was tried on the kept play, and refused by the check


def test_a_kept_play_behind_a_seat_change_writes_nothing_of_its_own(human_table):
    """Another writer moved the table on: the move runs on the database's play instead."""
    _pass(human_table, 1)
    behind = state_cache.play_kept(human_table.pk)
    hand, engine, seat = _actor(human_table)
    other = Seat.objects.select_related("user").exclude(pk=seat.pk).filter(table=human_table).first()
    services.table_trustee(table_id=human_table.pk, user=other.user, on=True)
    state_cache.play_keep(human_table.pk, behind)
    seq = _pass(human_table, 2)
    table = Table.objects.get(pk=human_table.pk)
    assert seq == table.seq
    assert Seat.objects.get(pk=other.pk).trustee  # the other writer's change stands
    assert open_hand(human_table).action_count == 2
    assert list(HandAction.objects.filter(hand=hand).order_by("n").values_list("n", flat=True)) == [1, 2]


def test_a_refused_move_on_a_kept_play_changes_nothing(human_table):
    from rooms.tables.errors import ActionRefused

    _pass(human_table, 1)
    hand, _engine, seat = _actor(human_table)
    seq = Table.objects.get(pk=human_table.pk).seq
    with pytest.raises(ActionRefused):
        services.table_act(
            table_id=human_table.pk, user=seat.user, action={"type": "bid", "value": 99}, client_seq=2
        )
    assert Table.objects.get(pk=human_table.pk).seq == seq
    assert open_hand(human_table).action_count == 1
    _pass(human_table, 3)  # and the kept play still serves the next move
    assert owner.group_commit().moves == 1


def test_moves_of_several_tables_waiting_together_share_one_transaction(ddz_tier, make_player):
    ddz_tier.bots_enabled = False
    ddz_tier.save(update_fields=["bots_enabled"])
    tables = []
    for _ in range(3):
        for user in [make_player(coins=5000) for _ in range(3)]:
            table = services.table_quick_start(tier_id=ddz_tier.pk, user=user)
            services.table_presence(table_id=table.pk, user=user, connected=True)
        tables.append(table)
    assert len({t.pk for t in tables}) == 3
    for n, table in enumerate(tables, 1):
        _pass(table, n)  # the locking move: each table's play is now kept
    seqs = {t.pk: Table.objects.get(pk=t.pk).seq for t in tables}
    commit = owner.group_commit()
    first_in, release = threading.Event(), threading.Event()
    real_write = commit._write

    def held_write(writes):
        if not first_in.is_set():
            first_in.set()
            assert release.wait(10)
        return real_write(writes)

    commit._write = held_write
    errors = []

    def move(table, n):
        try:
            _pass(table, n)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            from django.db import connections

            connections.close_all()

    first = threading.Thread(target=move, args=(tables[0], 10))
    first.start()
    assert first_in.wait(10)  # the first table's move holds the commit thread
    others = [threading.Thread(target=move, args=(t, 11)) for t in tables[1:]]
    for thread in others:
        thread.start()
    while len(commit._waiting) < 2:
        threading.Event().wait(0.01)
    release.set()
    for thread in [first, *others]:
        thread.join(10)
    assert errors == []
    assert commit.moves == 3 and commit.transactions == 2  # the two that waited went together
    for table in tables:
        assert open_hand(table).action_count == 2
        assert Table.objects.get(pk=table.pk).seq == seqs[table.pk] + 1


def _kept_after_one_move(table):
    """After one locking move: the table, its open hand and the hand's row version (``xmin``, ``ctid``)."""
    _pass(table, 1)
    hand = open_hand(table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT xmin::text, ctid::text FROM {Hand._meta.db_table} WHERE id = %s", [hand.pk])
        version = cursor.fetchone()
    return Table.objects.get(pk=table.pk), hand, version


def test_the_group_write_stores_every_value_as_the_model_holds_it(human_table):
    """The batch goes to PostgreSQL as JSON text: quotes, backslashes, non-ASCII text, large integers,
    nulls, an offset time and microseconds all arrive as they left."""
    table, hand, (xmin, ctid) = _kept_after_one_move(human_table)
    odd = ['a "quoted" \\ word', "牌 ♠ \u2028 end", 2**62, -(2**40), None, True, {"nested": [[], {}]}]
    hand.state = {**hand.state, "probe": odd}
    hand.deadline = datetime(2026, 12, 1, 13, 6, 7, 891011, tzinfo=dt_timezone(timedelta(hours=8)))
    hand.deadline_token += 1
    hand.action_count += 1
    at = datetime(2026, 12, 1, 5, 6, 7, 1, tzinfo=UTC)
    action = {"type": "pass", "note": odd}
    entry = [hand.pk, hand.action_count, None, action, True, at]
    version = owner.group_commit().commit(owner._Write(table.pk, table.seq, hand, xmin, ctid, [entry]))
    assert version is not None
    stored = Hand.objects.get(pk=hand.pk)
    assert stored.state == hand.state and stored.state["probe"] == odd
    assert stored.deadline == hand.deadline
    assert (stored.deadline_token, stored.action_count) == (hand.deadline_token, hand.action_count)
    logged = HandAction.objects.get(hand=hand, n=hand.action_count)
    assert (logged.seat, logged.action, logged.auto, logged.created_at) == (None, action, True, at)
    assert Table.objects.get(pk=table.pk).seq == table.seq + 1


def test_a_group_write_on_an_old_version_or_a_second_one_of_a_table_writes_nothing(human_table):
    """The write checks each move's versions itself: a move made on a row version that is gone, or a
    second move of a table in the same batch, is answered None and leaves no trace."""
    table, hand, (xmin, ctid) = _kept_after_one_move(human_table)

    def write(count, *, version=(xmin, ctid), seq=table.seq):
        moved = Hand.objects.get(pk=hand.pk)
        moved.action_count = count
        entry = [hand.pk, count, 0, {"type": "pass"}, False, moved.started_at]
        return owner._Write(table.pk, seq, moved, *version, [entry])

    commit = owner.group_commit()
    assert commit._write([write(90, version=("1", ctid))]) == [None]
    assert commit._write([write(91, seq=table.seq - 1)]) == [None]
    first, second = commit._write([write(92), write(93)])
    assert first is not None and second is None
    assert Hand.objects.get(pk=hand.pk).action_count == 92
    assert list(HandAction.objects.filter(hand=hand, n__gte=90).values_list("n", flat=True)) == [92]
    assert Table.objects.get(pk=table.pk).seq == table.seq + 1


def test_a_group_commit_whose_connection_the_database_ended_reconnects(human_table):
    from django.db import connections

    _pass(human_table, 1)
    _pass(human_table, 2)  # the commit thread now holds a connection
    pids: list[int] = []
    owner.group_commit().on_thread(lambda: pids.append(connections["default"].connection.info.backend_pid))
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pids[0]])
    threading.Event().wait(0.2)
    _pass(human_table, 3)
    assert open_hand(human_table).action_count == 3
    assert owner.group_commit().moves == 2


def test_another_process_s_change_heard_on_the_subscription_forgets_the_kept_play(human_table):
    """So the next move here reads the table again instead of failing the group commit's check."""
    import asyncio

    import msgpack

    from rooms.tables import fanout

    _pass(human_table, 1)
    assert state_cache.play_kept(human_table.pk) is not None
    loop = asyncio.new_event_loop()
    try:
        hub = fanout.TableFanout("redis://127.0.0.1:1/0", "test:frames:0:", loop=loop)
        channel = fanout.frames_channel(hub.prefix, human_table.pk).encode()
        body = msgpack.packb({"type": "table.frames", "seq": 99})
        hub._handle([b"message", channel, hub.origin + body])  # this process's own: nothing to forget
        assert state_cache.play_kept(human_table.pk) is not None
        hub._handle([b"message", channel, fanout.NO_ORIGIN + body])  # the worker's, the clock's, another's
        assert state_cache.play_kept(human_table.pk) is None
    finally:
        loop.close()
    _pass(human_table, 2)  # a locking move, which keeps the play again
    assert owner.group_commit().moves == 0
    assert state_cache.play_kept(human_table.pk) is not None


def test_a_failed_group_commit_fails_its_moves_and_the_next_ones_commit(human_table, monkeypatch):
    from django.db import OperationalError

    _pass(human_table, 1)
    commit = owner.group_commit()
    real_write = commit._write
    failures = [OperationalError("the database went away"), RuntimeError("a defect")]

    def failing_write(writes):
        if failures:
            raise failures.pop(0)
        return real_write(writes)

    monkeypatch.setattr(commit, "_write", failing_write)
    for n, expected in ((2, OperationalError), (3, RuntimeError)):
        hand = open_hand(human_table)
        with pytest.raises(expected):
            _pass(human_table, n)
        assert open_hand(human_table).action_count == hand.action_count  # nothing written
        assert state_cache.play_kept(human_table.pk) is None  # and nothing kept: the next move reads again
        _pass(human_table, 10 + n)  # a locking move, which keeps the play again
    _pass(human_table, 20)  # the thread is still there
    assert open_hand(human_table).action_count == 4
    assert commit.moves == 1


def _act_here(table, seat, action):
    """A socket's kept move, as its event loop makes it (``table_act_kept_here``)."""
    return owner.table_act_kept_here(table_id=table.pk, user=seat.user, action=action)


def test_a_socket_s_kept_move_is_made_on_its_loop_and_sends_what_a_resync_reads(human_table, monkeypatch):
    _pass(human_table, 1)  # the locking move keeps the play
    sent, threads = [], []

    async def send_here(messages):
        threads.append(threading.get_ident())
        sent.extend(per_group(messages))

    monkeypatch.setattr(broadcast, "send_messages_here", send_here)
    hand, engine, seat = _actor(human_table)
    before = Table.objects.get(pk=human_table.pk).seq

    async def move():
        threads.append(threading.get_ident())
        return await _act_here(human_table, seat, engine.legal_actions(hand.state, seat.index)[-1])

    seq = asyncio.run(move())
    assert seq == before + 1 == Table.objects.get(pk=human_table.pk).seq
    assert threads[0] == threads[1]  # judged and broadcast on the loop itself, after the commit
    assert owner.group_commit().moves == 1
    assert open_hand(human_table).action_count == 2
    assert {group: message["events"][0] for group, message in sent} == _fresh_states(human_table)


def test_a_second_kept_move_of_a_table_waits_for_the_first_and_builds_on_it(human_table, monkeypatch):
    """Two moves of one table on the loop at once: the second is judged on the play the first left."""
    _pass(human_table, 1)
    monkeypatch.setattr(broadcast, "send_messages_here", _no_send)
    hand, engine, first = _actor(human_table)
    first_action = engine.legal_actions(hand.state, first.index)[-1]
    after = engine.apply(hand.state, first.index, first_action)
    (second_index,) = engine.actors(after)
    second = Seat.objects.select_related("user").get(table=human_table, index=second_index)
    second_action = engine.legal_actions(after, second_index)[-1]
    before = Table.objects.get(pk=human_table.pk).seq

    async def both():
        return await asyncio.gather(
            _act_here(human_table, first, first_action), _act_here(human_table, second, second_action)
        )

    assert asyncio.run(both()) == [before + 1, before + 2]
    assert owner.group_commit().moves == 2 and owner.group_commit().transactions == 2
    assert open_hand(human_table).action_count == 3


def test_a_move_the_kept_play_cannot_judge_leaves_the_loop_for_the_locking_path(human_table, monkeypatch):
    _pass(human_table, 1)
    monkeypatch.setattr(broadcast, "send_messages_here", _no_send)
    hand, engine, seat = _actor(human_table)
    other = Seat.objects.select_related("user").exclude(index=seat.index).filter(table=human_table).first()
    before = Table.objects.get(pk=human_table.pk).seq
    assert asyncio.run(_act_here(human_table, other, {"type": "pass"})) is None  # not their turn
    assert asyncio.run(_act_here(human_table, seat, {"type": "no-such-move"})) is None
    assert Table.objects.get(pk=human_table.pk).seq == before
    assert owner.group_commit().moves == 0
    with pytest.raises(NotYourTurn):  # the locking path gives the database's refusal
        services.table_act(table_id=human_table.pk, user=other.user, action={"type": "pass"})


async def _no_send(messages):
    return None


def test_a_kept_move_whose_socket_goes_away_while_it_commits_is_still_committed_and_sent(
    human_table, monkeypatch
):
    _pass(human_table, 1)
    sent = []

    async def send_here(messages):
        sent.extend(per_group(messages))

    monkeypatch.setattr(broadcast, "send_messages_here", send_here)
    commit = owner.group_commit()
    held, release = threading.Event(), threading.Event()
    real_write = commit._write

    def held_write(writes):
        held.set()
        assert release.wait(10)
        return real_write(writes)

    commit._write = held_write
    hand, engine, seat = _actor(human_table)
    before = Table.objects.get(pk=human_table.pk).seq

    async def go_away():
        move = asyncio.ensure_future(
            _act_here(human_table, seat, engine.legal_actions(hand.state, seat.index)[-1])
        )
        while not held.is_set():
            await asyncio.sleep(0.01)
        move.cancel()  # the socket closed while its move waits for the commit
        with pytest.raises(asyncio.CancelledError):
            await move
        (task,) = owner._in_flight.values()
        release.set()
        return await task

    assert asyncio.run(go_away()) == before + 1
    assert Table.objects.get(pk=human_table.pk).seq == before + 1
    assert {group: message["events"][0] for group, message in sent} == _fresh_states(human_table)
    assert owner._in_flight == {}


async def test_a_socket_s_second_move_is_made_on_the_kept_play_without_the_table_s_thread(
    human_table, monkeypatch
):
    from channels.db import database_sync_to_async

    from rooms.tables.tests.test_consumers import latest_state, open_socket

    seats = await database_sync_to_async(
        lambda: list(human_table.seats.select_related("user").order_by("index"))
    )()
    sockets = {seat.index: await open_socket(human_table.pk, seat.user) for seat in seats}
    locking = []
    real_table_act = services.table_act
    monkeypatch.setattr(
        services, "table_act", lambda **kwargs: locking.append(kwargs["table_id"]) or real_table_act(**kwargs)
    )
    try:
        latest = {index: await latest_state(socket) for index, socket in sockets.items()}
        for n in (1, 2):
            (actor,) = latest[0]["hand"]["actors"]
            before = latest[0]["seq"]
            choice = latest[actor]["hand"]["view"]["choices"][-1]
            await sockets[actor].send_json_to({"type": "act", "seq": n, "action": choice})
            latest = {index: await latest_state(socket) for index, socket in sockets.items()}
            assert {state["seq"] for state in latest.values()} == {before + 1}  # every seat saw the move
            assert actor not in latest[actor]["hand"]["actors"]
        assert locking == [human_table.pk]  # the first move took the locking path in the table's lane
        assert owner.group_commit().moves == 1  # the second was made on the kept play, on the loop
    finally:
        for socket in sockets.values():
            await socket.disconnect()


def test_the_first_move_after_a_dealing_press_is_made_on_the_play_the_deal_kept(human_table):
    from rooms.tables.tests.test_queries import _between_hands

    players = _between_hands(human_table)
    for user in players:
        services.table_ready(table_id=human_table.pk, user=user)  # the last press deals
    hand, engine, seat = _actor(human_table)
    before = Table.objects.get(pk=human_table.pk).seq
    with CaptureQueriesContext(connection) as queries:
        seq = services.table_act(
            table_id=human_table.pk, user=seat.user, action=engine.legal_actions(hand.state, seat.index)[-1]
        )
    assert [q for q in queries.captured_queries if not q["sql"].startswith(TRANSACTION_CONTROL)] == []
    assert seq == before + 1 and owner.group_commit().moves == 1
    assert open_hand(human_table).action_count == 1


def test_a_kept_move_s_copies_of_the_table_and_hand_leave_the_kept_ones_as_they_were(human_table):
    table = Table.objects.select_related("tier").get(pk=human_table.pk)
    copied = owner._copied(table)
    assert copied is not table and copied.pk == table.pk and copied.tier is table.tier
    copied.seq += 5
    copied._state.fields_cache.pop("tier")
    assert table.seq == Table.objects.get(pk=table.pk).seq and "tier" in table._state.fields_cache
    assert copied._state.db == table._state.db and copied._state.adding is False
