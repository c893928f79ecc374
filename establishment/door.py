"""The door (arrêté du 14 mai 2007, art. 22): a player registered with his identity, the
admission check asked at registration and at the table (seated, standing, named banker), and
the exclusion list kept by hand. Its import from a file is `establishment/exclusions.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, Unpack

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models.functions import Length
from django.utils import timezone
from django.utils.translation import gettext as _

from establishment.errors import InvalidInputError, InvalidStateError, PlayerRefusedError
from establishment.identity import (
    ADULT_AGE,
    Identity,
    age_on,
    display_name,
    first_names_match,
    name_key,
)
from establishment.models import (
    DocumentType,
    ExclusionEntry,
    ExclusionSource,
    Player,
)
from establishment.roles import DOOR_KEEPERS, Role
from establishment.services import audit, audit_entry, audit_rows_insert, player_audit
from establishment.staff import role_required

if TYPE_CHECKING:
    from django.contrib.auth.models import User


# Every member of staff (the admission check is asked by whoever seats a player).
STAFF = frozenset(Role)


# -- the door: registration, the admission check, the exclusion list ------------------------------
#
# arrêté du 14 mai 2007, art. 22: nobody under 18 and nobody on the exclusion list (the
# ministry's list, a self-exclusion, the house's own decision) enters the gaming rooms; the
# house checks each person's identity. A refusal says only that the person cannot be admitted;
# why (and which entry of the list) is in the audit row, for the auditors.

ADMISSION_PLACES = ("registration", "seat", "standing", "banker")
MEMBER_PREFIX = "M-"


def door_today(today: date | None) -> date:
    return today if today is not None else timezone.localdate()


def text_clean(value: Any) -> str:
    """A text field as given, trimmed (None and non-text as blank)."""
    return " ".join(value.split()) if isinstance(value, str) else ""


class Fields:
    """The fields' errors of one input, said each beside its field."""

    def __init__(self) -> None:
        self.errors: dict[str, list[str]] = {}

    def add(self, name: str, message: str) -> None:
        self.errors.setdefault(name, []).append(message)

    def text(self, name: str, value: Any, *, max_length: int, required: bool = True) -> str:
        text = text_clean(value)
        if required and not text:
            self.add(name, _("This field is required."))
        elif len(text) > max_length:
            self.add(name, _("At most %(count)d characters.") % {"count": max_length})
        return text

    def choice(self, name: str, value: Any, choices: Sequence[str]) -> str:
        """A required field that is one of `choices` (a model's choices' values)."""
        chosen = text_clean(value)
        if not chosen:
            self.add(name, _("This field is required."))
        elif chosen not in choices:
            self.add(name, _("Choose one of: %(choices)s.") % {"choices": ", ".join(choices)})
        return chosen

    def whole(self, name: str, value: Any, low: int, high: int) -> int:
        """A whole number from `low` to `high`, given as a number or as digits; 0 when it is
        not one (its error said beside it)."""
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value.strip())
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.add(
                name,
                _("Enter a whole number from %(low)d to %(high)d.") % {"low": low, "high": high},
            )
            return 0
        number: int = value
        return number

    def day(self, name: str, value: Any, *, required: bool = True) -> date | None:
        if value is None or value == "":
            if required:
                self.add(name, _("This field is required."))
            return None
        if isinstance(value, datetime) or not isinstance(value, date):
            self.add(name, _("Enter a date (YYYY-MM-DD)."))
            return None
        day: date = value
        return day

    def refuse_if_any(self) -> None:
        if self.errors:
            raise InvalidInputError(
                _("Some fields are missing or wrong: see each field."), fields=self.errors
            )


def _birth_date_checked(fields: Fields, name: str, value: Any, today: date) -> date | None:
    born = fields.day(name, value)
    if born is not None and born > today:
        fields.add(name, _("The date of birth cannot be in the future."))
    elif born is not None and age_on(born, today) > 130:
        fields.add(name, _("Check the date of birth: the person would be over 130."))
    return born


