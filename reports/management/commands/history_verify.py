"""`manage.py history_verify`: every hash chain of the history recomputed — the audit log, the
books, each table session's journal — and the first broken link of each named
(`reports.history`, docs/security.md). Exits 1 when a chain is broken.

    manage.py history_verify [--json] [--anchors FILE]

`--anchors FILE`: the output of an earlier `history_verify --json`, whose heads each chain
must still pass through unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from reports.history import history_verify


class Command(BaseCommand):
    help = "Recompute every hash chain of the history and name the first broken link of each."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", action="store_true", help="Print the result as JSON.")
        parser.add_argument(
            "--anchors",
            type=Path,
            help="An earlier --json output: each chain must still hold the heads noted in it.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        anchors = None
        if options["anchors"] is not None:
            try:
                earlier = json.loads(options["anchors"].read_text(encoding="utf-8"))
                anchors = {
                    chain["chain"]: (chain["head_position"], chain["head_hash"])
                    for chain in earlier["chains"]
                }
            except (OSError, ValueError, KeyError, TypeError) as error:
                raise CommandError(
                    f"--anchors expects the JSON written by history_verify --json: {error}"
                ) from error
        found = history_verify(anchors)
        if options["json"]:
            self.stdout.write(json.dumps(found.as_dict(), indent=2, sort_keys=True))
        rows = sum(chain.rows for chain in found.chains)
        if not found.ok:
            for broken in found.breaks:
                self.stderr.write(str(broken))
            raise CommandError(
                f"{len(found.breaks)} broken chain(s) of {len(found.chains)} ({rows} row(s) read)."
            )
        if not options["json"]:
            self.stdout.write(f"{len(found.chains)} chain(s), {rows} row(s): every link holds.")
