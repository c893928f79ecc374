"""A URLconf for the navigation tests: the project's screens plus stand-ins for the screens other
changes bring (reception, registers, audit), so every role's whole navigation can be
checked before they land (establishment/http/navigation.py leaves out a name that does not
resolve)."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, URLResolver, include, path

from tables.console import urls as console_urls


def stand_in(request: HttpRequest) -> HttpResponse:
    return HttpResponse("a screen still to come")


console: list[URLPattern | URLResolver] = [*console_urls.urlpatterns]
reception: list[URLPattern | URLResolver] = [
    path("players/", stand_in, name="players"),
    path("exclusions/", stand_in, name="exclusions"),
]
registers: list[URLPattern | URLResolver] = [path("", stand_in, name="index")]
audit: list[URLPattern | URLResolver] = [path("", stand_in, name="index")]

# Every screen but the stand-ins, as in the project (casino/urls.py).
PROJECT: list[URLPattern | URLResolver] = [
    path("", include("tables.console.home_urls")),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("reports/", include("reports.urls")),
    path("staff/", include("establishment.console.staff_urls")),
    path("house/", include("establishment.console.house_urls")),
]

urlpatterns: list[URLPattern | URLResolver] = [
    *PROJECT,
    path("console/", include((console, "console"))),
    path("reception/", include((reception, "reception"))),
    path("registers/", include((registers, "registers"))),
    path("audit/", include((audit, "audit"))),
]
