"""The statistical audit through the API (docs/odds.md, "The audit"): the same rows as its
screen, as JSON. Managers and auditors read it, as the screen; wrong parameters are a 400 in the
API's error shape, naming each field and what it expects."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from establishment.errors import InvalidInputError
from establishment.http.permissions import READ_REPORTS
from establishment.http.schema import MAY_REFUSE
from establishment.http.serializers import blank_refused
from establishment.staff import role_required
from reports.odds.audit import GROUPINGS
from reports.odds.files import audit_records, audit_summary
from reports.odds.query import AuditForm
from reports.odds.selectors import odds_audit_get
from tables.models import Game

TAGS = ["odds"]


class AuditRowSerializer(serializers.Serializer[Any]):
    group_kind = serializers.CharField(help_text="As `group`: table, banker, croupier, night.")
    group_key = serializers.CharField(
        help_text="The table's or night's id, a member number, a username."
    )
    group_label = serializers.CharField()
    game = serializers.ChoiceField(choices=Game.choices)
    coups = serializers.IntegerField(help_text="The group's coups at this game.")
    measure = serializers.CharField(help_text="A measure of docs/odds.md (`banker_wins`, …).")
    n = serializers.IntegerField(help_text="Its observations (the doublet: first coups of a pack).")
    observed = serializers.FloatField()
    expected = serializers.FloatField()
    sd = serializers.FloatField(help_text="The per-coup standard deviation.")
    sd_source = serializers.ChoiceField(
        choices=["exact", "observed"],
        help_text="`exact` for an event's frequency, else the observed one.",
    )
    expected_se = serializers.FloatField(
        allow_null=True, help_text="The stored simulation's standard error, if it is one."
    )
    se = serializers.FloatField(help_text="The standard error of observed − expected.")
    z = serializers.FloatField(allow_null=True, help_text="Null when there is no spread at all.")
    flagged = serializers.BooleanField(help_text="|z| > 3 (or no spread and a difference).")
    too_few = serializers.BooleanField(help_text="Fewer observations than `min_coups`: no test.")
    method = serializers.CharField(help_text="How the expected value was obtained.")


class SkippedSerializer(serializers.Serializer[Any]):
    group_kind = serializers.CharField(help_text="As `group`.")
    group_key = serializers.CharField()
    group_label = serializers.CharField()
    game = serializers.ChoiceField(choices=Game.choices)
    coups = serializers.IntegerField()


class AuditSerializer(serializers.Serializer[Any]):
    group = serializers.ChoiceField(choices=GROUPINGS)
    game = serializers.ChoiceField(choices=Game.choices, allow_null=True)
    min_coups = serializers.IntegerField(help_text="A group with fewer coups is skipped.")
    flag_z = serializers.FloatField()
    tests = serializers.IntegerField(help_text="The cells that are tests.")
    flags = serializers.IntegerField()
    false_flag_rate = serializers.FloatField(help_text="P(|z| > 3) by chance alone, per test.")
    expected_false_flags = serializers.FloatField(help_text="tests × false_flag_rate.")
    chance_of_a_false_flag = serializers.FloatField(
        help_text="The probability that chance alone flags at least one test."
    )
    coups_without_expectation = serializers.IntegerField()
    skipped = SkippedSerializer(many=True, help_text="Groups with fewer than `min_coups` coups.")
    rows = AuditRowSerializer(many=True)

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        # `from` is a Python keyword: the period's two dates are added by name.
        fields["from"] = serializers.DateField(allow_null=True, help_text="The first journée.")
        fields["to"] = serializers.DateField(allow_null=True, help_text="The last journée.")
        return fields


_PARAMETERS = [
    OpenApiParameter("group", str, enum=list(GROUPINGS), description="Group by (table)."),
    OpenApiParameter("from", {"type": "string", "format": "date"}, description="First journée."),
    OpenApiParameter("to", {"type": "string", "format": "date"}, description="Last journée."),
    OpenApiParameter("game", str, enum=list(Game.values), description="One game only."),
]


class OddsAuditApi(APIView):
    """The recorded coups' measures against their expected values, per table, banker, croupier
    or night, over a period of journées: each measure's n, observed, expected, sd and z, the
    flags (|z| > 3), and how many flags chance alone would give."""

    @extend_schema(
        parameters=_PARAMETERS,
        responses=AuditSerializer,
        tags=TAGS,
        extensions={MAY_REFUSE: True},
    )
    def get(self, request: Request) -> Response:
        role_required(request.user, READ_REPORTS, "read the odds audit")
        blank_refused(request)
        form = AuditForm(request.query_params)
        if not form.is_valid():
            fields = {name: [str(e) for e in errors] for name, errors in form.errors.items()}
            if set(fields) == {NON_FIELD_ERRORS}:
                # Each date well formed, the period inverted: a rule the schema cannot state
                # (422, as the API answers a valid request it refuses).
                raise InvalidInputError(
                    fields[NON_FIELD_ERRORS][0], fields={"to": fields[NON_FIELD_ERRORS]}
                )
            raise serializers.ValidationError(fields)
        query = form.query()
        audit = odds_audit_get(
            grouping=query.grouping,
            date_from=query.date_from,
            date_to=query.date_to,
            game=query.game,
        )
        body = {**audit_summary(audit), "rows": audit_records(audit)}
        return Response(AuditSerializer(body).data)
