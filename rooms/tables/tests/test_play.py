"""The one path of a table's changes (rooms/tables/play.py): the kept play, its proof, its frames.

Every change takes the table's play under its row lock: the play this process
committed last when the table's ``seq`` proves nobody changed the table since,
else the rows read again. Whatever the way in, the frames a change sends are
the states a ``resync`` reads afterwards, and a refusal changes nothing.
"""

from __future__ import annotations

import json
import random

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from rooms import transport
from rooms.tables import play, services, store
from rooms.tables.broadcast import snapshot
from rooms.tables.clock import engine_for
from rooms.tables.errors import ActionRefused, NotYourTurn
from rooms.tables.models import Hand, HandAction, Seat, Table
from rooms.tables.replay import hand_replay
from rooms.tables.tests.conftest import expire, run_clock
from rooms.tables.tests.helpers import open_hand
from rooms.transport import frame_text

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]

CONTROL = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE", "ROLLBACK")


def actor_and_move(table) -> tuple:
    """The user whose turn it is at the table, and a legal move of theirs."""
    hand = open_hand(table)
    engine = engine_for(hand.game_slug)
    seat = engine.actors(hand.state)[0]
    user = Seat.objects.select_related("user").get(table=table, index=seat).user
    return user, engine.hint(hand.state, seat) or engine.legal_actions(hand.state, seat)[0]


def move(table) -> int:
    user, action = actor_and_move(table)
    return services.table_act(table_id=table.pk, user=user, action=action)


def statements(queries) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(CONTROL)]


def test_a_move_on_the_play_this_process_kept_reads_nothing(human_table):
    move(human_table)  # the first move reads the play; it is kept once the move commits
    user, action = actor_and_move(human_table)
    with CaptureQueriesContext(connection) as queries:
        services.table_act(table_id=human_table.pk, user=user, action=action)
    sql = statements(queries)
    # The seq's conditional bump (which locks the row and proves the kept play current), the
    # log entry, the hand: the same three statements on PostgreSQL and SQLite.
    assert len(sql) == 3, sql
    assert sql[0].startswith('UPDATE "tables_table" SET seq = seq + 1 WHERE (id, seq) IN (VALUES ')
    assert sql[1].startswith('INSERT INTO "tables_handaction"')
    assert sql[2].startswith('UPDATE "tables_hand"')


def test_a_change_by_anyone_else_is_read_from_the_database(human_table):
    """Another process, the worker or staff: every writer moves the table's seq on, so the kept play loses."""
    move(human_table)
    hand = open_hand(human_table)
    user, _action = actor_and_move(human_table)
    # Elsewhere, the actor takes 托管 (a change of the table: its seq moves on).
    Seat.objects.filter(user=user).update(trustee=True)
    Table.objects.filter(pk=human_table.pk).update(seq=F("seq") + 1)
    _user, action = actor_and_move(human_table)
    with CaptureQueriesContext(connection) as queries:
        services.table_act(table_id=human_table.pk, user=user, action=action)
    assert any(q.startswith('SELECT "tables_seat"') for q in statements(queries))  # read again
    assert not Seat.objects.get(user=user).trustee  # her move took control back, on the fresh seat
    assert HandAction.objects.filter(hand=hand).count() == 2


def test_a_refused_move_changes_nothing_and_the_next_one_plays(human_table):
    move(human_table)
    before = Table.objects.get(pk=human_table.pk).seq
    state = open_hand(human_table).state
    user, action = actor_and_move(human_table)
    other = Seat.objects.select_related("user").exclude(user=user).filter(table=human_table).first().user
    with pytest.raises(NotYourTurn, match="It is not your turn."):
        services.table_act(table_id=human_table.pk, user=other, action=action)
    with pytest.raises(ActionRefused):
        services.table_act(table_id=human_table.pk, user=user, action={"type": "play", "cards": ["XJ", "XJ"]})
    assert Table.objects.get(pk=human_table.pk).seq == before
    assert open_hand(human_table).state == state
    assert move(human_table) == before + 1


