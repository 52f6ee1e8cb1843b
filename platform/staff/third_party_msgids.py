"""Words of installed packages' admin pages that their packages have no Simplified Chinese for.

Django looks a msgid up in the project's catalogue (``LOCALE_PATHS``) before
the packages' own, so these, translated in ``locale/zh_Hans``, are what the
Chinese admin shows for django-axes, django-auditlog and the strings Django's
own admin added since its zh_Hans catalogue was last translated. Listed here
with ``gettext_noop`` only so that ``makemessages`` keeps them in the
catalogue; nothing imports this module. (Django admin's JavaScript strings
are in ``locale/zh_Hans/LC_MESSAGES/djangojs.po``.)
"""

from django.utils.translation import gettext_noop

AXES = (
    gettext_noop("Locked Out"),
    gettext_noop("Form Data"),
    gettext_noop("Meta Data"),
    gettext_noop("Clean up expired attempts"),
    gettext_noop("Cleaned up {count} expired access attempts."),
    gettext_noop("Not set"),
    gettext_noop("Attempt Remaining"),
    gettext_noop("Account locked: too many login attempts. Please try again later."),
    gettext_noop("Account locked: too many login attempts. Contact an admin to unlock your account."),
    gettext_noop("User Agent"),
    gettext_noop("IP Address"),
    gettext_noop("HTTP Accept"),
    gettext_noop("Path"),
    gettext_noop("Attempt Time"),
    gettext_noop("Access lock out"),
    gettext_noop("access failure"),
    gettext_noop("access failures"),
    gettext_noop("GET Data"),
    gettext_noop("POST Data"),
    gettext_noop("Failed Logins"),
    gettext_noop("access attempt"),
    gettext_noop("access attempts"),
    gettext_noop("Access Attempt"),
    gettext_noop("Expires At"),
    gettext_noop("The time when access attempt expires and is no longer valid."),
    gettext_noop("access attempt expiration"),
    gettext_noop("access attempt expirations"),
    gettext_noop("Logout Time"),
    gettext_noop("Session key hash (sha256)"),
    gettext_noop("access log"),
    gettext_noop("access logs"),
)

AUDITLOG = (
    gettext_noop("Changes"),
    gettext_noop("Audit log"),
    gettext_noop("Resource Type"),
    gettext_noop("Correlation ID"),
    gettext_noop("Click to filter by records with this correlation id"),
    gettext_noop("Resource"),
    gettext_noop("Audit log: %s"),
    gettext_noop("create"),
    gettext_noop("update"),
    gettext_noop("delete"),
    gettext_noop("access"),
    gettext_noop("object pk"),
    gettext_noop("object representation"),
    gettext_noop("remote address"),
    gettext_noop("remote port"),
    gettext_noop("timestamp"),
    gettext_noop("additional data"),
    gettext_noop("actor email"),
    gettext_noop("Created {repr:s}"),
    gettext_noop("Updated {repr:s}"),
    gettext_noop("Deleted {repr:s}"),
    gettext_noop("Logged {repr:s}"),
    gettext_noop("Field"),
    # A field's old and new value in a change ("From" / "To"): the finance forms' date range
    # has its own context, so these words are the change table's.
    gettext_noop("From"),
    gettext_noop("To"),
    gettext_noop("Relationship"),
    gettext_noop("system"),
    gettext_noop("No field changes"),
    gettext_noop("No log entries found."),
)

DJANGO_ADMIN = (
    gettext_noop("Model name"),
    gettext_noop("Add link"),
    gettext_noop("Change or view list link"),
    gettext_noop("Error:"),
    gettext_noop("Forgotten your login credentials?"),
    gettext_noop("In case you’ve forgotten, you are:"),
    gettext_noop("After you’ve created a user, you’ll be able to edit more user options."),
)

# django-otp's models and admin (plain strings there, made translatable by
# ``third_party_apps.words_translatable`` and ``platform/staff/admin.py``).
OTP = (
    gettext_noop("TOTP device"),
    gettext_noop("TOTP devices"),
    gettext_noop("static device"),
    gettext_noop("static devices"),
    gettext_noop("static token"),
    gettext_noop("static tokens"),
    gettext_noop("The user that this device belongs to."),
    gettext_noop("The human-readable name of this device."),
    gettext_noop("confirmed"),
    gettext_noop("Is this device ready for use?"),
    gettext_noop("throttling failure timestamp"),
    gettext_noop("A timestamp of the last failed verification attempt. Null if last attempt succeeded."),
    gettext_noop("throttling failure count"),
    gettext_noop("Number of successive failed attempts."),
    gettext_noop("The date and time when this device was initially created in the system."),
    gettext_noop("last used at"),
    gettext_noop("The most recent date and time this device was used."),
    gettext_noop("key"),
    gettext_noop("A hex-encoded secret key of up to 40 bytes."),
    gettext_noop("step"),
    gettext_noop("The time step in seconds."),
    gettext_noop("t0"),
    gettext_noop("The Unix time at which to begin counting steps."),
    gettext_noop("digits"),
    gettext_noop("The number of digits to expect in a token."),
    gettext_noop("tolerance"),
    gettext_noop("The number of time steps in the past or future to allow."),
    gettext_noop("drift"),
    gettext_noop("The number of time steps the prover is known to deviate from our clock."),
    gettext_noop("last t"),
    gettext_noop("The t value of the latest verified token. The next token must be at a higher time step."),
    gettext_noop("device"),
    gettext_noop("token"),
)
