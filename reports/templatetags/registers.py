"""What the registers' screens write of a register's content: moments in local time, amounts
in the currency, codes in words (reports/labels.py)."""

from __future__ import annotations

from typing import Any

from django import template

from reports.labels import label
from reports.registers.files import money_text
from reports.renderers import local_time

register = template.Library()


@register.filter
def moment(value: str | None) -> str:
    """An ISO moment of a register as the house's clock read it: 01/12 23:24:05."""
    return local_time(value, "%d/%m %H:%M:%S") if value else ""


@register.filter
def money(cents: Any, currency: str = "EUR") -> str:
    return money_text(cents if isinstance(cents, int) else None, currency or "EUR")


@register.filter
def words(code: Any) -> str:
    return label(code)
