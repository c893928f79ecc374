"""The table's words in templates: what the engine names by code, as the croupier says it.

    {% load table_words %}
    {{ coup.faults|faults }}   {{ hand.kind|hand_kind }}   {{ view.bank_rule|bank_rule }}
    {{ screen.bank|chips }}    (an amount: "12 500", thousands apart, in both languages)

The labels live in `tables.console.vocabulary` (game terms stay French in both languages).
"""

from __future__ import annotations

from collections.abc import Iterable

from django import template

from tables.console.vocabulary import (
    bank_rule_label,
    chips_text,
    fault_label,
    hand_kind_label,
    holding_label,
)

register = template.Library()


@register.filter
def faults(codes: Iterable[str] | None) -> str:
    return ", ".join(fault_label(code) for code in codes or ())


@register.filter
def hand_kind(kind: str | None) -> str:
    return hand_kind_label(kind) if kind else ""


@register.filter
def bank_rule(rule: object) -> str:
    return bank_rule_label(rule)


@register.filter
def holding(value: str | None) -> str:
    return holding_label(value) if value else ""


@register.filter
def chips(amount: object) -> str:
    return chips_text(amount)
