"""The one row a URL names, or the API's 404 (`not_found`)."""

from __future__ import annotations

from typing import Any, TypeVar

from django.db.models import Model, QuerySet

from establishment.errors import NotFoundError

_Found = TypeVar("_Found", bound=Model)


def found_or_404(items: QuerySet[_Found], missing: str, **lookup: Any) -> _Found:
    """The first of `items` matching `lookup`; `missing` says what was not found (or may not
    be seen: the caller's rows alone are in `items`)."""
    found = items.filter(**lookup).first()
    if found is None:
        raise NotFoundError(missing)
    return found
