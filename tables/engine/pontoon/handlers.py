"""Pontoon (PT): the game of ``docs/rules/pontoon.md`` as an immutable state machine.

A player dealt a pontoon takes the bank unless the banker was dealt one too (PT-6.1); the banker
may give it up between coups (PT-6.3).

A session is a fold: ``GAME.apply(state, action)`` returns a new state or raises ``RuleError``
and changes nothing. Every action is checked in the order of PT-7.1 (COM-10.2): the shape
(``step``), the specific codes of PT-7.2, the state, the actor, the seats and players named, the
turn, the cards, the amounts, then the conditions of the action tables. Here: the action shapes,
the bank's handlers (PT-6), what the session actions of COM-3.8 do in this game, and the game.
The coup in play is in ``coup``; the legal actions and the table screen in ``legal``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tables.engine import session
from tables.engine.actions import AMOUNT, PLAYER_ID, RANK, SEAT, Action, ActionSpec, by_type, spec
from tables.engine.errors import not_eligible, out_of_turn, with_common_errors, with_shared_reasons
from tables.engine.game import GameState
from tables.engine.immutable import replace
from tables.engine.pontoon.coup import COUP_HANDLERS, finished_check
from tables.engine.pontoon.legal import legal_actions, require, seated_player, table_view
from tables.engine.pontoon.settings import CODE, DEFAULT_SEAT_COUNT, SETTINGS, TITLE, Rules
from tables.engine.pontoon.state import (
    BANK_TRANSFER,
    COUP_START,
    SUCCESSOR_OFFER,
    Offer,
    PontoonState,
)
from tables.engine.settings import seat_count_check, settings_check
from tables.engine.table import Seating, Who

# -- actions (PT-7.3) --------------------------------------------------------------------------


ACTIONS: Mapping[str, ActionSpec] = {
    **by_type(
        spec("start_coup"),
        spec("deal_card", to=SEAT, rank=RANK),
        spec("stake", amount=AMOUNT),
        spec("sit_out"),
        spec("buy", rank=RANK, amount=AMOUNT),
        spec("twist", rank=RANK),
        spec("stick"),
        spec("banker_draw", rank=RANK),
        spec("banker_stand"),
        *session.BANK_ANSWERS.values(),  # COM-9.4, COM-9.7
        spec("give_up_bank"),
    ),
    # COM-3.8 session actions; PT-7.3 a player id is a non-empty string other than the owners'
    # reserved names.
    **session.session_specs(PLAYER_ID),
}


# -- the bank (PT-6) ---------------------------------------------------------------------------


def _offeree(state: PontoonState, action: Action) -> Who:
    """PT-7.5 / PT-7.1 step 6 the offeree answering a bank offer, in turn."""
    who = seated_player(state, action)
    offer = state.offer
    assert offer is not None
    if (who.seat, who.player) not in offer.offerees:
        reason = "PT_R_PONTOON_ONLY" if offer.kind == BANK_TRANSFER else "PT_R_NOT_OFFERED"
        raise not_eligible(who.label, action.type, reason)
    seat, player = offer.current
    if who.seat != seat:
        raise out_of_turn(player, who.label)
    return who


def _accept_bank(state: PontoonState, action: Action) -> PontoonState:
    if state.phase in (BANK_TRANSFER, SUCCESSOR_OFFER):
        who = _offeree(state, action)
    else:
        # PT-6.5, COM-9.7 a vacant bank: any seated player, in no order.
        require(state, action, state.phase == COUP_START and state.vacant)
        who = seated_player(state, action)
    return replace(state, phase=COUP_START, banker=who.player, offer=None, vacant=False)


def _decline_bank(state: PontoonState, action: Action) -> PontoonState:
    require(state, action, state.phase in (BANK_TRANSFER, SUCCESSOR_OFFER))
    _offeree(state, action)
    offer = state.offer
    assert offer is not None
    if offer.index + 1 < len(offer.offerees):
        return replace(state, offer=replace(offer, index=offer.index + 1))
    if offer.kind == BANK_TRANSFER:
        coup = state.coup
        assert coup is not None
        # PT-6.1, PT-I8 every entitled player declined: the bank stays with the banker.
        return replace(state, phase=COUP_START, banker=coup.banker, offer=None)
    # PT-6.3, PT-6.5 everyone declined: the bank is vacant.
    return replace(state, phase=COUP_START, banker=None, offer=None, vacant=True)


def _give_up_bank(state: PontoonState, action: Action) -> PontoonState:
    require(state, action, state.phase == COUP_START and state.banker is not None)  # PT-6.6
    who = seated_player(state, action)
    who.require_banker(action.type, state.banker, "R_BANKER_ONLY")
    assert who.seat is not None
    # PT-6.3, PT-I13, COM-9.4 rotation order from the banker, the outgoing banker last.
    order = state.seating.rotation_from(who.seat) + (who.seat,)
    offerees = _named(state.seating, order)
    return replace(state, phase=SUCCESSOR_OFFER, offer=Offer(SUCCESSOR_OFFER, offerees))


def _named(seating: Seating, seats: tuple[int, ...]) -> tuple[tuple[int, str], ...]:
    """The offerees ``(seat, player)`` of a bank offer, in the order given."""
    return tuple(
        (seat, player) for seat in seats if (player := seating.player_at(seat)) is not None
    )


HANDLERS: Mapping[str, Callable[[PontoonState, Action], PontoonState]] = {
    **COUP_HANDLERS,
    "accept_bank": _accept_bank,
    "decline_bank": _decline_bank,
    "give_up_bank": _give_up_bank,
}
assert set(HANDLERS) | set(session.SESSION_TYPES) == set(ACTIONS)


# -- the game ----------------------------------------------------------------------------------


class Pontoon(session.SessionCore[PontoonState]):
    """The ``Game`` of pontoon (registry code ``pontoon``)."""

    code = CODE
    title = TITLE
    label = "Pontoon"
    rules_file = "pontoon.md"  # docs/rules/pontoon.md
    default_seat_count = DEFAULT_SEAT_COUNT
    actions: Mapping[str, ActionSpec] = ACTIONS
    handlers = HANDLERS
    coup_start_phases = frozenset({COUP_START})  # COM-3.8, PT-6.6
    # PT-3.1 a fresh deck at every start_coup: no action forms one (no new_pack_actions).
    # Every code this game may answer with (tests/engine/test_words.py checks their words).
    error_codes: tuple[str, ...] = with_common_errors(
        "PT_E_ALREADY_STAKED",
        "PT_E_BUY_AFTER_TWIST",
        "PT_E_FIVE_CARDS",
        "PT_E_STICK_UNDER_15",
        "PT_E_PONTOON_NO_DECISION",
    )
    reason_codes: tuple[str, ...] = with_shared_reasons(
        "R_IS_BANKER",
        "R_MAX_STAKE",
        "PT_R_HAS_BUST",
        "PT_R_HAS_STUCK",
        "PT_R_NOT_IN_COUP",
        "PT_R_SAT_OUT",
        "PT_R_BUY_LIMIT",
        "PT_R_STANDING_NO_ROLE",
        "PT_R_PONTOON_ONLY",
        "PT_R_NOT_OFFERED",
    )
    # What its table screen may expect next (``view()["expected"]``, from legal.py).
    expected_codes: tuple[str, ...] = (
        "X_SESSION_ENDED",
        "PT_X_NEXT_COUP",
        "PT_X_VACANT",
        "X_FIRST_BANKER",
        "X_ACCEPT_OR_DECLINE",
        "PT_X_FIRST_CARD",
        "PT_X_SECOND_CARD",
        "PT_X_STAKING",
        "PT_X_PLAYER_TURN",
        "PT_X_BANKER_TURN",
    )

    # -- COM-3.8 / PT-6.6 what the session actions do here ------------------------------------
    # PT-6.4 the first banker, chosen by agreement or by lot (COM-9.2), takes the bank as
    # SessionCore.first_banker has it.

    def banker_left(self, state: PontoonState, seat: int) -> PontoonState:
        # PT-6.3, COM-9.6 a banker who leaves gives up the bank: offered from his right.
        seating = state.seating
        offerees = _named(seating, seating.rotation_from(seat))
        if not offerees:  # PT-6.5 nobody left seated: the bank is vacant
            return replace(state, banker=None, vacant=True)
        offer = Offer(SUCCESSOR_OFFER, offerees)
        return replace(state, banker=None, phase=SUCCESSOR_OFFER, offer=offer)

    def ended(self, state: PontoonState) -> PontoonState:
        return replace(
            state, phase=session.SESSION_ENDED, banker=None, coup=None, offer=None, vacant=False
        )

    # -- the Game protocol --------------------------------------------------------------------

    def settings_validate(self, raw: Mapping[str, Any], seat_count: int) -> dict[str, Any]:
        """PT-1 the settings table; PT-1.1 anything else is ``E_SETTING``."""
        seat_count_check(seat_count, 2)
        # PT-1.2 max_players (fixed at 8) is capped by seat_count, not checked against it.
        return settings_check(SETTINGS, raw)

    def start(self, settings: Mapping[str, Any], seating: Seating) -> PontoonState:
        return PontoonState(Rules.of(settings, seating.seat_count), seating)

    def apply(self, state: GameState, action: Action) -> PontoonState:
        assert isinstance(state, PontoonState)
        # PT-7.3 an actor is an integer or a non-empty string
        ACTIONS[action.type].empty_actor_check(action)
        finished_check(state, action)  # PT-7.1 step 2, PT-7.2
        return self.dispatch(state, action)


GAME = Pontoon(PontoonState, legal_actions, table_view)
