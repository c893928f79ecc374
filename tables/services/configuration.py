"""A table's configuration changed by the manager: its name, seat count and settings, and taking
it out of service or back (issue 13, "Every change through a service").

The number and the game are not changed here: the number is on every paper record of the table
(`Table.save` refuses a change), and a table that has been played keeps its game (`Table.clean`,
`Table.save`); a table for another game is a new table (`table_create`).

A change counts from the table's next opening: a table session freezes the game, the settings
and the seat count when it opens (`tables.services.tables.table_session_open`), so a table open
now plays on with what it opened with.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils.translation import gettext as _

from establishment.errors import InvalidStateError
from establishment.roles import TABLE_CONFIGURERS
from establishment.staff import role_required
from tables.models import Table
from tables.services.tables import table_audit

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# What `table_update` may change, in the order its audit row lists them.
UPDATABLE = ("name", "seat_count", "settings", "is_active")


@transaction.atomic
def table_update(
    *,
    table: Table,
    settings: Mapping[str, object] | None = None,
    name: str | None = None,
    seat_count: int | None = None,
    is_active: bool | None = None,
    updated_by: User,
    client: str = "",
) -> Table:
    """Change what is given (None: unchanged) of a table (a manager), validated by the engine
    through `Table.full_clean` (docs/conventions.md, rules 2 and 7).

    `settings` replaces the table's settings; the engine fills in the defaults of what it leaves
    out, so the settings stored are always complete. A setting the rules refuse raises Django's
    `ValidationError` keyed by `settings`, coded `E_SETTING` with the engine's words (the API
    answers 422, the screen shows the words). Taking a table out of service while it is open is
    refused (close it first); putting it back is refused when another table in service has its
    number. The audit row holds the old and new value of each field that changed; nothing
    changed writes nothing.
    """
    role_required(updated_by, TABLE_CONFIGURERS, "change a table")
    locked = Table.objects.select_for_update().get(pk=table.pk)
    old = {field: getattr(locked, field) for field in UPDATABLE}
    if name is not None:
        locked.name = name.strip()
    if seat_count is not None:
        locked.seat_count = seat_count
    if settings is not None:
        # Anything but a mapping is left for the engine's check to refuse (E_SETTING), as
        # the API may send any JSON.
        locked.settings = dict(settings) if isinstance(settings, Mapping) else settings
    if is_active is not None:
        if (
            not is_active
            and locked.is_active
            and locked.sessions.filter(closed_at__isnull=True).exists()
        ):
            raise InvalidStateError(
                _("Table %(number)d is open: close it before taking it out of service.")
                % {"number": locked.number}
            )
        locked.is_active = is_active
    locked.full_clean()  # the engine validates the settings and fills in their defaults
    new = {field: getattr(locked, field) for field in UPDATABLE}
    changed = [field for field in UPDATABLE if old[field] != new[field]]
    if not changed:
        return locked
    locked.save(update_fields=changed)
    table_audit(
        locked,
        updated_by,
        "table_update",
        client,
        old={field: _plain(old[field]) for field in changed},
        new={field: _plain(new[field]) for field in changed},
    )
    return locked


def _plain(value: Any) -> Any:
    return dict(value) if isinstance(value, Mapping) else value
