"""The reception's screens (establishment.console.reception): players and the exclusion list."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from establishment.console import reception

app_name = "reception"

_players = "players/"  # the register of players
_exclusions = "exclusions/"  # the exclusion list

urlpatterns: list[URLPattern | URLResolver] = [
    path("", reception.players, name="players"),
    path(f"{_players}register/", reception.player_register_view, name="register"),
    path(f"{_players}<uuid:player>/", reception.player, name="player"),
    path(_exclusions, reception.exclusions, name="exclusions"),
    path(f"{_exclusions}add/", reception.exclusion_add_view, name="exclusion-add"),
    path(f"{_exclusions}<uuid:entry>/lift/", reception.exclusion_lift_view, name="exclusion-lift"),
    path(f"{_exclusions}import/", reception.exclusion_import_view, name="exclusion-import"),
    path(
        f"{_exclusions}imports/<uuid:job>/",
        reception.exclusion_import_progress,
        name="exclusion-import-progress",
    ),
]
