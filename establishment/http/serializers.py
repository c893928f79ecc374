"""What the APIs of every floor share to read a request (its body, a search's query string) and
to render the establishment's records."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from django.http import QueryDict
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers

from establishment.http.fields import UsernameField, client_of
from establishment.http.permissions import as_user
from establishment.models import GamingSession
from establishment.staff import role_required

_Answer = TypeVar("_Answer")

if TYPE_CHECKING:
    from rest_framework.request import Request

    from establishment.roles import Role


def blank_refused(request: Request, *, texts: frozenset[str] = frozenset()) -> None:
    """A query parameter sent empty where its schema wants a value (a number, a date, one of
    some choices: any parameter not in `texts`) is refused (400 `invalid`, naming it), where
    DRF and Django's forms would read it as left out."""
    blank = {
        name: [_("Give a value, or leave the parameter out.")]
        for name, value in request.query_params.items()
        if name not in texts and not str(value).strip()
    }
    if blank:
        raise serializers.ValidationError(blank)


def query_validated(
    serializer_class: type[serializers.Serializer[Any]], request: Request
) -> dict[str, Any]:
    """The query string as `serializer_class` reads it, strictly: an empty value is a value
    only for a text (`blank_refused`); refused with a 400 naming what is wrong."""
    fields = serializer_class().fields
    texts = frozenset(
        name for name, field in fields.items() if isinstance(field, serializers.CharField)
    )
    blank_refused(request, texts=texts)
    given = serializer_class(data=request.query_params)
    given.is_valid(raise_exception=True)
    data: dict[str, Any] = given.validated_data
    return data


def validated(
    serializer_class: type[serializers.Serializer[Any]], request: Request
) -> dict[str, Any]:
    """The request's body as `serializer_class` reads it; refused with a 400 naming the fields
    that are wrong (establishment/http/api_errors.py)."""
    given = serializer_class(data=request.data)
    if isinstance(request.data, dict) and not isinstance(request.data, QueryDict):
        # A JSON body: each value of the type its schema says (a form's values are all text).
        wrong = _wrong_types(given, request.data)
        if wrong:
            raise serializers.ValidationError(wrong)
    given.is_valid(raise_exception=True)
    data: dict[str, Any] = given.validated_data
    return data


def _expected(field: serializers.Field[Any, Any, Any, Any]) -> tuple[tuple[type, ...], str] | None:
    """The JSON types a field's schema allows and their name for a refusal; None for any."""
    if isinstance(field, serializers.BooleanField):
        return (bool,), _("true or false")
    if isinstance(field, serializers.IntegerField):
        return (int,), _("a whole number")
    if isinstance(field, serializers.FloatField | serializers.DecimalField):
        return (int, float), _("a number")
    if isinstance(field, serializers.ChoiceField) and not isinstance(
        field, serializers.MultipleChoiceField
    ):
        if all(isinstance(choice, str) for choice in field.choices):
            return (str,), _("a text")
        return None
    if isinstance(
        field,
        serializers.CharField
        | serializers.UUIDField
        | serializers.DateField
        | serializers.DateTimeField
        | serializers.TimeField,
    ):
        return (str,), _("a text")
    if isinstance(field, serializers.ListField | serializers.ListSerializer):
        return (list,), _("a list")
    if isinstance(field, serializers.DictField | serializers.Serializer):
        return (dict,), _("an object")
    return None


def _wrong_types(serializer: serializers.Serializer[Any], body: dict[str, Any]) -> dict[str, Any]:
    """The fields of a JSON body whose value has another type than the schema's.

    DRF turns `0` into `"0"` for a text, `"5"` into 5 for a number and `1` into a UUID; a client
    that sends the wrong type has made a mistake, and is told so (400 `invalid`) rather than
    having its value read as something else. Nested objects and lists are read the same way.
    """
    wrong: dict[str, Any] = {}
    for name, field in serializer.fields.items():
        if field.read_only or name not in body:
            continue
        found = _wrong_value(field, body[name])
        if found is not None:
            wrong[name] = found
    return wrong


