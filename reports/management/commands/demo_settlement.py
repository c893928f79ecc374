"""A closed, settled gaming session for the demo: a few coups of each game recorded through
`tables.services.record` (from the scenario corpus, demo_settlement.json), an undo, a voided
coup, an interruption; then `gaming_session_close` and its settlement report.

Idempotent: when the demo session exists, it only makes sure its report is there.
Run before `demo_data` (`make demo`): the night it plays is closed before tonight's opens (one
gaming session is open at a time); `demo_data` then sets the demo logins' passwords.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

from django.contrib.auth.models import Group, User
from django.core.management.base import CommandError
from django.urls import reverse

from establishment.demo import DemoCommand, demo_password, demo_user
from establishment.models import GamingSession, Player
from establishment.roles import Role
from establishment.services import gaming_session_open
from reports.models import SettlementReport
from reports.services import settlement_report_generate
from tables.models import AssignmentRole, Coup, Table, TableEvent, TableSession
from tables.services import (
    gaming_session_close,
    record,
    staff_assign,
    table_create,
    table_interrupt,
    table_resume,
    table_session_close,
    table_session_open,
    undo,
    void_decide,
    void_request,
)
from tables.services.journal import last_seq_get

DATA = Path(__file__).with_name("demo_settlement.json")


class Command(DemoCommand):
    help = "Record, close and settle a demo gaming session (never on a production database)."
    refusal = "demo_settlement writes demo data: run it with DJANGO_DEBUG=true."

    def demo(self) -> None:
        data = json.loads(DATA.read_text(encoding="utf-8"))
        first = data["tables"][0]["number"]
        done = TableSession.objects.filter(table__number=first).select_related("gaming_session")
        session = done.first().gaming_session if done.exists() else self._play(data)  # type: ignore[union-attr]
        report = settlement_report_generate(gaming_session_id=session.pk)
        if report is None:
            raise CommandError("The demo gaming session is not closed.")
        report = SettlementReport.objects.get(pk=report.pk)
        self.stdout.write(
            self.style.SUCCESS(
                f"Settled demo session: {report.get_status_display()} — "
                f"http://127.0.0.1:8000{reverse('reports:detail', args=[report.public_id])}"
            )
        )

    def _play(self, data: dict[str, Any]) -> GamingSession:
        manager = demo_user("manager", Role.MANAGER)
        inspector = demo_user("inspector", Role.INSPECTOR)
        croupier = demo_user("croupier-settled", Role.CROUPIER)
        changeur = demo_user("changeur-settled", Role.CHANGEUR)
        manager.groups.add(Group.objects.get(name=Role.INSPECTOR))  # closes the tables too
        for number, (member, name) in enumerate(data["players"].items(), start=1):
            # Each with the identity the door took (the table refuses a player without one).
            first, _space, last = name.partition(" ")
            Player.objects.get_or_create(
                member_number=member,
                defaults={
                    "name": name,
                    "first_names": first,
                    "surname": last.upper(),
                    "birth_date": date(1960 + number % 30, 1 + number % 12, 1 + number % 28),
                },
            )
        session = gaming_session_open(opened_by=manager)
        for spec in data["tables"]:
            table = Table.objects.filter(number=spec["number"], is_active=True).first()
            if table is None:
                table = table_create(
                    number=spec["number"],
                    game=spec["game"],
                    settings=spec["settings"],
                    seat_count=spec["seat_count"],
                    created_by=manager,
                )
            table_session = table_session_open(
                table=table,
                gaming_session=session,
                opened_by=manager,
                seats={int(seat): code for seat, code in spec["seats"].items()},
                standing=spec["standing"],
                client="demo_settlement",
            )
            for staff, role in (
                (croupier, AssignmentRole.CROUPIER),
                (changeur, AssignmentRole.CHANGEUR),
            ):
                staff_assign(
                    table_session=table_session, staff=staff, role=role, assigned_by=manager
                )
            for index, action in enumerate(spec["actions"]):
                if spec["game"] == "pontoon" and index == 3:
                    self._pause(table_session, inspector)
                self._record(table_session, croupier, action, f"{spec['number']}:{index}")
            if spec["game"] == "chemin_de_fer":
                self._corrections(table_session, croupier, inspector)
            # Each table closes once played (its croupier and changeur go to the next one: a
            # person is on duty at one table at a time); the night closes after its tables.
            table_session_close(table_session=table_session, user=manager, client="demo_settlement")
        gaming_session_close(gaming_session=session, user=manager, client="demo_settlement")
        # Out of service once played: the demo floor keeps its five open tables on the home page.
        for spec in data["tables"]:
            Table.objects.filter(number=spec["number"], is_active=True).update(is_active=False)
        session.refresh_from_db()
        return session

    @staticmethod
    def _record(table_session: TableSession, user: User, action: dict[str, Any], key: str) -> None:
        record(
            table_session=table_session,
            action=action,
            expected_seq=last_seq_get(table_session) + 1,
            user=user,
            idempotency_key=f"demo-settled:{key}",
            client="demo_settlement",
        )

    @staticmethod
    def _pause(table_session: TableSession, inspector: User) -> None:
        for step, key, reason in (
            (table_interrupt, "pause", "Change of croupier"),
            (table_resume, "resume", "Croupier back"),
        ):
            step(
                table_session=table_session,
                expected_seq=last_seq_get(table_session) + 1,
                user=inspector,
                idempotency_key=f"demo-settled:{key}:{table_session.pk}",
                reason=reason,
            )

    def _corrections(self, table_session: TableSession, croupier: User, inspector: User) -> None:
        """An undo (a standing player entered by mistake) and a voided coup (a wrong card)."""
        self._record(
            table_session,
            croupier,
            {"type": "add_standing", "actor": "croupier", "player": "H21-Z"},
            "slip",
        )
        undo(
            table_session=table_session,
            expected_seq=last_seq_get(table_session) + 1,
            user=croupier,
            idempotency_key="demo-settled:undo",
            reason="Wrong player entered",
        )
        last = Coup.objects.filter(table_session=table_session).order_by("-settled_seq").first()
        if last is not None:
            request = void_request(
                coup=last, user=croupier, reason="The banker's second card was misread."
            )
            decision = void_decide(
                request=request,
                user=inspector,
                approve=True,
                password=demo_password("inspector"),
                note="Seen on video.",
            )
            # The croupier records the coup again, as it was really played.
            assert decision.event is not None
            again = TableEvent.objects.filter(
                table_session=table_session, seq__in=decision.event.sets_aside
            ).order_by("seq")
            for event in again:
                self._record(table_session, croupier, event.action, f"again:{event.seq}")
