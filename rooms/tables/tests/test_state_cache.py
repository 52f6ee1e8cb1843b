"""A move reads back the state its process committed only while the row is still that version.

``rooms/tables/state_cache.py``: the locking read returns the hand's state
unless the row is the version this process wrote last; every other writer, a
rollback and a later write in the same transaction must make it read the
database's state again.
"""

import copy

import pytest
from django.db import transaction

from games.base import Outcome
from rooms.tables import broadcast, core, hands, services, state_cache
from rooms.tables.models import Hand, Seat
from rooms.tables.tests.helpers import open_hand, per_group

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_tables"),
    pytest.mark.postgres,  # the written-out locking read; another database reads the state every time
]


@pytest.fixture(autouse=True)
def _no_kept_states():
    state_cache.states_clear()
    yield
    state_cache.states_clear()


def _act(table, n: int = 1, *, first: bool = True):
    """Let the seat to act take its first (or last) legal action ``n`` times."""
    for _ in range(n):
        hand = open_hand(table)
        engine = broadcast.engine_for(hand.game_slug)
        seat = Seat.objects.select_related("user").get(table=table, index=engine.actors(hand.state)[0])
        legal = engine.legal_actions(hand.state, seat.index)
        services.table_act(table_id=table.pk, user=seat.user, action=legal[0] if first else legal[-1])


def _locked_state(table) -> dict:
    """The open hand's state as the next move would see it (``lock_play``), in a transaction of its own."""
    with transaction.atomic():
        return core.lock_play(core.lock_table(table.pk)).hand.state


def _changed(state: dict) -> dict:
    return {**copy.deepcopy(state), "bombs": state["bombs"] + 7}


def _write_changed(table):
    """Lock the table, write a changed state to its open hand (a move's write), return the hand."""
    hand = core.lock_play(core.lock_table(table.pk)).hand
    hand.state = _changed(hand.state)
    core.hand_write(hand)
    return hand


def test_a_move_keeps_the_state_it_committed_and_the_next_read_uses_it(human_table):
    _act(human_table)
    known = state_cache.state_known(human_table.pk)
    hand = open_hand(human_table)
    assert known is not None and known.hand_id == hand.pk
    assert known.state == hand.state
    assert _locked_state(human_table) is known.state  # PostgreSQL sent no state back


def test_moves_that_use_the_kept_state_broadcast_what_a_resync_reads(human_table, monkeypatch):
    sent: list = []
    monkeypatch.setattr(broadcast, "send_messages", lambda messages: sent.extend(per_group(messages)))
    for _ in range(6):
        _act(human_table, first=False)  # passes while bidding, plays later: the hand goes on
        if open_hand(human_table).status != "playing":
            break
        ctx = broadcast.load_context(human_table.pk)
        watch = broadcast.snapshot(ctx, seat_index=None, balance=None)
        assert dict(sent)[broadcast.watch_group(human_table.pk)]["events"][0] == watch
        for seat in ctx.seats:
            mine = broadcast.snapshot(ctx, seat_index=seat.index, balance=ctx.balances.get(seat.user_id))
            assert dict(sent)[broadcast.seat_group(human_table.pk, seat.index)]["events"][0] == mine
        sent.clear()


def test_another_writers_change_is_read_from_the_database(human_table):
    _act(human_table)
    hand = open_hand(human_table)
    changed = _changed(hand.state)
    Hand.objects.filter(pk=hand.pk).update(state=changed)  # another process, the worker, staff
    assert state_cache.state_known(human_table.pk) is not None
    assert _locked_state(human_table) == changed


def test_a_write_that_leaves_the_state_alone_still_makes_the_next_read_fetch_it(human_table):
    _act(human_table)
    known = state_cache.state_known(human_table.pk)
    Hand.objects.filter(pk=known.hand_id).update(deadline_token=999)
    state = _locked_state(human_table)
    assert state == known.state and state is not known.state


def test_a_rolled_back_write_leaves_nothing_to_match(human_table):
    _act(human_table)
    before = state_cache.state_known(human_table.pk)
    with pytest.raises(RuntimeError, match="refused later"), transaction.atomic():
        _write_changed(human_table)
        raise RuntimeError("refused later")
    assert state_cache.state_known(human_table.pk) is before
    assert _locked_state(human_table) is before.state  # the row is still the version kept


def test_a_write_in_a_rolled_back_savepoint_is_not_kept(human_table):
    _act(human_table)
    before = state_cache.state_known(human_table.pk)
    with transaction.atomic():
        core.lock_table(human_table.pk)
        with pytest.raises(RuntimeError, match="inner"), transaction.atomic():
            _write_changed(human_table)
            raise RuntimeError("inner")
    assert state_cache.state_known(human_table.pk) is before
    assert _locked_state(human_table) == open_hand(human_table).state == before.state


def test_a_later_write_in_the_same_transaction_is_read_from_the_database(human_table):
    _act(human_table)
    with transaction.atomic():
        hand = _write_changed(human_table)  # kept on commit, as this row version
        later = {**_changed(hand.state), "bombs": 0}
        Hand.objects.filter(pk=hand.pk).update(state=later)  # a newer version, same transaction
    assert _locked_state(human_table) == later


def test_a_refused_action_keeps_the_entry_usable(human_table):
    from rooms.tables.errors import NotYourTurn

    _act(human_table)
    known = state_cache.state_known(human_table.pk)
    hand = open_hand(human_table)
    engine = broadcast.engine_for(hand.game_slug)
    waiting = Seat.objects.select_related("user").exclude(index__in=engine.actors(hand.state))
    with pytest.raises(NotYourTurn):
        services.table_act(
            table_id=human_table.pk, user=waiting.filter(table=human_table)[0].user, action={"type": "pass"}
        )
    assert state_cache.state_known(human_table.pk) is known
    assert _locked_state(human_table) is known.state


def test_a_finished_hand_is_forgotten(human_table):
    _act(human_table)
    with transaction.atomic():
        table = core.lock_table(human_table.pk)
        hand = core.lock_play(table).hand
        hands.hand_finish(table=table, hand=hand, outcome=Outcome(deltas=[0, 0, 0], winners=[], details={}))
        transaction.set_rollback(True)  # forgetting is immediate and safe either way
    assert state_cache.state_known(human_table.pk) is None
    assert open_hand(human_table).status == "playing"


def test_the_kept_states_are_bounded(human_table, settings):
    settings.TABLE_STATE_CACHE = 1
    _act(human_table)
    state_cache._keep(-1, state_cache.KnownState(0, "1", "(0,1)", {}))
    assert state_cache.state_known(human_table.pk) is None
    assert state_cache.state_known(-1) is not None
