"""A month of past nights for the demo, played as a house plays them (reports/demo_nights.py):
`--nights` nights before today, `--coups` coups at each of their seven tables, each night closed,
settled, counted, certified, signed and re-audited, and last month's carnet des prélèvements
closed. Run before `demo_data` (tonight, `make demo`).

Idempotent: nights already played are not played again.
"""

from __future__ import annotations

from django.core.management.base import CommandParser

from establishment.demo import DemoCommand
from reports.demo_nights import MONTH_COUPS, MONTH_NIGHTS, NIGHT_TABLES, nights_play
from tables.models import TableSession


class Command(DemoCommand):
    help = "Play, close, settle and sign past demo nights (never on a production database)."
    refusal = "demo_nights writes demo data: run it with DJANGO_DEBUG=true."

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        self.add_count(parser, "--nights", MONTH_NIGHTS, "Nights before today (%(default)s).")
        self.add_count(parser, "--coups", MONTH_COUPS, "Coups a table a night (%(default)s).")
        self.add_count(parser, "--seed", 1, "The simulator's seed (%(default)s).")

    def demo(self) -> None:
        if TableSession.objects.filter(table__number=NIGHT_TABLES[0].number).exists():
            self.stdout.write("Demo nights: already played.")
            return
        played = nights_play(
            nights=self.options["nights"], coups=self.options["coups"], seed=self.options["seed"]
        )
        self.stdout.write(self.style.SUCCESS(f"Demo nights played and signed: {len(played)}."))
