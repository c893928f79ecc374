"""The table's words: how the console names the engine's actions, phases and outcomes.

Every word about the engine's codes lives in the engine's catalogue (`locale/*/LC_MESSAGES/
engine.po`, keys described in `tables/engine/words.py`); the functions here are thin lookups
into it, so that adding a game means adding its words to the catalogue only. Game terms stay
French in both languages, as at the table (docs/rules/README.md §12, the glossary); only the
surrounding interface is translated. A label may depend on the game (`stake` is « Avec la
table » at chemin de fer, « Lancer / Relancer » at lansquenet): the game's own key comes first,
then the key every game shares.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from tables.words import (
    chips_text as chips_text,  # the console's amounts (re-exported)
    say,
    say_label,
    table_word as _word,
)

# Actions that belong to the session rather than the coup: drawn apart, below the coup's.
SESSION_TYPES = frozenset({"sit", "leave", "add_standing", "end_session", "set_first_banker"})

# Keyboard shortcuts for parameterless decisions (the rank keys are the ranks themselves:
# A, 2-9, 0 for 10, J, Q, K). Only one action of the screen may hold a key.
ACTION_KEYS: Mapping[str, str] = {
    "close_bets": "r",
    "close_completion": "r",
    "ponte_stand": "n",
    "ponte_draw": "c",
    "banker_stand": "s",
    "stick": "s",
    "pass": "p",
    "start_coup": "l",
    "offer_suite": "u",
    "stay": "t",
    "stay_refait": "f",
}


# The engine's bank-rule code with its amount (`fixed(1370)`): a code, not a sentence.
_BANK_RULE = re.compile(r"(?P<kind>\w+)\((?P<amount>\d+)\)")


def bank_rule_label(rule: object) -> str:
    """What the banker may announce, as the table says it: any bank within the limits
    (« libre »), a set amount (« imposée »: CF-6.2 the bank that follows a win, LM-6.2 to
    LM-6.4 a bought bank, LR-6.2 the doubled stake), the landsknecht's opening stake, or that
    or the quitting banker's figure (LR-4.1.1, LR-6.2). The engine says `free`, `fixed(N)`,
    `opening`, `opening_or_figure(N)` or, in lansquenet moderne, `{"amount": N, ...}`."""
    if rule is None or rule == "free":
        return _word("bank_rule", "free")
    if rule == "opening":
        return _word("bank_rule", "opening")
    if isinstance(rule, Mapping) and "amount" in rule:
        return _bank_rule_amount("fixed", rule["amount"])
    found = _BANK_RULE.fullmatch(str(rule))
    if found and found["kind"] in ("fixed", "opening_or_figure"):
        return _bank_rule_amount(found["kind"], int(found["amount"]))
    return str(rule)


def _bank_rule_amount(kind: str, amount: object) -> str:
    found = say_label(f"bank_rule.{kind}", amount=chips_text(amount))
    return f"{kind} {chips_text(amount)}" if found is None else found


def fault_label(code: str) -> str:
    return _word("fault", code)


def faults_label(codes: Iterable[str] | None) -> str:
    return ", ".join(fault_label(code) for code in codes or ())


def hand_kind_label(kind: str | None) -> str:
    if kind == "total":
        return ""  # a plain total says nothing more than its value (PT-3.3)
    return _word("hand", kind)


def holding_label(holding: str | None) -> str:
    return _word("holding", holding)


def action_label(game: str, action_type: str) -> str:
    return _word("action", action_type, game)


def phase_label(phase: str) -> str:
    return _word("phase", phase)


def outcome_label(outcome: str) -> str:
    return _word("outcome", outcome)


def reason_label(reason: str) -> str:
    """A transfer's reason (COM-10.6), as the payout lines of the last coups name it."""
    return _word("transfer", reason)


def owner_label(owner: str, name: str = "") -> str:
    """An owner of money that is not a player (COM-5.2): the croupier, the reserve fund, a
    banker's reliquat (`name`: whose)."""
    found = say_label(f"owner.{owner}", player=name) if owner == "reliquat" else None
    return found or _word("owner", owner)


def expected_say(expected: Mapping[str, Any] | None, players: Mapping[str, str]) -> str:
    """What comes next (`view()["expected"]`: a code and its parameters), in the user's
    language, players by name (`players`: id -> name)."""
    if not expected:
        return ""
    params = {key: value for key, value in expected.items() if key != "code"}
    return say(str(expected["code"]), params, players)
