"""Writes at the table level (configuration, opening, seating, staff, sabots).

Each checks who acts (tables are configured by a manager; openings and staff on duty by an
inspector or a manager; a sabot is brought by the croupier on duty or an inspector) and writes
its audit row in the same transaction. Recording play (`record`, coups, the bank) locks the
`TableSession` row first (docs/architecture.md, "How a recorded action flows").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from establishment.door import player_admission_check_codes
from establishment.errors import InvalidStateError
from establishment.house import house_journee_of, house_settings_in_force
from establishment.models import GamingSession, HouseSettings
from establishment.roles import SUPERVISORS, TABLE_CONFIGURERS
from establishment.services import audit
from establishment.staff import role_required
from tables.engine import RuleError
from tables.engine.money import NEAREST
from tables.models import EventKind, Sabot, Table, TableSession
from tables.services.books import players_by_code
from tables.services.journal import Journal, engine_start
from tables.services.levies import fees_charge
from tables.services.recording import RuleRefusedError, sabot_replace, seats_sync
from tables.services.stock import stock_for_new_shoe
from tables.services.writing import JournalWrite, open_table_session_lock, operate_check
from tables.validation import default_seat_count
from tables.words import say

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def table_audit(table: Table, user: User, action: str, client: str, **data: Any) -> None:
    """The audit row of a change to a table or at it, which names the table by its number and
    game."""
    audit(user=user, action=action, client=client, table=table.number, game=table.game, **data)


@transaction.atomic
def table_create(
    *,
    number: int,
    game: str,
    settings: Mapping[str, object] | None = None,
    seat_count: int | None = None,
    name: str = "",
    created_by: User,
    client: str = "",
) -> Table:
    """Create a table (a manager); its settings are validated by the engine and stored with
    defaults. The audit row keeps who set them: the cagnotte's rate is among them."""
    role_required(created_by, TABLE_CONFIGURERS, "create a table")
    table = Table(
        number=number,
        game=game,
        # Anything but a mapping is left for the engine's check to refuse (E_SETTING, a 422),
        # as `table_update` does: `dict()` of a list would fail with a TypeError (a 500).
        settings=dict(settings) if isinstance(settings, Mapping) else (settings or {}),
        seat_count=seat_count if seat_count is not None else default_seat_count(game),
        name=name,
    )
    table.full_clean()
    table.save()
    table_audit(
        table,
        created_by,
        "table_create",
        client,
        settings=table.settings,
        seat_count=table.seat_count,
        name=table.name,
    )
    return table


# The house's rule for a levy exactly halfway (art. 59, COM-6.3), as the engine's rounding.
TIE_ROUNDING = {"up": "nearest", "down": "nearest_down", "even": "nearest_even"}


def seance_settings(settings: Mapping[str, Any], house: HouseSettings) -> dict[str, Any]:
    """The settings a séance keeps: the table's, a levy rounded to the nearest step rounding an
    exact half as the house says (docs/registers.md, "Money")."""
    kept = dict(settings)
    if kept.get("cagnotte_rounding") in NEAREST:
        kept["cagnotte_rounding"] = TIE_ROUNDING[house.levy_tie_rule]
    return kept


def table_session_open(
    *,
    table: Table,
    gaming_session: GamingSession,
    opened_by: User,
    seats: Mapping[int, str] | None = None,
    standing: Sequence[str] = (),
    client: str = "",
) -> TableSession:
    """Open `table` in `gaming_session`, freezing its game and settings for the session.

    `seats` (seat → member number) and `standing` are who is at the table when it opens; they
    may also sit down later (`record` of `sit`). They are checked at the door first, before the
    opening's transaction (arrêté art. 22: a barred or under-age person is refused, each check
    in the audit log, committed on its own). The engine checks them like a scenario's seating
    (a chemin de fer table's adjudicated banker must be seated at the opening, CF-I27). An
    inspector or a manager opens a table.
    """
    role_required(opened_by, SUPERVISORS, "open a table")
    for where, codes in (("seat", list((seats or {}).values())), ("standing", list(standing))):
        if codes:
            player_admission_check_codes(codes=codes, user=opened_by, where=where, client=client)
    with transaction.atomic():
        locked = Table.objects.select_for_update().get(pk=table.pk)
        if not locked.is_active:
            raise InvalidStateError("This table is out of service.")
        if gaming_session.closed_at is not None:
            raise InvalidStateError("This gaming session is closed.")
        if locked.sessions.filter(closed_at__isnull=True).exists():
            raise InvalidStateError("This table is already open.")
        locked.full_clean()  # settings still valid under the current rules
        now = timezone.now()
        house = house_settings_in_force()
        opened = TableSession.objects.create(
            table=locked,
            gaming_session=gaming_session,
            game=locked.game,
            settings=seance_settings(locked.settings, house),
            seat_count=locked.seat_count,
            opened_at=now,
            opened_by=opened_by,
            house_settings=house,
            journee=house_journee_of(now, house),
        )
        seat_map = {str(seat): code for seat, code in sorted((seats or {}).items())}
        opening: dict[str, Any] = {"seats": seat_map, "standing": list(standing)}
        codes = list(seat_map.values()) + list(standing)
        if codes:
            players_by_code(codes)
            for seat in seats or {}:
                if not 1 <= seat <= opened.seat_count:
                    # The engine's own words for it (COM-10.3 E_NO_SUCH_SEAT).
                    words = say("E_NO_SUCH_SEAT", {"seat": seat, "seat_count": opened.seat_count})
                    raise InvalidStateError(words)
            if len(set(codes)) != len(codes):
                raise InvalidStateError("A player can only be at the table once.")
            try:
                game, state = engine_start(opened, opening)
            except RuleError as error:
                raise RuleRefusedError(error) from error
            # The journal's first line; the opening's audit row (below) is written with or without
            # it, so it is not the line's.
            write = JournalWrite(opened, 0, opened_by, f"open:{opened.public_id}", client)
            write.append(
                EventKind.OPEN,
                after=Journal(game, state, write.seq, False, ()),  # as `journal_build` replays it
                outcome={"state": state.phase, "banker": state.banker},
                action=opening,
                at=opened.opened_at,
            )
            seats_sync(opened, state, opened.opened_at)
            fees_charge(opened, user=opened_by, until=opened.opened_at)  # LV-3: seated, owing
        table_audit(
            locked,
            opened_by,
            "table_open",
            client,
            table_session=opened,
            seats=opening["seats"],
            standing=opening["standing"],
        )
        return opened


@transaction.atomic
def sabot_open(
    *,
    table_session: TableSession,
    opened_by: User,
    client: str = "",
    stock_number: int | None = None,
) -> Sabot:
    """Bring a new sabot to the table (the croupier on duty or an inspector): the previous one
    is closed; numbers run 1, 2, …; formed from one of the house's numbered sabots at the table
    when the séance has any (model 19)."""
    locked = open_table_session_lock(table_session)
    operate_check(opened_by, locked)
    stock_item = stock_for_new_shoe(locked, stock_number)
    sabot = sabot_replace(locked, opened_by, timezone.now(), stock_item=stock_item)
    audit(
        user=opened_by,
        action="sabot_open",
        table_session=locked,
        client=client,
        sabot=sabot.number,
        decks=sabot.decks,
        stock_number=stock_item.number if stock_item else None,
    )
    return sabot
