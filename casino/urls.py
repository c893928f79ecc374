"""The project's URLs: each app's by name (the project imports none of the apps).

The API is one namespace, `api`, made of the API of each domain (docs/architecture.md): the
establishment's, the tables', the books' and the reports', beside the schema and its readers;
any other path under `/api/` answers a 404 in the API's own shape, so that include comes last.
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, include, path

api: list[URLPattern | URLResolver] = [
    path("", include("establishment.http.urls")),
    path("", include("establishment.api.urls")),
    path("", include("tables.api.urls")),
    path("", include("ledger.api.urls")),
    path("", include("reports.api.urls")),
    path("", include("establishment.http.not_found_urls")),
]

urlpatterns = [
    path("", include("tables.console.home_urls")),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("console/", include("tables.console.urls")),
    path("api/", include((api, "api"))),
    path("reports/", include("reports.urls")),
    path("registers/", include("reports.registers.urls")),
    path("audit/", include("reports.audit.urls")),
    path("odds/", include("reports.odds.urls")),
    path("staff/", include("establishment.console.staff_urls")),
    path("house/", include("establishment.console.house_urls")),
    path("reception/", include("establishment.console.reception_urls")),
]
