"""The establishment's API: who is calling, staff, players (and the door), the exclusion list,
gaming sessions."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from establishment.api.exclusions import (
    ExclusionAddApi,
    ExclusionImportCreateApi,
    ExclusionImportDetailApi,
    ExclusionLiftApi,
    ExclusionListApi,
)
from establishment.api.house import HouseApi, HouseChangeApi
from establishment.api.players import PlayerRecordApi, PlayerRegisterApi, PlayerSearchApi
from establishment.api.staffing import (
    AccessReviewApi,
    StaffCreateApi,
    StaffDeactivateApi,
    StaffPasswordResetApi,
    StaffReactivateApi,
    StaffRolesSetApi,
    StaffUnlockApi,
)
from establishment.api.views import (
    AuthTokenCreateApi,
    GamingSessionDetailApi,
    GamingSessionListApi,
    GamingSessionOpenApi,
    MeApi,
    PlayerCreateApi,
    PlayerDetailApi,
    PlayerListApi,
    StaffListApi,
)

_member = "staff/<str:username>/"
_player = "players/<uuid:player_id>/"
_exclusion = "exclusions/<uuid:exclusion_id>/"
_imports = "exclusions/imports/"
_import = f"{_imports}<uuid:import_id>/"
_gaming_session = "gaming-sessions/<uuid:gaming_session_id>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path("auth/token/", AuthTokenCreateApi.as_view(), name="auth-token"),
    path("me/", MeApi.as_view(), name="me"),
    # staff
    path("staff/", StaffListApi.as_view(), name="staff-list"),
    path("staff/create/", StaffCreateApi.as_view(), name="staff-create"),
    path("staff/access-review/", AccessReviewApi.as_view(), name="staff-access-review"),
    path(f"{_member}roles/", StaffRolesSetApi.as_view(), name="staff-roles-set"),
    path(f"{_member}deactivate/", StaffDeactivateApi.as_view(), name="staff-deactivate"),
    path(f"{_member}reactivate/", StaffReactivateApi.as_view(), name="staff-reactivate"),
    path(f"{_member}password-reset/", StaffPasswordResetApi.as_view(), name="staff-password-reset"),
    path(f"{_member}unlock/", StaffUnlockApi.as_view(), name="staff-unlock"),
    # players and the door
    path("players/", PlayerListApi.as_view(), name="player-list"),
    path("players/create/", PlayerCreateApi.as_view(), name="player-create"),
    path(_player, PlayerDetailApi.as_view(), name="player-detail"),
    path("players/register/", PlayerRegisterApi.as_view(), name="player-register"),
    path("players/search/", PlayerSearchApi.as_view(), name="player-search"),
    path(f"{_player}record/", PlayerRecordApi.as_view(), name="player-record"),
    # the exclusion list
    path("exclusions/", ExclusionListApi.as_view(), name="exclusion-list"),
    path("exclusions/create/", ExclusionAddApi.as_view(), name="exclusion-create"),
    path(f"{_exclusion}lift/", ExclusionLiftApi.as_view(), name="exclusion-lift"),
    path(f"{_imports}create/", ExclusionImportCreateApi.as_view(), name="exclusion-import-create"),
    path(_import, ExclusionImportDetailApi.as_view(), name="exclusion-import-detail"),
    # gaming sessions
    path("gaming-sessions/", GamingSessionListApi.as_view(), name="gaming-session-list"),
    path("gaming-sessions/open/", GamingSessionOpenApi.as_view(), name="gaming-session-open"),
    path(_gaming_session, GamingSessionDetailApi.as_view(), name="gaming-session-detail"),
    path("house/", HouseApi.as_view(), name="house"),
    path("house/change/", HouseChangeApi.as_view(), name="house-change"),
]
