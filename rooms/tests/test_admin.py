"""Staff screens: the catalogue and tier pages load, and bad tier data is refused on the form."""

import pytest
from django.urls import reverse

from rooms.models import RoomTier

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, django_user_model):
    admin = django_user_model.objects.create_superuser(username="boss", password="x-admin-pass", email="")
    client.force_login(admin)
    return client


def test_changelists_and_game_page_load(staff_client, game, make_tier, monkeypatch):
    tier = make_tier(name="中级场", room_factor=5, rake_bps=250)
    monkeypatch.setattr("rooms.selectors.seated_counts_by_tier", lambda: {tier.pk: 7})
    html = staff_client.get(reverse("admin:rooms_roomtier_changelist")).content.decode()
    assert "中级场" in html and "480" in html and "2.5%" in html
    assert '<td class="field-seated_display">7</td>' in html
    assert staff_client.get(reverse("admin:rooms_roomtier_changelist"), {"q": "中级"}).status_code == 200
    assert staff_client.get(reverse("admin:rooms_game_changelist")).status_code == 200
    page = staff_client.get(reverse("admin:rooms_game_change", args=[game.pk])).content.decode()
    assert "中级场" in page  # the tier inline


def test_admin_form_shows_the_models_validation_error(staff_client, game):
    response = staff_client.post(
        reverse("admin:rooms_roomtier_add"),
        {
            "game": game.pk,
            "code": "cap",
            "name": "封顶场",
            "sort_order": 0,
            "is_open": "on",
            "base_stake": 1,
            "room_factor": 1,
            "rake_bps": 500,
            "minimum_rule": "table_cap",
            "minimum_multiplier": 96,
            "options": "{}",
            "bots_enabled": "on",
        },
    )
    assert response.status_code == 200
    assert "The table-cap rule needs a table cap." in response.content.decode()
    assert not RoomTier.objects.filter(code="cap").exists()


def test_staff_can_close_a_tier_from_the_list(staff_client, make_tier):
    tier = make_tier()
    response = staff_client.post(
        reverse("admin:rooms_roomtier_changelist"),
        {
            "form-TOTAL_FORMS": "1",
            "form-INITIAL_FORMS": "1",
            "form-0-id": str(tier.pk),
            "_save": "Save",
        },
    )
    assert response.status_code == 302
    tier.refresh_from_db()
    assert tier.is_open is False


def test_a_tiers_game_cannot_be_changed_once_it_exists(staff_client, game, make_tier, registry):
    # A tier's tables, hands, rounds and rake all belong to its game: moving the tier to
    # another game would deal that game at tables opened for this one (with their seat count)
    # and file the tier's past rake under the other game in the finance reports.
    from rooms import services
    from rooms.models import Game
    from rooms.tests.conftest import FAKE_BANKER

    registry[FAKE_BANKER.slug] = FAKE_BANKER
    services.catalogue_sync()
    other = Game.objects.get(slug=FAKE_BANKER.slug)
    tier = make_tier(name="初级场")
    url = reverse("admin:rooms_roomtier_change", args=[tier.pk])
    page = staff_client.get(url)
    form = page.context["adminform"].form
    assert "game" not in form.fields  # shown, not editable
    data = {
        "game": other.pk,
        "code": tier.code,
        "name": "改过的",
        "name_en": "Changed",
        "sort_order": 0,
        "is_open": "on",
        "base_stake": tier.base_stake,
        "room_factor": tier.room_factor,
        "rake_bps": tier.rake_bps,
        "minimum_rule": tier.minimum_rule,
        "minimum_multiplier": tier.minimum_multiplier,
        "options": "{}",
        "bots_enabled": "on",
    }
    assert staff_client.post(url, data).status_code == 302
    tier.refresh_from_db()
    assert tier.name == "改过的" and tier.game_id == game.pk


def test_staff_who_may_only_view_games_cannot_sync_the_catalogue(client, django_user_model, game, registry):
    # The sync writes the catalogue (and lists newly installed engines in the lobby).
    from django.contrib.auth.models import Permission

    from rooms.models import Game
    from rooms.tests.conftest import FAKE_BANKER

    viewer = django_user_model.objects.create_user(username="viewer", password="x-pass-123", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(content_type__app_label="rooms", codename="view_game"))
    client.force_login(viewer)
    registry[FAKE_BANKER.slug] = FAKE_BANKER
    client.post(
        reverse("admin:rooms_game_changelist"), {"action": "sync_catalogue", "_selected_action": [game.pk]}
    )
    assert not Game.objects.filter(slug=FAKE_BANKER.slug).exists()


def test_the_game_list_reads_the_same_number_of_rows_however_many_games_it_shows(
    staff_client, game, make_tier, registry
):
    # Each row counts the game's tiers; counting them per row was one read per game.
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from rooms import services
    from rooms.tests.conftest import FAKE_BANKER

    make_tier()
    url = reverse("admin:rooms_game_changelist")
    with CaptureQueriesContext(connection) as one:
        staff_client.get(url)
    registry[FAKE_BANKER.slug] = FAKE_BANKER
    services.catalogue_sync()
    with CaptureQueriesContext(connection) as two:
        page = staff_client.get(url).content.decode()
    assert len(two) == len(one)
    assert page.count('<td class="field-tier_count">1</td>') == 1
    assert page.count('<td class="field-tier_count">0</td>') == 1


def test_a_tier_needs_its_english_name_on_the_form(staff_client, game):
    data = {
        "game": game.pk,
        "code": "novice",
        "name": "初级场",
        "sort_order": 0,
        "is_open": "on",
        "base_stake": 1,
        "room_factor": 1,
        "rake_bps": 500,
        "minimum_rule": "factor",
        "minimum_multiplier": 96,
        "options": "{}",
        "bots_enabled": "on",
    }
    response = staff_client.post(reverse("admin:rooms_roomtier_add"), data)
    assert response.status_code == 200 and "name_en" in response.context["adminform"].form.errors
    assert not RoomTier.objects.exists()
    assert (
        staff_client.post(reverse("admin:rooms_roomtier_add"), {**data, "name_en": "Novice room"}).status_code
        == 302
    )
    assert RoomTier.objects.get(code="novice").name_en == "Novice room"
