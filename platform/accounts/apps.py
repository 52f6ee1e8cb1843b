from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "platform.accounts"
    label = "accounts"
    verbose_name = _("Accounts and levels")

    def ready(self) -> None:
        # Load the Celery app in every Django process so ``@shared_task`` binds to it.
        # (Not from ``platform/__init__``: that module stands in for the standard
        # library's ``platform``, which Celery's own imports need first.)
        from platform import celery_app  # noqa: F401
        from platform.accounts.devices import on_logged_in

        from django.contrib.auth.signals import user_logged_in

        # Every log-in path (the log-in and sign-up pages, admin's) records the browser it came from.
        user_logged_in.connect(on_logged_in, dispatch_uid="platform.accounts.devices.on_logged_in")
