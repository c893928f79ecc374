"""The registers signed, frozen and chained (docs/registers.md): model 11 frozen once its count
is certified, model 12 signed by two different managers, model 13 closed at the month's end;
rectifications; and each register built again from the books and the journal
(`register_rebuild`), which `reports.registers.verify.registers_verify` compares with what was
stored.

Each signer proves who he is at that moment (his own password, `identity_confirm`); what he
signed is the register's SHA-256, kept with his signature.

Model 11 is built by a Celery task (`reports.freeze_model11`, sent once the count has
committed; `reports.registers_sweep` sends it again for a count left without it): it parses
the whole night's report, about half a second on a big night, which the count's request does
not wait for. Models 12 and 13 are built in the signing request: they are composed from
registers already stored (model 12 of 60 tables takes about a quarter of a second, bench/), and
the signer signs the SHA-256 he was shown (`expected_sha256`).
"""

from __future__ import annotations

import calendar
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from establishment.confirmation import identity_confirm
from establishment.errors import DomainError, ErrorCode, InvalidStateError
from establishment.house import house_journee_of
from establishment.roles import Role
from establishment.services import audit
from establishment.staff import role_required
from reports.builders import canonical_json, sha256_hex
from reports.models import (
    CountedCagnotte,
    Register,
    RegisterSignature,
)
from reports.registers.builders import (
    MODEL_11,
    MODEL_12,
    MODEL_13,
    model11_build,
    model12_build,
    model13_build,
)
from reports.registers.sources import (
    banker_identities,
    journee_seances,
    register_latest,
    registers_latest,
    seance_count_row,
    seance_get,
    seance_stock_rows,
    seance_ticket_rows,
    without_cagnotte_book,
)
from reports.services import settlement_content_build
from tables.models import TableSession

if TYPE_CHECKING:
    from django.contrib.auth.models import User

SIGNERS_OF_MODEL_12 = 2  # the directeur responsable and another member of the comité (art. 72)
REGISTER_KEEPERS = frozenset({Role.MANAGER})


class RegisterRefusedError(DomainError):
    """The register cannot be signed or closed yet, or not by this person."""

    code = ErrorCode.INVALID_STATE
    http_status = 409


# -- what each register holds -----------------------------------------------------------------


def model11_content(table_session: TableSession, table: dict[str, Any]) -> dict[str, Any]:
    """Model 11 of a séance from its entry in the night's report (`table`)."""
    codes = sorted({b["player"] for b in table["bankers"] if b["player"]})
    return model11_build(
        table=table,
        seance=seance_get(table_session=table_session),
        stock=seance_stock_rows(table_session=table_session),
        tickets=seance_ticket_rows(table_session=table_session),
        count=seance_count_row(table_session=table_session),
        identities=banker_identities(codes=codes),
    )


def _seance_entry(report_content: dict[str, Any], table_session: TableSession) -> dict[str, Any]:
    wanted = str(table_session.public_id)
    entry: dict[str, Any] = next(
        t for t in report_content["tables"] if t["table_session"] == wanted
    )
    return entry


def model12_content(journee: date, model_11s: list[Register]) -> dict[str, Any]:
    seances = [{**json.loads(r.content), "sha256": r.sha256} for r in model_11s]
    currency = seances[0]["currency"] if seances else "EUR"
    return model12_build(journee=journee, currency=currency, seances=seances)


def model13_content(month: str, model_12s: list[Register]) -> dict[str, Any]:
    journees = [{**json.loads(r.content), "sha256": r.sha256} for r in model_12s]
    currency = journees[0]["currency"] if journees else "EUR"
    return model13_build(month=month, currency=currency, journees=journees)


# -- storing and signing --------------------------------------------------------------------


