"""Recorded actions and their shapes (COM-10.2 step 1, SCENARIOS.md)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any

from tables.engine.errors import bad_action, unknown_action
from tables.engine.settings import is_int
from tables.engine.settlement import is_player_id
from tables.engine.table import Actor


@dataclass(frozen=True)
class Action:
    """What the croupier records: a type, an actor and the parameters of the game file."""

    type: str
    actor: Actor | None
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def __getitem__(self, name: str) -> Any:
        return self.params[name]

    def get(self, name: str, default: Any = None) -> Any:
        return self.params.get(name, default)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Action:
        """Build an action from its JSON form; ``expect_error`` is not a parameter."""
        params = dict(data)
        for name in ("type", "actor", "expect_error"):
            params.pop(name, None)
        return cls(str(data.get("type")), data.get("actor"), MappingProxyType(params))

    def as_dict(self) -> dict[str, Any]:
        return {"type": self.type, "actor": self.actor, **self.params}


@dataclass(frozen=True)
class Param:
    """One parameter kind: a type test, and the code of its words (``P_*``, ``E_BAD_ACTION``)."""

    describe: str
    accepts: Callable[[Any], bool]


INT = Param("P_INT", is_int)
SEAT = Param("P_SEAT", is_int)
AMOUNT = Param("P_AMOUNT", is_int)
RANK = Param("P_RANK", lambda v: isinstance(v, str))
BOOL = Param("P_BOOL", lambda v: isinstance(v, bool))
TEXT = Param("P_TEXT", lambda v: isinstance(v, str))
PLAYER = Param("P_PLAYER", lambda v: isinstance(v, str) and v != "")
# The stricter player id of the game files that refuse the reserved owner names at step 1.
PLAYER_ID = Param("P_PLAYER_ID", is_player_id)
SEAT_OR_PLAYER = Param("P_SEAT_OR_PLAYER", lambda v: is_int(v) or isinstance(v, str))
RANKS = Param(
    "P_RANKS",
    lambda v: isinstance(v, list) and all(isinstance(item, str) for item in v),
)


@dataclass(frozen=True)
class ActionSpec:
    """The shape of an action type: its required and optional parameters.

    ``one_of`` lists alternative parameter groups, exactly one of which must be given (``leave``
    takes ``seat`` or ``player``).
    """

    type: str
    required: Mapping[str, Param] = field(default_factory=dict)
    optional: Mapping[str, Param] = field(default_factory=dict)
    one_of: tuple[Mapping[str, Param], ...] = ()

    def describe(self) -> list[str]:
        """What the action takes, as ``E_BAD_ACTION``'s ``needs`` (the list grammar of
        ``tables.engine.words``): ``["P_ACTOR", "amount:P_AMOUNT", "seat:P_SEAT|player:…"]``."""
        parts = ["P_ACTOR"]
        parts += [f"{name}:{param.describe}" for name, param in self.required.items()]
        if self.one_of:
            # A group of several parameters is not used by any game; its names are listed.
            groups = [
                "+".join(f"{n}:{p.describe}" for n, p in group.items()) for group in self.one_of
            ]
            parts.append("|".join(groups))
        parts += [f"?{n}:{p.describe}" for n, p in self.optional.items()]
        return parts

    def empty_actor_check(self, action: Action) -> None:
        """``empty_actor_check`` naming what this action takes (``describe``)."""
        if action.actor == "":
            raise bad_action(action.type, self.describe())

    @cached_property
    def _shape(self) -> tuple[frozenset[str], dict[str, Param]]:
        """The required names and every parameter allowed without a ``one_of`` group, worked
        out once per spec: the shape check runs at every recorded action."""
        return frozenset(self.required), dict(self.required) | dict(self.optional)

    def check(self, action: Action) -> None:
        """``E_BAD_ACTION`` unless every parameter is present with the right type and no other."""
        actor = action.actor
        kind = actor.__class__
        if (
            kind is not int  # the usual actors pass at once
            and kind is not str
            and (actor is None or isinstance(actor, bool) or not isinstance(actor, int | str))
        ):
            raise bad_action(self.type, self.describe())
        required, allowed = self._shape
        params = action.params
        given = params.keys()
        if self.one_of:
            matching = [group for group in self.one_of if group.keys() <= given]
            if len(matching) != 1:
                raise bad_action(self.type, self.describe())
            allowed = allowed | dict(matching[0])
        if not required <= given <= allowed.keys():
            raise bad_action(self.type, self.describe())
        for name, value in params.items():
            if not allowed[name].accepts(value):
                raise bad_action(self.type, self.describe())


def spec(
    type_: str,
    *,
    optional: Mapping[str, Param] | None = None,
    one_of: tuple[Mapping[str, Param], ...] = (),
    **required: Param,
) -> ActionSpec:
    """Shorthand: ``spec("announce_bank", amount=AMOUNT)``."""
    return ActionSpec(type_, required, optional or {}, one_of)


def by_type(*specs: ActionSpec) -> dict[str, ActionSpec]:
    """A game's table of actions: each spec under its own type, in the order given."""
    return {found.type: found for found in specs}


def session_actions(player: Param) -> Mapping[str, ActionSpec]:
    """COM-3.8 the session actions, naming a player with the parameter kind ``player``."""
    return {
        "sit": spec("sit", player=player, seat=SEAT),
        "leave": spec("leave", one_of=({"seat": SEAT}, {"player": player})),
        "add_standing": spec("add_standing", player=player),
        "set_first_banker": spec("set_first_banker", seat=SEAT),
        "end_session": spec("end_session"),
    }


# COM-3.8 the session actions, accepted by every game (``set_first_banker`` not in CF).
SESSION_ACTIONS: Mapping[str, ActionSpec] = session_actions(PLAYER)


def shape_check(specs: Mapping[str, ActionSpec], action: Action, game: str) -> ActionSpec:
    """COM-10.2 step 1: the type exists in this game (``game``: its code), and the action is
    well formed."""
    found = specs.get(action.type)
    if found is None:
        raise unknown_action(action.type, game)
    found.check(action)
    return found


def empty_actor_check(action: Action, needs: list[str]) -> None:
    """COM-10.2 step 1 completed, in the games whose files say so: the actor is never ``""``.

    ``E_BAD_ACTION`` with ``needs`` (``ActionSpec.describe``). The shape check lets an empty
    actor through, so that a game without this rule refuses it as nobody at the table
    (``E_NOT_PRESENT``).
    """
    if action.actor == "":
        raise bad_action(action.type, needs)


def player_id_check(action: Action, needs: list[str]) -> None:
    """COM-10.2 step 1 completed, in the games whose files refuse the reserved owner names there
    (LR-4.0.4, LM-2.4): ``empty_actor_check`` (``needs``: what the actor takes), then
    ``E_BAD_ACTION`` for a ``player`` that is not a player id (SCENARIOS.md)."""
    empty_actor_check(action, needs)
    if "player" in action.params and not is_player_id(action["player"]):
        raise bad_action(action.type, ["player:P_PLAYER_ID"])
