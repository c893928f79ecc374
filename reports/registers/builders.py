"""Pure builders of the registers (docs/registers.md): plain rows in, a JSON-ready register out.

Nothing here reads the database or the clock: the same rows give the same register, byte for
byte once `canonical_json` has serialised it, which is what lets `registers_verify` rebuild a
signed register from the books and the journal and compare. Amounts are in the currency's
smallest unit (cents, pence): chips times the value of a chip the séance kept (house settings);
codes stay codes and the renderers turn them into words.

- model 11, one per table and séance (arts. 56-1, 58, 70, 71): the séance, its bankers with
  each one's operations apart, its numbered sabots and packs, its staff on duty, its ticket
  books and, where the house tears tickets, the tickets detached by face value (arts. 59,
  82–83), the levy coup by coup (time, pot, levy, gain), its interruptions, the expected and
  the counted cagnotte, the difference booked and the amount carried to the registre de
  contrôle;
- model 12, one per journée (art. 72): every séance of every table with its carry, the total
  in figures and in words;
- model 13, one per month (art. 75): the month's journées with their model 12 totals.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from typing import Any

from establishment.models import LevyRecord
from reports.models import RegisterKind
from reports.registers.words import amount_in_words
from tables.tickets import FACE_VALUES, tickets_for

REGISTER_FORMAT = 1
MODEL_11 = RegisterKind.MODEL_11.value
MODEL_12 = RegisterKind.MODEL_12.value
MODEL_13 = RegisterKind.MODEL_13.value


def money(chips: int | None, cents_per_chip: int) -> int | None:
    """Chips as the currency's smallest unit."""
    return None if chips is None else int(chips) * cents_per_chip


def count_difference(expected: int, counted: int | None) -> dict[str, Any]:
    """Art. 70: a surplus is added to the levy, a shortfall is borne by the casino's cash;
    the higher of the two amounts goes to the registre de contrôle."""
    if counted is None:
        return {"counted": None, "difference": None, "kind": "uncounted", "carried": expected}
    difference = counted - expected
    kind = "surplus" if difference > 0 else "shortfall" if difference < 0 else "exact"
    return {
        "counted": counted,
        "difference": difference,
        "kind": kind,
        "carried": max(expected, counted),
    }


def _faces_at(books: Sequence[Mapping[str, Any]], coup: int) -> tuple[int, ...]:
    """The face values of the books at the table when coup number `coup` was settled (each
    book says the first and the last coup settled while it was there); every face value of
    the arrêté when no book was there, as the console said (tables.console.screen)."""
    faces = {
        int(b["face"])
        for b in books
        if b["first_coup"] is not None and b["first_coup"] <= coup <= b["last_coup"]
    }
    return tuple(sorted(faces)) or FACE_VALUES


