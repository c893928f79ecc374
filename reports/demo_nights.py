"""A month of past nights for the demo, played as a house plays them (README.md, "Using it").

Each night runs from about 21:00 to 04:00 on the demo's clock, at seven tables (chemin de fer
twice, lansquenet moderne, lansquenet classique, Landsknecht, pontoon, and a UK club's pontoon on
a participation fee, docs/rules/levy.md LV-6). Every coup is played by the simulator's
strategies (docs/odds.md, "The tables and the strategies") and recorded through the recording
service by the croupier on duty (`tables.simulated.RecordedTable`), nothing written around it:
the coups are spread over the night, a few seconds between two actions. Twice a night the
croupiers go round the tables (the tournante: the one back from his break takes the first table,
each the next, the last goes on his break); the inspector relieves the first table's changeur,
interrupts and restarts another table; at each table a regular goes home and a member who came
late sits down; a barred person is refused at the door, a croupier undoes a slip, a void is
asked and approved and the coup recorded again; then the tables and the night close, the report
is built, every table's cagnotte box is counted (now and then a surplus or a shortfall), each
count certifies its cagnotte book (model 11), two managers sign the registre de contrôle
(model 12) and the report is signed off. The next morning the re-audit goes over the night
(docs/audit.md) and the auditor acknowledges what the morning before raised; the last night's
shortfall is left open. Once the nights are played, the carnet des prélèvements of the last
month over is closed (model 13).

The demo's clock is Django's (`establishment.demo.DemoClock`): while a night is played,
`django.utils.timezone.now` gives the clock's time, so that every row the services write carries
the night's time.
"""

from __future__ import annotations

import contextlib
import json
import random
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from functools import partial
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from establishment.demo import (
    BARRED_MEMBER,
    DemoClock,
    barred_member_register,
    demo_password,
    demo_user,
)
from establishment.errors import PlayerRefusedError
from establishment.house import house_journee_of, house_settings_current, zone
from establishment.models import GamingSession, Player
from establishment.roles import Role
from establishment.services import gaming_session_open
from reports.audit.alerts import alert_acknowledge
from reports.audit.models import Alert, AlertKind
from reports.audit.reaudit import reaudit_night
from reports.counting import cagnotte_count_record
from reports.models import SettlementReport
from reports.registers.store import journee_sign, model11_freeze, month_close
from reports.services import (
    report_sign_off,
    settlement_content_build,
    settlement_report_generate,
)
from tables.demo import demo_table
from tables.engine import Action
from tables.engine.settlement import CROUPIER
from tables.engine.simulate.runner import table_settings
from tables.engine.simulate.strategies import strategy_get
from tables.models import AssignmentRole, Coup, Table, TableEvent, TableSession
from tables.services import (
    gaming_session_close,
    record,
    staff_assign,
    table_interrupt,
    table_resume,
    table_session_close,
    table_session_open,
    undo,
    void_decide,
    void_request,
)
from tables.services.journal import journal_get, last_seq_get
from tables.simulated import RecordedTable

CLIENT = "demo_nights"
OPENS = time(21, 0)
NIGHT = timedelta(hours=7)  # 21:00 to 04:00
MORNING = time(9, 30)  # the re-audit's morning after
# `make demo`'s month: sized to be ready in a few minutes on two cores (README.md).
MONTH_NIGHTS = 30
MONTH_COUPS = 32


@dataclass(frozen=True)
class DemoTableSpec:
    number: int
    game: str
    name: str
    settings: dict[str, Any] = field(default_factory=dict)


# The seven tables of the past nights (numbers apart from tonight's, demo_data's 1 to 5).
NIGHT_TABLES = (
    DemoTableSpec(31, "chemin_de_fer", "Chemin de fer, salon"),
    DemoTableSpec(32, "chemin_de_fer", "Chemin de fer, grande table"),
    DemoTableSpec(33, "lansquenet_moderne", "Lansquenet"),
    DemoTableSpec(34, "lansquenet_classique", "Lansquenet classique"),
    DemoTableSpec(35, "landsknecht", "Landsknecht"),
    DemoTableSpec(36, "pontoon", "Pontoon"),
    DemoTableSpec(
        37,
        "pontoon",
        "Pontoon, UK club",
        {
            "cagnotte_rate_bp": 0,
            "levy_model": "participation_fee",
            "fee_maximum": 300,
            "fee_amount": 300,
            "fee_day_start_hour": 12,
        },
    ),
)


