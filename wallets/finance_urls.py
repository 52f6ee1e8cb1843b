"""Finance pages under /finance/ (``finance:`` names) and their API under /api/finance/."""

from django.urls import include, path

from wallets import finance_api, finance_views

pages = [
    path("", finance_views.index, name="index"),
    path("trial-balance/", finance_views.trial_balance, name="trial_balance"),
    path("trial-balance.csv", finance_views.trial_balance, {"as_csv": True}, name="trial_balance_csv"),
    path("rake/", finance_views.rake, name="rake"),
    path("rake.csv", finance_views.rake, {"as_csv": True}, name="rake_csv"),
    path("house-bank/", finance_views.bank, name="bank"),
    path("house-bank.csv", finance_views.bank, {"as_csv": True}, name="bank_csv"),
    path("statement/", finance_views.statement, name="statement"),
    path("statement.csv", finance_views.statement, {"as_csv": True}, name="statement_csv"),
    path("transactions/", finance_views.search, name="search"),
    path("transactions.csv", finance_views.search, {"as_csv": True}, name="search_csv"),
]

api = [
    path("trial-balance/", finance_api.TrialBalanceView.as_view(), name="finance-api-trial-balance"),
    path("rake/", finance_api.RakeView.as_view(), name="finance-api-rake"),
    path("house-bank/", finance_api.BankView.as_view(), name="finance-api-bank"),
    path("statement/", finance_api.StatementView.as_view(), name="finance-api-statement"),
    path("transactions/", finance_api.TransactionSearchView.as_view(), name="finance-api-transactions"),
]

# Included once from the root URLconf: pages at /finance/, API at /api/finance/.
urlpatterns = [
    path("finance/", include((pages, "finance"))),
    path("api/finance/", include(api)),
]
