"""The session actions of COM-3.8, written once for the five games.

``sit``, ``leave``, ``add_standing``, ``set_first_banker`` and ``end_session`` are recorded by the
croupier in every game, accepted in the same states and refused with the same codes:

- ``add_standing`` in every state but ``session_ended``;
- ``sit``, ``leave`` and ``end_session`` only in the state where a new coup can start
  (``bank_pending`` or ``coup_start``, the game's ``coup_start_phases``), vacant bank included
  (COM-9.7);
- ``set_first_banker`` there too, only before the session's first coup while there is no
  banker (COM-9.2); chemin de fer has none (CF-6.6: ``E_UNKNOWN_ACTION`` at the shape check).

Each is checked in the order of COM-10.2: the state (``E_WRONG_STATE``), the croupier
(``E_NOT_ELIGIBLE``), then the seats and players the action names (``E_NO_SUCH_SEAT``,
``E_SEAT_TAKEN``, ``E_PLAYER_PRESENT``, ``E_NOT_PRESENT``), then ``E_TABLE_SIZE`` for a ``sit``
beyond the table's maximum.

A game's class inherits ``SessionCore`` and supplies only its differences: its own handlers
(``handlers``, reached through ``dispatch``), what becomes of the bank when someone leaves
(``left``, COM-9.6, LR-2.5; by default only the banker's departure, ``banker_left``), what
ending the session returns (``ended``, COM-7.2, LR-2.6), who the first banker becomes
(``first_banker``; by default ``seat_banker``). Its game object is made with its state class,
its legal actions and its table screen (``state_type``, ``legal_of``, ``view_of``), which
``legal_actions`` and ``view`` apply. Its state says how many may sit (``seat_limits``) and
whether the first banker may still be set (``first_banker_open``; ``FirstBankerBeforeCoups``
where that is COM-9.2 as written). The legal actions of each game keep their own order; the
session's entries are built here (``session_legal``, ``first_banker_legal``, ``ADD_STANDING``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import Field
from functools import cached_property
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from tables.engine.actions import Action, ActionSpec, Param, by_type, session_actions, spec
from tables.engine.errors import RuleError, table_size, wrong_state

# SESSION_ENDED: COM-3.8 the state after end_session, defined beside the table screens.
from tables.engine.game import SESSION_ENDED as SESSION_ENDED, LegalAction, own_state
from tables.engine.immutable import replace
from tables.engine.settlement import CROUPIER, CoupRecord
from tables.engine.table import Actor, Seating, Who

# COM-3.8 the session actions, in the order the action tables list them.
SESSION_TYPES: tuple[str, ...] = ("sit", "leave", "add_standing", "set_first_banker", "end_session")
# The actions that bring a person into play, and which: the player a `sit` or `add_standing`
# names (COM-3.8), and the seated player who becomes banker by `set_first_banker` (its `seat`,
# COM-9.2), by taking the bank offered (`accept_bank`, its actor: COM-9.4, COM-9.7) or by buying
# it (`buy_bank`, LM-6.4). The house checks each at its door (arrêté art. 22;
# tables/services/recording.py).
ENTERING: dict[str, str] = {"sit": "player", "add_standing": "player"}
NAMING_BANKER: dict[str, str] = {
    "set_first_banker": "seat",
    "accept_bank": "actor",
    "buy_bank": "actor",
}

_CROUPIER: tuple[Actor, ...] = (CROUPIER,)

# COM-3.8 add_standing, legal in every state but session_ended.
ADD_STANDING = LegalAction("add_standing", _CROUPIER)


class SessionState(Protocol):
    """What the session actions read of a game's state (an immutable dataclass)."""

    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    @property
    def seating(self) -> Seating: ...

    @property
    def phase(self) -> str: ...

    @property
    def banker(self) -> str | None: ...

    @property
    def seat_limits(self) -> tuple[int, int]:
        """The fewest and the most seated players a coup allows (``sit``: ``E_TABLE_SIZE``)."""
        ...

    @property
    def first_banker_open(self) -> bool:
        """COM-9.2 ``set_first_banker`` may still be recorded: no banker, no coup yet."""
        ...


S = TypeVar("S", bound=SessionState)


class _BankerAndCoups(Protocol):
    @property
    def banker(self) -> str | None: ...

    @property
    def coups(self) -> tuple[CoupRecord, ...]: ...


