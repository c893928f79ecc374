"""The documented strategies the simulator plays: each game's named strategies, their
parameters and the rules they play by.

A strategy is a game's decision maker (``players``) with every parameter set: a named strategy
is a set of parameter values (``GamePlay.strategies``), any of which the command line may change
(``--param name=value``), with the ids of the rules its decisions follow. docs/odds.md describes
each one in words.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tables.engine.simulate.players import (
    CheminDeFerPlayer,
    LandsknechtPlayer,
    LansquenetClassiquePlayer,
    LansquenetModernePlayer,
    Player,
    PontoonPlayer,
    Shoe,
)

Value = int | Fraction | bool | str


class StrategyError(ValueError):
    """A strategy or parameter that does not exist, or a value it does not allow."""


# -- parameters ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Param:
    """A strategy parameter: its kind (``int``, ``fraction`` in [0, 1], ``bool``, ``choice``),
    its default, and what it means."""

    name: str
    kind: str
    default: Value | None
    meaning: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def parse(self, text: str) -> Value | None:
        """A value from the command line (``3``, ``1/2``, ``0.25``, ``true``, ``none``)."""
        try:
            if text.lower() in ("none", "null") and self.default is None:
                return None
            if self.kind == "int":
                return self.check(int(text))
            if self.kind == "fraction":
                return self.check(Fraction(text))
            if self.kind == "bool":
                if text.lower() not in ("true", "false"):
                    raise ValueError(text)
                return text.lower() == "true"
            return self.check(text)
        except (ValueError, ZeroDivisionError) as error:
            raise StrategyError(f"{self.name}={text}: {self.meaning}") from error

    def check(self, value: Value) -> Value:
        """``value`` if the parameter allows it, else ``ValueError``."""
        if self.kind == "int":
            number = int(value)
            if (self.minimum is not None and number < self.minimum) or (
                self.maximum is not None and number > self.maximum
            ):
                raise ValueError(value)
        if self.kind == "fraction" and not 0 <= Fraction(value) <= 1:
            raise ValueError(value)
        if self.kind == "choice" and value not in self.choices:
            raise ValueError(value)
        return value


def _players(default: int, low: int, high: int) -> Param:
    meaning = f"seated players, banker included ({low}–{high})"
    return Param("players", "int", default, meaning, minimum=low, maximum=high)


# -- the named strategies ------------------------------------------------------------------------

_FRESH = Param(
    "fresh", "bool", False, "every coup from a new pack (set by the --fresh option, docs/odds.md)"
)


@dataclass(frozen=True)
class GamePlay:
    """A game's decision maker, its parameters, its named strategies and the table the
    simulator sets up unless told otherwise (``settings``: what a table must set, §1 of the
    game's rules, and the amounts the strategies stake; docs/odds.md)."""

    game: str
    make: Callable[[Mapping[str, Any], Shoe, random.Random], Player]
    params: tuple[Param, ...]
    strategies: Mapping[str, Mapping[str, Value]]
    default: str
    rules: Mapping[str, tuple[str, ...]]
    settings: Mapping[str, Any] = field(default_factory=dict)


GAME_PLAY: Mapping[str, GamePlay] = {
    "chemin_de_fer": GamePlay(
        "chemin_de_fer",
        CheminDeFerPlayer,
        (
            _players(4, 4, 12),
            Param("bank", "int", 100, "the bank the banker announces (chips)", minimum=1),
            Param("draw_at_5", "fraction", Fraction(1, 2), "the card holder's chance to draw at 5"),
            Param(
                "reliquat",
                "choice",
                "winnings",
                "winnings: set the winnings aside, the bank stays; none: the bank grows",
                ("winnings", "none"),
            ),
            _FRESH,
        ),
        {
            "tableau": {},
            "stand_at_5": {"draw_at_5": Fraction(0)},
            "draw_at_5": {"draw_at_5": Fraction(1)},
        },
        "tableau",
        {
            "tableau": ("CF-2.3", "CF-4.2.1", "CF-4.5", "CF-4.6", "CF-4.6.1", "CF-6.1", "CF-6.3"),
            "stand_at_5": ("CF-4.5",),
            "draw_at_5": ("CF-4.5",),
        },
    ),
    "lansquenet_moderne": GamePlay(
        "lansquenet_moderne",
        LansquenetModernePlayer,
        (
            _players(4, 2, 12),
            Param("bank", "int", 100, "the bank the banker announces (chips)", minimum=1),
            Param("cover", "choice", "banco", "banco or split", ("banco", "split")),
            Param("stays", "int", 0, "the most coups a winning banker stays in a row", minimum=0),
            Param(
                "reshuffle_below",
                "int",
                None,
                "re-form the pack between coups under this many cards (none: half the pack)",
                minimum=0,
            ),
            _FRESH,
        ),
        {"banco": {}, "split": {"cover": "split"}, "stay": {"stays": 2}},
        "banco",
        {
            "banco": ("LM-3.3", "LM-3.4", "LM-4.2", "LM-6.2", "LM-6.4", "LM-6.6"),
            "split": ("LM-4.2", "LM-4.3.1"),
            "stay": ("LM-6.2", "LM-6.3"),
        },
    ),
    "lansquenet_classique": GamePlay(
        "lansquenet_classique",
        LansquenetClassiquePlayer,
        (
            _players(5, 4, 12),
            Param("bank", "choice", "keep", "keep or pass the bank after a win", ("keep", "pass")),
            _FRESH,
        ),
        {"keep": {}, "pass": {"bank": "pass"}},
        "keep",
        {"keep": ("LC-2.1", "LC-7.1", "LC-I12", "LC-I15"), "pass": ("LC-7.1", "LC-7.2")},
        {"base_stake": 20},
    ),
    "landsknecht": GamePlay(
        "landsknecht",
        LandsknechtPlayer,
        (
            _players(4, 2, 12),
            Param("take", "fraction", Fraction(1, 2), "what the first ponter takes of the bank"),
            Param("doubles", "int", 0, "the most times a winning banker doubles", minimum=0),
            _FRESH,
        ),
        {"quit": {}, "double": {"doubles": 1}},
        "quit",
        {
            "quit": ("LR-2.1", "LR-3.3", "LR-4.1.1", "LR-4.2.2", "LR-6.2", "LR-6.4"),
            "double": ("LR-6.2",),
        },
        {"reserve_contribution": 100, "agreed_stake": 100},
    ),
    "pontoon": GamePlay(
        "pontoon",
        PontoonPlayer,
        (
            _players(4, 2, 8),
            Param("stake", "int", 20, "each player's initial stake (chips)", minimum=1),
            Param("stick_at", "int", 16, "the player sticks at this total or more", minimum=15),
            Param("buy_from", "int", 9, "the player buys from this hard total…", minimum=0),
            Param("buy_to", "int", 11, "…to this one, until he twists", minimum=0),
            Param("banker_stands_at", "int", 17, "the banker stands at this total", minimum=0),
            Param("take_bank", "bool", True, "a player dealt a pontoon takes the bank"),
            _FRESH,
        ),
        {"threshold": {}, "cautious": {"stick_at": 15, "buy_to": 0}},
        "threshold",
        {
            "threshold": ("PT-3.2", "PT-4.1", "PT-4.2", "PT-4.3", "PT-6.1", "PT-I3"),
            "cautious": ("PT-4.2",),
        },
        {},
    ),
}


@dataclass(frozen=True)
class Strategy:
    """A named strategy of a game with every parameter resolved."""

    game: str
    name: str
    params: Mapping[str, Any]
    rules: tuple[str, ...]

    def player(self, shoe: Shoe, rng: random.Random) -> Player:
        return GAME_PLAY[self.game].make(self.params, shoe, rng)

    def params_json(self) -> dict[str, Any]:
        """The parameters as JSON: a fraction as its text (``"1/2"``)."""
        return {
            name: str(value) if isinstance(value, Fraction) else value
            for name, value in self.params.items()
        }


def strategy_get(
    game: str,
    name: str | None = None,
    overrides: Mapping[str, str] | None = None,
    *,
    fresh: bool = False,
) -> Strategy:
    """The strategy ``name`` of ``game`` (its default if None), with the parameters of
    ``overrides`` (their text, as typed) changed; ``StrategyError`` for what does not exist."""
    play = GAME_PLAY.get(game)
    if play is None:
        raise StrategyError(f"no strategy for the game {game!r}")
    chosen = play.default if name is None else name
    preset = play.strategies.get(chosen)
    if preset is None:
        raise StrategyError(f"{game} has no strategy {chosen!r}: {', '.join(play.strategies)}")
    by_name = {param.name: param for param in play.params}
    params: dict[str, Any] = {param.name: param.default for param in play.params}
    params.update(preset)
    for key, text in (overrides or {}).items():
        param = by_name.get(key)
        if param is None or key == "fresh":
            raise StrategyError(f"{game} has no parameter {key!r}: {', '.join(by_name)}")
        params[key] = param.parse(text)
    params["fresh"] = fresh
    rules = play.rules[chosen]
    if chosen != play.default:
        rules = (*play.rules[play.default], *rules)
    return Strategy(game, chosen, params, tuple(dict.fromkeys(rules)))
