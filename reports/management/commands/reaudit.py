"""`manage.py reaudit [--days N]`: the nightly re-audit now (docs/audit.md): exit status 1 when
it found anything, each finding printed."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from reports.audit.alerts import alert_text
from reports.audit.reaudit import reaudit_recent


class Command(BaseCommand):
    help = "Replay the nights closed in the last days against their books, reports and registers."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=settings.REAUDIT_DAYS)

    def handle(self, *args: Any, **options: Any) -> None:
        result = reaudit_recent(days=options["days"])
        for night in result.nights:
            state = "clean" if not night.problems else f"{len(night.problems)} problem(s)"
            self.stdout.write(f"night of {night.gaming_session.opened_at:%Y-%m-%d}: {state}")
        for alert in result.alerts:
            self.stdout.write(f"ALERT {alert.kind} [{alert.key}]: {alert_text(alert)}")
        if not result.clean:
            raise SystemExit(1)
        self.stdout.write(f"{len(result.nights)} night(s) re-audited: nothing found.")
