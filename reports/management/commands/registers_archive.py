"""`manage.py registers_archive --season 2026 --out FILE`: a season's registers written as one
self-checking ZIP (docs/registers.md, "Retention"; `reports.registers.archive`): every register
of the season and every version of it, their signatures, the manifest and `verify.py`. Built
here, in this process, and not stored (the registers' index stores the archives it asks for)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from establishment.errors import DomainError
from reports.registers.archive import registers_archive, season_check, season_parse


class Command(BaseCommand):
    help = "Write a season's registers (a calendar year of journées) as a self-checking ZIP."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--season", required=True, help="The year, such as 2026.")
        parser.add_argument("--out", required=True, help="The ZIP file to write.")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            season = season_parse(options["season"])
            season_check(season)
        except DomainError as error:
            raise CommandError(error.message) from None
        built = registers_archive(season=season)
        out = Path(options["out"])
        out.write_bytes(built.data)
        self.stdout.write(
            f"{built.registers} register(s) of {season} written to {out} "
            f"(SHA-256 {built.sha256}; manifest {built.manifest_sha256}). Check it with the "
            f"verify.py it holds: unzip -p {out.name} verify.py > verify.py && "
            f"python3 verify.py {out.name}"
        )
