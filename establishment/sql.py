"""The establishment floor's hand-written SQL: who is asking, with his roles and language.

Every console request and every API call reads its user first (`establishment.staff`,
`StaffBackend.get_user`). The ORM's form of this statement (five `Exists`) took ten times
longer to build than the database took to run it (docs/conventions.md, P1), so it is written
out here, built once from the models' `_meta`, with what turns its row into what the ORM would
give. tests/establishment/test_sql.py runs it and its ORM equivalent on the same data.
"""

from __future__ import annotations

from functools import cache

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection

from establishment.models import StaffPreference
from establishment.roles import Role


@cache
def user_sql() -> str:
    """The user's row, his language (`chosen_language`, None without a preference) and his
    roles (`held_roles`, as `|croupier||inspector|`): one statement, the same SQL on SQLite and
    PostgreSQL, for the user model's `raw`; parameter: the user's key."""
    model = get_user_model()
    user = connection.ops.quote_name(model._meta.db_table)
    memberships = model.groups.through._meta.db_table
    group = Group._meta.db_table
    preference = StaffPreference._meta.db_table
    roles = " || ".join(
        f"MAX(CASE WHEN g.name = '{role}' THEN '|{role}|' ELSE '' END)" for role in Role.values
    )
    return (
        f"SELECT u.*, "
        f"(SELECT p.language FROM {preference} p WHERE p.user_id = u.id) AS chosen_language, "
        f"(SELECT {roles} FROM {memberships} m JOIN {group} g ON g.id = m.group_id "
        f"WHERE m.user_id = u.id) AS held_roles "
        f"FROM {user} u WHERE u.id = %s"
    )


def roles_parsed(held: object) -> frozenset[str]:
    """The roles of `held_roles` (`|croupier||inspector|`, or None for a user in no group)."""
    text = str(held or "")
    return frozenset(role for role in Role.values if f"|{role}|" in text)


def language_parsed(chosen: object) -> str:
    """The language of `chosen_language`, or "" without a preference."""
    return str(chosen or "")
