"""What an audit is asked for, read the same way by its screen and its API: the grouping, the
period of journées (`from`, `to`, each optional, both included) and the game (optional)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from reports.odds.audit import GROUPINGS
from tables.models import Game

GROUPING_LABELS = {
    "table": _("Table"),
    "banker": _("Banker"),
    "croupier": _("Croupier"),
    "night": _("Night"),
    "levy": _("Levy model"),
}
PARAMETERS = ("group", "from", "to", "game")


@dataclass(frozen=True)
class AuditQuery:
    grouping: str
    date_from: date | None
    date_to: date | None
    game: str | None

    def as_params(self) -> dict[str, str]:
        """The query string that asks for this audit again (the CSV link, the API)."""
        found = {"group": self.grouping}
        if self.date_from:
            found["from"] = self.date_from.isoformat()
        if self.date_to:
            found["to"] = self.date_to.isoformat()
        if self.game:
            found["game"] = self.game
        return found


class AuditForm(forms.Form):
    """The audit's parameters; the words of each refusal say what is expected."""

    group = forms.ChoiceField(
        label=_("Group by"),
        choices=[(name, GROUPING_LABELS[name]) for name in GROUPINGS],
        required=False,
        error_messages={
            "invalid_choice": _("Group by one of: table, banker, croupier, night."),
        },
    )
    game = forms.ChoiceField(
        label=_("Game"),
        choices=[("", _("Every game")), *Game.choices],
        required=False,
        error_messages={"invalid_choice": _("Choose a game the house plays, or none.")},
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # `from` is a Python keyword: the two dates are added by name.
        for name, label in (("from", _("From (journée)")), ("to", _("To (journée)"))):
            self.fields[name] = forms.DateField(
                label=label,
                required=False,
                input_formats=["%Y-%m-%d"],
                widget=forms.DateInput(attrs={"type": "date"}),
                error_messages={"invalid": _("Give a date as YYYY-MM-DD.")},
            )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        start, end = cleaned.get("from"), cleaned.get("to")
        if start and end and start > end:
            raise forms.ValidationError(
                _("The period ends before it begins: give a “from” date on or before “to”."),
                code="period",
            )
        return cleaned

    def query(self) -> AuditQuery:
        """The audit asked for (the form is valid); grouped by table unless told otherwise."""
        data = self.cleaned_data
        return AuditQuery(
            data.get("group") or "table", data["from"], data["to"], data["game"] or None
        )
