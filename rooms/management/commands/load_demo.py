"""Install demo data for a local run: catalogue, room tiers, a staff login and players."""

from platform.staff.otp import otp_backup_codes_ensure

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from rooms import demo
from wallets.selectors import wallet_balance


class Command(BaseCommand):
    help = "Install the game catalogue, default room tiers, a staff superuser and demo players (idempotent)."

    def handle(self, *args, **options) -> None:
        report = demo.demo_load()
        self.stdout.write(
            f"Catalogue: {report.games} game(s); {report.tiers_created} new room tier(s); "
            f"{report.users_created} new user(s); {report.deposits} new deposit(s)."
        )
        if not settings.DEBUG:
            self.stderr.write(
                self.style.WARNING("DEBUG is off: these demo logins have published passwords; change them.")
            )
        User = get_user_model()
        self.stdout.write(self.style.SUCCESS("Demo logins:"))
        self.stdout.write(f"  staff   {demo.ADMIN_USERNAME:<6} / {demo.ADMIN_PASSWORD}   (/admin/)")
        for username, _nickname in demo.PLAYERS:
            user = User.objects.get(username=username)
            self.stdout.write(
                f"  player  {username:<6} / {demo.PLAYER_PASSWORD}   "
                f"{user.display_name}, {wallet_balance(user=user)} coins"
            )
        # Staff log in, and move coins, with a second factor: the demo admin gets one-time
        # backup codes, made once and listed again on every run until they are used up.
        codes = otp_backup_codes_ensure(user=User.objects.get(username=demo.ADMIN_USERNAME))
        self.stdout.write(
            f"  second factor for {demo.ADMIN_USERNAME} (log-in and moving coins; each code works once): "
            f"{' '.join(codes)}"
        )