def _exclusion_found(identity: Identity, on: date) -> ExclusionEntry | None:
    """The entry of the exclusion list in force on `on` that names this person, if any: the
    same folded surname and date of birth (indexed), first names that match
    (`first_names_match`)."""
    candidates = ExclusionEntry.objects.filter(
        surname_key=identity.surname_key, birth_date=identity.birth_date, lifted_at__isnull=True
    ).order_by("pk")
    for entry in candidates:
        if entry.is_in_force(on) and first_names_match(
            entry.first_names_key, identity.first_names_key
        ):
            return entry
    return None


def _identity_of(player: Player) -> Identity | None:
    if not player.has_identity:
        return None
    assert player.birth_date is not None
    return Identity(player.surname, player.first_names, player.birth_date)


def _admission_verdict(
    identity: Identity | None, on: date
) -> tuple[str, str, ExclusionEntry | None]:
    """(result, reason code, entry): "admitted" or "refused", and for a refusal why:
    "under_age", "barred" (with the entry) or "identity_missing" (a player registered before
    the door asked who he is: settings.ADMISSION_REQUIRES_IDENTITY, true unless set false)."""
    if identity is None:
        if getattr(settings, "ADMISSION_REQUIRES_IDENTITY", True):
            return "refused", "identity_missing", None
        return "admitted", "identity_missing", None
    if age_on(identity.birth_date, on) < ADULT_AGE:
        return "refused", "under_age", None
    entry = _exclusion_found(identity, on)
    if entry is not None:
        return "refused", "barred", entry
    return "admitted", "", None


class Asking(TypedDict):
    """Who asks the admission check (any member of staff), `where` ("registration", "seat",
    "standing" or "banker"), from which `client`, at which `table` (the table session,
    `tables.models.TableSession`, for the last three) and on which day (`today`, the door's
    today when not given)."""

    user: User
    where: str
    client: NotRequired[str]
    table: NotRequired[Any]
    today: NotRequired[date | None]


def _admit(
    checks: Sequence[tuple[Player | None, Identity | None]],
    *,
    user: User,
    where: str,
    client: str = "",
    table: Any = None,
    today: date | None = None,
) -> None:
    """Check each person and write each check's audit row, in a transaction of its own that
    commits before the caller goes on: a refusal's row stands although the caller's action is
    then refused. Refused if any one person is."""
    if where not in ADMISSION_PLACES:
        raise ValueError(f"where must be one of {ADMISSION_PLACES}, not {where!r}")
    on = door_today(today)
    rows = []
    admitted = True
    for player, identity in checks:
        result, reason, entry = _admission_verdict(identity, on)
        admitted = admitted and result == "admitted"
        data: dict[str, Any] = {"where": where, "result": result}
        if player is not None:
            data |= {"player": str(player.public_id), "member_number": player.member_number}
        elif identity is not None:
            data |= {
                "surname": identity.surname,
                "first_names": identity.first_names,
                "birth_date": identity.birth_date.isoformat(),
            }
        if reason:
            data["reason"] = reason
        if entry is not None:
            data |= {"exclusion": str(entry.public_id), "source": entry.source}
        rows.append(
            audit_entry(
                user=user, action="admission_check", table_session=table, client=client, **data
            )
        )
    # durable: called inside the caller's own transaction, this fails at once (RuntimeError)
    # rather than letting a refusal's row be rolled back with the caller's action.
    with transaction.atomic(durable=True):
        audit_rows_insert(rows)
    if not admitted:
        raise _refused()


def _refused() -> PlayerRefusedError:
    # The same words for every reason, whoever asks (art. 22: the list is not to be read out).
    return PlayerRefusedError(_("This person cannot be admitted to play."))


