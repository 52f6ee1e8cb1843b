"""Accounts endpoints under /api/."""

from platform.accounts.api import MeView

from django.urls import path

app_name = "accounts_api"
urlpatterns = [
    path("me/", MeView.as_view(), name="me"),
]
