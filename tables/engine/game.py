"""What every game module provides, and the one way to apply an action (COM-10.1, COM-10.2)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, overload

from tables.engine.actions import Action, ActionSpec, shape_check
from tables.engine.cards import Pack
from tables.engine.settlement import CoupRecord, Transfer
from tables.engine.table import Actor, Seating

_State = TypeVar("_State")
_Value = TypeVar("_Value")

# COM-3.8 the state after end_session: no banker and no legal action, in every game
# (``tables.engine.session`` gives it to the games).
SESSION_ENDED = "session_ended"


@dataclass(frozen=True)
class LegalAction:
    """An action type that would be accepted now, and from whom (the console's buttons)."""

    type: str
    actors: tuple[Actor, ...]


class GameState(Protocol):
    """The immutable state of a session at one table, as every game exposes it."""

    @property
    def seating(self) -> Seating: ...

    @property
    def phase(self) -> str:
        """The state name of the game file (``bank_pending``, …, ``session_ended``)."""
        ...

    @property
    def banker(self) -> str | None:
        """The banker's player id, or None (SCENARIOS.md "banker")."""
        ...

    @property
    def coups(self) -> tuple[CoupRecord, ...]: ...

    @property
    def session_transfers(self) -> tuple[Transfer, ...]: ...


class Game(Protocol):
    """A game module: its settings table, its actions, and the fold over them."""

    code: str
    title: str
    default_seat_count: int
    actions: Mapping[str, ActionSpec]
    # What the registry's list of games gives the rest of the product (registry.py): the name
    # a table's game is listed under, the states where a new coup can start (COM-3.8), the
    # actions that form a new pack or shoe (COM-2.1), and whether the coup opens with a call
    # of claims that the screen draws as a table (the banco call, CF-4.2).
    label: str
    rules_file: str  # the game's rules, in docs/rules/
    coup_start_phases: frozenset[str]
    new_pack_actions: frozenset[str]
    has_claims: bool
    # Every code the game may answer with, each with its words in the engine's catalogue
    # (tables/engine/words.py): its errors (COM-10.3 and the game file's), the codes their
    # parameters name (reasons, limits, settings' ranges), and what it may expect next.
    error_codes: tuple[str, ...]
    reason_codes: tuple[str, ...]
    expected_codes: tuple[str, ...]

    def settings_validate(self, raw: Mapping[str, Any], seat_count: int) -> dict[str, Any]:
        """Full settings with defaults, or ``RuleError("E_SETTING")`` (§1 of the game file)."""
        ...

    def start(self, settings: Mapping[str, Any], seating: Seating) -> GameState:
        """The state of a new session at the table (settings already validated)."""
        ...

    def apply(self, state: GameState, action: Action) -> GameState:
        """The next state, or ``RuleError``; ``action`` has passed the shape check."""
        ...

    def legal_actions(self, state: GameState) -> tuple[LegalAction, ...]:
        """Every action type accepted now, with its possible actors (COM-10.1)."""
        ...

    def view(self, state: GameState) -> dict[str, Any]:
        """What the table screen shows, as JSON-ready data (see ``view`` in each module)."""
        ...


def hand_view(
    who: str,
    cards: Sequence[str],
    *,
    seat: int | None = None,
    player: str | None = None,
    total: int | None = None,
    said: Sequence[str] = (),
    multiplicity: int = 1,
) -> dict[str, Any]:
    """One hand of the view's ``hands``, the cards every game's table screen draws alike.

    ``who`` names the hand: ``banker``, ``ponte`` (the card holder's, CF), ``pontes`` (the
    pontes' card, LM, LR), ``middle`` (LM, LR), ``talon`` (LC), or ``player`` (a player's own:
    ``seat`` and ``player`` say whose). ``total`` is its value where the game counts one (CF-3.1,
    PT-3.2); ``said`` what was said or what the hand is (CF ``stand``/``draw``, PT-3.3 to PT-3.5
    the hand's kind, PT-4.1.2 ``sat_out``); ``multiplicity`` the cards of one rank (LC-4.1).
    """
    return {
        "who": who,
        "seat": seat,
        "player": player,
        "cards": list(cards),
        "total": total,
        "said": list(said),
        "multiplicity": multiplicity,
    }


def lansquenet_hands(
    banker: str | None, pontes: str | None, middle: Sequence[str]
) -> list[dict[str, Any]]:
    """The hands of a lansquenet table (LM-4.6, LR-4.3): the banker's card, the pontes' card,
    then the middle cards, if any."""
    hands = [
        hand_view("banker", [banker] if banker else []),
        hand_view("pontes", [pontes] if pontes else []),
    ]
    if middle:
        hands.append(hand_view("middle", middle))
    return hands


class LansquenetTable(Protocol):
    """What ``lansquenet_view`` reads of a lansquenet state (LM, LR)."""

    @property
    def phase(self) -> str: ...

    @property
    def banker(self) -> str | None: ...

    @property
    def pack(self) -> Pack: ...


def lansquenet_view(
    state: LansquenetTable,
    *,
    bank: int | None,
    to_cover: int | None,
    stakes: list[dict[str, Any]],
    cards: dict[str, Any],
    pontes: str | None,
    expected: dict[str, Any],
) -> dict[str, Any]:
    """The part of a lansquenet table screen (LM-4.6, LR-4.3) that both games show alike: the
    bank and what is left to cover, the stakes, the cards (``pontes``: the pontes' card, however
    ``cards`` names it) and their hands, the pack until the session ends, what is expected."""
    return {
        "phase": state.phase,
        "banker": state.banker,
        "bank": bank,
        "to_cover": to_cover,
        "stakes": stakes,
        "cards": cards,
        "hands": lansquenet_hands(cards["banker"], pontes, cards["middle"]),
        "next_seat": None,  # the croupier turns the cards: nobody's seat receives one
        "pack": None if state.phase == SESSION_ENDED else state.pack.view(),
        "expected": expected,
    }


def step(game: Game, state: GameState, action: Action) -> GameState:
    """Apply one recorded action: the shape check of COM-10.2 step 1, then the game's own."""
    shape_check(game.actions, action, game.code)
    return game.apply(state, action)


def sorted_types(legal: Iterable[LegalAction]) -> list[str]:
    """The action types of ``legal``, once each and sorted."""
    return sorted({found.type for found in legal})


def legal_action_types(game: Game, state: GameState) -> list[str]:
    """The sorted list of action types that ``replay`` prints (SCENARIOS.md)."""
    return sorted_types(game.legal_actions(state))


def own_state(state: GameState, kind: type[_State]) -> _State:
    """``state`` as the game's own state class: a game is only handed the states it made."""
    assert isinstance(state, kind)
    return state


class Required(Generic[_Value]):
    """A read-only attribute of a state class: its optional field ``field``, where the rules
    need it set (asserted, and typed without None)."""

    def __init__(self, field: str) -> None:
        self.field = field

    @overload
    def __get__(self, state: None, owner: type[Any]) -> Required[_Value]: ...

    @overload
    def __get__(self, state: object, owner: type[Any]) -> _Value: ...

    def __get__(self, state: object, owner: type[Any]) -> Required[_Value] | _Value:
        if state is None:
            return self
        value: _Value | None = getattr(state, self.field)
        assert value is not None
        return value
