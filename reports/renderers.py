"""Renderers: a report's content → CSV files, an SVG chart, a printable PDF.

Each is a function of its inputs only (the language is fixed to the site's while the worker
renders), so the same report gives the same bytes: reportlab writes an "invariant" PDF, with no
creation date and no random document id.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from reportlab import rl_config
from reportlab.lib.pagesizes import A4, landscape
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from reports.labels import label as _label

CSV_FILES = ("players.csv", "coups.csv", "cagnotte.csv")
PDF_FILE = "settlement.pdf"


def local_time(moment: str | None, fmt: str = "%Y-%m-%d %H:%M:%S") -> str:
    """An ISO moment of the content, shown in the site's time zone."""
    if not moment:
        return ""
    return datetime.fromisoformat(moment).astimezone(ZoneInfo(settings.TIME_ZONE)).strftime(fmt)


# -- CSV (auditors) --------------------------------------------------------------------------


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A CSV of `rows` under `header`, one line each (the auditors' files)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def _csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> bytes:
    return csv_text(header, rows).encode("utf-8")


def csv_players(content: Mapping[str, Any]) -> bytes:
    """One row per player and table: the result in chips (positive: the player won)."""
    return _csv(
        ["player", "name", "table", "game", "result"],
        (
            [p["player"], p["name"], t["table"], t["game"], t["result"]]
            for p in content["players"]
            for t in p["tables"]
        ),
    )


def csv_coups(content: Mapping[str, Any]) -> bytes:
    """Every coup, voided ones included (marked), with its banker and levy."""
    return _csv(
        [
            "table",
            "game",
            "coup",
            "time_utc",
            "outcome",
            "banker",
            "pot",
            "levy",
            "gain",
            "bank_result",
            "voided",
        ],
        (
            [
                t["table"],
                t["game"],
                c["coup"],
                c["time"],
                c["outcome"],
                c["banker"] or "",
                c["pot"],
                c["levy"],
                c["gain"],
                "" if c["bank_result"] is None else c["bank_result"],
                int(c["voided"]),
            ]
            for t in content["tables"]
            for c in t["coups"]
        ),
    )


def csv_cagnotte(content: Mapping[str, Any]) -> bytes:
    """The cagnotte book (art. 56-1): per table and live coup, time, pot, levy and gain."""
    return _csv(
        ["table", "coup", "time_utc", "banker", "pot", "levy", "gain"],
        (
            [t["table"], c["coup"], c["time"], c["banker"] or "", c["pot"], c["levy"], c["gain"]]
            for t in content["tables"]
            for c in t["coups"]
            if not c["voided"]
        ),
    )


# -- SVG chart -------------------------------------------------------------------------------

_COLOURS = ("#1f6feb", "#d1242f", "#1a7f37", "#9a6700", "#8250df", "#0969da", "#bf3989")
_MAX_POINTS = 400


def _series(content: Mapping[str, Any], field: str) -> list[tuple[str, list[int]]]:
    """Per table, the running total of `field` over its live coups (sampled to ≤ 400 points)."""
    out: list[tuple[str, list[int]]] = []
    for table in content["tables"]:
        running = 0
        points = [0]
        for coup in table["coups"]:
            if not coup["voided"]:
                running += int(coup[field] or 0)
                points.append(running)
        if len(points) > _MAX_POINTS:
            step = (len(points) - 1) / (_MAX_POINTS - 1)
            points = [points[round(i * step)] for i in range(_MAX_POINTS)]
        out.append((str(table["table"]), points))
    return out


def chart_svg(content: Mapping[str, Any], field: str, title: str) -> str:
    """A line per table: the running total of `field` (levy, bank result) coup after coup."""
    width, height, pad = 640, 220, 36
    series = _series(content, field)
    values = [v for _name, points in series for v in points] or [0]
    low, high = min(values + [0]), max(values + [0])
    span = high - low or 1
    longest = max((len(points) for _n, points in series), default=1) - 1 or 1

    def xy(index: int, value: int, count: int) -> str:
        x = pad + (width - 2 * pad) * index / max(count - 1, 1) * ((count - 1) / longest)
        y = height - pad - (height - 2 * pad) * (value - low) / span
        return f"{x:.1f},{y:.1f}"

    zero_y = height - pad - (height - 2 * pad) * (0 - low) / span
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{_escape(title)}" class="settlement-chart">',
        f"<title>{_escape(title)}</title>",
        f'<line x1="{pad}" y1="{zero_y:.1f}" x2="{width - pad}" y2="{zero_y:.1f}" '
        'stroke="#8c959f" stroke-width="1"/>',
        f'<text x="4" y="{pad - 8}" font-size="11">{high}</text>',
        f'<text x="4" y="{height - pad + 14}" font-size="11">{low}</text>',
    ]
    for index, (name, points) in enumerate(series):
        colour = _COLOURS[index % len(_COLOURS)]
        coords = " ".join(xy(i, v, len(points)) for i, v in enumerate(points))
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{coords}">'
            f"<title>{_escape(_('Table'))} {name}</title></polyline>"
        )
        parts.append(
            f'<text x="{width - pad + 4}" y="{pad + 12 * index}" font-size="11" '
            f'fill="{colour}">{name}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _escape(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


# -- PDF (to print and sign) -----------------------------------------------------------------


@lru_cache(maxsize=8192)
def _width(text: str, font: str) -> float:
    """The width of `text` at 8 points (the registers repeat the same amounts)."""
    return float(stringWidth(text, font, 8))


def _pdf_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


class Pages:
    """Lines of text in columns on landscape A4, a new page when one is full."""

    def __init__(self, title: str, *, footer: str = "", pages: int | None = None) -> None:
        """`footer`: a line at the foot of every page (a register's identifier and hash);
        `pages`: how many there are, for « page i / n » (a first rendering counts them)."""
        self.footer = footer
        self.pages = pages
        self.buffer = io.BytesIO()
        self.canvas = Canvas(self.buffer, pagesize=landscape(A4), invariant=True, pageCompression=1)
        # The names of the two fonts in the document's resources, for `row`.
        self._font_names = {
            name: self.canvas._doc.getInternalFontName(name)  # type: ignore[attr-defined]
            for name in ("Helvetica", "Helvetica-Bold")
        }
        self.canvas.setTitle(title)
        self.canvas.setCreator("casino back office")
        self.width, self.height = landscape(A4)
        self.title = title
        self.page = 0
        self.y = 0.0
        self._new_page()

    def _new_page(self) -> None:
        if self.page:
            self.canvas.showPage()
        self.page += 1
        self.canvas.setFont("Helvetica", 7)
        self.canvas.drawString(36, 20, self.title)
        of = f" / {self.pages}" if self.pages else ""
        self.canvas.drawRightString(self.width - 36, 20, f"{_('Page')} {self.page}{of}")
        if self.footer:
            self.canvas.drawString(36, 11, self.footer)
        self.y = self.height - 40

    def _room(self, needed: float) -> None:
        if self.y - needed < 36:
            self._new_page()

    def heading(self, text: str, size: int = 12) -> None:
        self._room(size + 16)
        self.y -= size + 6
        self.canvas.setFont("Helvetica-Bold", size)
        self.canvas.drawString(36, self.y, text)
        self.y -= 4

    def text(self, text: str) -> None:
        self._room(12)
        self.y -= 11
        self.canvas.setFont("Helvetica", 8.5)
        self.canvas.drawString(36, self.y, text[:190])

    def row(self, cells: Sequence[Any], widths: Sequence[int], bold: bool = False) -> None:
        """One line of a table: text from the left of its column, numbers to the right.

        The long registers (the cagnotte book has a line per coup) are written as PDF text
        operators straight into the page, one text object per line: the same marks as
        `drawString` cell by cell, at a fraction of the cost. A cell outside printable ASCII
        (a name with an accent) goes through `drawString`, which encodes it for the font.
        """
        self._room(11)
        self.y -= 10
        font = "Helvetica-Bold" if bold else "Helvetica"
        ops = [f"BT {self._font_names[font]} 8 Tf"]
        slow: list[tuple[float, str, bool]] = []
        x = 36.0
        y = f"{self.y:.2f}"
        for cell, width in zip(cells, widths, strict=False):
            value = "" if cell is None else str(cell)
            right = isinstance(cell, int) and not isinstance(cell, bool)
            if not right:
                value = value[: max(width // 4, 4)]
            if value and not (value.isascii() and value.isprintable()):
                slow.append((x + width - 6 if right else x, value, right))
            elif value:
                left = x + width - 6 - _width(value, font) if right else x
                ops.append(f"1 0 0 1 {left:.2f} {y} Tm ({_pdf_escape(value)}) Tj")
            x += width
        ops.append("ET")
        self.canvas.addLiteral(" ".join(ops))
        if slow:
            self.canvas.setFont(font, 8)
        for at, value, right in slow:
            if right:
                self.canvas.drawRightString(at, self.y, value)
            else:
                self.canvas.drawString(at, self.y, value)

    def table(
        self, header: Sequence[str], widths: Sequence[int], rows: Iterable[Sequence[Any]]
    ) -> None:
        self.row(header, widths, bold=True)
        for cells in rows:
            if self.y - 10 < 36:
                self._new_page()
                self.row(header, widths, bold=True)
            self.row(cells, widths)

    def gap(self, points: float = 6) -> None:
        self.y -= points

    def finish(self) -> bytes:
        self.canvas.showPage()
        # Pages deflated but not wrapped in ASCII85 (reportlab's pure-Python encoder is the
        # slowest step of a long report, and binary streams are the smaller file). The setting
        # is read when the document is written, so it is set around `save` only.
        wrapped = rl_config.useA85
        rl_config.useA85 = 0
        try:
            self.canvas.save()
        finally:
            rl_config.useA85 = wrapped
        return self.buffer.getvalue()


def _cagnotte_cells(row: Mapping[str, Any], label: Callable[[str], str]) -> list[Any]:
    """A table's line of the cagnotte comparison; an uncounted one leaves blanks to fill in."""
    counted = "________" if row["counted"] is None else row["counted"]
    kind = f"{label(row['kind'])} {row.get('difference') or ''}".strip()
    witness = (row.get("count") or {}).get("witness") or "________________"
    return [row["table"], row["expected"], row["booked"], counted, kind, witness]


def _player_cells(
    players: Iterable[Mapping[str, Any]], label: Callable[[str], str]
) -> Iterator[list[Any]]:
    """A line per player and table he played at; his total on his first line only."""
    for player in players:
        for index, t in enumerate(player["tables"]):
            total = player["total"] if index == 0 else ""
            yield [
                player["player"],
                player["name"],
                t["table"],
                label(t["game"]),
                t["result"],
                total,
            ]


def pdf_render(
    content: Mapping[str, Any],
    *,
    sha256: str = "",
    comparison: Mapping[str, Any] | None = None,
    signed: Mapping[str, Any] | None = None,
) -> bytes:
    """The printable settlement: registers per table, bankers, players, corrections and the
    reconciliation; blank lines for the count and the signatures when they are not in yet."""
    label = lru_cache(maxsize=256)(_label)  # the same few codes on thousands of lines
    session = content["session"]
    title = (
        f"{_('Settlement of the gaming session')} {local_time(session['opened_at'], '%Y-%m-%d')}"
    )
    pages = Pages(title)
    pages.heading(title, 14)
    pages.text(
        f"{_('Opened')} {local_time(session['opened_at'])} ({session['opened_by']})   "
        f"{_('Closed')} {local_time(session['closed_at'])} ({session['closed_by']})"
    )
    if sha256:
        pages.text(f"SHA-256 {sha256}")
    rec = content["reconciliation"]
    pages.text(
        f"{_('Reconciliation')}: "
        + (
            _("the books agree with the recorded cards")
            if rec["agrees"]
            else _("differences found")
        )
        + f" — {rec['coups_replayed']} {_('coups replayed')}, "
        f"{rec['transactions_checked']} {_('transactions')}, "
        f"{rec['accounts_checked']} {_('accounts')}"
    )

    for table in content["tables"]:
        pages.gap()
        pages.heading(f"{_('Table')} {table['table']} — {label(table['game'])}")
        pages.text(
            f"{_('Opened')} {local_time(table['opened_at'])}   {_('Closed')} "
            f"{local_time(table['closed_at'])}   {_('Coups')} {table['coups_played']}"
            f"   {_('Voided')} {table['coups_voided']}"
        )
        if table.get("forced_close"):
            pages.text(
                f"{_('Closed by force by the inspector')}: {table['forced_close']['reason']}"
            )
        # Model 11, column 3 bis (docs/registers.md): every duty period, reliefs included.
        pages.heading(_("Croupiers and changeurs"), 10)
        pages.table(
            [
                _("Role"),
                _("Staff member"),
                _("From"),
                _("Until"),
                _("Put on duty by"),
                _("Ended by"),
            ],
            [80, 110, 60, 60, 110, 110],
            (
                [
                    label(s["role"]),
                    s["staff"],
                    local_time(s["from"], "%H:%M"),
                    local_time(s["until"], "%H:%M"),
                    s.get("assigned_by") or "",
                    s.get("ended_by") or "",
                ]
                for s in table["staff"]
            ),
        )
        for pause in table["interruptions"]:
            pages.text(
                f"{_('Interrupted')} {local_time(pause['from'], '%H:%M:%S')} – "
                f"{local_time(pause['until'], '%H:%M:%S')} {pause['reason']}"
            )
        pages.heading(_("Cagnotte book"), 10)
        pages.table(
            [_("Coup"), _("Time"), _("Banker"), _("Pot"), _("Levy"), _("Gain")],
            [50, 110, 120, 90, 90, 90],
            (
                [
                    c["coup"],
                    local_time(c["time"], "%H:%M:%S"),
                    c["banker"] or "",
                    c["pot"],
                    c["levy"],
                    c["gain"],
                ]
                for c in table["coups"]
                if not c["voided"]
            ),
        )
        pages.row(
            [_("Expected"), "", "", "", table["cagnotte_expected"], ""],
            [50, 110, 120, 90, 90, 90],
            bold=True,
        )
        pages.heading(_("Register of bankers"), 10)
        pages.table(
            [
                _("Banker"),
                _("From"),
                _("Until"),
                _("How it began"),
                _("How it ended"),
                _("Coups"),
                _("Result"),
            ],
            [120, 70, 70, 130, 130, 60, 80],
            (
                [
                    b["name"] or b["player"] or _("vacant"),
                    local_time(b["from"], "%H:%M:%S"),
                    local_time(b["until"], "%H:%M:%S"),
                    label(b["how"]),
                    label(b["ended"]),
                    b["coups"],
                    b["result"],
                ]
                for b in table["bankers"]
            ),
        )
        if table["reliquats"]:
            pages.heading(_("Reliquats"), 10)
            pages.table(
                [_("Banker"), _("Set aside"), _("Returned"), _("Balance")],
                [160, 90, 90, 90],
                (
                    [r["name"] or r["player"], r["set_aside"], r["returned"], r["balance"]]
                    for r in table["reliquats"]
                ),
            )
        if table["reserve_fund"]:
            pages.heading(_("Reserve fund"), 10)
            pages.table(
                [_("Movement"), _("Chips")],
                [200, 90],
                ([label(k), v] for k, v in table["reserve_fund"].items()),
            )

    pages.gap()
    pages.heading(_("Cagnotte: expected and counted"))
    rows = (
        comparison["rows"]
        if comparison
        else [dict(t, counted=None, kind="uncounted") for t in content["cagnotte"]]
    )
    pages.table(
        [_("Table"), _("Expected"), _("Booked"), _("Counted"), _("Difference"), _("Witness")],
        [60, 90, 90, 90, 120, 160],
        (_cagnotte_cells(r, label) for r in rows),
    )
    if comparison:
        pages.text(
            f"{_('Surplus')} {comparison['surplus']}   {_('Shortfall')} {comparison['shortfall']}"
            f"   {_('To the control register')} {comparison['register']}"
        )

    pages.gap()
    pages.heading(_("Players"))
    pages.table(
        [_("Player"), _("Name"), _("Table"), _("Game"), _("Result"), _("Total")],
        [90, 160, 50, 140, 80, 80],
        _player_cells(content["players"], label),
    )

    pages.gap()
    pages.heading(_("Corrections"))
    if not content["corrections"]:
        pages.text(_("None."))
    pages.table(
        [_("Table"), _("Correction"), _("Detail"), _("Asked by"), _("Approved by"), _("Why")],
        [50, 150, 90, 90, 90, 260],
        (
            [
                c["table"],
                label(c["kind"]),
                c["detail"],
                c["requested_by"],
                c["approved_by"] or "",
                c["reason"],
            ]
            for c in content["corrections"]
        ),
    )

    pages.gap()
    pages.heading(_("Reconciliation"))
    if not rec["differences"]:
        pages.text(_("No difference: every coup replayed equals its booking."))
    for difference in rec["differences"]:
        pages.text(f"{label(difference['kind'])}: {_compact(difference)}")

    pages.gap(14)
    pages.heading(_("Signatures"))
    if signed:
        pages.text(f"{_('Signed off by')} {signed['by']} {local_time(signed['at'])}")
        pages.text(f"SHA-256 {signed['sha256']}")
    else:
        pages.text(
            f"{_('Manager')}: ______________________      {_('Witness')}: ______________________"
        )
    return pages.finish()


def _compact(difference: Mapping[str, Any]) -> str:
    return "; ".join(f"{k}={v}" for k, v in sorted(difference.items()) if k != "kind")


def report_csv_render(content: Mapping[str, Any]) -> list[tuple[str, str, bytes]]:
    """The three CSV files, stored with the report."""
    return [
        ("players.csv", "text/csv", csv_players(content)),
        ("coups.csv", "text/csv", csv_coups(content)),
        ("cagnotte.csv", "text/csv", csv_cagnotte(content)),
    ]


def report_pdf_render(content: Mapping[str, Any], sha256: str) -> tuple[str, str, bytes]:
    """The PDF as closed, in the site's language: rendered once the report is stored."""
    with translation.override(settings.LANGUAGE_CODE):
        return (PDF_FILE, "application/pdf", pdf_render(content, sha256=sha256))


def report_files_render(
    content: Mapping[str, Any], sha256: str = ""
) -> list[tuple[str, str, bytes]]:
    """Every file a worker stores beside the report: the PDF and the three CSV files."""
    return [report_pdf_render(content, sha256), *report_csv_render(content)]
