"""templates/base.html: navigation, account links, language switch, messages, footer."""

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_en() -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def page(client: Client, url_name: str) -> str:
    response = client.get(reverse(url_name))
    assert response.status_code == 200
    return response.content.decode()


def test_anonymous_visitors_see_log_in_and_sign_up(client_en):
    html = page(client_en, "accounts:login")
    assert f'href="{reverse("rooms:lobby")}"' in html
    assert f'href="{reverse("accounts:login")}"' in html
    assert f'href="{reverse("accounts:signup")}"' in html
    assert reverse("accounts:logout") not in html
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert "css/site.css" in html


def test_players_see_every_nav_link_and_a_post_log_out_but_no_admin(client_en):
    player = get_user_model().objects.create_user(username="pat", password="x", nickname="帕特")
    client_en.force_login(player)
    html = page(client_en, "accounts:profile")
    for name in ("rooms:lobby", "tables:history", "wallets:wallet", "accounts:profile"):
        assert f'href="{reverse(name)}"' in html, name
    assert re.search(rf'<form[^>]*method="post"[^>]*action="{reverse("accounts:logout")}"', html)
    assert reverse("admin:index") not in html
    assert "帕特" in html
    assert 'aria-current="page"' in html


def test_staff_see_the_admin_link(client_en):
    staff = get_user_model().objects.create_user(username="boss", password="x", is_staff=True)
    client_en.force_login(staff)
    assert f'href="{reverse("admin:index")}"' in page(client_en, "accounts:profile")


@pytest.mark.zh
def test_the_language_switch_posts_to_set_language_and_takes_effect():
    client = Client()
    html = page(client, "accounts:login")
    assert '<html lang="zh-hans">' in html  # Chinese is the default
    form = re.search(r'<form class="language-form" method="post" action="([^"]+)">(.*?)</form>', html, re.S)
    assert form and form.group(1) == "/i18n/setlang/"
    # One click: the form is one button naming the other language, no select and no 切换 button.
    buttons = re.findall(r"<button[^>]*>[^<]*</button>", form.group(2))
    assert (
        len(buttons) == 1 and 'name="language" value="en"' in buttons[0] and ">English</button>" in buttons[0]
    )
    assert "<select" not in form.group(2) and 'value="zh-hans"' not in form.group(2)

    response = client.post("/i18n/setlang/", {"language": "en", "next": reverse("accounts:login")})

    assert response.status_code == 302
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    assert '<html lang="en">' in page(client, "accounts:login")


def test_messages_and_footer_render(client_en):
    player = get_user_model().objects.create_user(username="mia", password="x")
    client_en.force_login(player)
    response = client_en.post(reverse("accounts:profile"), {"nickname": "Mia"}, follow=True)
    html = response.content.decode()
    assert '<li class="message success">Your nickname is now Mia.</li>' in html
    assert '<footer class="site-footer">' in html
