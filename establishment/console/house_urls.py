"""The manager's screen of the house's settings: `house:*`."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from establishment.console import house

app_name = "house"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", house.house, name="index"),
    path("change/", house.house_change, name="change"),
]