def player_admission_check(
    *, player: Player | None = None, identity: Identity | None = None, **asking: Unpack[Asking]
) -> None:
    """Whether a person may play (arrêté du 14 mai 2007, art. 22): refused
    (`PlayerRefusedError`, 422 `player_refused`, "This person cannot be admitted to play.")
    when under 18 or on the exclusion list in force today, matched on the folded surname and
    first names and the date of birth (`establishment.identity`).

    Give the `player` or, before he is registered, his `identity`, and who asks, where, … (the
    keywords of `Asking`). Every check writes an audit row (`admission_check`: the player,
    where, the result and, for a refusal, the reason code and the entry of the list), in its
    own transaction, committed before this returns or raises: **call it before, outside, your
    own atomic block** (inside one it raises RuntimeError, Django's durable atomic).
    """
    if (player is None) == (identity is None):
        raise ValueError("Give the player or his identity, one of them.")
    role_required(asking["user"], STAFF, "check a player at the door")
    checked = _identity_of(player) if player is not None else identity
    _admit([(player, checked)], **asking)


def player_admission_check_codes(*, codes: list[str], **asking: Unpack[Asking]) -> None:
    """`player_admission_check` for the players of these member numbers (the table names
    players by member number), in one query and one transaction of audit rows (one row per
    player): refused if any one is refused, the same words. Numbers that name no player are
    left to the caller (the table refuses them as `unknown_player`). Call it outside your own
    atomic block, as `player_admission_check`."""
    role_required(asking["user"], STAFF, "check a player at the door")
    wanted = list(dict.fromkeys(codes))
    found = {p.member_number: p for p in Player.objects.filter(member_number__in=wanted)}
    pairs = [(found[code], _identity_of(found[code])) for code in wanted if code in found]
    if pairs:
        _admit(pairs, **asking)


def _member_number_next() -> str:
    """The next member number, `M-000124` after `M-000123` (six digits and more)."""
    last = (
        Player.objects.filter(member_number__regex=r"^M-[0-9]+$")
        .annotate(length=Length("member_number"))
        .order_by("-length", "-member_number")
        .values_list("member_number", flat=True)
        .first()
    )
    number = int(last.removeprefix(MEMBER_PREFIX)) + 1 if last else 1
    return f"{MEMBER_PREFIX}{number:06d}"


def player_register(
    *,
    surname: str,
    first_names: str,
    birth_date: date | None,
    birth_place: str,
    address: str,
    document_type: str,
    document_number: str,
    document_expiry: date | None,
    registered_by: User,
    client: str = "",
    today: date | None = None,
) -> Player:
    """Register a player at the door (reception, an inspector or a manager), with his identity
    (every field required), a valid identity document, the admission check ("registration":
    under 18 or barred is refused, and the refusal's audit row stands) and a member number
    made here (`M-000123`). Call it outside any atomic block (the admission check commits its
    own row)."""
    role_required(registered_by, DOOR_KEEPERS, "register a player")
    day = door_today(today)
    fields = Fields()
    surname = fields.text("surname", surname, max_length=100)
    first_names = fields.text("first_names", first_names, max_length=150)
    born = _birth_date_checked(fields, "birth_date", birth_date, day)
    birth_place = fields.text("birth_place", birth_place, max_length=150)
    address = (address or "").strip() if isinstance(address, str) else ""
    if not address:
        fields.add("address", _("This field is required."))
    elif len(address) > 500:
        fields.add("address", _("At most %(count)d characters.") % {"count": 500})
    kind = fields.choice("document_type", document_type, DocumentType.values)
    number = fields.text("document_number", document_number, max_length=64).upper()
    expiry = fields.day("document_expiry", document_expiry)
    if expiry is not None and expiry < day:
        fields.add(
            "document_expiry",
            _("This document expired on %(date)s: ask for a valid one.")
            % {"date": expiry.isoformat()},
        )
    if (
        number
        and kind
        and Player.objects.filter(document_type=kind, document_number=number).exists()
    ):
        fields.add("document_number", _("A player is already registered with this document."))
    fields.refuse_if_any()
    assert born is not None and expiry is not None
    player_admission_check(
        identity=Identity(surname, first_names, born),
        user=registered_by,
        where="registration",
        client=client,
        today=day,
    )
    for attempt in range(5):
        try:
            with transaction.atomic(durable=True):
                player = Player(
                    name=display_name(surname, first_names),
                    member_number=_member_number_next(),
                    surname=surname,
                    first_names=first_names,
                    birth_date=born,
                    birth_place=birth_place,
                    address=address,
                    document_type=kind,
                    document_number=number,
                    document_expiry=expiry,
                    registered_by=registered_by,
                )
                player.save()
                player_audit(player, user=registered_by, action="player_register", client=client)
                return player
        except IntegrityError:
            # Two registrations took the same next number at once: take the one after.
            if attempt == 4:
                raise
    raise AssertionError("unreachable")