def tickets_detached(
    coups: Sequence[Mapping[str, Any]], books: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """The tickets detached in a séance by face value (arts. 59, 82–83): for each coup whose
    levy stands, the fewest tickets of the faces at the table when it was settled
    (`tables.tickets.tickets_for`), counted and summed. `coups` are model 11's (levies in
    cents), `books` its ticket books. A check for the box: the tickets' amounts and what no
    ticket could make (`left`) add up to the levy."""
    by_face: dict[int, int] = {}
    levy = left = 0
    for coup in coups:
        if coup["voided"] or not coup["levy"]:
            continue
        made = tickets_for(int(coup["levy"]), _faces_at(books, int(coup["coup"])))
        levy += int(coup["levy"])
        left += made.left
        for face, count in made.by_face:
            by_face[face] = by_face.get(face, 0) + count
    return {
        "by_face": [
            {"face": face, "count": count, "amount": face * count}
            for face, count in sorted(by_face.items(), reverse=True)
        ],
        "levy": levy,
        "left": left,
    }


def model11_build(
    *,
    table: Mapping[str, Any],
    seance: Mapping[str, Any],
    stock: Sequence[Mapping[str, Any]],
    tickets: Sequence[Mapping[str, Any]],
    count: Mapping[str, Any] | None,
    identities: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """Model 11 of one séance. `table` is the séance's entry in the night's settlement report
    (reports.builders.report_build: coups, bankers, staff, interruptions); `seance` says its
    journée, its number in the journée, and the house settings it kept; `stock` its numbered
    sabots and packs; `tickets` its ticket books; `count` the counted box (chips, who counted,
    who certified, when, the posting of the difference) or None; `identities` each banker's
    identity by member number (the register of bankers, art. 71). Where the séance's house
    tears tickets (`seance["levy_record"]`), the tickets detached (`tickets_detached`); the key
    is absent otherwise, so a register of a house that does not is what it always was."""
    identities = identities or {}
    unit = int(seance["cents_per_chip"])
    coups = [
        {
            "coup": c["coup"],
            "time": c["time"],
            "banker": c["banker"],
            "pot": money(c["pot"], unit),
            "levy": money(c["levy"], unit),
            "gain": money(c["gain"], unit),
            "voided": c["voided"],
        }
        for c in table["coups"]
    ]
    bankers = [
        {
            "player": b["player"],
            "name": b["name"],
            "identity": dict(identities.get(b["player"] or "", {})),
            "how": b["how"],
            "ended": b["ended"],
            "from": b["from"],
            "until": b["until"],
            "coups": b["coups"],
            "result": money(b["result"], unit),
            "levy": money(b["levy"], unit),
        }
        for b in table["bankers"]
    ]
    expected = money(table["cagnotte_expected"], unit) or 0
    counted = money(count["counted_chips"], unit) if count else None
    books = [dict(row) for row in tickets]
    detached = (
        {"tickets_detached": tickets_detached(coups, books)}
        if seance.get("levy_record") == LevyRecord.TICKETS
        else {}
    )
    return {
        "register": MODEL_11,
        "format": REGISTER_FORMAT,
        "currency": seance["currency"],
        "cents_per_chip": unit,
        "journee": seance["journee"],
        "seance": seance["number"],
        "table": table["table"],
        "table_name": table["name"],
        "game": table["game"],
        "table_session": table["table_session"],
        "opened_at": table["opened_at"],
        "closed_at": table["closed_at"],
        "opened_by": table["opened_by"],
        "closed_by": table["closed_by"],
        "forced_close": table["forced_close"],
        "cagnotte_rate_bp": table["cagnotte_rate_bp"],
        "bankers": bankers,
        "stock": [dict(row) for row in stock],
        "staff": [dict(row) for row in table["staff"]],
        "tickets": books,
        **detached,
        "coups": coups,
        "coups_played": table["coups_played"],
        "coups_voided": table["coups_voided"],
        "interruptions": [dict(row) for row in table["interruptions"]],
        "expected": expected,
        **count_difference(expected, counted),
        "count": (
            {
                "counted_by": count["counted_by"],
                "certified_by": count["certified_by"],
                "witness": count["witness"],
                "counted_at": count["counted_at"],
                "posting": count["posting"],
                "note": count["note"],
            }
            if count
            else None
        ),
    }


def total_in_words(total: int, currency: str) -> dict[str, str]:
    return {
        "fr": amount_in_words(total, currency, "fr"),
        "en": amount_in_words(total, currency, "en"),
    }


def model12_build(
    *, journee: date, currency: str, seances: Iterable[Mapping[str, Any]]
) -> dict[str, Any]:
    """Model 12 of one journée, from the model 11 of each of its séances (their content):
    every séance of every table with the amount it carries, the total in figures and in words.
    Jeux de cercle only: nothing here is offset against anything else."""
    rows = sorted(
        (
            {
                "table": s["table"],
                "seance": s["seance"],
                "game": s["game"],
                "table_session": s["table_session"],
                "opened_at": s["opened_at"],
                "closed_at": s["closed_at"],
                "expected": s["expected"],
                "counted": s["counted"],
                "kind": s["kind"],
                "carried": s["carried"],
                "model_11": s["sha256"],
            }
            for s in seances
        ),
        key=lambda row: (row["table"], row["seance"]),
    )
    total = sum(int(row["carried"]) for row in rows)
    return {
        "register": MODEL_12,
        "format": REGISTER_FORMAT,
        "journee": journee.isoformat(),
        "currency": currency,
        "seances": rows,
        "total": total,
        "total_in_words": total_in_words(total, currency),
    }


def model13_build(
    *, month: str, currency: str, journees: Iterable[Mapping[str, Any]]
) -> dict[str, Any]:
    """Model 13 of one month (YYYY-MM), from its signed model 12s (their content and hash)."""
    rows = sorted(
        ({"journee": j["journee"], "total": j["total"], "model_12": j["sha256"]} for j in journees),
        key=lambda row: row["journee"],
    )
    total = sum(int(row["total"]) for row in rows)
    return {
        "register": MODEL_13,
        "format": REGISTER_FORMAT,
        "month": month,
        "currency": currency,
        "journees": rows,
        "total": total,
        "total_in_words": total_in_words(total, currency),
    }


def chain_first_break(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The first place where a kind's chain breaks, or None: `rows` are the stored registers
    of one kind in the order they were stored, each with its `sha256`, the `previous_sha256` it
    carries and the `computed_sha256` of its stored content."""
    previous = ""
    for row in rows:
        if row["computed_sha256"] != row["sha256"]:
            return {"register": row["key"], "version": row["version"], "problem": "hash"}
        if row["previous_sha256"] != previous:
            return {"register": row["key"], "version": row["version"], "problem": "chain"}
        previous = row["sha256"]
    return None