def _chain_lock(kind: str) -> None:
    """The end of a kind's chain, taken by one writer at a time until his transaction ends: on
    PostgreSQL a transaction-level advisory lock per kind, taken before the last register is
    read, so that a writer who waited reads the register stored meanwhile (a row lock on the
    last register would give him back the row he waited on, and two registers would follow the
    same one). SQLite has one writer at a time already (BEGIN IMMEDIATE)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"reports.{kind}"])


def _store(
    kind: str,
    key: str,
    content: dict[str, Any],
    *,
    table_session: TableSession | None = None,
    rectifies: Register | None = None,
    reason: str = "",
    approved_by: User | None = None,
) -> Register:
    """A register stored at the end of its kind's chain (`_chain_lock`: two registers stored in
    the same instant are stored one after the other, each after the one before)."""
    text = canonical_json(content)
    _chain_lock(kind)
    last = Register.objects.filter(kind=kind).order_by("-pk").first()
    try:
        with transaction.atomic():
            return Register.objects.create(
                kind=kind,
                key=key,
                version=rectifies.version + 1 if rectifies else 1,
                content=text,
                sha256=sha256_hex(text),
                previous_sha256=last.sha256 if last else "",
                stored_at=timezone.now(),
                rectifies=rectifies,
                reason=reason,
                approved_by=approved_by,
                table_session=table_session,
            )
    except IntegrityError:
        raise RegisterRefusedError(
            _("Someone stored a register at the same moment; look again and retry.")
        ) from None


def _sign(
    register: Register,
    user: User,
    signed_as: str,
    client: str,
    *,
    signed_at: datetime | None = None,
) -> RegisterSignature:
    """`user` signs `register` (its SHA-256), now or at the moment he proved who he was
    (`signed_at`)."""
    if register.signatures.filter(signed_by=user).exists():
        raise RegisterRefusedError(
            _("%(who)s has signed this register already: the second signature is another person's.")
            % {"who": user.get_username()},
            code=ErrorCode.SECOND_PERSON_REQUIRED,
        )
    signature = RegisterSignature.objects.create(
        register=register,
        signed_by=user,
        signed_at=signed_at or timezone.now(),
        signed_as=signed_as,
        signed_sha256=register.sha256,
    )
    audit(
        user=user,
        action="register_signed",
        client=client,
        register=register.kind,
        key=register.key,
        version=register.version,
        sha256=register.sha256,
    )
    return signature


def _count_lock(count_id: int) -> CountedCagnotte | None:
    """The count, read once its lock is taken until the transaction ends (an advisory lock, as
    `_chain_lock`: FOR UPDATE needs the UPDATE privilege, which the application's role has not
    on the history, docs/security.md): the freezes of one séance run one after the other."""
    _chain_lock(f"count.{count_id}")
    return (
        CountedCagnotte.objects.select_related(
            "report", "counted_by", "table_session__table", "table_session__house_settings"
        )
        .filter(pk=count_id)
        .first()
    )


@transaction.atomic(durable=True)
def model11_freeze(*, count_id: int) -> Register | None:
    """Model 11 of a counted séance, frozen by the count's certification (« certifié exact »,
    art. 56-2): built from the séance's entry in the night's report, stored and signed by the
    director who certified the count. He proved who he was in the count's request (his
    password), so his signature carries that moment, the count's `counted_at`, not the moment a
    worker stored the register (`stored_at`).

    What `reports.tasks.freeze_model11` calls once the count has committed. Idempotent: the
    count's row is locked first (`_count_lock`), so a second run, a message delivered twice or
    two workers at once store one model 11; the later calls return it. None for a count that
    does not exist."""
    count = _count_lock(count_id)
    if (
        count is None
        or not TableSession.objects.filter(pk=count.table_session_id)
        .exclude(without_cagnotte_book())
        .exists()
    ):
        return None  # no such count, or a séance that keeps no cagnotte book
    seance = count.table_session
    stored = register_latest(kind=MODEL_11, key=str(seance.public_id))
    if stored is not None:
        return stored
    content = model11_content(seance, _seance_entry(json.loads(count.report.content), seance))
    register = _store(MODEL_11, str(seance.public_id), content, table_session=seance)
    _sign(register, count.counted_by, "certified", "reports", signed_at=count.counted_at)
    return register


def counts_without_model11(*, counted_before: datetime) -> QuerySet[CountedCagnotte]:
    """The counts certified before `counted_before` whose séance still has no model 11: what
    `reports.registers_sweep` sends to `reports.freeze_model11` again (a message lost between
    the count's commit and the broker, or a worker that failed)."""
    frozen = Register.objects.filter(kind=MODEL_11, table_session=OuterRef("table_session"))
    return (
        CountedCagnotte.objects.filter(counted_at__lt=counted_before)
        .exclude(Exists(frozen))
        .exclude(table_session__in=TableSession.objects.filter(without_cagnotte_book()))
        .order_by("pk")
    )


def seances_counted(*, seance_ids: list[int]) -> set[int]:
    """Which of these séances (their ids) have their box counted (their model 11 is then
    stored, or being prepared), in one query."""
    return set(
        CountedCagnotte.objects.filter(table_session_id__in=seance_ids).values_list(
            "table_session_id", flat=True
        )
    )


@dataclass(frozen=True)
class SeanceStanding:
    """Where a séance of a journée stands for its model 11: `frozen` (stored), `preparing`
    (counted, a worker is storing it), `to_count` (closed, not counted), `open`."""

    seance: TableSession
    model_11: Register | None
    counted: bool

    @property
    def state(self) -> str:
        if self.model_11 is not None:
            return "frozen"
        if self.counted:
            return "preparing"
        return "to_count" if self.seance.closed_at else "open"


def journee_standing(*, journee: date) -> list[SeanceStanding]:
    """Every séance of a journée with its model 11 and whether it was counted: three queries
    whatever the number of tables."""
    seances = list(journee_seances(journee=journee))
    frozen = registers_latest(kind=MODEL_11, keys=[str(s.public_id) for s in seances])
    counted = seances_counted(seance_ids=[s.pk for s in seances])
    return [
        SeanceStanding(seance=s, model_11=frozen.get(str(s.public_id)), counted=s.pk in counted)
        for s in seances
    ]


def _journee_model_11s(journee: date) -> list[Register]:
    """The model 11 of every séance of the journée, once each is stored; refused, saying which
    tables are still to count and which are being prepared, before."""
    standing = journee_standing(journee=journee)
    if not standing:
        if TableSession.objects.filter(journee=journee).exists():
            raise RegisterRefusedError(
                _(
                    "The tables of the journée of %(day)s were on a participation fee: they keep"
                    " no cagnotte book; the night's settlement report lists what was charged."
                )
                % {"day": journee}
            )
        raise RegisterRefusedError(
            _("No table played in the journée of %(day)s.") % {"day": journee}
        )
    to_count = sorted({s.seance.table.number for s in standing if not s.counted})
    if to_count:
        raise RegisterRefusedError(
            _("Close and count every table of the journée first: %(tables)s.")
            % {"tables": ", ".join(str(n) for n in to_count)},
            tables=to_count,
        )
    preparing = sorted({s.seance.table.number for s in standing if s.model_11 is None})
    if preparing:
        raise RegisterRefusedError(
            _(
                "The cagnotte book (model 11) of tables %(tables)s is still being prepared: "
                "sign once it is there, in a moment."
            )
            % {"tables": ", ".join(str(n) for n in preparing)},
            preparing=preparing,
        )
    return [s.model_11 for s in standing if s.model_11 is not None]


def model12_draft(*, journee: date, standing: list[SeanceStanding]) -> dict[str, Any] | None:
    """Model 12 as the first signature would store it, with its SHA-256, once every séance of
    the journée has its model 11 (`standing`, from `journee_standing`); None before. Built
    from the stored model 11s, in the request: the signer is shown what he signs."""
    if not standing or any(s.model_11 is None for s in standing):
        return None
    content = model12_content(journee, [s.model_11 for s in standing if s.model_11 is not None])
    return {"content": content, "sha256": sha256_hex(canonical_json(content))}


def _read_check(sha256: str, expected_sha256: str | None) -> None:
    """The signer signs what he read: refused, nothing changed, when the register he would sign
    is not the one whose SHA-256 he was shown (a model 11 rectified in between). No check when
    he says nothing (`None`, the API without the field)."""
    if expected_sha256 is not None and expected_sha256.strip().lower() != sha256:
        raise RegisterRefusedError(
            _("The registre changed since you read it; read it again."),
            code=ErrorCode.CONFLICT,
            sha256=sha256,
        )


@transaction.atomic
def journee_sign(
    *,
    journee: date,
    user: User,
    password: str,
    client: str = "",
    expected_sha256: str | None = None,
) -> Register:
    """Sign the registre de contrôle of a journée (model 12): the first manager's signature
    stores it, frozen; the second, another manager's, completes it. Each proves who he is, and
    signs what he read: `expected_sha256` is the SHA-256 his screen showed him (the draft's for
    the first, the stored register's for the second), refused when it is no longer the one."""
    role_required(user, REGISTER_KEEPERS, "sign the registre de contrôle")
    identity_confirm(user, password, what=_("sign the registre de contrôle"))
    _chain_lock(MODEL_12)  # two first signatures at once: the later one becomes the second
    key = journee.isoformat()
    register = register_latest(kind=MODEL_12, key=key)
    if register is None:
        content = model12_content(journee, _journee_model_11s(journee))
        _read_check(sha256_hex(canonical_json(content)), expected_sha256)
        register = _store(MODEL_12, key, content)
    elif register.signatures.count() >= SIGNERS_OF_MODEL_12:
        raise RegisterRefusedError(_("This registre de contrôle is signed by two already."))
    else:
        _read_check(register.sha256, expected_sha256)
    _sign(register, user, "director" if not register.signatures.exists() else "committee", client)
    return register


def month_end(month: str) -> date:
    year, number = (int(part) for part in month.split("-"))
    return date(year, number, calendar.monthrange(year, number)[1])


def month_parse(month: str) -> str:
    try:
        year, number = (int(part) for part in str(month).split("-"))
        date(year, number, 1)
    except ValueError:
        raise InvalidStateError(_("A month is written YYYY-MM, such as 2026-11.")) from None
    return f"{year:04d}-{number:02d}"


@transaction.atomic
def month_close(*, month: str, user: User, password: str, client: str = "") -> Register:
    """Close the carnet des prélèvements of a month (model 13) once it has ended: every journée
    of it that was played has its registre de contrôle signed by two."""
    role_required(user, REGISTER_KEEPERS, "close the carnet des prélèvements")
    identity_confirm(user, password, what=_("close the carnet des prélèvements"))
    month = month_parse(month)
    last_day = month_end(month)
    if house_journee_of(timezone.now()) <= last_day:
        raise RegisterRefusedError(
            _("The month of %(month)s is not over: it closes after its last journée.")
            % {"month": month}
        )
    if register_latest(kind=MODEL_13, key=month) is not None:
        raise RegisterRefusedError(
            _("The carnet des prélèvements of %(month)s is closed already.") % {"month": month}
        )
    first_day = last_day.replace(day=1)
    days = sorted(
        {
            d.isoformat()
            for d in TableSession.objects.filter(
                journee__gte=first_day, journee__lte=last_day
            ).values_list("journee", flat=True)
        }
    )
    signed = registers_latest(kind=MODEL_12, keys=days)
    unsigned = [
        day
        for day in days
        if day not in signed or getattr(signed[day], "signers", 0) < SIGNERS_OF_MODEL_12
    ]
    if unsigned:
        raise RegisterRefusedError(
            _("Have the registre de contrôle of each journée signed by two first: %(days)s.")
            % {"days": ", ".join(unsigned)},
            journees=unsigned,
        )
    register = _store(MODEL_13, month, model13_content(month, [signed[d] for d in days]))
    _sign(register, user, "closed", client)
    return register


@transaction.atomic
def register_rectify(
    *, register: Register, reason: str, user: User, password: str, client: str = ""
) -> Register:
    """A rectification (art. 68): the register built again from the books as they are now,
    stored as a new version that names the one it corrects, why, and who approved it; the old
    version stays as it was. A manager approves, proving who he is."""
    role_required(user, REGISTER_KEEPERS, "rectify a register")
    identity_confirm(user, password, what=_("approve the rectification"))
    reason = " ".join(str(reason or "").split())
    if not reason:
        raise InvalidStateError(_("Say why the register is rectified."))
    latest = register_latest(kind=register.kind, key=register.key)
    if latest is None or latest.pk != register.pk:
        raise RegisterRefusedError(_("Only the version in force can be rectified."))
    content = register_rebuild(register)
    if canonical_json(content) == register.content:
        raise RegisterRefusedError(_("The books say what this register says: nothing to rectify."))
    new = _store(
        register.kind,
        register.key,
        content,
        table_session=register.table_session,
        rectifies=register,
        reason=reason,
        approved_by=user,
    )
    _sign(new, user, "rectification", client)
    return new


# -- rebuilding (checked by reports.registers.verify) -----------------------------------------


def register_rebuild(
    register: Register, reports: Callable[[Any], dict[str, Any]] | None = None
) -> dict[str, Any]:
    """What the register holds when built again now, from the books and the journal (model 11)
    or from the registers it is made of, as they are stored (models 12 and 13)."""
    if register.kind == MODEL_11:
        seance = TableSession.objects.select_related(
            "table", "house_settings", "gaming_session"
        ).get(pk=register.table_session_id or 0)
        content = reports(seance.gaming_session) if reports else _report_now(seance.gaming_session)
        return model11_content(seance, _seance_entry(content, seance))
    if register.kind == MODEL_12:
        return model12_content(
            date.fromisoformat(register.key), _journee_model_11s(date.fromisoformat(register.key))
        )
    keys = [j["journee"] for j in json.loads(register.content)["journees"]]
    found = registers_latest(kind=MODEL_12, keys=keys)
    return model13_content(register.key, [found[day] for day in keys if day in found])


def _report_now(gaming_session: Any) -> dict[str, Any]:
    return night_now(gaming_session)[0]


def night_now(gaming_session: Any) -> tuple[dict[str, Any], Any]:
    """The night's report built again now, every table replayed from its journal, and the
    reconciliation of the journals with the books."""
    return settlement_content_build(gaming_session=gaming_session, replayed=True)


def signatures_of(register: Register) -> Iterator[RegisterSignature]:
    yield from register.signatures.select_related("signed_by").order_by("signed_at", "pk")
