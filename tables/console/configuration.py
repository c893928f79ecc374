"""The manager's tables screen: every table, in service or not; creating one; changing its name,
seat count and settings; taking it out of service and back (issue 13).

Each write is a manager's (`establishment.roles.TABLE_CONFIGURERS`, asked here first so the
refusal comes before the form is read, and again by the service), calls one service
(`table_create`, `table_update`; docs/conventions.md, rule 1) and answers with the screen drawn
again: the whole page, or with htmx the `tables` region, a refusal shown on it in the rules' words
(a setting the engine refuses, a number in use) with 422, never a bare error page.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from uuid import UUID

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db.models import Exists, OuterRef
from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from establishment.errors import DomainError
from establishment.http.console import (
    Problem,
    client_of,
    console_view,
    form_problem,
    page_or_part,
    refusal,
    staff_of,
    write_answer,
)
from establishment.roles import TABLE_CONFIGURERS
from establishment.staff import roles_check
from tables.models import MAX_SEAT_COUNT, Game, Table, TableSession
from tables.services import table_create, table_update

if TYPE_CHECKING:
    from establishment.http.console import ConsoleRequest

MANAGE = "console/tables_manage.html"
MAX_NUMBER = 2_147_483_647  # PositiveIntegerField's range on every database


class SettingsField(forms.JSONField):
    """The table's settings as a JSON object (the engine checks names, types and ranges)."""

    def to_python(self, value: Any) -> Any:
        if value in self.empty_values:
            return None
        parsed = super().to_python(value)
        if parsed is not None and not isinstance(parsed, dict):
            raise ValidationError(_("Settings must be a JSON object of setting names to values."))
        return parsed


class TableCreateForm(forms.Form):
    number = forms.IntegerField(label=gettext_lazy("Number"), min_value=1, max_value=MAX_NUMBER)
    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=Game.choices)
    name = forms.CharField(label=gettext_lazy("Name"), max_length=100, required=False)
    seat_count = forms.IntegerField(
        label=gettext_lazy("Seats"), min_value=1, max_value=MAX_SEAT_COUNT, required=False
    )
    settings = SettingsField(label=gettext_lazy("Settings"), required=False)


class TableUpdateForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=100, required=False)
    seat_count = forms.IntegerField(
        label=gettext_lazy("Seats"), min_value=1, max_value=MAX_SEAT_COUNT
    )
    settings = SettingsField(label=gettext_lazy("Settings"))


class TableServiceForm(forms.Form):
    service = forms.ChoiceField(choices=[("out", "out"), ("back", "back")])


def _configurer_check(request: ConsoleRequest) -> None:
    roles_check(request.user, TABLE_CONFIGURERS, _("Only a manager may configure the tables."))


def _settings_text(settings: object) -> str:
    return json.dumps(settings, indent=1, sort_keys=False, ensure_ascii=False)


def _rows(failed: UUID | None, posted: Any) -> list[dict[str, Any]]:
    """Every table with the values its form shows: the stored ones, or what was posted for the
    table whose change was refused (so the manager corrects it rather than types it again)."""
    open_now = TableSession.objects.filter(table=OuterRef("pk"), closed_at__isnull=True)
    tables = Table.objects.annotate(is_open=Exists(open_now)).order_by("-is_active", "number")
    rows = []
    for table in tables:
        row = {
            "table": table,
            "name": table.name,
            "seat_count": table.seat_count,
            "settings_text": _settings_text(table.settings),
            # Tall enough to show every setting without scrolling (one a line).
            "settings_rows": min(len(table.settings) + 2, 20),
        }
        if failed is not None and table.public_id == failed and posted is not None:
            row |= {
                "name": posted.get("name", ""),
                "seat_count": posted.get("seat_count", ""),
                "settings_text": posted.get("settings", ""),
                "failed": True,
            }
        rows.append(row)
    return rows


def _context(
    *,
    problem: Problem | None = None,
    failed: UUID | None = None,
    posted: Any = None,
    create: Any = None,
) -> dict[str, Any]:
    return {
        "rows": _rows(failed, posted),
        "games": Game.choices,
        "problem": problem,
        "create": create or {},
        "max_seats": MAX_SEAT_COUNT,
    }


def validation_problem(error: ValidationError, labels: dict[str, str]) -> Problem:
    """A model's refusal (`full_clean`: the engine's `E_SETTING`, a number in use) said as one
    problem: each field's messages after its label, the first error's code."""
    errors = (
        error.error_dict if hasattr(error, "error_dict") else {NON_FIELD_ERRORS: error.error_list}
    )
    said: list[str] = []
    code = ""
    for field, items in errors.items():
        for item in items:
            message = str(item.message % item.params if item.params else item.message)
            code = code or str(item.code or "")
            label = "" if field == NON_FIELD_ERRORS else f"{labels.get(field, field)}: "
            said.append(f"{label}{message}")
    return Problem("table", code or "invalid", " ".join(said))


