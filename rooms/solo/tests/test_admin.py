"""Staff see seed pairs and plays in admin, read-only; a current server seed stays hidden, even from staff."""

import pytest
from django.urls import reverse

from rooms.solo import services

pytestmark = pytest.mark.django_db


def test_staff_see_plays_and_only_revealed_seeds(client, django_user_model, make_player, solo_tier):
    staff = django_user_model.objects.create_superuser(username="boss", password="pw-Secret-123")
    jon = make_player(coins=500)
    play = services.solo_spin(user=jon, tier_id=solo_tier.pk, stake=20, request_key="admin-spin-1")
    pair = play.seed_pair
    client.force_login(staff)
    assert str(play.pk) in client.get(reverse("admin:solo_play_changelist")).content.decode()
    assert client.get(reverse("admin:solo_play_change", args=[play.pk])).status_code == 200
    secret = bytes(pair.server_seed).hex()
    hidden = client.get(reverse("admin:solo_seedpair_change", args=[pair.pk])).content.decode()
    assert pair.server_hash in hidden and secret not in hidden
    services.solo_rotate(user=jon)
    shown = client.get(reverse("admin:solo_seedpair_change", args=[pair.pk])).content.decode()
    assert secret in shown
    assert client.post(reverse("admin:solo_play_delete", args=[play.pk]), {"post": "yes"}).status_code == 403
