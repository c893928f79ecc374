"""Load demo data: tonight's gaming session with one open table of each game, seated players, a
croupier per table, an inspector, an auditor and a manager. Idempotent: running it again changes
nothing but the demo passwords, which it resets and prints.

Each table has the settings and the seating of its game's worked examples and, where the game
names one, a first banker (seat 1). Tonight opened `TONIGHT_STARTED` ago on the demo's clock
(`establishment.demo.DemoClock`): each table has played its first `TONIGHT_COUPS` coups by the
simulator's strategies through the recording service, the tables taking turns as in the past
nights (reports/demo_nights.py), and stands one action into its next coup, where the croupier
who logs in takes over.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta

from django.contrib.auth.models import Group, User
from django.core.management.base import CommandParser
from django.utils import timezone

from establishment.demo import (
    DemoClock,
    DemoCommand,
    barred_member_register,
    demo_password,
    demo_password_set,
)
from establishment.models import GamingSession, Player
from establishment.roles import Role
from establishment.services import gaming_session_open
from tables.demo import demo_table
from tables.engine.simulate.strategies import strategy_get
from tables.models import AssignmentRole, Coup, Game, TableEvent, TableSession
from tables.services import record, staff_assign, table_session_open
from tables.services.journal import last_seq_get
from tables.simulated import RecordedTable

CLIENT = "demo_data"
TONIGHT_STARTED = timedelta(minutes=90)  # tonight opened so long ago on the demo's clock
TONIGHT_COUPS = 12  # coups played at each table before the croupier takes over


@dataclass(frozen=True)
class DemoTable:
    number: int
    game: Game
    settings: dict[str, object]
    seat_count: int
    players: int
    standing: int = 0
    first_banker: int | None = 1  # recorded for the games that name one (not CF, CF-6.6)


# The settings of each game's worked examples (docs/rules/, tests/scenarios/*/examples), so a
# newcomer can play the examples through and find the payouts of the rules.
DEMO_TABLES = (
    DemoTable(
        1,
        Game.CHEMIN_DE_FER,
        {
            "decks": 3,
            "chip_unit": 10,
            "min_bank": 100,
            "min_stake": 10,
            "cagnotte_rate_bp": 500,
            "fault_reimbursement": True,
        },
        12,
        6,
        standing=2,
        first_banker=None,
    ),
    DemoTable(
        2,
        Game.LANSQUENET_MODERNE,
        {
            "decks": 2,
            "chip_unit": 5,
            "min_bank": 20,
            "min_stake": 5,
            "banco_mode": "whole",
            "cagnotte_rate_bp": 500,
        },
        10,
        5,
    ),
    DemoTable(
        3,
        Game.LANSQUENET_CLASSIQUE,
        {"base_stake": 20, "chip_unit": 1, "cagnotte_rate_bp": 500},
        12,
        5,
    ),
    DemoTable(
        4,
        Game.LANDSKNECHT,
        {
            "chip_unit": 1,
            "reserve_contribution": 25,
            "agreed_stake": 40,
            "cagnotte_rate_bp": 500,
            "free_opening": False,
        },
        8,
        4,
    ),
    DemoTable(
        5,
        Game.PONTOON,
        {
            "chip_unit": 1,
            "min_stake": 5,
            "max_stake": 50,
            "buy_max_multiple": 1,
            "banker_special_collects_double": False,
            "cagnotte_rate_bp": 500,
        },
        8,
        4,
    ),
)

PLAYER_NAMES = (
    "Anne Aubert", "Bruno Barre", "Chloé Carpentier", "Denis Dufour", "Élise Esnault",
    "Fabien Faure", "Gisèle Garnier", "Henri Hamon", "Inès Imbert", "Jules Joly",
    "Karine Klein", "Louis Lemoine", "Marie Marchand", "Nicolas Noël", "Odile Olivier",
    "Pierre Perrin", "Quentin Quéré", "Rose Renaud", "Simon Sauvage", "Thérèse Tessier",
    "Ugo Urbain", "Victor Vasseur", "Yvonne Yvon", "Zoé Zeller", "Albert Arnaud",
    "Béatrice Blanc", "Camille Collin", "Damien Dubois",
)  # fmt: skip


def _identity_ensure(player: Player, number: int) -> None:
    """The demo players' identities, as the door would have taken them (the table refuses a
    player without one: settings.ADMISSION_REQUIRES_IDENTITY)."""
    if player.has_identity:
        return
    first, _space, last = player.name.partition(" ")
    player.first_names, player.surname = first, last.upper()
    player.birth_date = date(1950 + number % 40, 1 + number % 12, 1 + number % 28)
    player.birth_place = "Paris"
    player.address = f"{number} rue de la Paix, 75002 Paris"
    player.document_type = "identity_card"
    player.document_number = f"DEMO{number:08d}"
    player.document_expiry = date(2031, 12, 31)
    player.save()


def _staff(username: str, role: Role, *, is_staff: bool) -> tuple[User, str]:
    password = demo_password(username)
    user, _created = User.objects.get_or_create(
        username=username, defaults={"first_name": username.capitalize()}
    )
    user.is_staff = is_staff
    demo_password_set(user)
    user.save()
    user.groups.add(Group.objects.get(name=role))
    return user, password


class Command(DemoCommand):
    help = "Load idempotent demo data (never on a production database)."
    allow_help = "Run even when DEBUG is off (tests). Demo accounts have known passwords."
    refusal = "demo_data creates accounts with known passwords: run it with DJANGO_DEBUG=true."

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        self.add_count(
            parser,
            "--coups",
            TONIGHT_COUPS,
            "Coups at each table tonight (%(default)s; 0: every table at its start).",
        )

    def demo(self) -> None:
        clock = DemoClock(timezone.now() - TONIGHT_STARTED)
        with clock.running():
            logins = self._load(clock)
        self.stdout.write(self.style.SUCCESS("Demo data loaded. Logins (username / password):"))
        for role, username, password in logins:
            self.stdout.write(f"  {role:<10} {username:<12} {password}")
        self.stdout.write("Open http://127.0.0.1:8000/ and log in.")

    def _load(self, clock: DemoClock) -> list[tuple[str, str, str]]:
        logins: list[tuple[str, str, str]] = []
        playing: list[RecordedTable] = []
        manager, password = _staff("manager", Role.MANAGER, is_staff=True)
        logins.append((Role.MANAGER, manager.username, password))
        if not manager.is_superuser:
            # The demo manager may also open the admin's user and group pages freely.
            manager.is_superuser = True
            manager.save(update_fields=["is_superuser"])
        for username, role in (("inspector", Role.INSPECTOR), ("auditor", Role.AUDITOR)):
            user, password = _staff(username, role, is_staff=True)
            logins.append((role, user.username, password))
        reception, password = _staff("reception", Role.RECEPTION, is_staff=False)
        logins.append((Role.RECEPTION, reception.username, password))
        # A member registered years ago, barred since: the door refuses him again, and so does
        # the table if his number is typed in (art. 22).
        barred_member_register(reception)

        gaming_session = (
            GamingSession.objects.filter(opened_by=manager, closed_at__isnull=True)
            .order_by("opened_at")
            .first()
        ) or gaming_session_open(opened_by=manager)

        names = iter(PLAYER_NAMES)
        member = 0
        for demo in DEMO_TABLES:
            table = demo_table(
                number=demo.number,
                game=demo.game,
                settings=demo.settings,
                seat_count=demo.seat_count,
                created_by=manager,
            )
            codes = []
            for _index in range(demo.players + demo.standing):
                member += 1
                player, _created = Player.objects.get_or_create(
                    member_number=f"DEMO-{member:04d}", defaults={"name": next(names)}
                )
                _identity_ensure(player, member)
                codes.append(player.member_number)
            # The players are at the table when it opens, as in the worked examples (a chemin
            # de fer bank then goes to the lowest seat, CF-6.6).
            table_session = TableSession.objects.filter(
                table=table, closed_at__isnull=True
            ).first() or table_session_open(
                table=table,
                gaming_session=gaming_session,
                opened_by=manager,
                seats=dict(enumerate(codes[: demo.players], start=1)),
                standing=codes[demo.players :],
            )
            croupier, password = _staff(f"croupier{demo.number}", Role.CROUPIER, is_staff=False)
            logins.append((Role.CROUPIER, croupier.username, password))
            if not table_session.assignments.filter(
                staff=croupier, role=AssignmentRole.CROUPIER, released_at__isnull=True
            ).exists():
                staff_assign(
                    table_session=table_session,
                    staff=croupier,
                    role=AssignmentRole.CROUPIER,
                    assigned_by=manager,
                )
            key = f"demo:{table_session.public_id}:first-banker"
            if demo.first_banker is not None and not TableEvent.objects.filter(
                table_session=table_session, idempotency_key=key
            ):
                # Recorded through the engine like anything the croupier records (COM-3.8).
                record(
                    table_session=table_session,
                    action={
                        "type": "set_first_banker",
                        "actor": "croupier",
                        "seat": demo.first_banker,
                    },
                    expected_seq=last_seq_get(table_session) + 1,
                    user=croupier,
                    idempotency_key=key,
                    client=CLIENT,
                )
            if (
                self.options["coups"]
                and not Coup.objects.filter(table_session=table_session).exists()
            ):
                playing.append(
                    _tonight_table(table_session, croupier, codes[: demo.players], clock)
                )
            if demo is DEMO_TABLES[0]:
                first_table = table_session
        # A changeur at the first table, and a croupier and a changeur free, for the floor's
        # reliefs (art. 58). The floor offers the staff on shift (logged in tonight): the two
        # free ones are marked as arrived, as if they had logged in on a terminal.
        changeur, password = _staff("changeur1", Role.CHANGEUR, is_staff=False)
        logins.append((Role.CHANGEUR, changeur.username, password))
        if not changeur.table_assignments.filter(released_at__isnull=True).exists():
            staff_assign(
                table_session=first_table,
                staff=changeur,
                role=AssignmentRole.CHANGEUR,
                assigned_by=manager,
            )
        for username, role in (("croupier6", Role.CROUPIER), ("changeur2", Role.CHANGEUR)):
            spare, password = _staff(username, role, is_staff=False)
            logins.append((role, spare.username, password))
            spare.last_login = timezone.now()
            spare.save(update_fields=["last_login"])
        _tonight_play(playing, self.options["coups"])
        return logins


def _tonight_table(
    table_session: TableSession, croupier: User, seated: list[str], clock: DemoClock
) -> RecordedTable:
    """The simulator's player at a table of tonight, recording as its croupier, a few seconds
    between two actions (never past the real time)."""
    rng = random.Random(f"tonight:{table_session.table.number}")
    until = clock.now() + TONIGHT_STARTED - timedelta(minutes=2)

    def pause() -> None:
        clock.tick(min(rng.uniform(3, 6), max((until - clock.now()).total_seconds(), 0) / 50))

    return RecordedTable(
        table_session,
        croupier,
        strategy_get(table_session.game),
        rng.randrange(1 << 30),
        players=seated,
        tick=pause,
        client=CLIENT,
    )


def _tonight_play(tables: list[RecordedTable], coups: int) -> None:
    """`coups` coups at each table, taking turns; then each one action into its next coup (the
    croupier's screen offers what comes next)."""
    for _round in range(coups):
        for table in tables:
            table.play_coup()
    for table in tables:
        table.apply(table.player.act(table.state))
