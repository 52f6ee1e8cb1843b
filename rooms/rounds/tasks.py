"""Celery tasks of the round runtime, defined beside the services they call (rooms.rounds.services)
and named here, where a worker's autodiscovery looks for them."""

from rooms.rounds.services import settle_round, tick

__all__ = ["settle_round", "tick"]
