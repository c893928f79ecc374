"""The count of a séance's cagnotte box (arrêté du 14 mai 2007, arts. 56-2 and 70;
docs/registers.md, model 11): entered once by a director who certifies it with his password,
before a witness who gives hers; its difference booked — a surplus added to the levy, a
shortfall borne by the casino's cash, each one balanced transaction named by the séance (tables
are never offset: each count books its own) —; once the count has committed, the séance's model
11 is frozen by a worker (`reports.freeze_model11`, `reports.registers.store.model11_freeze`):
building it parses the whole night's report, which the count's request does not wait for.

Nothing here touches the night's accounts (the cagnotte of the table, the players'
positions), so the settlement report read back from the books after a count is the report
that was signed: the count's accounts are of its own place (`tables.postings.count_place`).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from celery import current_app
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from establishment.confirmation import identity_confirm
from establishment.errors import DomainError, ErrorCode, PermissionDeniedError
from establishment.roles import Role
from establishment.staff import roles_of
from ledger.models import AccountKind
from ledger.services import Leg, account_get_or_create, post
from reports.models import CountedCagnotte, SettlementReport
from reports.services import manager_lock, report_audit, report_content
from tables.models import Table, TableSession
from tables.postings import HOUSE_PLACE, count_place

if TYPE_CHECKING:
    from django.contrib.auth.models import User

SURPLUS = "count_surplus"
SHORTFALL = "count_shortfall"


def count_difference_post(
    *, table_session: TableSession, expected: int, counted: int, posted_by: User
) -> str:
    """Book the difference between the box counted and the levies booked, in chips; its
    idempotency key, or "" when the count is exact."""
    difference = counted - expected
    if difference == 0:
        return ""
    place = count_place(table_session.public_id)
    box = account_get_or_create(kind=AccountKind.COUNT_DIFFERENCE, place=place)
    if difference > 0:  # more in the box than the levies: added to the levy
        levy = account_get_or_create(kind=AccountKind.LEVY_SURPLUS, place=place)
        legs = [Leg.debit(box, difference, SURPLUS), Leg.credit(levy, difference, SURPLUS)]
    else:  # less in the box: the casino's cash makes the levy whole
        cash = account_get_or_create(kind=AccountKind.HOUSE_CASH, place=HOUSE_PLACE)
        legs = [Leg.debit(cash, -difference, SHORTFALL), Leg.credit(box, -difference, SHORTFALL)]
    key = f"{place}:difference"
    post(
        legs=legs,
        idempotency_key=key,
        posted_by=posted_by,
        memo=f"Table {table_session.table.number}, count of the cagnotte",
        place=place,
    )
    return key


# Who may witness a count (art. 56-2): a second person of the house's management or control.
COUNT_WITNESSES = frozenset({Role.MANAGER, Role.INSPECTOR, Role.AUDITOR})


@transaction.atomic(durable=True)
def cagnotte_count_record(
    *,
    report: SettlementReport,
    table: Table,
    counted_chips: int,
    counted_by: User,
    password: str,
    witness: User | None,
    witness_password: str,
    note: str = "",
    client: str = "",
    table_session: TableSession | None = None,
) -> CountedCagnotte:
    """A director (a manager) enters what a séance's cagnotte box held and certifies it with
    his own password, before a second person who gives hers (art. 56-2, art. 70 column 9):
    entered once, there is no draft. The difference with the levies booked is booked at once
    (`reports.counting`). `table_session` says which séance when the table opened twice.

    The séance's model 11 is sent to a worker once this commits (`reports.freeze_model11`,
    looked up by name: a service does not import the tasks). The send is robust: a broker out
    of reach, or a failure of the eager task in the embedded mode, is logged and never undoes
    or refuses the count, which is committed; `reports.registers_sweep` sends it again."""
    locked = manager_lock(
        report,
        counted_by,
        password,
        refused="Only a manager may enter the counted cagnotte.",
        signed="The report is signed off; nothing more can be entered.",
        what=_("certify the count"),
    )
    if witness is None or witness.pk == counted_by.pk:
        raise DomainError(
            _("The witness must be a second person."),
            code=ErrorCode.SECOND_PERSON_REQUIRED,
            field="witness",
        )
    if not witness.is_active or not roles_of(witness) & COUNT_WITNESSES:
        raise PermissionDeniedError(
            _("The witness must be a manager, an inspector or an auditor."), field="witness"
        )
    identity_confirm(witness, witness_password, what=_("witness the count"))
    if not isinstance(counted_chips, int) or isinstance(counted_chips, bool) or counted_chips < 0:
        raise DomainError(
            _("The counted amount is a whole number of chips, zero or more."),
            code=ErrorCode.CONFLICT,
            field="counted_chips",
        )
    seance = _counted_seance(locked, table, table_session)
    if CountedCagnotte.objects.filter(table_session=seance).exists():
        raise DomainError(
            _("This table's cagnotte has already been counted."), code=ErrorCode.CONFLICT
        )
    expected = next(
        t["cagnotte_expected"]
        for t in report_content(locked)["tables"]
        if t["table_session"] == str(seance.public_id)
    )
    count = CountedCagnotte.objects.create(
        report=locked,
        table=table,
        table_session=seance,
        counted_chips=counted_chips,
        counted_by=counted_by,
        witness=witness,
        counted_at=timezone.now(),
        note=note.strip(),
        posting=count_difference_post(
            table_session=seance, expected=expected, counted=counted_chips, posted_by=counted_by
        ),
    )
    current_app.loader.import_default_modules()
    transaction.on_commit(
        partial(current_app.tasks["reports.freeze_model11"].delay, count.pk), robust=True
    )
    report_audit(
        locked,
        counted_by,
        "cagnotte_counted",
        client,
        table=table.number,
        counted_chips=counted_chips,
        expected_chips=expected,
        witness=witness.get_username(),
        posting=count.posting,
    )
    return count


def _counted_seance(
    report: SettlementReport, table: Table, table_session: TableSession | None
) -> TableSession:
    """The séance of `table` in the report's night whose box is counted: the one given, or
    the table's only séance that night."""
    seances = TableSession.objects.filter(
        table=table, gaming_session_id=report.gaming_session_id
    ).select_related("table")
    if table_session is not None:
        seances = seances.filter(pk=table_session.pk)
    found = list(seances[:2])
    if not found:
        raise DomainError(_("This table did not play in this session."), code=ErrorCode.NOT_FOUND)
    if len(found) > 1:
        raise DomainError(
            _("Table %(table)s opened more than once tonight: say which séance was counted.")
            % {"table": table.number},
            code=ErrorCode.CONFLICT,
            field="table_session",
        )
    return found[0]
