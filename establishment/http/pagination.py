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
from django_filters import rest_framework as filters
from django_filters.fields import IsoDateTimeField
from django_filters.rest_framework import DjangoFilterBackend, FilterSet
from drf_spectacular.drainage import set_override
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.views import APIView

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.serializers import ModelSerializer


class Pagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500


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
    it (for the schema's types: `list_api`) and the view's selector reads the rows."""


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
