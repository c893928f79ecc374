"""The console's forms: shape and types only; the rules decide (docs/conventions.md, rule 1).

An action form is built from the engine's `ActionSpec` of the posted type: each parameter's
kind (seat, amount, rank, list of ranks, player, yes/no, chemin de fer claims) becomes a field.
Whether the action is legal now — the actor's turn, the amount against the bank, a rank left in
the sabot — is the engine's to say, through `tables.services.record`; a form never second-guesses
it, so a stale screen is told it is stale (409) rather than refused by an outdated form.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from django import forms
from django.conf import settings
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from establishment.models import StaffPreference
from tables.engine import RANKS, ActionSpec
from tables.engine.actions import (
    AMOUNT,
    BOOL,
    INT,
    PLAYER,
    RANK,
    RANKS as RANKS_PARAM,
    SEAT,
    SEAT_OR_PLAYER,
    TEXT,
    Param,
)
from tables.models import AssignmentRole

MAX_AMOUNT_CHIPS = 10**12
RANK_CHOICES = [(rank, rank) for rank in RANKS]


class Kind(StrEnum):
    """How the console draws and reads one parameter of an action."""

    SEAT = "seat"
    AMOUNT = "amount"
    INT = "int"
    RANK = "rank"
    RANKS = "ranks"
    BOOL = "bool"
    PLAYER = "player"
    SEAT_OR_PLAYER = "seat_or_player"
    TEXT = "text"
    CLAIMS = "claims"


_BY_PARAM: dict[int, Kind] = {
    id(SEAT): Kind.SEAT,
    id(AMOUNT): Kind.AMOUNT,
    id(INT): Kind.INT,
    id(RANK): Kind.RANK,
    id(RANKS_PARAM): Kind.RANKS,
    id(BOOL): Kind.BOOL,
    id(PLAYER): Kind.PLAYER,
    id(SEAT_OR_PLAYER): Kind.SEAT_OR_PLAYER,
    id(TEXT): Kind.TEXT,
}
# Parameters a game declares with its own `Param` (chemin de fer's stricter ids and lists).
_BY_NAME: dict[str, Kind] = {
    "claims": Kind.CLAIMS,
    "ponte": Kind.RANKS,
    "banker": Kind.RANKS,
    "player": Kind.PLAYER,
    "cut_by": Kind.SEAT,
    "seat": Kind.SEAT,
    "to": Kind.SEAT,
    "rank": Kind.RANK,
    "amount": Kind.AMOUNT,
    "reliquat": Kind.AMOUNT,
}


def param_kind(name: str, param: Param) -> Kind:
    found = _BY_PARAM.get(id(param))
    if found is not None:
        return found
    if name in _BY_NAME:
        return _BY_NAME[name]
    if param.describe.startswith("a player id"):
        return Kind.PLAYER
    if param.describe.startswith("a list of") and "rank" in param.describe:
        return Kind.RANKS
    return Kind.TEXT


def spec_params(spec: ActionSpec) -> list[tuple[str, Kind, bool]]:
    """`(name, kind, required)` for every parameter of the spec; `one_of` groups optional."""
    params = [(name, param_kind(name, param), True) for name, param in spec.required.items()]
    params += [(name, param_kind(name, param), False) for name, param in spec.optional.items()]
    for group in spec.one_of:
        params += [(name, param_kind(name, param), False) for name, param in group.items()]
    return params


def actor_parse(raw: str) -> int | str:
    """A posted actor: a seat number, a standing player's id or "croupier"."""
    text = raw.strip()
    return int(text) if text.isdigit() else text


class _Posted(forms.Form):
    """What every write of the table screen carries: the sequence and the idempotency key."""

    expected_seq = forms.IntegerField(min_value=1)
    key = forms.CharField(max_length=100)


class ActionForm(_Posted):
    """One action of the engine, posted from the table screen.

    Fields: `type`, `actor`, then one per parameter of the type's `ActionSpec`. Lists of ranks
    are posted as repeated fields (`ponte=7&ponte=8`); chemin de fer claims as `claim` values
    `"<actor>:banco"` or `"<actor>:banco_with_table"` with the amount in `claim_amount_<actor>`.
    """

    type = forms.CharField(max_length=40)
    actor = forms.CharField(max_length=64)

    def __init__(self, data: Any, *, specs: Mapping[str, ActionSpec]) -> None:
        data = _chosen(data)
        super().__init__(data)
        self.specs = specs
        self.spec: ActionSpec | None = specs.get(str(data.get("type", "")))
        if self.spec is None:
            return
        for name, kind, required in spec_params(self.spec):
            self.fields[name] = _field(kind, required)

    def clean_type(self) -> str:
        value: str = self.cleaned_data["type"]
        if value not in self.specs:
            raise forms.ValidationError(_("This action does not exist at this table."))
        return value

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.spec is not None and "claims" in self.fields:
            cleaned["claims"] = self._claims()
        return cleaned

    def _claims(self) -> list[dict[str, Any]]:
        """`banco_call` claims in the order posted (CF-4.2); none is « Qui ponte ? »."""
        claims: list[dict[str, Any]] = []
        posted: QueryDict = self.data  # type: ignore[assignment]
        for raw in posted.getlist("claim"):
            if not str(raw).strip():
                continue  # a claim selector left empty
            who, _sep, kind = str(raw).partition(":")
            if kind not in ("banco", "banco_with_table") or not who:
                raise forms.ValidationError(_("A claim is a player and banco or avec la table."))
            claim: dict[str, Any] = {"player": actor_parse(who), "kind": kind}
            if kind == "banco_with_table":
                amount = str(self.data.get(f"claim_amount_{who}", "")).strip()
                if not amount.isdigit() or not 0 < int(amount) <= MAX_AMOUNT_CHIPS:
                    raise forms.ValidationError(
                        _("Avec la table needs the amount %(who)s stakes.") % {"who": who}
                    )
                claim["amount"] = int(amount)
            claims.append(claim)
        return claims

    def action(self) -> dict[str, Any]:
        """The engine's action dict (call after `is_valid()`)."""
        assert self.spec is not None
        data = self.cleaned_data
        action: dict[str, Any] = {"type": data["type"], "actor": actor_parse(data["actor"])}
        for name, kind, _required in spec_params(self.spec):
            value = data.get(name)
            if kind != Kind.CLAIMS and (value is None or value == "" or value == []):
                continue  # not given; an empty claim list is « Qui ponte ? »
            if kind == Kind.SEAT_OR_PLAYER:
                value = actor_parse(str(value))
            action[name] = value
        return action


