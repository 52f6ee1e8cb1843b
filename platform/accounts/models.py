"""Players: the custom user model."""

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A player or a staff member; ``nickname`` (昵称) is what tables show."""

    nickname = models.CharField(_("nickname"), max_length=32, blank=True)

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"

    @property
    def display_name(self) -> str:
        return self.nickname or self.username
