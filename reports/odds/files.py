"""The audit as records: the rows the API answers and the CSV holds, one per group and
measure, and the summary of what chance alone would flag (docs/odds.md, "The audit")."""

from __future__ import annotations

from typing import Any

from reports.odds.audit import ALPHA, Audit, Cell, Row
from reports.renderers import csv_text

COLUMNS = (
    "group_kind",
    "group_key",
    "group_label",
    "game",
    "coups",
    "measure",
    "n",
    "observed",
    "expected",
    "sd",
    "sd_source",
    "expected_se",
    "se",
    "z",
    "flagged",
    "too_few",
    "method",
)


def cell_record(row: Row, cell: Cell) -> dict[str, Any]:
    """One group's measure as the API and the CSV give it."""
    return {
        "group_kind": row.group.kind,
        "group_key": row.group.key,
        "group_label": row.group.label,
        "game": row.game,
        "coups": row.coups,
        "measure": cell.measure,
        "n": cell.n,
        "observed": cell.observed,
        "expected": cell.expected,
        "sd": cell.sd,
        "sd_source": cell.sd_source,
        "expected_se": cell.expected_se,
        "se": cell.se,
        "z": cell.z,
        "flagged": cell.flagged,
        "too_few": cell.too_few,
        "method": cell.method,
    }


def audit_records(audit: Audit) -> list[dict[str, Any]]:
    """Every shown group's measures, in the order of the screen."""
    return [cell_record(row, cell) for row in audit.rows for cell in row.cells]


def audit_summary(audit: Audit) -> dict[str, Any]:
    """The period, the tests shown, the flags, and what chance alone would give."""
    return {
        "group": audit.grouping,
        "from": audit.date_from,
        "to": audit.date_to,
        "game": audit.game,
        "min_coups": audit.min_coups,
        "flag_z": audit.flag_z,
        "tests": audit.tests,
        "flags": audit.flags,
        "false_flag_rate": ALPHA,
        "expected_false_flags": audit.expected_false_flags,
        "chance_of_a_false_flag": audit.chance_of_a_false_flag,
        "coups_without_expectation": audit.unexpected_coups,
        "skipped": [
            {
                "group_kind": row.group.kind,
                "group_key": row.group.key,
                "group_label": row.group.label,
                "game": row.game,
                "coups": row.coups,
            }
            for row in audit.skipped
        ],
    }


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def audit_csv(audit: Audit) -> str:
    """The rows of the screen as CSV, one line per group and measure, headed by `COLUMNS`."""
    return csv_text(
        COLUMNS, ([_text(record[name]) for name in COLUMNS] for record in audit_records(audit))
    )
