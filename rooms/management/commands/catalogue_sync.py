"""Create or update the game catalogue from the installed engines (games.REGISTRY)."""

from django.core.management.base import BaseCommand

from rooms import services
from rooms.models import Game


class Command(BaseCommand):
    help = "Create or update one catalogue row per installed game engine."

    def handle(self, *args, **options) -> None:
        services.catalogue_sync()
        slugs = ", ".join(Game.objects.order_by("sort_order", "slug").values_list("slug", flat=True))
        self.stdout.write(f"Catalogue: {slugs or '(no games installed)'}")
