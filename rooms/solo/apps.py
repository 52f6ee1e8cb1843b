from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SoloConfig(AppConfig):
    name = "rooms.solo"
    label = "solo"
    verbose_name = _("One-player games")
