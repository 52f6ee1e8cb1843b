"""Third-party apps named in the admin's language.

Their AppConfigs have no translated name (the admin showed "Axes",
"Otp_Static", "Otp_Totp" in the Chinese admin); INSTALLED_APPS lists these
subclasses instead, as Django's docs advise for renaming an app one installs.
"""

from axes import apps as axes_apps
from django.utils.translation import gettext_lazy
from django_otp.plugins.otp_static import apps as otp_static_apps
from django_otp.plugins.otp_totp import apps as otp_totp_apps


def words_translatable(app_config) -> None:
    """Make the plain-string names and help texts of an app's models translatable msgids.

    django-otp writes them as plain strings ("TOTP device", "The time step in seconds."),
    which no catalogue can translate. Wrapped lazily around the same text they read the
    same in English and to the migration autodetector (it reads the Meta as declared and
    each field's own verbose name; a lazy text equals its msgid there), and in Chinese they
    read the project catalogue's words (``third_party_msgids.OTP``).
    """
    for model in app_config.get_models():
        options = model._meta
        for attribute in ("verbose_name", "verbose_name_plural"):
            setattr(options, attribute, gettext_lazy(str(getattr(options, attribute))))
        for field in options.get_fields():
            for attribute in ("verbose_name", "help_text"):
                value = getattr(field, attribute, None)
                if isinstance(value, str) and value:
                    setattr(field, attribute, gettext_lazy(value))


class AxesConfig(axes_apps.AppConfig):
    verbose_name = gettext_lazy("Login lockouts")


class OtpStaticConfig(otp_static_apps.DefaultConfig):
    verbose_name = gettext_lazy("Backup codes (second factor)")

    def ready(self) -> None:
        super().ready()
        words_translatable(self)


class OtpTotpConfig(otp_totp_apps.DefaultConfig):
    verbose_name = gettext_lazy("Authenticator apps (second factor)")

    def ready(self) -> None:
        super().ready()
        words_translatable(self)
