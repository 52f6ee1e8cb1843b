from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RoundsConfig(AppConfig):
    name = "rooms.rounds"
    label = "rounds"
    verbose_name = _("Banker-game rounds")