class FirstBankerBeforeCoups:
    """COM-9.2 as written, for a game state (a frozen dataclass) that inherits it: the first
    banker may be set while there is no banker and before the session's first coup."""

    @property
    def first_banker_open(self: _BankerAndCoups) -> bool:
        return self.banker is None and not self.coups


def session_specs(player: Param, *, first_banker: bool = True) -> dict[str, ActionSpec]:
    """COM-3.8 the shapes of the session actions, naming a player with ``player``; without
    ``set_first_banker`` where the game has none (CF-6.6)."""
    specs = session_actions(player)
    return {
        kind: found for kind, found in specs.items() if first_banker or kind != "set_first_banker"
    }


# COM-9.4, COM-9.7 the answers to a bank offered in turn or vacant: the same shapes, without a
# parameter, in every game that offers the bank.
BANK_ANSWERS: Mapping[str, ActionSpec] = by_type(spec("accept_bank"), spec("decline_bank"))


def session_legal(state: SessionState) -> list[LegalAction]:
    """COM-3.8 ``sit`` (a seat free and the table not full), ``leave`` (someone present) and
    ``end_session``, for the state where a new coup can start."""
    seating = state.seating
    seated = seating.seated_count
    found: list[LegalAction] = []
    if seated < seating.seat_count and seated < state.seat_limits[1]:
        found.append(LegalAction("sit", _CROUPIER))
    if seating.seats or seating.standing:
        found.append(LegalAction("leave", _CROUPIER))
    found.append(LegalAction("end_session", _CROUPIER))
    return found


def seated_ok(state: SessionState) -> bool:
    """As many players are seated as a coup allows (``seat_limits``: CF-2.2, LC-2.3, LM-2.2,
    LR-4.1.2, PT-2.1)."""
    minimum, maximum = state.seat_limits
    return minimum <= state.seating.seated_count <= maximum


def seated_check(state: SessionState, game: str) -> None:
    """COM-10.2 step 2 for the action that starts a coup: ``E_TABLE_SIZE`` (``game``: the game's
    code) unless ``seated_ok``, with the limits and the players seated."""
    if not seated_ok(state):
        minimum, maximum = state.seat_limits
        raise table_size(game, minimum, maximum, state.seating.seated_count)


def first_banker_legal(state: SessionState, *, empty_table: bool = False) -> list[LegalAction]:
    """COM-9.2 ``set_first_banker`` while it may be recorded; offered with nobody seated only
    where the game lists it so (``empty_table``)."""
    if state.first_banker_open and (empty_table or state.seating.seats):
        return [LegalAction("set_first_banker", _CROUPIER)]
    return []


def seat_banker(state: S, seat: int) -> S:
    """COM-9.2 the player at ``seat`` holds the bank, which is no longer vacant (COM-9.7); for a
    game whose state names its banker and whether the bank is vacant."""
    return replace(state, banker=state.seating.player_at(seat), vacant=False)


def banker_seat_left(banker: str | None, who: Who) -> int | None:
    """COM-9.6 the seat the banker ``banker`` left, or None when ``who`` was not the banker."""
    if who.kind != "seat" or who.player != banker:
        return None
    return who.seat


