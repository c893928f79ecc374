"""Each recorded coup's expected values: the games' exact values for its table's settings
(`tables.engine.simulate.exact`, docs/odds.md "The exact values"), under the conditions of the
coup itself.

The exact values are those of the game's default strategy (docs/odds.md, "The tables and the
strategies") at the table's settings, with what the recorded coup fixes in place of the
strategy's amounts: the bank played (chemin de fer's `T`, lansquenet moderne's `E`, a banker who
stays being a coup at his doubled bank, LM-6.2), landsknecht's stake `S`, the coupeurs of a
lansquenet classique coup, the hands and the stake of a pontoon coup. The money measures then
follow the table's levy on that amount (COM-6.3), and lansquenet classique's recursion the
coupeurs actually dealt. What the players decide beyond that is the default strategy's (in
chemin de fer, the card holder at 5 and the banker's tableau): the measures that depend on it
are expected as the documented players play (docs/odds.md, "The audit").

A pontoon coup has an expected value only at the stored simulation's table and strategy (three
hands, a stake of 20, the default settings); any other gives none and is not audited.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from tables.engine.simulate.exact import Exact, exact_values
from tables.engine.simulate.strategies import Strategy, strategy_get

# What a coup's expected values depend on beside its table's settings: `(where, name, value)`,
# `where` being "param" (a strategy parameter) or "setting" (a table setting) changed for it;
# `UNKNOWN` when the coup is not one the exact values describe.
Conditions = tuple[tuple[str, str, Any], ...]
UNKNOWN: Conditions = (("unknown", "", None),)


def _chemin_de_fer(before: Any, after: Any) -> Conditions:
    return (("param", "bank", before.coup.bank),)  # T, the bank played (CF-4.3)


def _lansquenet_moderne(before: Any, after: Any) -> Conditions:
    # E the engagement (LM-4.2); a coup at one bank, won or lost whole: as if he never stays.
    return (("param", "bank", before.in_play.bank), ("param", "stays", 0))


def _landsknecht(before: Any, after: Any) -> Conditions:
    return (("setting", "agreed_stake", before.coup.stake),)  # S, the banker's stake (LR-4.1)


def _lansquenet_classique(before: Any, after: Any) -> Conditions:
    return (("param", "players", len(before.coup.deal_order) + 1),)  # LC-2.1 every coupeur


def _pontoon(before: Any, after: Any) -> Conditions:
    hands = [hand for hand in after.coup.hands if hand.staked]
    stakes = {hand.initial for hand in hands}
    if len(stakes) != 1:
        return UNKNOWN
    return (("param", "players", len(hands) + 1), ("param", "stake", stakes.pop()))


_BY_GAME = {
    "chemin_de_fer": _chemin_de_fer,
    "lansquenet_moderne": _lansquenet_moderne,
    "landsknecht": _landsknecht,
    "lansquenet_classique": _lansquenet_classique,
    "pontoon": _pontoon,
}


def coup_conditions(game: str, before: Any, after: Any) -> Conditions:
    """What the coup settled between `before` and `after` fixes of its expected values."""
    found = _BY_GAME.get(game)
    if found is None:
        return UNKNOWN
    try:
        return found(before, after)
    except AttributeError:  # a coup settled outside the play the exact values describe
        return UNKNOWN


@lru_cache(maxsize=512)
def _values(game: str, settings: str, conditions: Conditions) -> Mapping[str, Exact]:
    if conditions == UNKNOWN:
        return {}
    table = json.loads(settings)
    chosen = strategy_get(game)
    params = dict(chosen.params)
    for where, name, value in conditions:
        (params if where == "param" else table)[name] = value
    strategy = Strategy(game, chosen.name, params, chosen.rules)
    return exact_values(game, table, strategy).values


def coup_expected(
    game: str, settings: Mapping[str, Any], conditions: Conditions
) -> Mapping[str, Exact]:
    """The expected value of each measure known for a coup of `game` at a table of `settings`
    (the table session's, validated) under `conditions`, by measure name; computed once for
    the same arguments."""
    return _values(game, json.dumps(settings, sort_keys=True), conditions)