def _wrong_value(field: serializers.Field[Any, Any, Any, Any], value: Any) -> Any:
    if value is None:
        return None  # DRF's own check: `allow_null`
    expected = _expected(field)
    if expected is not None:
        types, name = expected
        if isinstance(value, bool) and bool not in types or not isinstance(value, types):
            return [_("Expected %(type)s.") % {"type": name}]
    if isinstance(field, serializers.Serializer):
        return _wrong_types(field, value) or None
    child: serializers.Field[Any, Any, Any, Any] | None = getattr(field, "child", None)
    if child is None:
        return None
    pairs = enumerate(value) if isinstance(value, list) else value.items()
    items = {str(key): _wrong_value(child, item) for key, item in pairs}
    return {key: error for key, error in items.items() if error is not None} or None


def written(
    service: Callable[..., _Answer],
    request: Request,
    serializer_class: type[serializers.Serializer[Any]],
    /,
    **known: Any,
) -> _Answer:
    """Call the write service `service` as an endpoint's `post` does (docs/conventions.md,
    rule 1): with the request's body as `validated` reads it (each field one of the service's
    keywords), the caller as `user` and his client, beside what the URL named (`known`, already
    found and visible to him); the service's answer."""
    body = validated(serializer_class, request)
    return service(**known, **body, user=as_user(request.user), client=client_of(request))


def allowed_body(
    serializer_class: type[serializers.Serializer[Any]],
    request: Request,
    roles: frozenset[Role],
    what: str,
) -> dict[str, Any]:
    """The request's body as `validated` reads it, once the caller is known to hold one of
    `roles` (`establishment.staff.role_required`, `what` ending the refusal): who may not use an
    endpoint is told so (403), not what is wrong with his input
    (establishment/http/permissions.py)."""
    role_required(request.user, roles, what)
    return validated(serializer_class, request)


_Get = TypeVar("_Get", bound=Callable[..., Any])


class _SearchQuerySerializer(serializers.Serializer[Any]):
    q = serializers.CharField(max_length=100, allow_blank=True, required=False, default="")

    def __init__(self, *args: Any, most: int, default: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["limit"] = serializers.IntegerField(
            min_value=1, max_value=most, required=False, default=default
        )


@dataclass(frozen=True)
class SearchQuery:
    """The query string of a search: `q`, what was typed, and `limit`, at most how many
    answers (1 to `most`; `default` when not given)."""

    about: str  # what `q` is, for the schema
    most: int
    default: int

    def schema(self, *, responses: Any, tags: list[str]) -> Callable[[_Get], _Get]:
        """The search's schema (a decorator of the view's `get`): its two parameters, then
        `responses` and `tags`."""
        limit = f"At most this many (1 to {self.most}; {self.default})."
        parameters = [
            OpenApiParameter("q", {"type": "string", "maxLength": 100}, description=self.about),
            OpenApiParameter(
                "limit",
                {"type": "integer", "minimum": 1, "maximum": self.most},
                description=limit,
            ),
        ]
        return extend_schema(parameters=parameters, responses=responses, tags=tags)

    def read(self, request: Request) -> tuple[str, int]:
        """`q` and `limit` as the request gives them; refused with a 400 naming the one that is
        wrong (establishment/http/api_errors.py)."""
        given = _SearchQuerySerializer(
            data=request.query_params, most=self.most, default=self.default
        )
        given.is_valid(raise_exception=True)
        return given.validated_data["q"], given.validated_data["limit"]


# Who opened it, who closed it (null while open) and whether it is open: the fields a gaming
# session and a table session share, each listed in its serializer's `Meta.fields`. No docstring:
# drf-spectacular would take it for the description of the serializers that inherit it.
class OpenedClosedSerializer(serializers.Serializer[Any]):
    opened_by = UsernameField(source="opened_by.username")
    closed_by = UsernameField(source="closed_by.username", allow_null=True)
    is_open = serializers.BooleanField(read_only=True)


class GamingSessionOutputSerializer(
    OpenedClosedSerializer, serializers.ModelSerializer[GamingSession]
):
    class Meta:
        model = GamingSession
        fields = ["public_id", "opened_at", "opened_by", "closed_at", "closed_by", "is_open"]
