"""The API's one exception handler: every error is `{"code", "message", "extra"}`.

Refusals from the engine and the services (`DomainError`) go through
`establishment.http.errors.error_body`, the one mapping shared with the console: the rules' code
(`E_WRONG_STATE`, …) and 422 for an action the rules refuse, 409 for a stale sequence number (with
`extra.expected_seq`) or a conflict, 403/404 for what the user may not do or see. DRF's own errors
(validation, authentication, not found, method, media type, throttling) and Django's `Http404`,
`PermissionDenied` and model `ValidationError` are put in the same shape here, so a client reads one
format whatever went wrong. Anything else stays a 500, logged by Django.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import (
    NON_FIELD_ERRORS,
    PermissionDenied as DjangoPermissionDenied,
    ValidationError as DjangoValidationError,
)
from django.http import Http404, HttpResponsePermanentRedirect
from django.urls import Resolver404, resolve
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, status
from rest_framework.authentication import BaseAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView, exception_handler as drf_exception_handler

from establishment.errors import DomainError
from establishment.http.errors import ErrorBody, error_body

# Messages for DRF's own errors, in the same plain words as the services', in the reader's
# language.
_MESSAGES: dict[str, Promise] = {
    "invalid": _("The request is not valid; see extra.fields for what is wrong."),
    "does_not_exist": _("The request names something that does not exist; see extra.fields."),
    "parse_error": _("The request body is not valid JSON."),
    "not_authenticated": _("Log in, or send a token: `Authorization: Token <key>`."),
    "authentication_failed": _("This token or these credentials are not valid."),
    "permission_denied": _("You may not do this."),
    "not_found": _("Not found, or not visible to you."),
}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's `EXCEPTION_HANDLER`: the error body and status for anything the API refuses."""
    if isinstance(exc, DomainError):
        body = error_body(exc)
        return Response(body.as_dict(), status=body.status)
    if isinstance(exc, DjangoValidationError):
        body = _model_validation_body(exc)
        return Response(body.as_dict(), status=body.status)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response  # not an API error: a 500, logged by Django
    _answer_in_json(context.get("request"))
    request = context.get("request")
    if (
        isinstance(exc, exceptions.ValidationError)
        and getattr(request, "method", "GET") != "GET"
        and _leaf_codes(exc.get_codes()) == {"does_not_exist"}
    ):
        # Well formed, but naming someone or something that is not there (a username, …):
        # refused as a service refuses it, not as a malformed request.
        response.status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    response.data = _api_exception_body(exc, response.status_code).as_dict()
    return response


def _answer_in_json(request: Request | None) -> None:
    """An error is JSON even where the answer would have been a document of another type (the
    schema in YAML, the readers' HTML pages): a client reads one format whatever went wrong.
    The browsable API keeps its HTML page for a browser that asked for one."""
    renderer = getattr(request, "accepted_renderer", None)
    if request is not None and type(renderer) not in (JSONRenderer, BrowsableAPIRenderer):
        request.accepted_renderer = JSONRenderer()
        request.accepted_media_type = JSONRenderer.media_type


def _leaf_codes(codes: Any) -> set[str]:
    if isinstance(codes, dict):
        return set().union(*(_leaf_codes(value) for value in codes.values()))
    if isinstance(codes, list):
        return set().union(*(_leaf_codes(value) for value in codes))
    return {str(codes)}


def _api_exception_body(exc: exceptions.APIException, status_code: int) -> ErrorBody:
    code = str(exc.default_code)
    extra: dict[str, Any] = {}
    if isinstance(exc, exceptions.ValidationError):
        code = (
            "does_not_exist" if status_code == status.HTTP_422_UNPROCESSABLE_ENTITY else "invalid"
        )
        extra["fields"] = _plain(exc.detail)
        message = str(_MESSAGES[code])
    elif code in _MESSAGES and _is_default_detail(exc):
        message = str(_MESSAGES[code])
    else:
        message = _text(exc.detail)
    return ErrorBody(status_code, code, message, extra)


def _model_validation_body(exc: DjangoValidationError) -> ErrorBody:
    """A model's `full_clean` refused what a service was asked to write: 422.

    The code is the first error's own (the rules' `E_SETTING` for table settings, Django's
    `unique` for a number already in service, …); every message is in `extra.fields`.
    """
    errors = exc.error_dict if hasattr(exc, "error_dict") else {NON_FIELD_ERRORS: exc.error_list}
    fields: dict[str, list[str]] = {}
    codes: list[str] = []
    for name, items in errors.items():
        for item in items:
            message = item.message % item.params if item.params else item.message
            fields.setdefault(name, []).append(str(message))
            if item.code:
                codes.append(str(item.code))
    first = next(iter(fields.values()))[0] if fields else "The request was refused."
    code = codes[0] if codes else "invalid"
    return ErrorBody(status.HTTP_422_UNPROCESSABLE_ENTITY, code, first, {"fields": fields})


def _is_default_detail(exc: exceptions.APIException) -> bool:
    return str(exc.detail) == str(exc.default_detail)


def _text(detail: Any) -> str:
    if isinstance(detail, list) and detail:
        return _text(detail[0])
    if isinstance(detail, dict) and detail:
        return _text(next(iter(detail.values())))
    return str(detail)


def _plain(detail: Any) -> Any:
    """DRF's ErrorDetail tree as plain JSON (lists and dicts of strings)."""
    if isinstance(detail, dict):
        return {str(key): _plain(value) for key, value in detail.items()}
    if isinstance(detail, list):
        return [_plain(item) for item in detail]
    return str(detail)


@extend_schema(exclude=True)
class EndpointNotFoundApi(APIView):
    """Any path under the API that names no endpoint: a 404 in the API's shape, not Django's
    HTML page, so a client reads one format whatever it asked for.

    A path that names an endpoint but for its final slash is redirected there (GET, HEAD), as
    Django's `APPEND_SLASH` did before this catch-all; other methods are told the right path.
    """

    authentication_classes: list[type[BaseAuthentication]] = []
    permission_classes = [AllowAny]

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        # Every method, whatever its name, lands here (not DRF's 405 for an unknown method).
        self.http_method_names = [request.method.lower()]
        setattr(self, request.method.lower(), self.answer)
        return super().dispatch(request, *args, **kwargs)

    def answer(self, request: Request, *args: Any, **kwargs: Any) -> Any:
        path = request.path
        if not path.endswith("/") and _is_endpoint(f"{path}/"):
            if request.method in ("GET", "HEAD"):
                query = request.META.get("QUERY_STRING", "")
                return HttpResponsePermanentRedirect(f"{path}/?{query}" if query else f"{path}/")
            message = _(
                "No endpoint at %(path)s; did you mean %(path)s/ (with the final slash)?"
            ) % {"path": path}
        else:
            message = _(
                "No endpoint at %(path)s. The endpoints are listed in the schema, /api/schema/."
            ) % {"path": path}
        raise exceptions.NotFound(message)


def _is_endpoint(path: str) -> bool:
    try:
        match = resolve(path)
    except Resolver404:
        return False
    return getattr(match.func, "view_class", None) is not EndpointNotFoundApi