@dataclass
class DemoStaff:
    manager: User
    manager2: User
    inspector: User
    auditor: User
    croupiers: list[User]
    relief: User
    changeurs: tuple[User, User]  # on duty at the first table, and his relief


def demo_staff() -> DemoStaff:
    barred_member_register(demo_user("reception", Role.RECEPTION))
    return DemoStaff(
        manager=demo_user("manager", Role.MANAGER, Role.INSPECTOR),
        manager2=demo_user("manager2", Role.MANAGER),
        inspector=demo_user("inspector", Role.INSPECTOR),
        auditor=demo_user("auditor", Role.AUDITOR),
        croupiers=[demo_user(f"croupier-n{spec.number}", Role.CROUPIER) for spec in NIGHT_TABLES],
        relief=demo_user("croupier-relief", Role.CROUPIER),
        changeurs=(
            demo_user("changeur-n31", Role.CHANGEUR),
            demo_user("changeur-relief", Role.CHANGEUR),
        ),
    )


def _players(spec: DemoTableSpec, count: int) -> list[str]:
    """The table's regulars, registered with the identity the door takes."""
    codes = []
    for seat in range(1, count + 1):
        code = f"N{spec.number}-{seat}"
        Player.objects.get_or_create(
            member_number=code,
            defaults={
                "name": f"Member {spec.number}-{seat}",
                "first_names": f"Member{seat}",
                "surname": f"TABLE{spec.number}",
                "birth_date": date(1950 + (spec.number + seat) % 40, 1 + seat % 12, 1 + seat),
            },
        )
        codes.append(code)
    return codes


def _table(spec: DemoTableSpec, staff: DemoStaff, players: int) -> Table:
    return demo_table(
        number=spec.number,
        game=spec.game,
        name=spec.name,
        settings=table_settings(spec.game, spec.settings, players),
        created_by=staff.manager,
    )


@dataclass
class Playing:
    """One table through one night: its simulated table and its own time."""

    spec: DemoTableSpec
    table: RecordedTable
    start: datetime
    per_coup: timedelta
    rng: random.Random

    def coup_at(self, index: int) -> datetime:
        return self.start + self.per_coup * index


