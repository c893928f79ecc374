"""`manage.py registers_verify`: every stored register rebuilt from the books and the journal,
every hash and every chain checked (docs/registers.md, "Signed means frozen"); the first
difference of each register named. Exits 1 when anything differs."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from reports.models import Register
from reports.registers.verify import registers_verify


class Command(BaseCommand):
    help = "Check every stored register against the books, the journal, its hash and its chain."

    def handle(self, *args: Any, **options: Any) -> None:
        problems = registers_verify()
        checked = Register.objects.count()
        if problems:
            for problem in problems:
                self.stderr.write(str(problem))
            raise CommandError(f"{len(problems)} difference(s) in {checked} register(s).")
        self.stdout.write(
            f"{checked} register(s) checked: each is what the books and the journal say."
        )
