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
    """Move the open hand's deadline ``seconds`` nearer, as if that much of the turn had passed."""
    hand = open_hand(table)
    hand.deadline -= timezone.timedelta(seconds=seconds)
    hand.save(update_fields=["deadline"])
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
