"""``manage.py ledger_check``: verify every ledger invariant; exit non-zero naming the bad rows."""

from django.core.management.base import BaseCommand, CommandError

from wallets.models import Account, LedgerEntry, LedgerTransaction
from wallets.selectors import ledger_check


class Command(BaseCommand):
    help = "Verify the whole ledger: balanced transactions, balances equal to entry sums, running balances, no negative wallet, total zero."

    def handle(self, *args, **options):
        problems = ledger_check()
        if problems:
            for problem in problems:
                self.stderr.write(str(problem))
            raise CommandError(f"Ledger check failed: {len(problems)} problem(s).")
        self.stdout.write(
            self.style.SUCCESS(
                f"Ledger OK: {LedgerTransaction.objects.count()} transactions, "
                f"{LedgerEntry.objects.count()} entries, {Account.objects.count()} accounts."
            )
        )