def _chosen(data: Any) -> Any:
    """A tapped chip (`amount__chip`) or a typed value (`amount__typed`) gives the parameter.

    Quick chips are submit buttons and the typed field sits beside them, so they cannot share
    a name; whichever the croupier used wins (a chip, being the button pressed, first).
    """
    names = {str(key) for key in data if "__" in str(key)}
    if not names:
        return data
    data = data.copy()
    for key in sorted(names):
        base, _sep, how = key.partition("__")
        value = str(data.get(key, "")).strip()
        if (
            how == "typed"
            and value
            and not str(data.get(f"{base}__chip", "")).strip()
            or how == "chip"
            and value
        ):
            data[base] = value
    return data


class _RanksField(forms.MultipleChoiceField):
    """Ranks in the order dealt, repeats allowed (`deal`: the ponte's two, the banker's two)."""

    def __init__(self, *, required: bool) -> None:
        super().__init__(choices=RANK_CHOICES, required=required)


class _BoolField(forms.TypedChoiceField):
    def __init__(self, *, required: bool) -> None:
        super().__init__(
            choices=[("yes", _("Yes")), ("no", _("No"))],
            coerce=lambda value: value == "yes",
            required=required,
            empty_value=None,
        )


def _field(kind: Kind, required: bool) -> forms.Field:
    if kind in (Kind.SEAT, Kind.INT):
        return forms.IntegerField(required=required, min_value=0 if kind == Kind.INT else 1)
    if kind == Kind.AMOUNT:
        return forms.IntegerField(required=required, min_value=0, max_value=MAX_AMOUNT_CHIPS)
    if kind == Kind.RANK:
        return forms.ChoiceField(choices=RANK_CHOICES, required=required)
    if kind == Kind.RANKS:
        return _RanksField(required=required)
    if kind == Kind.BOOL:
        return _BoolField(required=required)
    if kind == Kind.CLAIMS:
        return forms.CharField(required=False)
    return forms.CharField(max_length=64, required=required, strip=True)


class CorrectionForm(_Posted):
    """An undo: the sequence and key only; a reason is optional."""

    reason = forms.CharField(max_length=500, required=False)


class PauseForm(_Posted):
    reason = forms.CharField(max_length=500, required=False)


class VoidRequestForm(forms.Form):
    """A void of the last coup the screen shows: the screen's sequence number says which."""

    reason = forms.CharField(max_length=500, min_length=3)
    expected_seq = forms.IntegerField(min_value=1)


class VoidDecisionForm(forms.Form):
    approve = forms.TypedChoiceField(
        choices=[("yes", _("Approve")), ("no", _("Refuse"))], coerce=lambda v: v == "yes"
    )
    note = forms.CharField(max_length=500, required=False)
    # The inspector's own password: the second person proves who he is (docs/security.md).
    password = forms.CharField(max_length=128, required=False, strip=False)


class TableOpenForm(forms.Form):
    table = forms.UUIDField()


class DutyForm(forms.Form):
    """Who goes on duty at a table, in which role (a relief when someone holds it), or, with
    no one named, the end of that duty (`release`)."""

    role = forms.ChoiceField(choices=AssignmentRole.choices)
    staff = forms.CharField(max_length=150, required=False)
    release = forms.BooleanField(required=False)


class LanguageForm(forms.ModelForm[StaffPreference]):
    """The language a member of staff works in (per user, kept across devices)."""

    language = forms.ChoiceField(choices=settings.LANGUAGES)

    class Meta:
        model = StaffPreference
        fields = ["language"]


def stock_number_of(value: Any) -> int | None:
    """The numbered sabot a new shoe is formed from, as the screen posts it (model 19): a
    number, or None when none was chosen (the service says which ones there are)."""
    text = str(value or "").strip()
    return int(text) if text.isdigit() and len(text) <= 9 else None
