"""The player to act keeps their turn's deadline while seats come and go.

A presence change (a socket opening or closing) or a 托管 (trustee) switch of
a seat that is not acting must not move the deadline of the seat that is:
otherwise every reconnect of another player restarted the actor's clock, and a
player could hold a table still by reloading their page again and again. The
actor's own switches may shorten their turn (going away leaves them the
grace), but coming back gives back only what was left of it, never a fresh
turn: the same stall, by the actor's own reloads.
"""

import pytest
from django.utils import timezone

from rooms.tables import broadcast, services
from rooms.tables.models import Hand, Seat
from rooms.tables.tests.conftest import time_passes
from rooms.tables.tests.helpers import open_hand

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


def _actor_and_other(table):
    hand = open_hand(table)
    actor = broadcast.engine_for(hand.game_slug).actors(hand.state)[0]
    seats = Seat.objects.select_related("user").filter(table=table)
    return seats.get(index=actor), seats.exclude(index=actor).first()


def _age_deadline(table, seconds: float):
    """Move the open hand's deadline ``seconds`` nearer, as if that much of the turn had passed."""
    return time_passes(open_hand(table), seconds).deadline


def _presence(table, user, on: bool) -> None:
    services.table_presence(table_id=table.pk, user=user, connected=on)


def _trustee(table, user, on: bool) -> None:
    services.table_trustee(table_id=table.pk, user=user, on=on)


# A seat's two switches, each with the state it goes to first: away and back, 托管 on and off.
SWITCHES = pytest.mark.parametrize(
    ("switch", "first"), [(_presence, False), (_trustee, True)], ids=["reconnect", "trustee"]
)


@SWITCHES
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


@SWITCHES
def test_the_actor_coming_back_gets_what_was_left_of_their_turn(human_table, switch, first):
    """The actor reloading their page, or switching 托管 on and off, gets no fresh turn."""
    actor, _other = _actor_and_other(human_table)
    deadline = _age_deadline(human_table, 7)
    for _ in range(3):
        switch(human_table, actor.user, first)
        assert open_hand(human_table).deadline <= deadline
        switch(human_table, actor.user, not first)
        assert open_hand(human_table).deadline == deadline


def test_an_away_actor_is_played_for_when_their_turn_ends_before_the_grace(human_table, settings):
    """Going away never lengthens a turn: when less than the grace is left, the turn's end plays for them."""
    settings.TABLE_DISCONNECT_GRACE = 30
    actor, _other = _actor_and_other(human_table)
    deadline = _age_deadline(human_table, 10)
    _presence(human_table, actor.user, False)
    assert open_hand(human_table).deadline == deadline
    count = open_hand(human_table).action_count
    _age_deadline(human_table, 60)  # the turn is over; the 30-second grace is not
    services.tables_tick()
    hand = Hand.objects.get(pk=open_hand(human_table).pk)
    assert hand.action_count == count + 1
    assert actor.index not in broadcast.engine_for(hand.game_slug).actors(hand.state)
    assert hand.actions.get(n=hand.action_count).seat == actor.index
