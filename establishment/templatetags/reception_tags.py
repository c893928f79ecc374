"""Small template filters of the reception's screens."""

from __future__ import annotations

from collections.abc import Mapping

from django import template

register = template.Library()


@register.filter
def field_errors(errors: Mapping[str, list[str]] | None, name: str) -> list[str]:
    """The messages about field `name` (the view's errors, by field name)."""
    return list((errors or {}).get(name, []))
