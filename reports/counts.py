"""The counted cagnotte against the expected one, table by table (arrêté du 14 mai 2007,
art. 70): a surplus is added to the levy, a shortfall is borne by the casino's cash, and the
higher of the two amounts goes to the control register. Never offset between tables."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from reports.builders import canonical_json, sha256_hex, when
from reports.models import CountedCagnotte


def count_rows(counts: Iterable[CountedCagnotte]) -> list[dict[str, Any]]:
    """Counts as plain rows (what is signed and what the renderers show)."""
    return sorted(
        (
            {
                "table": count.table.number,
                "table_session": str(count.table_session.public_id),
                "counted": count.counted_chips,
                "posting": count.posting,
                "counted_by": count.counted_by.get_username(),
                "witness": count.witness.get_username(),
                "counted_at": when(count.counted_at),
                "note": count.note,
            }
            for count in counts
        ),
        key=lambda row: (row["table"], row["table_session"]),
    )


def counts_digest(report_sha256: str, counts: Iterable[CountedCagnotte]) -> str:
    """What a sign-off signs: the report's digest and the counts, as one SHA-256."""
    return sha256_hex(canonical_json({"report": report_sha256, "counts": count_rows(counts)}))


def cagnotte_compare(
    expected: Sequence[Mapping[str, Any]], counts: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """Per table: expected (col. 8), counted (col. 9), the difference and its kind, and the
    amount for the control register; totals keep surpluses and shortfalls apart."""
    # A table that opened twice in the night has one count per séance: its box is the sum.
    counted: dict[int, dict[str, Any]] = {}
    for given in counts:
        summed = counted.get(given["table"])
        counted[given["table"]] = (
            {**summed, "counted": summed["counted"] + given["counted"]} if summed else dict(given)
        )
    rows: list[dict[str, Any]] = []
    surplus = shortfall = register = 0
    for table in expected:
        number = table["table"]
        count = counted.get(number)
        row: dict[str, Any] = {
            "table": number,
            "expected": int(table["expected"]),
            "booked": int(table["booked"]),
            "counted": None,
            "difference": None,
            "kind": "uncounted",
            "register": int(table["expected"]),
            "count": count,
        }
        if count is not None:
            difference = int(count["counted"]) - row["expected"]
            row["counted"] = int(count["counted"])
            row["difference"] = difference
            row["kind"] = (
                "surplus" if difference > 0 else "shortfall" if difference < 0 else "exact"
            )
            row["register"] = max(row["expected"], row["counted"])
            surplus += max(difference, 0)
            shortfall += max(-difference, 0)
        register += row["register"]
        rows.append(row)
    return {
        "rows": rows,
        "expected": sum(r["expected"] for r in rows),
        "counted": sum(r["counted"] or 0 for r in rows),
        "surplus": surplus,
        "shortfall": shortfall,
        "register": register,
        "complete": all(r["counted"] is not None for r in rows),
    }