def test_a_move_on_a_table_that_keeps_moving_on_under_it_waits_for_the_lock_and_plays(
    human_table, monkeypatch
):
    """Another process's change commits before each of this move's writes: the last try takes the lock."""
    move(human_table)
    hand = open_hand(human_table)
    write_alone, lost = store.write_alone, []

    def another_change_first(w):
        Table.objects.filter(pk=w.table_id).update(seq=F("seq") + 1)
        lost.append(w.seq)
        return write_alone(w)

    monkeypatch.setattr(store, "write_alone", another_change_first)
    seq = move(human_table)
    assert len(lost) == play.ATTEMPTS - 1  # every try without the lock lost its race
    assert seq == Table.objects.get(pk=human_table.pk).seq
    assert HandAction.objects.filter(hand=hand).count() == 2


def test_a_whole_hand_of_moves_replays_and_settles_once(human_table):
    hand = open_hand(human_table)
    while Hand.objects.get(pk=hand.pk).status == Hand.Status.PLAYING:
        move(human_table)
    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED
    assert hand_replay(hand=hand).matches
    assert not play.kept_count() or human_table.pk not in play._kept  # a hand over is no play to keep


def test_every_change_sends_the_states_a_resync_reads(human_table, make_player, monkeypatch):
    """Moves, timeouts, 托管, presence, a settlement, readies and a deal, leaving: each from the kept play
    or from the rows read again, the frames each viewer gets are what a resync reads just after."""
    watcher = make_player()
    users = list(Seat.objects.filter(table=human_table).order_by("index").values_list("user", flat=True))
    checked = []

    def compared(messages) -> None:
        """Each change's frames, as it is sent (after its commit): against what a resync reads now."""
        for _group, message in messages:
            reading = play.read(human_table.pk)
            assert message["seq"] == reading.table.seq
            for index, user_id, texts in message["seats"]:
                if user_id is None:
                    continue
                expected = snapshot(reading, seat_index=index, balance=reading.balances.get(user_id))
                assert json.loads(texts[0]) == expected, (index, message["seq"])
            watching = snapshot(reading, seat_index=None, user_id=watcher.pk, balance=None)
            assert json.loads(message["watch"][0]) == watching
            checked.append(message["seq"])

    monkeypatch.setattr(transport, "send_many", compared)

    def check() -> None:
        assert checked, "the change sent nothing"
        checked.clear()

    rng = random.Random(5)
    move(human_table)
    check()
    user, _action = actor_and_move(human_table)
    services.table_trustee(table_id=human_table.pk, user=user, on=True)
    check()
    expire(open_hand(human_table))
    run_clock(max_steps=1)  # 托管 plays her turn
    check()
    services.table_presence(table_id=human_table.pk, user=user, connected=False)
    check()
    services.table_presence(table_id=human_table.pk, user=user, connected=True)
    check()
    while open_hand(human_table) is not None:  # to the end: the settlement's frames too
        user, _action = actor_and_move(human_table)
        hand = open_hand(human_table)
        engine = engine_for(hand.game_slug)
        seat = engine.actors(hand.state)[0]
        action = rng.choice(engine.legal_actions(hand.state, seat))
        services.table_act(table_id=human_table.pk, user=user, action=action)
    check()
    for user_id in users:  # the last ready deals the next hand
        services.table_ready(table_id=human_table.pk, user=Seat.objects.get(user_id=user_id).user)
        check()
    assert open_hand(human_table) is not None
    move(human_table)
    check()


def test_the_plays_kept_are_bounded(human_table, settings):
    settings.TABLE_STATE_CACHE = 1
    move(human_table)
    assert play.kept_count() == 1
    play.forget_all()
    assert play.kept_count() == 0


def test_frame_text_is_the_compact_json_of_its_value():
    value = {"type": "state", "seq": 3, "seats": [{"name": "甲", "carried": None}], 2: True}
    assert frame_text(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))
