"""A register's files (docs/registers.md, "Outputs"): the printable PDF (A4, the model's
columns, « page i / n », its identifier and hash at the foot of every page, the signature
blocks) and the CSV. The labels are the law's, in the reader's language."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.utils.translation import gettext as _

from reports.models import Register
from reports.registers.builders import MODEL_11, MODEL_12
from reports.renderers import Pages, local_time


def money_text(cents: int | None, currency: str = "EUR") -> str:
    """Cents as the registers write them: 1 230,40 €."""
    if cents is None:
        return "—"
    whole, part = divmod(abs(int(cents)), 100)
    sign = "-" if int(cents) < 0 else ""
    grouped = f"{whole:,}".replace(",", " ")
    symbol = "€" if currency == "EUR" else "£"
    return f"{sign}{grouped},{part:02d} {symbol}"


def register_title(register: Register, content: dict[str, Any]) -> str:
    if register.kind == MODEL_11:
        return _(
            "Cagnotte book (model 11), table %(table)s, séance %(seance)s, journée %(day)s"
        ) % {
            "table": content["table"],
            "seance": content["seance"],
            "day": content["journee"],
        }
    if register.kind == MODEL_12:
        return _("Registre de contrôle (model 12), journée %(day)s") % {"day": content["journee"]}
    return _("Carnet des prélèvements (model 13), %(month)s") % {"month": content["month"]}


def _model11(pages: Pages, c: dict[str, Any]) -> None:
    cur = c["currency"]
    pages.text(
        f"{_('Opened')} {local_time(c['opened_at'])} ({c['opened_by']})   "
        f"{_('Closed')} {local_time(c['closed_at'])} ({c['closed_by'] or ''})   "
        f"{_('Game')} {c['game']}   {_('One chip')} = {money_text(c['cents_per_chip'], cur)}"
    )
    pages.heading(_("Bankers (art. 71)"), 10)
    pages.table(
        [_("Banker"), _("Name"), _("From"), _("Until"), _("Coups"), _("Result"), _("Levy")],
        [60, 160, 110, 110, 50, 90, 90],
        (
            [
                b["player"] or "—",
                b["name"] or "",
                local_time(b["from"]),
                local_time(b["until"]),
                b["coups"],
                money_text(b["result"], cur),
                money_text(b["levy"], cur),
            ]
            for b in c["bankers"]
        ),
    )
    pages.heading(_("Numbered sabots and packs (art. 58)"), 10)
    pages.table(
        [_("Kind"), _("Number"), _("Decks"), _("Assigned"), _("By"), _("Returned"), _("Shoes")],
        [70, 60, 50, 110, 90, 110, 80],
        (
            [
                s["kind"],
                s["number"],
                s["decks"],
                local_time(s["assigned_at"]),
                s["assigned_by"],
                local_time(s["returned_at"]),
                ", ".join(str(n) for n in s["shoes"]),
            ]
            for s in c["stock"]
        ),
    )
    if "tickets_detached" in c:
        _model11_tickets(pages, c)
    pages.heading(_("Croupiers and changeurs (column 3 bis)"), 10)
    pages.table(
        [_("Role"), _("Staff member"), _("From"), _("Until"), _("Put on duty by")],
        [80, 120, 120, 120, 120],
        (
            [s["role"], s["staff"], local_time(s["from"]), local_time(s["until"]), s["assigned_by"]]
            for s in c["staff"]
        ),
    )
    pages.heading(_("Coup by coup (art. 56-1)"), 10)
    pages.table(
        [_("Coup"), _("Time"), _("Banker"), _("Pot"), _("Levy"), _("Gain paid"), ""],
        [50, 110, 80, 100, 90, 100, 60],
        (
            [
                k["coup"],
                local_time(k["time"]),
                k["banker"] or "—",
                money_text(k["pot"], cur),
                money_text(k["levy"], cur),
                money_text(k["gain"], cur),
                _("voided") if k["voided"] else "",
            ]
            for k in c["coups"]
        ),
    )
    if c["interruptions"]:
        pages.heading(_("Interruptions"), 10)
        for pause in c["interruptions"]:
            until = local_time(pause["until"])
            pages.text(f"{local_time(pause['from'])} – {until} {pause['by']}: {pause['reason']}")
    pages.heading(_("The count (art. 70)"), 10)
    pages.table(
        [
            _("Expected (col. 6–8)"),
            _("Counted (col. 9)"),
            _("Difference"),
            _("To the registre de contrôle"),
        ],
        [150, 150, 150, 180],
        [
            [
                money_text(c["expected"], cur),
                money_text(c["counted"], cur),
                f"{money_text(c['difference'], cur)} {c['kind']}",
                money_text(c["carried"], cur),
            ]
        ],
    )
    count = c["count"]
    if count:
        pages.text(
            f"{_('Counted at')} {local_time(count['counted_at'])}, {_('certified exact by')} "
            f"{count['certified_by']}, {_('witness')} {count['witness']}"
        )


def _model11_tickets(pages: Pages, c: dict[str, Any]) -> None:
    """Columns 4–5, where the séance's house tears tickets: its ticket books, and the tickets
    detached by face value with the levy they make (arts. 59, 82–83)."""
    cur = c["currency"]
    pages.heading(_("Ticket books (columns 4–5)"), 10)
    pages.table(
        [
            _("Face value"),
            _("First serial"),
            _("Last serial"),
            _("Assigned"),
            _("By"),
            _("Returned"),
        ],
        [80, 80, 80, 120, 100, 120],
        (
            [
                money_text(t["face"], cur),
                t["first_serial"],
                t["last_serial"],
                local_time(t["assigned_at"]),
                t["assigned_by"],
                local_time(t["returned_at"]),
            ]
            for t in c["tickets"]
        ),
    )
    detached = c["tickets_detached"]
    pages.heading(_("Tickets detached (art. 59)"), 10)
    pages.table(
        [_("Face value"), _("Tickets"), _("Amount")],
        [100, 80, 120],
        (
            [money_text(row["face"], cur), row["count"], money_text(row["amount"], cur)]
            for row in detached["by_face"]
        ),
    )
    pages.text(
        f"{_('Levy')} {money_text(detached['levy'], cur)} · "
        f"{_('left without a ticket')} {money_text(detached['left'], cur)}"
    )


def _model12(pages: Pages, c: dict[str, Any]) -> None:
    cur = c["currency"]
    pages.table(
        [
            _("Table"),
            _("Séance"),
            _("Game"),
            _("Opened"),
            _("Closed"),
            _("Expected"),
            _("Counted"),
            _("Carried"),
        ],
        [50, 50, 100, 110, 110, 100, 100, 100],
        (
            [
                s["table"],
                s["seance"],
                s["game"],
                local_time(s["opened_at"]),
                local_time(s["closed_at"]),
                money_text(s["expected"], cur),
                money_text(s["counted"], cur),
                money_text(s["carried"], cur),
            ]
            for s in c["seances"]
        ),
    )


def _model13(pages: Pages, c: dict[str, Any]) -> None:
    pages.table(
        [_("Journée"), _("Total of the registre de contrôle"), "SHA-256"],
        [100, 200, 420],
        (
            [j["journee"], money_text(j["total"], c["currency"]), j["model_12"]]
            for j in c["journees"]
        ),
    )


def _total(pages: Pages, c: dict[str, Any]) -> None:
    if "total" not in c:
        return
    pages.gap()
    pages.heading(f"{_('Total')}: {money_text(c['total'], c['currency'])}", 11)
    words = c["total_in_words"]["fr"]
    pages.text(f"{_('Arrêté en toutes lettres à la somme de')} {words}.")


def _signatures(pages: Pages, signatures: Sequence[tuple[str, str, str]], wanted: int) -> None:
    pages.gap(10)
    pages.heading(_("Signatures"), 10)
    for who, as_what, when in signatures:
        pages.text(f"{as_what}: {who}, {local_time(when)}")
    for _blank in range(max(wanted - len(signatures), 0)):
        pages.text(_("Name, capacity, date and signature:") + " " + "_" * 60)


SECTIONS: dict[str, Callable[[Pages, dict[str, Any]], None]] = {
    "model_11": _model11,
    "model_12": _model12,
    "model_13": _model13,
}


def register_pdf(
    register: Register, signatures: Sequence[tuple[str, str, str]], wanted: int
) -> bytes:
    """The register to print: rendered once to count its pages, then with « page i / n »."""
    content = json.loads(register.content)
    title = register_title(register, content)
    footer = f"{register.kind} {register.key} v{register.version} · SHA-256 {register.sha256}"

    def rendered(total: int | None) -> Pages:
        pages = Pages(title, footer=footer, pages=total)
        pages.heading(title, 13)
        if register.rectifies_id:
            pages.text(f"{_('Rectification of version')} {register.version - 1}: {register.reason}")
        SECTIONS[register.kind](pages, content)
        _total(pages, content)
        _signatures(pages, signatures, wanted)
        return pages

    return rendered(rendered(None).page).finish()


def _rows(register: Register, content: dict[str, Any]) -> tuple[list[str], Iterable[list[Any]]]:
    if register.kind == MODEL_11:
        return (
            ["coup", "time", "banker", "pot", "levy", "gain", "voided"],
            (
                [k["coup"], k["time"], k["banker"], k["pot"], k["levy"], k["gain"], k["voided"]]
                for k in content["coups"]
            ),
        )
    if register.kind == MODEL_12:
        return (
            [
                "table",
                "seance",
                "game",
                "opened_at",
                "closed_at",
                "expected",
                "counted",
                "carried",
                "model_11",
            ],
            (
                [
                    s["table"],
                    s["seance"],
                    s["game"],
                    s["opened_at"],
                    s["closed_at"],
                    s["expected"],
                    s["counted"],
                    s["carried"],
                    s["model_11"],
                ]
                for s in content["seances"]
            ),
        )
    return (
        ["journee", "total", "model_12"],
        ([j["journee"], j["total"], j["model_12"]] for j in content["journees"]),
    )


def _ticket_sections(content: dict[str, Any]) -> list[tuple[list[str], Iterable[list[Any]]]]:
    """Model 11's columns 4–5 where the séance's house tears tickets: its ticket books, then
    the tickets detached by face value (amounts in cents)."""
    if "tickets_detached" not in content:
        return []
    detached = content["tickets_detached"]
    return [
        (
            ["ticket_face", "first_serial", "last_serial", "assigned_at", "assigned_by"]
            + ["returned_at", "returned_by"],
            (
                [t["face"], t["first_serial"], t["last_serial"], t["assigned_at"]]
                + [t["assigned_by"], t["returned_at"], t["returned_by"]]
                for t in content["tickets"]
            ),
        ),
        (
            ["detached_face", "count", "amount"],
            [
                *([row["face"], row["count"], row["amount"]] for row in detached["by_face"]),
                ["levy", "", detached["levy"]],
                ["left", "", detached["left"]],
            ],
        ),
    ]


def register_csv(register: Register) -> bytes:
    """The register's lines as CSV (amounts in cents), its identifier and hash first; for
    model 11 of a house that tears tickets, its ticket books and the tickets detached follow,
    each table after an empty line."""
    content = json.loads(register.content)
    header, rows = _rows(register, content)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["register", register.kind, register.key, f"v{register.version}", register.sha256]
    )
    writer.writerow(header)
    writer.writerows(rows)
    if register.kind == MODEL_11:
        for more_header, more_rows in _ticket_sections(content):
            writer.writerow([])
            writer.writerow(more_header)
            writer.writerows(more_rows)
    return out.getvalue().encode("utf-8")
