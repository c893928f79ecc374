"""The establishment's API: who is calling, staff, players (and the door), the exclusion list,
gaming sessions."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from establishment.api import exclusions, players, staffing, views

urlpatterns: list[URLPattern | URLResolver] = [
    path("auth/token/", views.AuthTokenCreateApi.as_view(), name="auth-token"),
    path("me/", views.MeApi.as_view(), name="me"),
    path("staff/", views.StaffListApi.as_view(), name="staff-list"),
    path("staff/create/", staffing.StaffCreateApi.as_view(), name="staff-create"),
    path(
        "staff/<str:username>/roles/", staffing.StaffRolesSetApi.as_view(), name="staff-roles-set"
    ),
    path(
        "staff/<str:username>/deactivate/",
        staffing.StaffDeactivateApi.as_view(),
        name="staff-deactivate",
    ),
    path(
        "staff/<str:username>/reactivate/",
        staffing.StaffReactivateApi.as_view(),
        name="staff-reactivate",
    ),
    path(
        "staff/<str:username>/password-reset/",
        staffing.StaffPasswordResetApi.as_view(),
        name="staff-password-reset",
    ),
    path("players/", views.PlayerListApi.as_view(), name="player-list"),
    path("players/create/", views.PlayerCreateApi.as_view(), name="player-create"),
    path("players/<uuid:player_id>/", views.PlayerDetailApi.as_view(), name="player-detail"),
    path("players/register/", players.PlayerRegisterApi.as_view(), name="player-register"),
    path("players/search/", players.PlayerSearchApi.as_view(), name="player-search"),
    path(
        "players/<uuid:player_id>/record/",
        players.PlayerRecordApi.as_view(),
        name="player-record",
    ),
    path("exclusions/", exclusions.ExclusionListApi.as_view(), name="exclusion-list"),
    path("exclusions/create/", exclusions.ExclusionAddApi.as_view(), name="exclusion-create"),
    path(
        "exclusions/<uuid:exclusion_id>/lift/",
        exclusions.ExclusionLiftApi.as_view(),
        name="exclusion-lift",
    ),
    path(
        "exclusions/imports/create/",
        exclusions.ExclusionImportCreateApi.as_view(),
        name="exclusion-import-create",
    ),
    path(
        "exclusions/imports/<uuid:import_id>/",
        exclusions.ExclusionImportDetailApi.as_view(),
        name="exclusion-import-detail",
    ),
    path("gaming-sessions/", views.GamingSessionListApi.as_view(), name="gaming-session-list"),
    path("gaming-sessions/open/", views.GamingSessionOpenApi.as_view(), name="gaming-session-open"),
    path(
        "gaming-sessions/<uuid:gaming_session_id>/",
        views.GamingSessionDetailApi.as_view(),
        name="gaming-session-detail",
    ),
]
