from django.urls import path

from wallets.api import WalletEntryListView, WalletView

urlpatterns = [
    path("wallet/", WalletView.as_view(), name="wallets-api-wallet"),
    path("wallet/entries/", WalletEntryListView.as_view(), name="wallets-api-entries"),
]
