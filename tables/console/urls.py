"""The croupier console: server-rendered pages with htmx, adapters over tables.services."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from tables.console import views

app_name = "console"

urlpatterns: list[URLPattern | URLResolver] = [
    path("floor/", views.floor, name="floor"),
    path("floor/session/open/", views.session_open, name="session-open"),
    path("floor/session/close/", views.session_close, name="session-close"),
    path("floor/tables/open/", views.table_open, name="table-open"),
    path("tables/<uuid:table_session>/", views.table_screen, name="table"),
    path("tables/<uuid:table_session>/record/", views.action_record, name="record"),
    path("tables/<uuid:table_session>/undo/", views.action_undo, name="undo"),
    path("tables/<uuid:table_session>/seq/", views.table_poll, name="poll"),
    path(
        "tables/<uuid:table_session>/session-controls/",
        views.session_controls,
        name="session-controls",
    ),
    path("tables/<uuid:table_session>/close/", views.table_close, name="table-close"),
    path("tables/<uuid:table_session>/assign/", views.croupier_assign, name="assign"),
    path(
        "tables/<uuid:table_session>/interrupt/",
        views.table_pause,
        {"how": "interrupt"},
        name="interrupt",
    ),
    path(
        "tables/<uuid:table_session>/resume/", views.table_pause, {"how": "resume"}, name="resume"
    ),
    path("tables/<uuid:table_session>/void/", views.void_ask, name="void-request"),
    path("voids/<uuid:void>/", views.void_answer, name="void-decide"),
    path("language/", views.language_set, name="language"),
]
