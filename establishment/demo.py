"""What the demo commands of every floor share (`demo_data`, `demo_settlement`): they write demo
data, so they run only with DEBUG on, or when told to (tests)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser


class DemoCommand(BaseCommand):
    """A command that writes demo data: refused (`refusal`) unless DEBUG is on or
    `--allow-without-debug` is given; then `demo` does the work."""

    allow_help = "Run even when DEBUG is off (tests)."
    refusal = "This command writes demo data: run it with DJANGO_DEBUG=true."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--allow-without-debug", action="store_true", help=self.allow_help)

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEBUG and not options["allow_without_debug"]:
            raise CommandError(self.refusal)
        self.demo()

    def demo(self) -> None:
        raise NotImplementedError
