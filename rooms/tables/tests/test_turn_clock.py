"""The player to act keeps their turn's deadline while other seats come and go.

A presence change (a socket opening or closing) or a 托管 (trustee) switch of
a seat that is not acting must not move the deadline of the seat that is:
otherwise every reconnect of another player restarted the actor's clock, and a
player could hold a table still by reloading their page again and again.
"""

import pytest
from django.utils import timezone

from rooms.tables import broadcast, services
from rooms.tables.models import Seat
from rooms.tables.tests.helpers import open_hand

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


def _actor_and_other(table):
    hand = open_hand(table)
    actor = broadcast.engine_for(hand.game_slug).actors(hand.state)[0]
    seats = Seat.objects.select_related("user").filter(table=table)
    return seats.get(index=actor), seats.exclude(index=actor).first()


def _age_deadline(table, seconds: float):
    """Move the open hand's deadline ``seconds`` nearer, as if that much of the turn had passed.

    The runtime's record of the seat's turn (``TURN_KEY``) moves with it.
    """
    from rooms.tables.core import TURN_KEY

    hand = open_hand(table)
    hand.deadline -= timezone.timedelta(seconds=seconds)
    turn = hand.state.get(TURN_KEY)
    if turn is not None:
        hand.state = {**hand.state, TURN_KEY: {**turn, "deadline": turn["deadline"] - int(seconds * 1000)}}
    hand.save(update_fields=["deadline", "state"])
    return hand.deadline


def _presence(table, user, on: bool) -> None:
    services.table_presence(table_id=table.pk, user=user, connected=on)


def _trustee(table, user, on: bool) -> None:
    services.table_trustee(table_id=table.pk, user=user, on=on)


@pytest.mark.parametrize(
    ("switch", "first"),
    [(_presence, False), (_trustee, True)],
    ids=["reconnect", "trustee"],
)
def test_another_seats_switch_leaves_the_actors_deadline(human_table, switch, first):
    """Another seat going away and coming back, or switching 托管 on and off, leaves the actor's clock."""
    _actor, other = _actor_and_other(human_table)
    deadline = _age_deadline(human_table, 7)
    switch(human_table, other.user, first)
    assert open_hand(human_table).deadline == deadline
    switch(human_table, other.user, not first)
    assert open_hand(human_table).deadline == deadline


def test_the_actor_going_away_still_shortens_their_turn_to_the_grace(human_table, settings):
    settings.TABLE_DISCONNECT_GRACE = 3
    actor, _other = _actor_and_other(human_table)
    services.table_presence(table_id=human_table.pk, user=actor.user, connected=False)
    left = (open_hand(human_table).deadline - timezone.now()).total_seconds()
    assert 0 < left <= 3


@pytest.mark.parametrize(
    ("switch", "first"),
    [(_presence, False), (_trustee, True)],
    ids=["reconnect", "trustee"],
)
def test_the_actors_own_switch_does_not_restart_their_turn(human_table, switch, first):
    """The actor going away and coming back, or switching 托管 on and off, gets the rest of the turn.

    Coming back restarted a whole turn: just before their time ran out, a player
    could reload (or switch 托管 on and off) and hold the table still for ever.
    """
    actor, _other = _actor_and_other(human_table)
    deadline = _age_deadline(human_table, 7)
    for _ in range(3):
        switch(human_table, actor.user, first)
        switch(human_table, actor.user, not first)
        assert open_hand(human_table).deadline == deadline


def test_an_actor_back_after_their_time_ran_out_is_played_for(human_table, settings):
    """Away with a second left, back within the grace: the turn is over, and the server plays it."""
    from rooms.tables.tests.conftest import run_clock

    settings.TABLE_DISCONNECT_GRACE = 60
    actor, _other = _actor_and_other(human_table)
    hand = open_hand(human_table)
    count = hand.action_count
    left = (hand.deadline - timezone.now()).total_seconds()
    _age_deadline(human_table, left + 1)  # the turn ran out a second ago; no tick has run yet
    _presence(human_table, actor.user, False)
    _presence(human_table, actor.user, True)
    assert open_hand(human_table).deadline <= timezone.now()
    run_clock(max_steps=1)
    hand = open_hand(human_table)
    assert hand.action_count == count + 1
    assert Seat.objects.get(pk=actor.pk).trustee is True
