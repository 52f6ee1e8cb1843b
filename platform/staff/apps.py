from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StaffConfig(AppConfig):
    """Staff safeguards: the audit trail of staff changes and the second factor for moving money."""

    name = "platform.staff"
    label = "staff"
    verbose_name = _("Staff safeguards")

    def ready(self) -> None:
        from platform.staff import audit

        audit.audit_register_models()