def night_play(
    *, day: date, coups: int, staff: DemoStaff, clock: DemoClock, seed: int, last: bool = False
) -> GamingSession:
    """Play one night that opens at 21:00 on `day` (house time), `coups` coups a table, and
    settle it (`last`: the month's last night, whose count is short at one table, the
    shortfall the auditor finds open)."""
    house = house_settings_current()
    opens = datetime.combine(day, OPENS, tzinfo=zone(house.time_zone))
    clock.at(opens)
    session = gaming_session_open(opened_by=staff.manager)
    playing: list[Playing] = []
    for index, spec in enumerate(NIGHT_TABLES):
        clock.tick(45)
        strategy = strategy_get(spec.game)
        count = strategy.params["players"]
        codes = _players(spec, count)
        seance = table_session_open(
            table=_table(spec, staff, count),
            gaming_session=session,
            opened_by=staff.manager,
            seats=dict(enumerate(codes, start=1)),  # the regulars are there at the opening
            client=CLIENT,
        )
        croupier = staff.croupiers[index]
        duty = [(croupier, AssignmentRole.CROUPIER)]
        if index == 0:
            duty.append((staff.changeurs[0], AssignmentRole.CHANGEUR))
        _on_duty(seance, duty, by=staff.manager)
        rng = random.Random(f"{seed}:{day}:{spec.number}")
        table = RecordedTable(
            seance,
            croupier,
            strategy,
            rng.randrange(1 << 30),
            players=codes,
            tick=partial(_pause, clock, rng),
            client=CLIENT,
        )
        start = clock.now()
        playing.append(Playing(spec, table, start, (opens + NIGHT - start) / (coups + 1), rng))
    spare = staff.relief  # the croupier on his break, who starts the tournante
    for index in range(coups):
        for play in playing:
            clock.at(play.coup_at(index))
            play.table.play_coup()
            _events(play, index, coups, staff, clock)
        if index in (coups // 3, (2 * coups) // 3) and coups >= 3:
            spare = _tournante(playing, spare, staff, clock)
    for play in playing:
        clock.at(play.coup_at(coups))
        _table_close(play, staff)
    clock.tick(300)
    gaming_session_close(gaming_session=session, user=staff.manager, client=CLIENT)
    _settle(session, staff, clock, _count_differences(seed, day), short=last)
    return session


def _on_duty(seance: TableSession, duty: list[tuple[User, AssignmentRole]], *, by: User) -> None:
    """Each of `duty` put on duty at the séance in his role, by `by` (a relief when someone
    holds the role already)."""
    for person, role in duty:
        staff_assign(table_session=seance, staff=person, role=role, assigned_by=by, client=CLIENT)


def _tournante(playing: list[Playing], spare: User, staff: DemoStaff, clock: DemoClock) -> User:
    """The croupiers' rotation, twice a night: the one on his break takes the first table, its
    croupier the next, and so on; the last table's goes on his break. Returns him. Each relief
    ends one duty period and starts the next (model 11, column 3 bis: docs/registers.md)."""
    for play in playing:
        clock.tick(20)
        relieved = play.table.croupier
        _on_duty(play.table.table_session, [(spare, AssignmentRole.CROUPIER)], by=staff.inspector)
        play.table.croupier = spare
        spare = relieved
    return spare


def _pause(clock: DemoClock, rng: random.Random) -> None:
    """The few seconds between two actions at a table."""
    clock.tick(rng.uniform(3, 9))


def _events(play: Playing, index: int, coups: int, staff: DemoStaff, clock: DemoClock) -> None:
    """What happens at a table through the night besides its coups."""
    seance = play.table.table_session
    if play.spec.number == 31 and index == coups // 2:
        # The inspector relieves the changeur of the first table for the rest of the night.
        _on_duty(seance, [(staff.changeurs[1], AssignmentRole.CHANGEUR)], by=staff.inspector)
    if play.spec.number == 33 and index == coups // 3:
        for step, reason in ((table_interrupt, "Cards to change"), (table_resume, "New cards")):
            clock.tick(90)
            step(
                table_session=seance,
                expected_seq=last_seq_get(seance) + 1,
                user=staff.inspector,
                idempotency_key=f"{CLIENT}:{seance.public_id}:{reason}",
                reason=reason,
            )
            play.table.seq = last_seq_get(seance)
    if play.spec.number == 36 and index == coups // 4:
        _barred_refused(play, clock)
    if play.spec.number == 32 and index == coups // 2:
        _undo_a_slip(play)
    if play.spec.number == 35 and index == (2 * coups) // 3:
        _void_and_again(play, staff, clock)
    if index == (coups * (play.spec.number - 29)) // 10:
        # At each table, once in the night and at its own time, a regular goes home and a
        # member who came late takes his seat (after the coup's corrections: a void sets
        # aside what was recorded after the coup).
        _one_leaves_one_arrives(play)


def _resync(table: RecordedTable) -> None:
    """After a correction, the simulated table follows the journal again (its shoe shuffled
    from what the engine's pack holds)."""
    table.seq = last_seq_get(table.table_session)
    table.state = journal_get(table.table_session, table.seq).state
    table._reform()


def _barred_refused(play: Playing, clock: DemoClock) -> None:
    """The demo's barred member (README: Paul MARTIN, `DEMO-0099`, `establishment.demo`) is
    named at the table: refused at the door, his refusal in the audit log."""
    clock.tick(20)
    seated = dict(play.table.state.seating.seats)
    free = next(s for s in range(1, play.table.table_session.seat_count + 1) if s not in seated)
    with contextlib.suppress(PlayerRefusedError):  # refused at the door, as it should be
        record(
            table_session=play.table.table_session,
            action={"type": "sit", "actor": CROUPIER, "player": BARRED_MEMBER, "seat": free},
            expected_seq=play.table.seq + 1,
            user=play.table.croupier,
            idempotency_key=f"{CLIENT}:barred:{play.table.table_session.public_id}",
            client=CLIENT,
        )
    _resync(play.table)


def _one_leaves_one_arrives(play: Playing) -> None:
    """Between two coups (COM-3.8) a regular goes home, and a member who came late takes his
    seat, checked at the door."""
    table = play.table
    while table.state.phase not in table.game.coup_start_phases:
        table.apply(table.player.act(table.state))
    banker = table.state.banker
    seat = max(s for s, code in table.state.seating.seats if code != banker)
    late = _players(
        DemoTableSpec(play.spec.number, play.spec.game, "late"), count=len(table.codes) + 1
    )[-1]
    table.apply(Action("leave", CROUPIER, {"seat": seat}))
    table.apply(Action("sit", CROUPIER, {"player": late, "seat": seat}))


def _undo_a_slip(play: Playing) -> None:
    """A standing player entered by mistake, undone at once."""
    table = play.table
    if "add_standing" not in {a.type for a in table.game.legal_actions(table.state)}:
        return
    guest = _players(  # a member of his own, not the late one who sat down (`_one_leaves…`)
        DemoTableSpec(play.spec.number, play.spec.game, "guest"), count=len(table.codes) + 2
    )[-1]
    table.record(Action("add_standing", CROUPIER, {"player": guest}))
    undo(
        table_session=table.table_session,
        expected_seq=table.seq + 1,
        user=table.croupier,
        idempotency_key=f"{CLIENT}:undo:{table.table_session.public_id}",
        reason="Wrong player entered",
        client=CLIENT,
    )
    _resync(table)


def _void_and_again(play: Playing, staff: DemoStaff, clock: DemoClock) -> None:
    """The last coup voided on the inspector's approval (a card misread), then recorded again
    as it was really played."""
    table = play.table
    seance = table.table_session
    last = Coup.objects.filter(table_session=seance).order_by("-settled_seq").first()
    if last is None:
        return
    clock.tick(40)
    request = void_request(coup=last, user=table.croupier, reason="A card misread.", client=CLIENT)
    clock.tick(60)
    decision = void_decide(
        request=request,
        user=staff.inspector,
        approve=True,
        password=demo_password(staff.inspector.username),
        note="Seen on the video.",
        client=CLIENT,
    )
    if decision.event is not None:
        again = TableEvent.objects.filter(
            table_session=seance, seq__in=decision.event.sets_aside
        ).order_by("seq")
        table.seq = last_seq_get(seance)
        for event in again:
            clock.tick(5)
            table.record(_action(event))
    _resync(table)


def _action(event: TableEvent) -> Action:
    data = dict(event.action)
    return Action(str(data.pop("type")), data.pop("actor"), data)


def _table_close(play: Playing, staff: DemoStaff) -> None:
    """Play on to where the table may close (COM-3.8), then the inspector closes it."""
    table = play.table
    while table.state.phase not in table.game.coup_start_phases:
        table.apply(table.player.act(table.state))
    table_session_close(table_session=table.table_session, user=staff.manager, client=CLIENT)


# The count that differs from the cagnotte booked, now and then: a chip found in the box, or
# one missing (the re-audit raises an alert for a shortfall, docs/audit.md).
SURPLUS, SHORTFALL = 10, -5
# The tables on a cagnotte (not the UK club's, on a participation fee, LV-6).
CAGNOTTE_TABLES = frozenset(s.number for s in NIGHT_TABLES if "levy_model" not in s.settings)


def _count_differences(seed: int, day: date) -> dict[int, int]:
    """Which tables' counts differ from their booked cagnotte on `day`'s night, and by how
    much: about one night in four a surplus, one in six a shortfall."""
    rng = random.Random(f"{seed}:{day}:count")
    tables = sorted(CAGNOTTE_TABLES)
    differences = {}
    if rng.random() < 0.25:
        differences[rng.choice(tables)] = SURPLUS
    if rng.random() < 1 / 6:
        differences[rng.choice(tables)] = SHORTFALL
    return differences


def _settle(
    session: GamingSession,
    staff: DemoStaff,
    clock: DemoClock,
    differences: dict[int, int],
    *,
    short: bool = False,
) -> None:
    """The report, the count of every cagnotte box (`differences` from what was booked; with
    `short`, the cagnotte that received the most is the one short) and its certification
    (model 11), the two signatures of the registre de contrôle (model 12), the report's
    sign-off."""
    report = settlement_report_generate(gaming_session_id=session.pk)
    assert report is not None
    report = SettlementReport.objects.get(pk=report.pk)
    content = json.loads(report.content)
    if short:
        booked = [row for row in content["cagnotte"] if row["table"] in CAGNOTTE_TABLES]
        most = max(booked, key=lambda row: int(row["booked"]))
        differences = {t: d for t, d in differences.items() if d != SHORTFALL}
        differences[most["table"]] = SHORTFALL
    for row in content["cagnotte"]:
        clock.tick(120)
        seance = TableSession.objects.get(gaming_session=session, table__number=row["table"])
        counted = int(row["booked"]) + differences.get(row["table"], 0)
        count = cagnotte_count_record(
            report=report,
            table=seance.table,
            counted_chips=max(counted, 0),
            counted_by=staff.manager,
            password=demo_password(staff.manager.username),
            witness=staff.inspector,
            witness_password=demo_password(staff.inspector.username),
            client=CLIENT,
            table_session=seance,
        )
        # What the worker does once the count commits (`reports.freeze_model11`), at once:
        # the registre de contrôle is signed next. Idempotent, as the task.
        model11_freeze(count_id=count.pk)
    journee = TableSession.objects.filter(gaming_session=session).values_list("journee", flat=True)[
        0
    ]
    for signer in (staff.manager, staff.manager2):
        clock.tick(60)
        journee_sign(
            journee=journee, user=signer, password=demo_password(signer.username), client=CLIENT
        )
    clock.tick(60)
    report_sign_off(
        report=report,
        user=staff.manager,
        password=demo_password(staff.manager.username),
        client=CLIENT,
    )


# What the auditor says when he sets an alert aside, by its kind.
ACKNOWLEDGED: dict[str, str] = {
    AlertKind.CAGNOTTE_SHORTFALL: "Counted again with the inspector: the chips were in the float.",
    AlertKind.STATISTICAL_FLAG: "Looked at the table's coups: chance, at this number of tests.",
    AlertKind.ABNORMAL_PACE: "A long interruption that night; nothing else.",
    AlertKind.CORRECTIONS: "Spoken to the croupier; each correction was justified.",
}


def _morning(session: GamingSession, staff: DemoStaff, clock: DemoClock, at: datetime) -> None:
    """The morning after a night: the re-audit goes over it again (what the beat's
    `audit.reaudit` does for each night), and the auditor acknowledges the alerts raised the
    mornings before."""
    clock.at(at)
    earlier = _open_alerts()
    report = SettlementReport.objects.select_related("gaming_session").get(gaming_session=session)
    night = report.gaming_session  # as the close left it
    reaudit_night(report, settlement_content_build(gaming_session=night, replayed=True))
    _acknowledge(earlier, staff, clock)


def _open_alerts() -> list[Alert]:
    return list(Alert.objects.filter(acknowledgement__isnull=True).order_by("raised_at", "pk"))


def _acknowledge(alerts: list[Alert], staff: DemoStaff, clock: DemoClock) -> None:
    for alert in alerts:
        clock.tick(180)
        alert_acknowledge(
            alert=alert,
            user=staff.auditor,
            reason=ACKNOWLEDGED.get(alert.kind, "Looked into: nothing wrong."),
            client=CLIENT,
        )


def _last_morning(last: GamingSession, staff: DemoStaff, clock: DemoClock) -> None:
    """The last night's alerts acknowledged but its shortfall, left open for the auditor."""
    _acknowledge(
        [
            alert
            for alert in _open_alerts()
            if not (
                alert.kind == AlertKind.CAGNOTTE_SHORTFALL and alert.gaming_session_id == last.pk
            )
        ],
        staff,
        clock,
    )


def _month_close(staff: DemoStaff, clock: DemoClock, today: date, now: datetime) -> None:
    """The carnet des prélèvements of the month before `today`'s (model 13), closed by the
    manager, `now` or later (once the month's last journée is over), when a night of it was
    played."""
    last_day = today.replace(day=1) - timedelta(days=1)
    if not TableSession.objects.filter(
        journee__gte=last_day.replace(day=1), journee__lte=last_day
    ).exists():
        return
    clock.at(now)
    clock.tick(600)
    month_close(
        month=f"{last_day:%Y-%m}",
        user=staff.manager,
        password=demo_password(staff.manager.username),
        client=CLIENT,
    )


def nights_play(
    *, nights: int, coups: int, seed: int = 1, today: date | None = None
) -> list[GamingSession]:
    """The `nights` nights before `today` (the house's journée now), oldest first, each
    closed, settled, counted, signed and re-audited the next morning; then the month before
    `today`'s closed (model 13)."""
    house = house_settings_current()
    where = zone(house.time_zone)
    now = timezone.now()
    today = today or house_journee_of(now, house)
    first = today - timedelta(days=nights)
    clock = DemoClock(datetime.combine(first, OPENS, tzinfo=where))
    played = []
    with clock.running():
        staff = demo_staff()  # the staff and the barred member, there before the first night
        for back in range(nights, 0, -1):
            day = today - timedelta(days=back)
            session = night_play(
                day=day, coups=coups, staff=staff, clock=clock, seed=seed, last=back == 1
            )
            morning = datetime.combine(day + timedelta(days=1), MORNING, tzinfo=where)
            _morning(session, staff, clock, min(morning, max(now, clock.now())))
            played.append(session)
        _last_morning(played[-1], staff, clock)
        _month_close(staff, clock, today, now)
    # Out of service once played: tonight's floor keeps its own tables.
    Table.objects.filter(number__in=[s.number for s in NIGHT_TABLES], is_active=True).update(
        is_active=False
    )
    return played
