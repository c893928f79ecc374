"""The exclusion list imported from a file (docs/exclusions.md): every line checked first, then
written batch by batch by the task `establishment.exclusions_import`, with its progress.
"""

from __future__ import annotations

import csv
import io
from datetime import date, datetime
from functools import partial
from typing import TYPE_CHECKING, Any

from celery import current_app
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from establishment.errors import InvalidInputError
from establishment.identity import (
    name_key,
)
from establishment.models import (
    ExclusionEntry,
    ExclusionImport,
    ExclusionSource,
)
from establishment.roles import DOOR_KEEPERS
from establishment.services import audit
from establishment.staff import role_required

if TYPE_CHECKING:
    from django.contrib.auth.models import User
from establishment.door import Fields, door_today, exclusion_fields_checked, text_clean

# Rows written per transaction, errors kept on the import.
IMPORT_BATCH = 2000
IMPORT_ERRORS_KEPT = 1000

# The exclusion list's file (docs/exclusions.md): a header line, then one person a line.
IMPORT_COLUMNS = (
    "surname",
    "first_names",
    "birth_date",
    "birth_place",
    "source",
    "reference",
    "effective_from",
    "until",
)
IMPORT_REQUIRED = ("surname", "first_names", "birth_date", "source")
_DATE_FORMATS = ("%Y-%m-%d", "%d/%m/%Y")


def _import_text(content: bytes | str) -> str:
    if isinstance(content, str):
        text = content.removeprefix("\ufeff")
    else:
        try:
            text = content.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise InvalidInputError(
                _("The file is not UTF-8 text (byte %(position)d): save it as CSV UTF-8.")
                % {"position": error.start + 1},
                fields={"file": [_("Save the file as CSV UTF-8.")]},
            ) from None
    if "\x00" in text:
        # A NUL character is no part of a CSV text (PostgreSQL could not even store it).
        raise InvalidInputError(
            _("The file holds a NUL character (byte %(position)d): save it as CSV UTF-8.")
            % {"position": text.index("\x00") + 1},
            fields={"file": [_("Save the file as CSV UTF-8.")]},
        )
    return text


def _import_lines_count(text: str) -> int:
    """The data lines of a file (the header and blank lines not counted)."""
    return max(0, sum(1 for row in csv.reader(io.StringIO(text)) if any(row)) - 1)


def _import_date(value: str) -> date | None | str:
    """A date of the file, None when blank, or the text itself when it is not a date."""
    if not value:
        return None
    for form in _DATE_FORMATS:
        try:
            return datetime.strptime(value, form).date()
        except ValueError:
            continue
    return value


