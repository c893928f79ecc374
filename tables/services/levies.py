"""The house's fees outside the coups, charged from the seating record (docs/rules/levy.md,
LV-3): a time fee per seated player and period, a participation fee per player and day.

`fees_charge` books what a séance's seating owes up to a moment and is not booked yet: each
charge is one ledger transaction, the player's position → the table's cagnotte, with the
model's own reason (LV-5), and a `LevyCharge` row that names it. It runs in the recording
service's transaction after every action at such a table (`record`: a player who sits down
owes his period at once), at the table's close (the periods up to the close) and from the
periodic task (`tables.tasks.seating_fees_charge`: a period that begins while nobody records).

Never twice for one player and period, whoever charges at the same moment: the ledger key
names the player and the period (for the participation fee, not the table: a player sitting
down at two tables at once pays one of them), and the unique constraints of `LevyCharge` say
the same in the database.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from establishment.models import Player
from ledger.models import Account
from ledger.services import IdempotencyConflictError, Leg, post
from tables.engine.money import PARTICIPATION_FEE
from tables.engine.settlement import CAGNOTTE
from tables.levy_periods import SEATING_FEE_MODELS, FeeTerms, Stay, fees_due, period_finder
from tables.memo import Memo
from tables.models import (
    AssignmentRole,
    CroupierAssignment,
    LevyCharge,
    SeatOccupancy,
    TableSession,
)
from tables.postings import levy_charge_key, table_session_place
from tables.services.books import accounts_for, players_by_code

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def fees_owed(
    table_session: TableSession, terms: FeeTerms, until: datetime
) -> tuple[list[tuple[str, tuple[datetime, datetime]]], datetime]:
    """What the séance's seating owes up to `until` and is not charged yet: (player, period),
    in the order the periods began; and the moment the next period begins (the end of all
    time when nobody has sat down yet), before which the same seating owes nothing more."""
    rows = SeatOccupancy.objects.filter(table_session=table_session, sat_at__lte=until)
    found = list(
        rows.values_list(
            "player__member_number",
            "sat_at",
            "left_at",
            "table_session__house_settings__time_zone",  # the séance's, in the same query
        )
    )
    if not found:
        return [], NEVER
    stays = [Stay(player, sat_at, left_at) for player, sat_at, left_at, _zone in found]
    time_zone = found[0][3]
    due = fees_due(
        terms, stays, opened_at=table_session.opened_at, until=until, time_zone=time_zone
    )
    charged = LevyCharge.objects.filter(
        levy_model=terms.model, player__member_number__in={p for p, _ in due}
    )
    if terms.model != PARTICIPATION_FEE:  # a time fee is the séance's; a day's fee the house's
        charged = charged.filter(table_session=table_session)
    done = set(charged.values_list("player__member_number", "period_start"))
    owed = [
        (player, period) for (player, start), period in due.items() if (player, start) not in done
    ]
    find = period_finder(terms, opened_at=table_session.opened_at, time_zone=time_zone)
    return sorted(owed, key=lambda item: (item[1][0], item[0])), find(until)[1]


def fees_charge(
    table_session: TableSession,
    *,
    user: User,
    until: datetime | None = None,
    seats: tuple[Any, ...] | None = None,
) -> list[LevyCharge]:
    """Charge what the séance's seating owes up to `until` (now) and is not charged yet, in
    the caller's transaction; the charges made, in the order the periods began.

    `seats` is the seating the caller's journal holds (`record`, after each action): when the
    last check at this séance, committed, saw the same seating and no period has begun since,
    nothing can be owed (LV-3: a fee falls due when a player sits down or a period begins) and
    the seating record is not read.
    """
    terms = FeeTerms.of(table_session.settings)
    if terms is None:
        return []
    moment = until or timezone.now()
    key = str(table_session.public_id)
    if seats is not None:
        quiet = _quiet.get(key)
        if quiet is not None and quiet[0] == seats and moment < quiet[1]:
            return []
    owed, next_period = fees_owed(table_session, terms, moment)
    if seats is not None:
        transaction.on_commit(partial(_quiet.put, key, (seats, next_period)))
    if not owed:
        return []
    accounts = accounts_for(sorted({p for p, _ in owed} | {CAGNOTTE}), table_session)
    players = players_by_code(sorted({p for p, _ in owed}))
    made: list[LevyCharge] = []
    for player, (start, end) in owed:
        charge = _charge(table_session, terms, players[player], start, end, accounts, user, moment)
        if charge is not None:
            made.append(charge)
    return made


# The last committed check of each séance in this process: the seating it saw, and when the next
# period begins (`fees_charge`). Keyed by the séance's public id (never reused).
_quiet: Memo[tuple[tuple[Any, ...], datetime]] = Memo(size=4096)
NEVER = datetime.max.replace(tzinfo=UTC)


def _charge(
    table_session: TableSession,
    terms: FeeTerms,
    holder: Player,
    start: datetime,
    end: datetime,
    accounts: dict[str, Account],
    user: User,
    moment: datetime,
) -> LevyCharge | None:
    """One charge, or None when another writer charged it first (at another table, for the
    day's participation fee, or at the same moment)."""
    player = holder.member_number
    key = levy_charge_key(
        terms.model,
        player,
        start,
        table_session_public_id=None
        if terms.model == PARTICIPATION_FEE
        else table_session.public_id,
    )
    reason = terms.model
    try:
        with transaction.atomic():
            posted = post(
                legs=[
                    Leg.debit(accounts[player], terms.amount, reason),
                    Leg.credit(accounts[CAGNOTTE], terms.amount, reason),
                ],
                idempotency_key=key,
                posted_by=user,
                memo=f"Table {table_session.table.number}, {reason} {player}",
                gaming_session=table_session.gaming_session,
                place=table_session_place(table_session.public_id),
            )
            if LevyCharge.objects.filter(transaction=posted).exists():
                return None  # the same charge, booked by a writer that committed first
            return LevyCharge.objects.create(
                table_session=table_session,
                player=holder,
                levy_model=terms.model,
                period_start=start,
                period_end=end,
                amount=terms.amount,
                transaction=posted,
                charged_by=user,
                charged_at=moment,
            )
    except (IdempotencyConflictError, IntegrityError):
        # The day's fee booked at another table of the house (the same key, other legs), or
        # the charge's row refused by its unique constraint: charged once already.
        return None


def _charging_user(table_session: TableSession) -> User:
    """Who a charge made by the periodic task is booked by: the croupier on duty at the table,
    else whoever opened it (the house has no user of its own)."""
    duty = (
        CroupierAssignment.objects.filter(
            table_session=table_session,
            role=AssignmentRole.CROUPIER,
            released_at__isnull=True,
        )
        .select_related("staff")
        .order_by("-assigned_at")
        .first()
    )
    return duty.staff if duty is not None else table_session.opened_by


def open_seating_fees_charge(*, until: datetime | None = None) -> int:
    """Charge what every open séance on a time or participation fee owes by `until` (now), one
    table at a time under its lock (as `record` holds it); the number of charges made."""
    moment = until or timezone.now()
    candidates = TableSession.objects.filter(
        closed_at__isnull=True, settings__levy_model__in=sorted(SEATING_FEE_MODELS)
    ).values_list("pk", flat=True)
    made = 0
    for pk in candidates:
        with transaction.atomic(durable=True):
            locked = (
                TableSession.objects.select_for_update(of=("self",))
                .select_related("table", "gaming_session", "house_settings", "opened_by")
                .get(pk=pk)
            )
            if locked.closed_at is None:
                made += len(fees_charge(locked, user=_charging_user(locked), until=moment))
    return made