def exclusion_fields_checked(
    fields: Fields,
    *,
    surname: Any,
    first_names: Any,
    birth_date: Any,
    birth_place: Any,
    source: Any,
    reference: Any,
    effective_from: Any,
    until: Any,
    today: date,
) -> dict[str, Any]:
    """The fields of an entry of the exclusion list, checked (the form, the API and the
    import say the same)."""
    surname = fields.text("surname", surname, max_length=100)
    first_names = fields.text("first_names", first_names, max_length=150)
    born = _birth_date_checked(fields, "birth_date", birth_date, today)
    place = fields.text("birth_place", birth_place, max_length=150, required=False)
    kind = fields.choice("source", source, ExclusionSource.values)
    reference = fields.text("reference", reference, max_length=64, required=False)
    start = fields.day("effective_from", effective_from, required=False) or today
    end = fields.day("until", until, required=False)
    if end is not None and end < start:
        fields.add("until", _("The end cannot be before the start (%(date)s).") % {"date": start})
    return {
        "surname": surname,
        "first_names": first_names,
        "birth_date": born,
        "birth_place": place,
        "surname_key": name_key(surname),
        "first_names_key": name_key(first_names),
        "source": kind,
        "reference": reference,
        "effective_from": start,
        "until": end,
    }


def _exclusion_audit(
    entry: ExclusionEntry, user: User, action: str, client: str, **data: Any
) -> None:
    """The audit row of a change to the exclusion list: the entry, by its public id."""
    audit(user=user, action=action, client=client, exclusion=str(entry.public_id), **data)


@transaction.atomic
def exclusion_add(
    *,
    surname: str,
    first_names: str,
    birth_date: date | None,
    source: str,
    added_by: User,
    birth_place: str = "",
    reference: str = "",
    effective_from: date | None = None,
    until: date | None = None,
    client: str = "",
    today: date | None = None,
) -> ExclusionEntry:
    """Put a person on the exclusion list (a door keeper), in force from `effective_from`
    (today when not given) until `until` (for good when not given); audited."""
    role_required(added_by, DOOR_KEEPERS, "keep the exclusion list")
    fields = Fields()
    values = exclusion_fields_checked(
        fields,
        surname=surname,
        first_names=first_names,
        birth_date=birth_date,
        birth_place=birth_place,
        source=source,
        reference=reference,
        effective_from=effective_from,
        until=until,
        today=door_today(today),
    )
    fields.refuse_if_any()
    entry = ExclusionEntry(**values, added_by=added_by, added_at=timezone.now())
    entry.save()
    _exclusion_audit(entry, added_by, "exclusion_add", client, source=entry.source)
    return entry


@transaction.atomic
def exclusion_lift(
    *, entry: ExclusionEntry, reason: str, lifted_by: User, client: str = ""
) -> ExclusionEntry:
    """Lift an entry of the exclusion list (a door keeper), with the reason: the entry stays,
    with who lifted it, when and why, set once; audited. A lifted entry is not lifted again."""
    role_required(lifted_by, DOOR_KEEPERS, "keep the exclusion list")
    fields = Fields()
    why = fields.text("reason", reason, max_length=500)
    fields.refuse_if_any()
    locked = ExclusionEntry.objects.select_for_update().get(pk=entry.pk)
    if locked.lifted_at is not None:
        raise InvalidStateError(_("This entry was lifted already."))
    locked.lifted_at = timezone.now()
    locked.lifted_by = lifted_by
    locked.lift_reason = why
    locked.save(update_fields=["lifted_at", "lifted_by", "lift_reason"])
    _exclusion_audit(locked, lifted_by, "exclusion_lift", client, reason=why)
    return locked