class SessionCore(Generic[S]):
    """The COM-3.8 handlers; the game class that inherits it supplies the hooks below."""

    # -- what each game declares -----------------------------------------------------------------

    code: str
    title: str
    # What the registry lists of the game (``Game``): a table of twelve seats unless the game
    # says otherwise, and no call of claims opening the coup but where the game has one (CF-4.2).
    default_seat_count: int = 12
    has_claims: bool = False
    # The states where a new coup can start (COM-3.8): sit, leave and end_session there only.
    coup_start_phases: frozenset[str]
    # The actions that form a new pack or shoe (COM-2.1): none where the game deals a fresh pack
    # at every coup.
    new_pack_actions: frozenset[str] = frozenset()
    # The E_NOT_ELIGIBLE reason (a code) given to anybody but the croupier (COM-3.7).
    croupier_reason: str = "R_CROUPIER_ONLY"
    # The reason (a code, E_WRONG_STATE's ``where``) a game adds to a session action's
    # E_WRONG_STATE, by action type (LM-4.0.1).
    session_why: ClassVar[Mapping[str, str]] = {}
    # The game's own handlers, by action type: every action of its table but the session's.
    handlers: Mapping[str, Callable[[S, Action], S]]

    def __init__(
        self,
        state_type: type[S],
        legal_of: Callable[[S], tuple[LegalAction, ...]],
        view_of: Callable[[S], dict[str, Any]],
    ) -> None:
        """The game object: its state class, and the functions of its ``legal`` module that
        give the legal actions (COM-10.1) and the table screen of such a state."""
        self.state_type = state_type
        self.legal_of = legal_of
        self.view_of = view_of

    def legal_actions(self, state: Any) -> tuple[LegalAction, ...]:
        """Every action type accepted now, with its possible actors (``Game``)."""
        return self.legal_of(own_state(state, self.state_type))

    def view(self, state: Any) -> dict[str, Any]:
        """What the table screen shows (``Game``)."""
        return self.view_of(own_state(state, self.state_type))

    def first_banker(self, state: S, seat: int) -> S:
        """COM-9.2 the player at ``seat`` (checked) becomes the first banker: ``seat_banker``,
        for a game whose state names its banker and whether the bank is vacant."""
        return seat_banker(state, seat)

    def left(self, state: S, who: Who) -> S:
        """What follows a departure: ``state`` is the table without ``who`` (COM-9.6). Unless
        the game says more, only a banker's departure matters: ``banker_left``."""
        seat = banker_seat_left(state.banker, who)
        return state if seat is None else self.banker_left(state, seat)

    def banker_left(self, state: S, seat: int) -> S:
        """COM-9.6 the banker left from ``seat`` and gives up the bank: who is offered it."""
        raise NotImplementedError

    def ended(self, state: S) -> S:
        """COM-3.8 the session ended: whatever it returns, then ``session_ended``."""
        raise NotImplementedError

    def sat(self, state: S, player: str, seat: int) -> Seating:
        """COM-3.8 the seat and player checks, then ``E_TABLE_SIZE`` at the table's maximum."""
        minimum, maximum = state.seat_limits
        return state.seating.sit_up_to(player, seat, maximum, game=self.code, minimum=minimum)

    # -- the handlers ----------------------------------------------------------------------------

    def dispatch(self, state: S, action: Action) -> S:
        """Apply ``action`` once the game's first checks have passed: a session action here
        (COM-3.8), any other by the game's own handler."""
        return self._routes[action.type](state, action)

    def session_apply(self, state: S, action: Action) -> S:
        """Apply a session action (``action.type`` in ``SESSION_TYPES``), or ``RuleError``."""
        return self._session_handlers[action.type](state, action)

    @cached_property
    def _session_handlers(self) -> dict[str, Callable[[S, Action], S]]:
        return {
            "sit": self._sit,
            "leave": self._leave,
            "add_standing": self._add_standing,
            "set_first_banker": self._set_first_banker,
            "end_session": self._end_session,
        }

    @cached_property
    def _routes(self) -> dict[str, Callable[[S, Action], S]]:
        """Every handler ``dispatch`` may call, by action type, made once per game: the
        session's take precedence over the game's own."""
        return {**self.handlers, **self._session_handlers}

    def session_refused(self, state: S, action: Action) -> RuleError:
        """COM-10.2 step 2 ``E_WRONG_STATE``, listing what is expected now."""
        legal = [legal.type for legal in self.legal_actions(state)]
        return wrong_state(
            action.type, state.phase, legal, self.session_why.get(action.type, "R_STATE")
        )

    def _check(self, state: S, action: Action, allowed: bool) -> None:
        """COM-10.2 step 2, the state; step 3, the croupier only (COM-3.7)."""
        if not allowed:
            raise self.session_refused(state, action)
        state.seating.resolve(action.actor).require_croupier(action.type, self.croupier_reason)

    def _sit(self, state: S, action: Action) -> S:
        self._check(state, action, state.phase in self.coup_start_phases)
        return replace(state, seating=self.sat(state, action["player"], action["seat"]))

    def _leave(self, state: S, action: Action) -> S:
        self._check(state, action, state.phase in self.coup_start_phases)
        who = state.seating.leaving(seat=action.get("seat"), player=action.get("player"))
        return self.left(replace(state, seating=state.seating.without(who)), who)

    def _add_standing(self, state: S, action: Action) -> S:
        self._check(state, action, state.phase != SESSION_ENDED)
        return replace(state, seating=state.seating.add_standing(action["player"]))

    def _set_first_banker(self, state: S, action: Action) -> S:
        allowed = state.phase in self.coup_start_phases and state.first_banker_open
        self._check(state, action, allowed)
        return self.first_banker(state, state.seating.seat_param(action["seat"]))

    def _end_session(self, state: S, action: Action) -> S:
        self._check(state, action, state.phase in self.coup_start_phases)
        return self.ended(state)
