"""The reception's forms: shape and types only (docs/conventions.md, rule 1).

Every field is optional here: what is missing or wrong beyond its type (a date that is not a
date) is for the services to say (`establishment.door.player_register`,
`exclusion_add`), in the same words as the API's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

from establishment.models import DocumentType, ExclusionSource

# A file of the exclusion list larger than this is refused before it is read (100,000 lines are
# about 7 MB).
IMPORT_MAX_BYTES = 50 * 1024 * 1024


class _DateInput(forms.DateInput):
    input_type = "date"


def _date(label: StrOrPromise) -> forms.DateField:
    return forms.DateField(
        label=label,
        required=False,
        widget=_DateInput(format="%Y-%m-%d"),
        input_formats=["%Y-%m-%d", "%d/%m/%Y"],
        error_messages={"invalid": _("Enter a date (YYYY-MM-DD).")},
    )


class _PersonForm(forms.Form):
    """Who a player or an entry of the exclusion list is: the fields both forms start with."""

    surname = forms.CharField(label=_("Surname"), required=False, max_length=200)
    first_names = forms.CharField(label=_("First names"), required=False, max_length=300)
    birth_date = _date(_("Date of birth"))
    birth_place = forms.CharField(label=_("Place of birth"), required=False, max_length=300)


class PlayerRegisterForm(_PersonForm):
    address = forms.CharField(
        label=_("Address"),
        required=False,
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    document_type = forms.ChoiceField(
        label=_("Identity document"),
        required=False,
        choices=[("", "—"), *DocumentType.choices],
    )
    document_number = forms.CharField(label=_("Document number"), required=False, max_length=128)
    document_expiry = _date(_("Document expiry date"))


class ExclusionAddForm(_PersonForm):
    source = forms.ChoiceField(
        label=_("Source"), required=False, choices=[("", "—"), *ExclusionSource.choices]
    )
    reference = forms.CharField(label=_("Reference"), required=False, max_length=128)
    effective_from = _date(_("Effective from"))
    until = _date(_("Until"))


class ExclusionLiftForm(forms.Form):
    reason = forms.CharField(label=_("Reason for lifting"), required=False, max_length=1000)


class ExclusionImportForm(forms.Form):
    file = forms.FileField(label=_("CSV file (UTF-8)"), required=True)

    def clean_file(self) -> object:
        upload = self.cleaned_data["file"]
        if upload.size > IMPORT_MAX_BYTES:
            raise forms.ValidationError(
                _("The file is larger than %(size)d MB.") % {"size": IMPORT_MAX_BYTES // 2**20}
            )
        return upload
