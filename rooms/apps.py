from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RoomsConfig(AppConfig):
    name = "rooms"
    verbose_name = _("Games and room tiers")

    def ready(self) -> None:
        # The wallet asks the rooms what its hand and round references mean (wallets.sources):
        # wallets imports nothing of rooms, rooms plugs in here.
        from rooms.ledger_source import RoomsLedgerSource
        from wallets.sources import source_register

        source_register(name="rooms", source=RoomsLedgerSource())
