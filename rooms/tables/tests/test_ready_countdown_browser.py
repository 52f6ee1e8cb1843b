"""In real Chromium: a player who has not pressed Ready while another waits sees how long is left, then stands up.

The countdown is the seat row's ``ready_by`` (``clock.ready_by``), the same
moment at which the tick stands the player up. The wait is long, so a loaded
machine opening the page slowly still sees time left; the test then moves the
player's sitting-down time back by the whole wait instead of sleeping through it.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import F

from rooms.tables.tests.test_browser import (  # noqa: F401 - live_asgi and doudizhu_tier are fixtures
    CHROMIUM_ARGS,
    SIZES,
    chromium_executable,
    doudizhu_tier,
    live_asgi,
)
from rooms.tables.tests.test_reload_browser import WAIT_MS, open_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

READY_LEAVE = 600  # seconds


@pytest.mark.parametrize("size", list(SIZES))
def test_an_idle_player_sees_the_ready_countdown_then_stands_up(
    live_asgi,  # noqa: F811 - the fixture
    doudizhu_tier,  # noqa: F811 - the fixture
    make_player,
    settings,
    monkeypatch,
    size,
):
    from playwright.sync_api import sync_playwright

    from rooms.tables import play, services
    from rooms.tables.models import Seat, Table

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop runs in this thread
    settings.TABLE_READY_LEAVE = READY_LEAVE
    doudizhu_tier.bots_enabled = False
    doudizhu_tier.save(update_fields=["bots_enabled"])
    alice, bob = make_player(coins=5000), make_player(coins=5000)
    table = services.table_quick_start(tier_id=doudizhu_tier.pk, user=alice)
    assert services.table_quick_start(tier_id=doudizhu_tier.pk, user=bob).pk == table.pk
    # Between hands, Alice is ready and Bob has not pressed Ready (as after a hand, when every seat is reset).
    Seat.objects.filter(user=bob).update(ready=False)
    Table.objects.filter(pk=table.pk).update(seq=table.seq + 1)
    play.forget(table.pk)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_executable(), args=CHROMIUM_ARGS)
        try:
            page, errors = open_page(browser, live_asgi, bob, f"/tables/{table.pk}/", size)
            clock = page.wait_for_selector("#actions [data-action=ready] .clock.ready-by", timeout=WAIT_MS)
            left = int("".join(ch for ch in clock.inner_text() if ch.isdigit()))
            assert 0 < left <= READY_LEAVE
            # The whole wait passes for Bob: the tick finds him due and stands him up.
            Seat.objects.filter(user=bob).update(seated_at=F("seated_at") - timedelta(seconds=READY_LEAVE))
            page.wait_for_function(
                "() => !document.querySelector('#actions [data-action=ready]')", timeout=WAIT_MS
            )
            assert errors == []
        finally:
            browser.close()
    assert not Seat.objects.filter(table=table, user=bob).exists()
    assert Seat.objects.filter(table=table, user=alice).exists()
