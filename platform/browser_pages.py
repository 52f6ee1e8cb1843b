"""Headless Chromium for the browser tests: where it is, how it starts, and a signed-in page.

Debian's ``chromium`` runs the tests (Playwright with ``executable_path``); runtime code never
imports this module.
"""

from __future__ import annotations

import os
import shutil

from django.conf import settings

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def chromium_executable() -> str:
    path = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    assert path, "Chromium is missing (the browser marker should have skipped this test)"
    return path


def signed_in_page(
    browser, base_url: str, session: str, viewport: tuple[int, int], language: str = "zh-hans"
):
    """A new page at ``viewport`` (width, height) in a context of its own, carrying the session cookie
    (from ``client.force_login``) and the language cookie."""
    width, height = viewport
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_cookies(
        [
            {"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base_url},
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": base_url},
        ]
    )
    return context.new_page()
