from django.apps import AppConfig
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_save
from django.utils.translation import gettext_lazy as _

from rooms.sockets import on_logged_out, on_user_saved
from wallets.sources import source_register


class RoomsConfig(AppConfig):
    name = "rooms"
    verbose_name = _("Games and room tiers")

    def ready(self) -> None:
        # These modules read models, which exist only once the app registry is filled: after this
        # module is imported and before ready() runs.
        from platform.accounts.selectors import catalogue_reader_set

        from rooms.ledger_source import RoomsLedgerSource
        from rooms.selectors import game_catalogue

        user_logged_out.connect(on_logged_out, dispatch_uid="rooms.sockets.on_logged_out")
        post_save.connect(on_user_saved, sender=get_user_model(), dispatch_uid="rooms.sockets.on_user_saved")
        # The players' profiles list the games of this app's catalogue (accounts imports no rooms).
        catalogue_reader_set(game_catalogue)
        # The wallet asks the rooms what its hand and round references mean (wallets.sources):
        # wallets imports nothing of rooms, rooms plugs in here.
        source_register(name="rooms", source=RoomsLedgerSource())
