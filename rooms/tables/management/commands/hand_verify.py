"""Verify a finished hand: re-deal it from its revealed seed and replay its action log."""

import hashlib

from django.core.management.base import BaseCommand, CommandError

from rooms.tables.models import Hand
from rooms.tables.replay import HandNotReplayable, hand_replay


class Command(BaseCommand):
    help = "Re-deal a finished hand from its seed, replay every logged action and compare with the stored result."

    def add_arguments(self, parser) -> None:
        parser.add_argument("hand_id", type=int)

    def handle(self, *args, hand_id: int, **options) -> None:
        hand = Hand.objects.filter(pk=hand_id).first()
        if hand is None:
            raise CommandError(f"There is no hand {hand_id}.")
        seed = bytes(hand.seed)
        self.stdout.write(f"hand {hand.pk} ({hand.game_slug}, table {hand.table_id}, number {hand.number})")
        self.stdout.write(f"seed sha256 {hashlib.sha256(seed).hexdigest()}")
        try:
            replay = hand_replay(hand=hand)
        except HandNotReplayable as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"seed        {seed.hex()}")
        self.stdout.write(f"actions     {len(replay.steps)}")
        for problem in replay.problems:
            self.stdout.write(f"problem     {problem}")
        if not replay.matches:
            raise CommandError("MISMATCH: the replay does not reproduce the stored hand.")
        self.stdout.write(self.style.SUCCESS("OK: the seed and the action log reproduce the stored hand."))
