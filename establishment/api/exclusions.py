"""The exclusion list (arrêté du 14 mai 2007, art. 22) through the API: list and search, add,
lift (recorded, never deleted), import a CSV file (docs/exclusions.md) and follow its progress.

The door (reception, inspectors, managers) keeps the list; the auditors read it too.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from establishment.door import exclusion_add, exclusion_lift
from establishment.exclusions import IMPORT_COLUMNS, exclusion_import
from establishment.http.fields import UsernameField, client_of
from establishment.http.permissions import as_user
from establishment.http.schema import post_schema
from establishment.http.serializers import SearchQuery, allowed_body, validated
from establishment.models import ExclusionEntry, ExclusionImport, ExclusionSource
from establishment.roles import DOOR_KEEPERS, IDENTITY_READERS
from establishment.selectors import exclusion_search
from establishment.staff import role_required

# A file of the list larger than this is refused (100,000 lines are about 7 MB).
IMPORT_MAX_BYTES = 50 * 1024 * 1024


class ExclusionOutputSerializer(serializers.ModelSerializer[ExclusionEntry]):
    added_by = UsernameField(source="added_by.username")
    lifted_by = UsernameField(source="lifted_by.username", allow_null=True)
    is_lifted = serializers.BooleanField(read_only=True)

    class Meta:
        model = ExclusionEntry
        # The columns of the list's file (docs/exclusions.md), then who added and lifted it.
        fields = [
            "public_id",
            *IMPORT_COLUMNS,
            "added_by",
            "added_at",
            "is_lifted",
            "lifted_at",
            "lifted_by",
            "lift_reason",
        ]


class ImportErrorSerializer(serializers.Serializer[Any]):
    line = serializers.IntegerField(help_text="The file's line; the header is line 1.")
    column = serializers.CharField(help_text="The column, or blank for the whole line.")
    message = serializers.CharField(help_text="What is wrong.")
    expected = serializers.CharField(help_text="What is expected there.")


class ExclusionImportOutputSerializer(serializers.ModelSerializer[ExclusionImport]):
    created_by = UsernameField(source="created_by.username")
    status = serializers.CharField(
        read_only=True, help_text="pending, running, done, or refused (the file has errors)."
    )
    # `errors` is the serializer's own attribute: the field is `line_errors`.
    line_errors = ImportErrorSerializer(
        source="errors", many=True, read_only=True, help_text="Empty unless refused."
    )
    percent = serializers.IntegerField(read_only=True)
    is_finished = serializers.BooleanField(read_only=True)

    class Meta:
        model = ExclusionImport
        fields = [
            "public_id",
            "file_name",
            "created_by",
            "created_at",
            "status",
            "lines_total",
            "lines_done",
            "percent",
            "is_finished",
            "line_errors",
            "finished_at",
        ]


def _list_check(request: Request) -> None:
    role_required(request.user, IDENTITY_READERS, "read the exclusion list")


class ExclusionListApi(APIView):
    """Entries of the exclusion list, lifted ones included: by name (typo-tolerant on
    PostgreSQL) or reference with `q`, else the latest added."""

    search = SearchQuery("A name or the list's reference.", most=200, default=50)

    @search.schema(responses={200: ExclusionOutputSerializer(many=True)}, tags=["reception"])
    def get(self, request: Request) -> Response:
        _list_check(request)
        query, limit = self.search.read(request)
        found = exclusion_search(query=query, limit=limit)
        return Response(ExclusionOutputSerializer(found, many=True).data)


@post_schema(responses={201: ExclusionOutputSerializer}, tags=["reception"])
class ExclusionAddApi(APIView):
    """Put a person on the exclusion list (the door): in force from `effective_from` (today
    when not given) until `until` (for good when not given)."""

    class InputSerializer(serializers.Serializer[Any]):
        surname = serializers.CharField(max_length=100)
        first_names = serializers.CharField(max_length=150)
        birth_date = serializers.DateField()
        birth_place = serializers.CharField(max_length=150, required=False, default="")
        # A declared field, not Field.source (the metaclass takes it off the class).
        source = serializers.ChoiceField(choices=ExclusionSource.choices)  # type: ignore[assignment]
        reference = serializers.CharField(max_length=64, required=False, default="")
        effective_from = serializers.DateField(required=False, allow_null=True, default=None)
        until = serializers.DateField(required=False, allow_null=True, default=None)

    def post(self, request: Request) -> Response:
        given = allowed_body(self.InputSerializer, request, DOOR_KEEPERS, "keep the exclusion list")
        entry = exclusion_add(**given, added_by=as_user(request.user), client=client_of(request))
        return Response(ExclusionOutputSerializer(entry).data, status=status.HTTP_201_CREATED)


@post_schema(responses={200: ExclusionOutputSerializer}, tags=["reception"])
class ExclusionLiftApi(APIView):
    """Lift an entry, with the reason: it stays in the list's history, lifted (once)."""

    class InputSerializer(serializers.Serializer[Any]):
        reason = serializers.CharField(max_length=500)

    def post(self, request: Request, exclusion_id: UUID) -> Response:
        role_required(request.user, DOOR_KEEPERS, "keep the exclusion list")
        entry = get_object_or_404(ExclusionEntry, public_id=exclusion_id)
        lifted = exclusion_lift(
            entry=entry,
            **validated(self.InputSerializer, request),
            lifted_by=as_user(request.user),
            client=client_of(request),
        )
        return Response(ExclusionOutputSerializer(lifted).data)


class ExclusionImportCreateApi(APIView):
    """Upload a CSV file of the exclusion list (multipart, field `file`; docs/exclusions.md).
    Answers 202 with the import, which the worker then runs: follow it at
    `/api/exclusions/imports/<id>/`. A file with any wrong line imports nothing and lists its
    errors there."""

    parser_classes = [MultiPartParser]

    class InputSerializer(serializers.Serializer[Any]):
        # An empty file is the import's to refuse, with its errors (no header), as any file.
        file = serializers.FileField(allow_empty_file=True, help_text="The CSV file, UTF-8.")

    @extend_schema(
        request={"multipart/form-data": InputSerializer},
        responses={202: ExclusionImportOutputSerializer},
        tags=["reception"],
    )
    def post(self, request: Request) -> Response:
        given = allowed_body(self.InputSerializer, request, DOOR_KEEPERS, "keep the exclusion list")
        upload = given["file"]
        if upload.size > IMPORT_MAX_BYTES:
            raise serializers.ValidationError(
                {"file": [f"The file is larger than {IMPORT_MAX_BYTES // 2**20} MB."]}
            )
        job = exclusion_import(
            file_name=upload.name or "",
            content=upload.read(),
            imported_by=as_user(request.user),
            client=client_of(request),
        )
        job.refresh_from_db()  # an eager run (no broker) has finished already
        return Response(ExclusionImportOutputSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class ExclusionImportDetailApi(APIView):
    """One import of the list: its status, lines done of the total, its errors."""

    @extend_schema(responses=ExclusionImportOutputSerializer, tags=["reception"])
    def get(self, request: Request, import_id: UUID) -> Response:
        _list_check(request)
        job = get_object_or_404(
            ExclusionImport.objects.select_related("created_by").defer("content"),
            public_id=import_id,
        )
        return Response(ExclusionImportOutputSerializer(job).data)
