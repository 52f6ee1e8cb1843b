from django.apps import AppConfig
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_save
from django.utils.translation import gettext_lazy as _

from rooms.sockets import on_logged_out, on_user_saved


class RoomsConfig(AppConfig):
    name = "rooms"
    verbose_name = _("Games and room tiers")

    def ready(self) -> None:
        user_logged_out.connect(on_logged_out, dispatch_uid="rooms.sockets.on_logged_out")
        post_save.connect(on_user_saved, sender=get_user_model(), dispatch_uid="rooms.sockets.on_user_saved")
