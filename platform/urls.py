"""Root URLs: each app owns its pages; the REST API lives under /api/."""

from platform.staff.views import admin_login

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    # The staff second-factor page lives beside the admin it protects.
    path("admin/second-factor/", include("platform.staff.urls")),
    # Before the admin's own: its log-in form would take a staff password without the code.
    path("admin/login/", admin_login, name="staff_admin_login"),
    path("admin/", admin.site.urls),
    path("accounts/", include("platform.accounts.urls")),
    path("wallet/", include("wallets.urls")),
    path("tables/", include("rooms.tables.urls")),
    path("rounds/", include("rooms.rounds.urls")),
    path("solo/", include("rooms.solo.urls")),
    path("", include("wallets.finance_urls")),  # /finance/ pages and /api/finance/
    path("", include("rooms.tables.finance_urls")),  # the chip-dumping report, beside them
    path("", include("rooms.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("platform.accounts.api_urls")),
    path("api/", include("wallets.api_urls")),
    path("api/", include("rooms.api_urls")),
    path("api/", include("rooms.tables.api_urls")),
]
