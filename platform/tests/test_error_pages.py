"""A page that fails tells the player so in their language, inside the site, with a way back."""

import pytest
from django.conf import settings
from django.test import Client

pytestmark = [pytest.mark.django_db, pytest.mark.zh]


@pytest.mark.parametrize(
    ("language", "heading", "back"),
    [("zh-hans", "页面不存在", "返回大厅"), ("en", "Page not found", "Back to the lobby")],
)
def test_a_missing_page_says_so_in_the_players_language_with_the_way_back(language, heading, back):
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get("/no-such-page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert f"<h1>{heading}</h1>" in html
    assert f'href="/">{back}</a>' in html
    assert 'class="site-header"' in html  # the header's language switch and log-in are still there


def test_a_server_error_page_needs_nothing_but_itself():
    """500.html is rendered without a request or the database: it must not extend the site's base."""
    from django.template import loader

    html = loader.get_template("500.html").render()
    assert "服务器出错了" in html and "Server error" in html and 'href="/"' in html
