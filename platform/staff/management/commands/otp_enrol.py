"""Enrol a staff member for the second factor: print the authenticator URL and one-time backup codes."""

from platform.staff.otp import AlreadyEnrolled, otp_enrol

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = (
        "Give a staff user a TOTP authenticator and backup codes for the money forms; prints the otpauth:// "
        "URL (paste it into an authenticator app or a QR generator) and the codes."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("--reset", action="store_true", help="Replace the user's existing devices.")
        parser.add_argument("--codes", type=int, default=10, help="How many backup codes (default 10).")

    def handle(self, *args, username: str, reset: bool, codes: int, **options) -> None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No user named {username!r}.")
        if not user.is_staff:
            raise CommandError(f"{username} is not staff; only staff need a second factor.")
        if codes < 1:
            raise CommandError("--codes must be at least 1.")
        try:
            enrolment = otp_enrol(user=user, reset=reset, backup_count=codes)
        except AlreadyEnrolled as error:
            raise CommandError(str(error)) from error
        self.stdout.write(self.style.SUCCESS(f"{username} is enrolled."))
        self.stdout.write("Authenticator (scan or paste into the app):")
        self.stdout.write(f"  {enrolment.config_url}")
        self.stdout.write("One-time backup codes (each works once; keep them offline):")
        for code in enrolment.backup_codes:
            self.stdout.write(f"  {code}")
