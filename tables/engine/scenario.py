"""Scenarios: a session at one table written as data, replayed and checked (SCENARIOS.md)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tables.engine.actions import Action
from tables.engine.errors import ParamValue, RuleError, bad_setting, no_such_seat
from tables.engine.game import Game, GameState, legal_action_types, step
from tables.engine.registry import GAME_MODULES, game_get
from tables.engine.settings import is_int
from tables.engine.settlement import Transfer, is_player_id, results_of
from tables.engine.table import Seating
from tables.engine.words import words


class InvalidScenario(Exception):
    """A file that is not a valid scenario; ``code`` as SCENARIOS.md says.

    ``key`` is the code of its words in the catalogue (a rule error's own code, or ``SC_*``
    for what is wrong with the file) and ``params`` the values they name.
    """

    def __init__(self, code: str, key: str, **params: ParamValue) -> None:
        super().__init__(code, key, params)
        self.code = code
        self.key = key
        self.params: dict[str, ParamValue] = dict(params)

    @classmethod
    def of(cls, error: RuleError) -> InvalidScenario:
        return cls(error.code, error.code, **error.params)

    @property
    def message(self) -> str:
        """In English, for the command line."""
        return words(self.key, self.params)


@dataclass(frozen=True)
class Scenario:
    """One scenario of a file, loaded (SCENARIOS.md): the game, its validated settings, the
    seating, the recorded actions, and what the replay must give (``expect``, or the code of
    ``expect_invalid``)."""

    name: str
    game: Game
    settings: Mapping[str, Any]
    seating: Seating
    actions: tuple[Mapping[str, Any], ...]
    expect: Mapping[str, Any] | None = None
    expect_invalid: str | None = None


@dataclass(frozen=True)
class Rejection:
    index: int
    code: str
    params: Mapping[str, ParamValue] = field(default_factory=dict)

    @property
    def message(self) -> str:
        """The refusal in English, from the catalogue (SCENARIOS.md "Result")."""
        return words(self.code, self.params)

    def as_dict(self) -> dict[str, object]:
        return {
            "index": self.index,
            "code": self.code,
            "message": self.message,
            "params": dict(self.params),
        }


@dataclass(frozen=True)
class Replay:
    """A scenario replayed: the final state and every rejected action."""

    game: Game
    state: GameState
    rejections: tuple[Rejection, ...] = field(default=())


def _invalid(key: str, **params: ParamValue) -> InvalidScenario:
    """A field of the file that is wrong: ``E_BAD_ACTION`` worded by ``key`` (``SC_*``)."""
    return InvalidScenario("E_BAD_ACTION", key, **params)


def scenario_load(data: Any) -> Scenario:
    """Read one scenario object; ``InvalidScenario`` names the field that is wrong."""
    if not isinstance(data, Mapping):
        raise _invalid("SC_NOT_OBJECT")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise _invalid("SC_NAME")
    code = data.get("game")
    if not isinstance(code, str) or code not in GAME_MODULES:
        raise _invalid("SC_GAME", games=list(GAME_MODULES), value=repr(code))
    game = game_get(code)
    seat_count = data.get("seat_count", game.default_seat_count)
    if not is_int(seat_count) or seat_count < 2:
        # COM-10.2.1 a table has at least two seats.
        raise InvalidScenario.of(bad_setting("seat_count", seat_count, "S_AT_LEAST", minimum=2))
    raw_settings = data.get("settings", {})
    try:
        settings = game.settings_validate(raw_settings, seat_count)
    except RuleError as error:
        raise InvalidScenario.of(error) from error
    seating = _seating_load(data, seat_count)
    try:
        # A setting may depend on who sits (CF fixed_banker, CF-I27): ``start`` refuses it.
        game.start(settings, seating)
    except RuleError as error:
        raise InvalidScenario.of(error) from error
    actions = data.get("actions", [])
    if not isinstance(actions, list) or not all(
        isinstance(a, Mapping) and isinstance(a.get("type"), str) for a in actions
    ):
        raise _invalid("SC_ACTIONS")
    expect = data.get("expect")
    if expect is not None and not isinstance(expect, Mapping):
        raise _invalid("SC_EXPECT")
    expect_invalid = data.get("expect_invalid")
    if expect_invalid is not None and not isinstance(expect_invalid, str):
        raise _invalid("SC_EXPECT_INVALID")
    return Scenario(name, game, settings, seating, tuple(actions), expect, expect_invalid)


def _seating_load(data: Mapping[str, Any], seat_count: int) -> Seating:
    seats = data.get("seats", {})
    standing = data.get("standing", [])
    if not isinstance(seats, Mapping):
        raise _invalid("SC_SEATS")
    if not isinstance(standing, list) or not all(is_player_id(p) for p in standing):
        raise _invalid("SC_STANDING")
    pairs: list[tuple[int, str]] = []
    for key, player in seats.items():
        if not isinstance(key, str) or not key.isdigit() or not is_player_id(player):
            raise _invalid("SC_SEAT_ENTRY", entry=repr(key), value=repr(player))
        seat = int(key)
        if not 1 <= seat <= seat_count:
            raise InvalidScenario.of(no_such_seat(seat, seat_count))
        pairs.append((seat, player))
    everyone = [player for _, player in pairs] + list(standing)
    if len(set(everyone)) != len(everyone):
        raise _invalid("SC_TWICE")
    return Seating(seat_count, tuple(sorted(pairs)), tuple(standing))


def replay(scenario: Scenario) -> Replay:
    """The fold: every action applied in order; a rejected one changes nothing (COM-10.1)."""
    state = scenario.game.start(scenario.settings, scenario.seating)
    rejections: list[Rejection] = []
    for index, raw in enumerate(scenario.actions):
        try:
            state = step(scenario.game, state, Action.from_dict(raw))
        except RuleError as error:
            rejections.append(Rejection(index, error.code, error.params))
    return Replay(scenario.game, state, tuple(rejections))


def result_of(name: str, done: Replay) -> dict[str, Any]:
    """The result line of ``replay`` (SCENARIOS.md "Result")."""
    state = done.state
    moved: list[Transfer] = [t for coup in state.coups for t in coup.transfers]
    moved += state.session_transfers
    return {
        "name": name,
        "coups": [coup.as_dict() for coup in state.coups],
        "session_transfers": [transfer.as_dict() for transfer in state.session_transfers],
        "totals": results_of(moved),
        "rejections": [rejection.as_dict() for rejection in done.rejections],
        "state": state.phase,
        "banker": state.banker,
        "legal_actions": legal_action_types(done.game, state),
    }


def _transfer_key(item: Any) -> tuple[Any, ...]:
    if not isinstance(item, Mapping):
        return (repr(item),)
    return (item.get("from"), item.get("to"), item.get("amount"), item.get("reason"))


def _coups_difference(expected: Sequence[Any], actual: Sequence[Mapping[str, Any]]) -> str | None:
    if len(expected) != len(actual):
        return f"coups: expected {len(expected)}, got {len(actual)}"
    for number, (want, got) in enumerate(zip(expected, actual, strict=True), start=1):
        for key in ("outcome", "results", "faults"):
            if key in want and want[key] != got[key]:
                return f"coup {number} {key}: expected {want[key]!r}, got {got[key]!r}"
        if "transfers" in want:
            wanted = Counter(_transfer_key(t) for t in want["transfers"])
            found = Counter(_transfer_key(t) for t in got["transfers"])
            if wanted != found:
                return (
                    f"coup {number} transfers: expected {want['transfers']!r}, "
                    f"got {got['transfers']!r}"
                )
    return None


def difference(scenario: Scenario, result: Mapping[str, Any]) -> str | None:
    """The first difference between ``result`` and the scenario's expectations, or None."""
    expect = scenario.expect or {}
    if "coups" in expect:
        found = _coups_difference(expect["coups"], result["coups"])
        if found:
            return found
    for key in ("totals", "session_transfers", "state", "banker"):
        if key in expect and expect[key] != result[key]:
            return f"{key}: expected {expect[key]!r}, got {result[key]!r}"
    if "legal_actions" in expect and set(expect["legal_actions"]) != set(result["legal_actions"]):
        wanted_legal = sorted(expect["legal_actions"])
        return f"legal_actions: expected {wanted_legal}, got {result['legal_actions']}"
    wanted: dict[int, str] = {
        index: raw["expect_error"]
        for index, raw in enumerate(scenario.actions)
        if "expect_error" in raw
    }
    for item in expect.get("rejections", []):
        wanted[int(item["index"])] = str(item["code"])
    got = {item["index"]: item for item in result["rejections"]}
    for index, code in sorted(wanted.items()):
        if index not in got:
            return f"action {index}: expected rejection {code}, it was accepted"
        if got[index]["code"] != code:
            return (
                f"action {index}: expected {code}, got {got[index]['code']} "
                f"({got[index]['message']})"
            )
    for index, item in sorted(got.items()):
        if index not in wanted:
            return f"action {index}: unexpected rejection {item['code']} ({item['message']})"
    return None


@dataclass(frozen=True)
class Outcome:
    """What ``check`` concluded for one scenario."""

    name: str
    passed: bool
    detail: str = ""


def check_one(data: Any) -> Outcome:
    """Replay one scenario object and compare it with its ``expect`` / ``expect_invalid``."""
    name = data.get("name", "?") if isinstance(data, Mapping) else "?"
    wanted_invalid = data.get("expect_invalid") if isinstance(data, Mapping) else None
    try:
        scenario = scenario_load(data)
    except InvalidScenario as error:
        if wanted_invalid == error.code:
            return Outcome(str(name), True)
        return Outcome(str(name), False, f"invalid scenario {error.code}: {error.message}")
    if scenario.expect_invalid is not None:
        return Outcome(
            scenario.name, False, f"expected invalid {scenario.expect_invalid}, it was valid"
        )
    result = result_of(scenario.name, replay(scenario))
    found = difference(scenario, result)
    return Outcome(scenario.name, found is None, found or "")
