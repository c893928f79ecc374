"""The manager's staff screen and everyone's own password (issue 13): `staff:*`."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from establishment.console import staff

app_name = "staff"

_member = "members/<str:username>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", staff.staff_list, name="list"),
    path("create/", staff.staff_add, name="create"),
    path("password/", staff.own_password, name="password"),
    path("access-review/", staff.access_review_page, name="access-review"),
    path("access-review.csv", staff.access_review_download, name="access-review-csv"),
    path(_member, staff.staff_member, name="member"),
    path(f"{_member}roles/", staff.roles_set, name="roles"),
    path(f"{_member}deactivate/", staff.access_set, {"active": False}, name="deactivate"),
    path(f"{_member}reactivate/", staff.access_set, {"active": True}, name="reactivate"),
    path(f"{_member}password/", staff.password_reset, name="password-reset"),
    path(f"{_member}unlock/", staff.unlock, name="unlock"),
]
