from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RoomsConfig(AppConfig):
    name = "rooms"
    verbose_name = _("Games and room tiers")

    def ready(self) -> None:
        # The players' profiles list the games of this app's catalogue (accounts imports no rooms).
        from platform.accounts.selectors import catalogue_reader_set

        from rooms.selectors import game_catalogue

        catalogue_reader_set(game_catalogue)
