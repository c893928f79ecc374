"""The reception's screens (establishment.console.reception): players and the exclusion list."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from establishment.console import reception

app_name = "reception"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", reception.players, name="players"),
    path("players/register/", reception.player_register_view, name="register"),
    path("players/<uuid:player>/", reception.player, name="player"),
    path("exclusions/", reception.exclusions, name="exclusions"),
    path("exclusions/add/", reception.exclusion_add_view, name="exclusion-add"),
    path("exclusions/<uuid:entry>/lift/", reception.exclusion_lift_view, name="exclusion-lift"),
    path("exclusions/import/", reception.exclusion_import_view, name="exclusion-import"),
    path(
        "exclusions/imports/<uuid:job>/",
        reception.exclusion_import_progress,
        name="exclusion-import-progress",
    ),
]
