"""The house's settings and its gaming day (docs/registers.md, "Common to every register").

The journée: accounts are "totalisés par journée" (arrêté du 14 mai 2007, art. 72). The house
says at what hour its gaming day turns (06:00 by default) in its time zone (Europe/Paris); a
séance belongs to the journée in which it opened, even when it ends after midnight. A journée
is 24 hours of wall-clock time, so 23 or 25 hours of real time on the nights the clocks change.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from functools import lru_cache
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from establishment.door import Fields
from establishment.models import Currency, HouseSettings, LevyRecord, LevyTieRule
from establishment.roles import Role
from establishment.services import audit
from establishment.staff import role_required

if TYPE_CHECKING:
    from django.contrib.auth.models import User

HOUSE_KEEPERS = frozenset({Role.MANAGER})
# What a change may set, each with its type as a form or a client gives it.
HOUSE_FIELDS = (
    "currency",
    "cents_per_chip",
    "journee_turns_at",
    "time_zone",
    "levy_tie_rule",
    "levy_record",
)


@lru_cache(maxsize=64)
def zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def journee_start(day: date, *, turns_at: time, time_zone: str) -> datetime:
    """The instant the journée `day` begins: the first instant at which the local clock reads
    `turns_at` or later. On the night the clocks go back, an hour that comes twice turns the
    journée the first time; on the night they go forward, an hour that never comes turns it
    when the clocks jump."""
    where = zone(time_zone)
    first = datetime.combine(day, turns_at, tzinfo=where).astimezone(UTC)
    other = datetime.combine(day, turns_at, tzinfo=where).replace(fold=1).astimezone(UTC)
    if other >= first:  # the hour exists (once, or twice: the first time is `first`)
        return first
    # The hour falls in the gap: the clocks jump between `other` and `first`. The local time
    # passes `turns_at` exactly at the jump; find it to the second.
    low, high = other, first
    while high - low > timedelta(seconds=1):
        middle = low + (high - low) / 2
        if middle.astimezone(where).time().replace(tzinfo=None) >= turns_at:
            high = middle
        else:
            low = middle
    return high.replace(microsecond=0)


def journee_bounds(day: date, *, turns_at: time, time_zone: str) -> tuple[datetime, datetime]:
    """The journée `day` as an interval [start, end) of aware instants (UTC)."""
    return (
        journee_start(day, turns_at=turns_at, time_zone=time_zone),
        journee_start(day + timedelta(days=1), turns_at=turns_at, time_zone=time_zone),
    )


def journee_of(moment: datetime, *, turns_at: time, time_zone: str) -> date:
    """The gaming day a moment belongs to: its local date, or the day before when the moment
    comes before that date's journée begins (`journee_start`)."""
    day = moment.astimezone(zone(time_zone)).date()
    if moment < journee_start(day, turns_at=turns_at, time_zone=time_zone):
        return day - timedelta(days=1)
    return day


INSTALLATION = "The installation's defaults."


def house_settings_current() -> HouseSettings:
    """The version in force: the latest; before any, the installation's defaults (not stored
    until a séance keeps them, `house_settings_in_force`)."""
    latest = HouseSettings.objects.order_by("-pk").first()
    if latest is None:
        return HouseSettings(changed_at=timezone.now(), reason=INSTALLATION)
    return latest


def house_settings_in_force() -> HouseSettings:
    """The version a séance opening now keeps: the latest, the installation's defaults stored
    as the first version when there is none yet."""
    current = house_settings_current()
    if current._state.adding:
        current.save()
    return current


def house_journee_of(moment: datetime, settings: HouseSettings | None = None) -> date:
    house = settings or house_settings_current()
    return journee_of(moment, turns_at=house.journee_turns_at, time_zone=house.time_zone)


def _hour(fields: Fields, value: Any) -> time | None:
    if isinstance(value, time):
        return value.replace(second=0, microsecond=0)
    if isinstance(value, str):
        try:
            return time.fromisoformat(value).replace(second=0, microsecond=0)
        except ValueError:
            pass
    fields.add("journee_turns_at", _("Enter an hour as HH:MM (06:00, say)."))
    return None


def _time_zone(fields: Fields, value: Any) -> str:
    if isinstance(value, str) and value in available_timezones():
        try:
            zone(value)
            return value
        except (ZoneInfoNotFoundError, ValueError):
            pass
    fields.add(
        "time_zone",
        _("Enter a time zone of the IANA database, such as Europe/Paris or Europe/London."),
    )
    return ""


def _checked(fields: Fields, name: str, value: Any) -> Any:
    """One setting as given, checked; its error said beside it."""
    if name == "cents_per_chip":  # what one chip is worth in cents
        return fields.whole(name, value, 1, 1_000_000)
    if name == "journee_turns_at":
        return _hour(fields, value)
    if name == "time_zone":
        return _time_zone(fields, value)
    choices = {"currency": Currency, "levy_tie_rule": LevyTieRule, "levy_record": LevyRecord}
    return fields.choice(name, value, choices[name].values)


@transaction.atomic
def house_settings_change(
    *, changed_by: User, reason: str, client: str = "", **changes: Any
) -> HouseSettings:
    """A new version of the house's settings (a manager): what is not given stays as it is.
    Séances already open keep the version they opened with."""
    role_required(changed_by, HOUSE_KEEPERS, "change the house's settings")
    fields = Fields()
    unknown = sorted(set(changes) - set(HOUSE_FIELDS))
    for name in unknown:
        fields.add(name, _("Not a setting of the house."))
    current = house_settings_current()
    values: dict[str, Any] = {name: getattr(current, name) for name in HOUSE_FIELDS}
    for name, value in changes.items():
        if name in HOUSE_FIELDS:
            values[name] = _checked(fields, name, value)
    reason = fields.text("reason", reason, max_length=500)
    fields.refuse_if_any()
    version = HouseSettings(**values, changed_at=timezone.now(), changed_by=changed_by)
    version.reason = reason
    version.save()
    snapshot = {name: str(values[name]) for name in HOUSE_FIELDS} | {"reason": reason}
    audit(user=changed_by, action="house_settings_change", client=client, settings=snapshot)
    return version
