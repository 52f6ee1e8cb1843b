from django.urls import path

from wallets import views

app_name = "wallets"
urlpatterns = [
    path("", views.wallet, name="wallet"),
]