def _labels() -> dict[str, str]:
    return {
        "number": _("Number"),
        "game": _("Game"),
        "name": _("Name"),
        "seat_count": _("Seats"),
        "settings": _("Settings"),
        "is_active": _("In service"),
    }


def _answer(
    request: ConsoleRequest,
    *,
    notice: str = "",
    status: int = 200,
    problem: Problem | None = None,
    failed: UUID | None = None,
    create: Any = None,
) -> HttpResponse:
    """The answer of every write: the screen again (htmx: its region, with the notice or the
    problem); a browser without htmx is sent back to the screen when all went well."""
    posted = request.POST if failed is not None else None

    def context() -> dict[str, Any]:
        drawn = _context(problem=problem, failed=failed, posted=posted, create=create)
        return drawn | {"notice": notice}

    back_to = reverse("console:tables-manage")
    return write_answer(request, back_to, MANAGE, "tables", context, status=status, notice=notice)


def _table_write(
    request: ConsoleRequest,
    form: forms.Form,
    write: Callable[[dict[str, Any]], str],
    *,
    invalid: Problem | None = None,
    failed: UUID | None = None,
    create: Any = None,
) -> HttpResponse:
    """A write from `form`: `write` calls the service with what the form cleaned and says what
    was done. A refusal is shown on the screen drawn again: the form's (`invalid`, else each
    field's errors) or the model's (422), or the house's; with what was posted for the table
    whose change was refused (`failed`) or for the new table (`create`)."""
    if not form.is_valid():
        problem = invalid or form_problem("table", form)
        return _answer(request, status=422, problem=problem, failed=failed, create=create)
    try:
        notice = write(form.cleaned_data)
    except ValidationError as error:
        problem = validation_problem(error, _labels())
        return _answer(request, status=422, problem=problem, failed=failed, create=create)
    except DomainError as error:
        status, problem = refusal(error, "table")
        return _answer(request, status=status, problem=problem, failed=failed, create=create)
    return _answer(request, notice=notice)


def _table_configured(request: ConsoleRequest, public_id: UUID) -> Table:
    """The table a manager changes (anyone else is refused before it is looked for)."""
    _configurer_check(request)
    found = Table.objects.filter(public_id=public_id).first()
    if found is None:
        raise Http404("No such table.")
    return found


@require_GET
@console_view
def tables_manage(request: ConsoleRequest) -> HttpResponse:
    """Every table: number, name, game, seats, settings, in service or not, open or not."""
    _configurer_check(request)
    return page_or_part(request, MANAGE, "tables", _context() | {"notice": ""})


@require_POST
@console_view
def table_add(request: ConsoleRequest) -> HttpResponse:
    _configurer_check(request)
    form = TableCreateForm(request.POST)

    def write(data: dict[str, Any]) -> str:
        table = table_create(
            number=data["number"],
            game=data["game"],
            settings=data["settings"] or {},
            seat_count=data["seat_count"],
            name=data["name"],
            created_by=staff_of(request),
            client=client_of(request),
        )
        return _("Table %(number)d created.") % {"number": table.number}

    return _table_write(request, form, write, create=form.data)


@require_POST
@console_view
def table_change(request: ConsoleRequest, table: UUID) -> HttpResponse:
    """A table's name, seat count and settings (the form's fields are the service's)."""
    found = _table_configured(request, table)

    def write(data: dict[str, Any]) -> str:
        table_update(table=found, **data, updated_by=staff_of(request), client=client_of(request))
        notice = _("Table %(number)d changed; the change counts from its next opening.")
        return notice % {"number": found.number}

    return _table_write(request, TableUpdateForm(request.POST), write, failed=table)


@require_POST
@console_view
def table_service(request: ConsoleRequest, table: UUID) -> HttpResponse:
    """Take a table out of service, or put it back."""
    found = _table_configured(request, table)

    def write(data: dict[str, Any]) -> str:
        back = data["service"] == "back"
        table_update(
            table=found, is_active=back, updated_by=staff_of(request), client=client_of(request)
        )
        if back:
            notice = _("Table %(number)d is back in service.")
        else:
            notice = _("Table %(number)d is out of service.")
        return notice % {"number": found.number}

    invalid = Problem("table", "form_invalid", _("Say whether the table goes out or back."))
    return _table_write(request, TableServiceForm(request.POST), write, invalid=invalid)
