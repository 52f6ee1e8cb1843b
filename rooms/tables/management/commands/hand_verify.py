"""Verify a finished hand: re-deal it from its revealed seed and replay its action log."""

from django.core.management.base import BaseCommand, CommandError

from rooms.tables.models import Hand
from rooms.tables.replay import HandNotReplayable
from rooms.tables.verify import hand_verification, seed_hash


class Command(BaseCommand):
    help = "Re-deal a finished hand from its seed, replay every logged action and compare with the stored result."

    def add_arguments(self, parser) -> None:
        parser.add_argument("hand_id", type=int)

    def handle(self, *args, hand_id: int, **options) -> None:
        hand = Hand.objects.filter(pk=hand_id).first()
        if hand is None:
            raise CommandError(f"There is no hand {hand_id}.")
        self.stdout.write(f"hand {hand.pk} ({hand.game_slug}, table {hand.table_id}, number {hand.number})")
        self.stdout.write(f"seed sha256 {seed_hash(bytes(hand.seed))}")
        try:
            check = hand_verification(hand=hand)
        except HandNotReplayable as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"seed        {check.seed_hex}")
        for number, deal in enumerate(check.deals, start=1):
            if len(check.deals) > 1:
                self.stdout.write(f"deal {number}/{len(check.deals)}  {deal.note}".rstrip())
            for seat in deal.seats:
                self.stdout.write(f"seat {seat.index}      {' '.join(seat.cards)}")
            for label, cards in deal.shared:
                self.stdout.write(f"{label.lower():<11} {' '.join(cards)}")
        self.stdout.write(f"actions     {len(check.replay.steps) - 1}")
        for problem in check.problems:
            self.stdout.write(f"problem     {problem}")
        if not check.ok:
            raise CommandError("MISMATCH: the replay does not reproduce the stored hand.")
        self.stdout.write(self.style.SUCCESS("OK: the seed and the action log reproduce the stored hand."))
