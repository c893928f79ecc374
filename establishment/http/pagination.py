"""Lists that grow: django-filter filtering and page-number pagination, both in the schema.

`ListApi` is an `APIView` that carries `filterset_class`, `pagination_class`, `serializer_class`
and a `queryset` (for the schema only), so drf-spectacular documents the query parameters and the
paginated response of each list exactly as for a generic view, while the view itself still calls
its selector and nothing else. A list view states them once, on its class (`list_api`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Model, QuerySet
from django.utils.translation import gettext as _
from django_filters import rest_framework as filters
from django_filters.fields import IsoDateTimeField
from django_filters.rest_framework import DjangoFilterBackend, FilterSet
from drf_spectacular.drainage import set_override
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.views import APIView

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.serializers import ModelSerializer


class _PageQuerySerializer(serializers.Serializer[Any]):
    page = serializers.IntegerField(min_value=1, required=False)

    def __init__(self, *args: Any, most: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["page_size"] = serializers.IntegerField(
            min_value=1, max_value=most, required=False
        )


class Pagination(PageNumberPagination):
    """Pages of `page_size` rows (1 to `max_page_size`; 50 when not given), numbered from 1.

    `page` and `page_size` are read strictly: a value that is not a whole number in range is
    refused with 400 `invalid` naming the parameter (DRF's own pagination would silently fall
    back to the default size, docs/conventions.md rule 8); a page past the last is 404.
    """

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500
    last_page_strings = ()

    def get_page_size(self, request: Request) -> int:
        size: int = self._query(request).get("page_size", self.page_size)
        return size

    def get_page_number(self, request: Request, paginator: Any) -> int:
        number: int = self._query(request).get("page", 1)
        return number

    def _query(self, request: Request) -> dict[str, int]:
        given = _PageQuerySerializer(
            data={
                name: request.query_params[name]
                for name in ("page", "page_size")
                if name in request.query_params
            },
            most=self.max_page_size,
        )
        given.is_valid(raise_exception=True)
        return dict(given.validated_data)

    def paginate_queryset(self, queryset: Any, request: Request, view: Any = None) -> Any:
        try:
            return super().paginate_queryset(queryset, request, view)
        except NotFound:
            raise NotFound(
                _("There is no page %(page)s of this list: send a page from 1 to the last.")
                % {"page": self._query(request).get("page", 1)}
            ) from None

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        bounds = {"page": (1, None), "page_size": (1, self.max_page_size)}
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            low, high = bounds[parameter["name"]]
            parameter["schema"]["minimum"] = low
            if high is not None:
                parameter["schema"]["maximum"] = high
        return parameters


class ListApi(APIView):
    """Base of the list endpoints: filter with `filterset_class`, then one page rendered with
    `serializer_class` (both set by `list_api`)."""

    filter_backends: ClassVar[list[type[DjangoFilterBackend]]] = [DjangoFilterBackend]
    filterset_class: ClassVar[type[FilterSet] | None] = None
    pagination_class: ClassVar[type[Pagination]] = Pagination
    serializer_class: ClassVar[type[ModelSerializer[Any]]]
    # For drf-spectacular's filter introspection only; views read through selectors.
    queryset: ClassVar[QuerySet[Any] | None] = None

    def page(self, request: Request, items: QuerySet[Any]) -> Response:
        for backend in self.filter_backends:
            items = backend().filter_queryset(request, items, self)
        paginator = self.pagination_class()
        rows: list[Model] = list(paginator.paginate_queryset(items, request, view=self) or [])
        data = self.serializer_class(rows, many=True).data
        return paginator.get_paginated_response(data)


_List = TypeVar("_List", bound=type[ListApi])


def list_api(
    rows: type[ModelSerializer[Any]] | None = None,
    *,
    filterset: type[FilterSet] | None = None,
    tags: list[str],
) -> Callable[[_List], _List]:
    """What a list view declares, on its class: the serializer of its rows (`rows`, else the
    view's own `OutputSerializer`), the filter of its query string (`filterset`, if any) and the
    schema's `tags`.

    The view's `get` reads its items and returns `self.page(request, items)`; the schema
    documents the filter's parameters, typed by the rows' model (the view's `queryset`), and a
    page of rows. Declared on the class, as `post_schema` (establishment/http/schema.py), so
    that views sharing one `get` through a base class each get their own.
    """

    def declare(view: _List) -> _List:
        view.serializer_class = rows or view.OutputSerializer  # type: ignore[attr-defined]
        view.filterset_class = filterset
        model: type[Model] = view.serializer_class.Meta.model
        view.queryset = model._default_manager.none()
        schema = extend_schema(responses=view.serializer_class(many=True), tags=tags)
        described: _List = extend_schema_view(get=schema)(view)
        return described

    return declare


class ListFilter(FilterSet):
    """Base of the list filters: every filter is declared with the field it reads and none is
    derived from a model, so a filter names no model. The model of its list view's rows names
    it (for the schema's types: `list_api`) and the view's selector reads the rows.

    A parameter that is sent is read strictly, as its schema types it: an empty value where a
    text is not expected (`?table=`, a UUID) and a yes-or-no that is not `true` or `false` are
    refused (400 `invalid`), where django-filter would silently not filter at all.
    """

    def is_valid(self) -> bool:
        valid = bool(super().is_valid())
        data = self.data or {}
        for name, declared in self.filters.items():
            if name not in data:
                continue
            value = str(data.get(name, ""))
            if not value.strip() and not isinstance(declared, filters.CharFilter):
                self.form.add_error(name, _("Give a value, or leave the parameter out."))
                valid = False
            elif isinstance(declared, filters.BooleanFilter) and value not in ("true", "false"):
                self.form.add_error(name, _("Send true or false."))
                valid = False
        return valid


class IntegerFilter(filters.Filter):
    """A whole-number filter (django-filter's NumberFilter takes decimals)."""

    field_class = forms.IntegerField


def integer_filter(minimum: int, maximum: int, **kwargs: Any) -> IntegerFilter:
    """An integer query parameter in `minimum..maximum`, documented with its bounds."""
    made = IntegerFilter(min_value=minimum, max_value=maximum, **kwargs)
    set_override(made, "field", {"type": "integer", "minimum": minimum, "maximum": maximum})
    return made


class _UtcDateTimeField(IsoDateTimeField):
    """An ISO 8601 date-time, turned to UTC: PostgreSQL refuses offsets past ±15:59, which
    ISO 8601 (and Python) allow up to ±23:59; a moment before year 1 in UTC is refused."""

    def to_python(self, value: Any) -> datetime | None:
        moment: datetime | None = super().to_python(value)
        if moment is None:
            return None
        try:
            return moment.astimezone(UTC)
        except OverflowError:
            raise ValidationError(self.error_messages["invalid"], code="invalid") from None


class DateTimeFilter(filters.IsoDateTimeFilter):
    """A date-time query parameter (ISO 8601, any offset), compared in UTC."""

    field_class = _UtcDateTimeField
