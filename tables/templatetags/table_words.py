"""The table's words in templates: what the engine names by code, as the croupier says it.

    {% load table_words %}
    {{ coup.faults|faults }}   {{ hand.kind|hand_kind }}   {{ view.bank_rule|bank_rule }}
    {{ screen.bank|chips }}    (an amount: "12 500", thousands apart, in both languages)

The words live in the engine's catalogue (`locale/*/LC_MESSAGES/engine.po`, keys described in
`tables/engine/words.py`; game terms stay French in both languages); the filters are the
functions of `tables.console.vocabulary`, its lookups.
"""

from __future__ import annotations

from django import template

from tables.console.vocabulary import (
    bank_rule_label,
    chips_text,
    faults_label,
    hand_kind_label,
    holding_label,
)
from tables.words import levy_text

register = template.Library()
register.filter("faults", faults_label)
register.filter("hand_kind", hand_kind_label)
register.filter("bank_rule", bank_rule_label)
register.filter("holding", holding_label)
register.filter("chips", chips_text)
register.filter("levy", levy_text)