def _import_rows_read(text: str, today: date) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Every line of the file checked: (the entries' fields, the errors: line, column,
    what is wrong and what is expected)."""
    errors: list[dict[str, Any]] = []
    rows: list[dict[str, Any]] = []
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    names = [name_key(h).replace(" ", "_") for h in header or []]
    missing = [c for c in IMPORT_REQUIRED if c not in names]
    unknown = [h for h in names if h and h not in IMPORT_COLUMNS]
    if header is None or missing or unknown:
        message = [_("The first line must name the columns.")]
        if missing:
            message.append(_("Missing: %(names)s.") % {"names": ", ".join(missing)})
        if unknown:
            message.append(_("Unknown: %(names)s.") % {"names": ", ".join(unknown)})
        errors.append(
            {
                "line": 1,
                "column": "",
                "message": " ".join(message),
                "expected": ",".join(IMPORT_COLUMNS),
            }
        )
        return rows, errors
    expected = {
        "birth_date": _("a date, YYYY-MM-DD or DD/MM/YYYY"),
        "effective_from": _("a date, YYYY-MM-DD or DD/MM/YYYY, or blank for today"),
        "until": _("a date, YYYY-MM-DD or DD/MM/YYYY, or blank for good"),
        "source": ", ".join(ExclusionSource.values),
    }
    for line in reader:
        if not any(line):
            continue
        number = reader.line_num
        if len(line) != len(names):
            errors.append(
                {
                    "line": number,
                    "column": "",
                    "message": _("%(found)d columns instead of %(wanted)d.")
                    % {"found": len(line), "wanted": len(names)},
                    "expected": ",".join(names),
                }
            )
            continue
        given = dict(zip(names, (cell.strip() for cell in line), strict=True))
        fields = Fields()
        dates: dict[str, Any] = {}
        not_dates: set[str] = set()
        for column in ("birth_date", "effective_from", "until"):
            parsed = _import_date(given.get(column, ""))
            if isinstance(parsed, str):
                fields.add(column, _("“%(value)s” is not a date.") % {"value": parsed})
                not_dates.add(column)
                parsed = None
            dates[column] = parsed
        values = exclusion_fields_checked(
            fields,
            surname=given.get("surname", ""),
            first_names=given.get("first_names", ""),
            birth_date=dates["birth_date"],
            birth_place=given.get("birth_place", ""),
            source=given.get("source", ""),
            reference=given.get("reference", ""),
            effective_from=dates["effective_from"],
            until=dates["until"],
            today=today,
        )
        required = _("This field is required.")
        for column in not_dates:  # said once: not a date, rather than also missing
            fields.errors[column] = [m for m in fields.errors[column] if m != required]
        for column, messages in fields.errors.items():
            for said in messages:
                errors.append(
                    {
                        "line": number,
                        "column": column,
                        "message": said,
                        "expected": expected.get(column, ""),
                    }
                )
        if not fields.errors:
            rows.append(values)
    return rows, errors


@transaction.atomic
def exclusion_import(
    *, file_name: str, content: bytes | str, imported_by: User, client: str = ""
) -> ExclusionImport:
    """Take a file of the exclusion list (docs/exclusions.md) to import: stored with its lines
    counted, then the Celery task `establishment.exclusions_import` does the work once this
    commits (`exclusion_import_run`). Every line is checked first: a file with any error
    imports nothing and keeps every error (line, column, what is wrong, what is expected)."""
    role_required(imported_by, DOOR_KEEPERS, "keep the exclusion list")
    text = _import_text(content)
    name = text_clean(file_name)[:255] or "exclusions.csv"
    total = _import_lines_count(text)
    job = ExclusionImport.objects.create(
        file_name=name, content=text, created_by=imported_by, lines_total=total
    )
    audit(
        user=imported_by,
        action="exclusion_import",
        client=client,
        exclusion_import=str(job.public_id),
        file_name=name,
        lines=total,
    )
    transaction.on_commit(partial(_task_send, "establishment.exclusions_import", job.pk))
    return job


def _task_send(name: str, *args: Any) -> None:
    """Send the task `name` (docs/conventions.md, rule 9: by name, so the domain never imports
    its adapters). Outside a worker the tasks' modules are imported on first use (Celery's
    autodiscovery runs at a worker's start only), so an eager run finds the task too."""
    if name not in current_app.tasks:
        current_app.loader.import_default_modules()
    current_app.tasks[name].delay(*args)


def exclusion_import_run(*, import_id: int, today: date | None = None) -> ExclusionImport:
    """Import a stored file of the exclusion list (the task's work), `IMPORT_BATCH` lines per
    transaction, `lines_done` moved on with each batch. Idempotent: a finished import is left
    alone; a run that died goes on from the lines it committed; two runs at once share the
    work (each batch locks the import row and starts where the last batch stopped)."""
    with transaction.atomic(durable=True):
        job = ExclusionImport.objects.select_for_update().get(pk=import_id)
        if job.is_finished:
            return job
        if job.status == ExclusionImport.Status.PENDING:
            job.status = ExclusionImport.Status.RUNNING
            job.save(update_fields=["status"])
    rows, errors = _import_rows_read(job.content, door_today(today))
    if errors:
        with transaction.atomic(durable=True):
            job = ExclusionImport.objects.select_for_update().get(pk=import_id)
            if not job.is_finished:
                job.status = ExclusionImport.Status.REFUSED
                job.errors = errors[:IMPORT_ERRORS_KEPT]
                job.finished_at = timezone.now()
                job.save(update_fields=["status", "errors", "finished_at"])
        return job
    while True:
        with transaction.atomic(durable=True):
            job = ExclusionImport.objects.select_for_update().get(pk=import_id)
            if job.is_finished:
                return job
            batch = rows[job.lines_done : job.lines_done + IMPORT_BATCH]
            if not batch:
                job.status = ExclusionImport.Status.DONE
                job.lines_total = job.lines_done
                job.finished_at = timezone.now()
                job.save(update_fields=["status", "lines_total", "finished_at"])
                return job
            now = timezone.now()
            ExclusionEntry.objects.bulk_create(
                [
                    ExclusionEntry(
                        **values, added_by_id=job.created_by_id, added_at=now, source_import=job
                    )
                    for values in batch
                ]
            )
            job.lines_done += len(batch)
            job.save(update_fields=["lines_done"])
