"""The project's URLs: each app's by name (the project imports none of the apps).

The API is one namespace, `api`, made of the API of each domain (docs/architecture.md): the
establishment's, the tables', the books' and the reports', beside the schema and its readers;
any other path under `/api/` answers a 404 in the API's own shape, so that include comes last.
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, include, path

# The API of each domain, then the API's own 404 for any other path under `/api/`.
_API = (
    "establishment.http.urls",
    "establishment.api.urls",
    "tables.api.urls",
    "ledger.api.urls",
    "reports.api.urls",
    "establishment.http.not_found_urls",
)

# The screens beside the console, each under its address in its own namespace (its `app_name`).
_SCREENS = {
    "reports/": "reports.urls",
    "registers/": "reports.registers.urls",
    "audit/": "reports.audit.urls",
    "odds/": "reports.odds.urls",
    "staff/": "establishment.console.staff_urls",
    "house/": "establishment.console.house_urls",
    "reception/": "establishment.console.reception_urls",
}

api: list[URLPattern | URLResolver] = [path("", include(module)) for module in _API]

urlpatterns = [
    path("", include("tables.console.home_urls")),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("console/", include("tables.console.urls")),
    path("api/", include((api, "api"))),
    *(path(prefix, include(module)) for prefix, module in _SCREENS.items()),
]
