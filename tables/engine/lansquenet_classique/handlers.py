"""Lansquenet classique, with coupeurs and carabins (LC): docs/rules/lansquenet-classique.md.

A session is a fold over immutable states (COM-10.1): ``apply`` validates an action in the
order of LC-5.0.1 and returns a new state, or raises ``RuleError`` and changes nothing. Here:
the action shapes, the validation of LC-5.0.1, the handlers of the bank between coups (LC-7),
what the session actions of COM-3.8 do in this game, and the game. The coup in play is in
``coup``; the legal actions and the table screen in ``legal``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tables.engine import session
from tables.engine.actions import (
    AMOUNT,
    INT,
    PLAYER_ID,
    RANK,
    SEAT,
    Action,
    ActionSpec,
    by_type,
    spec,
)
from tables.engine.errors import (
    RuleError,
    not_eligible,
    out_of_turn,
    with_common_errors,
    with_shared_reasons,
    wrong_state,
)
from tables.engine.immutable import replace
from tables.engine.lansquenet_classique.coup import COUP_HANDLERS, bank_offer
from tables.engine.lansquenet_classique.legal import allowed_in_state, legal_actions, table_view
from tables.engine.lansquenet_classique.settings import (
    CODE,
    SETTINGS_TABLE,
    TITLE,
    Config,
)
from tables.engine.lansquenet_classique.state import (
    BANKER_QUADRUPLE,
    COUP_START,
    SUCCESSOR_OFFER,
    LCState,
    banker_seat,
    seat_label,
)
from tables.engine.settings import settings_check
from tables.engine.table import Actor, Seating, Who

# -- action shapes (LC-5.0.1 step 1) ----------------------------------------------------------


ACTIONS: Mapping[str, ActionSpec] = {
    **by_type(
        spec("start_coup"),
        spec("deal_card", to=SEAT, rank=RANK),
        spec("turn_card", rank=RANK),
        spec("carabin_bet", amount=AMOUNT),
        spec("keep_bank"),
        spec("pass_bank"),
        *session.BANK_ANSWERS.values(),  # COM-9.4, COM-9.7
        spec("rejouissance", amount=INT),  # LC-I7: named, never accepted
    ),
    # COM-3.8 session actions, with the stricter player id of LC-5.0.1 step 1: a non-empty
    # string other than the reserved owner names.
    **session.session_specs(PLAYER_ID),
}

# LC-5.0.1 step 3: the croupier records the cards (and the session actions, tables.engine.session).
_CROUPIER_ACTIONS = frozenset({"start_coup", "deal_card", "turn_card"})

Handler = Callable[[LCState, Action, Who], LCState]

# -- handlers of the bank between coups (LC-7) ----------------------------------------------------


def _keep_bank(state: LCState, action: Action, who: Who) -> LCState:
    """LC-7 the banker keeps the bank: the same banker deals the next coup (LC-I15)."""
    return replace(state, phase=COUP_START)


def _pass_bank(state: LCState, action: Action, who: Who) -> LCState:
    """LC-7 pass_bank: an offer from next(banker); after a banker's quadruple, forced (LC-7.2)."""
    seat = banker_seat(state)
    if state.coups[-1].outcome == BANKER_QUADRUPLE:
        # LC-7.2, LC-I13: offered to next(banker) alone, who cannot refuse.
        first = state.seating.next_seat(seat)
        assert first is not None
        return replace(state, phase=SUCCESSOR_OFFER, offer=(first,), forced_successor=True)
    offer = bank_offer(state.seating, seat, include_banker=True)
    return replace(state, phase=SUCCESSOR_OFFER, offer=offer, forced_successor=False)


def _offeree_check(state: LCState, who: Who) -> None:
    """LC-5.0.1 step 4: a bank offer answered by another than the current offeree."""
    if state.phase == SUCCESSOR_OFFER and who.seat != state.offer[0]:
        expected = state.offer[0]
        raise out_of_turn(seat_label(state, expected) or expected, who.label)


def _accept_bank(state: LCState, action: Action, who: Who) -> LCState:
    """LC-7 the offeree (or, while the bank is vacant, any seated player, LC-7.6) takes it."""
    _offeree_check(state, who)
    return replace(
        state,
        phase=COUP_START,
        banker=who.player,
        vacant=False,
        offer=(),
        forced_successor=False,  # LC-7.2 false again once he has accepted
    )


def _decline_bank(state: LCState, action: Action, who: Who) -> LCState:
    """LC-7.1 the offer moves on; after the last offeree the bank is vacant (LC-7.6)."""
    _offeree_check(state, who)
    rest = state.offer[1:]
    if rest:
        return replace(state, offer=rest)
    return _vacant(state)


def _vacant(state: LCState) -> LCState:
    """LC-7.6, COM-9.7 the vacant bank: coup_start with no banker."""
    return replace(
        state, phase=COUP_START, banker=None, vacant=True, offer=(), forced_successor=False
    )


_HANDLERS: Mapping[str, Handler] = {
    **COUP_HANDLERS,
    "keep_bank": _keep_bank,
    "pass_bank": _pass_bank,
    "accept_bank": _accept_bank,
    "decline_bank": _decline_bank,
}
assert set(_HANDLERS) | set(session.SESSION_TYPES) | {"rejouissance"} == set(ACTIONS)


def _names_seat(state: LCState, actor: Actor | None, seat: int) -> bool:
    """The recorded actor is the player at ``seat``, named by his seat or by his id."""
    if isinstance(actor, bool):
        return False
    if isinstance(actor, int):
        return actor == seat
    return isinstance(actor, str) and state.seating.seat_of(actor) == seat


# -- the game ---------------------------------------------------------------------------------


class LansquenetClassique(session.SessionCore[LCState]):
    """The ``Game`` of lansquenet classique."""

    code = CODE
    title = TITLE
    label = "Lansquenet (classic)"
    rules_file = "lansquenet-classique.md"  # docs/rules/lansquenet-classique.md
    actions: Mapping[str, ActionSpec] = ACTIONS
    coup_start_phases = frozenset({COUP_START})  # COM-3.8
    # LC-3.1 a fresh pack at every start_coup: no action forms one (no new_pack_actions).
    # Every code this game may answer with (tests/engine/test_words.py checks their words).
    error_codes: tuple[str, ...] = with_common_errors(
        "LC_E_NOT_REPRISE",
        "LC_E_DEAD_CARD",
        "LC_E_CARABIN_ALREADY_BET",
        "LC_E_CANNOT_REFUSE",
        "LC_E_NO_REJOUISSANCE",
    )
    reason_codes: tuple[str, ...] = with_shared_reasons(
        "LC_R_CARABIN_MAX",
        "LC_R_MATCHED",
        "LC_R_NOTHING_TURNED",
        "LC_R_COUPEUR_CARD",
        "LC_R_CARABIN_CARD",
        "LC_R_COUPEUR_NOT_CARABIN",
        "LC_R_COUPEUR_HOLDS",
        "LC_S_BASE_STAKE",
        "LC_S_SESSION_LIMIT",
    )
    # What its table screen may expect next (``view()["expected"]``, from legal.py).
    expected_codes: tuple[str, ...] = (
        "X_SESSION_ENDED",
        "LC_X_VACANT",
        "X_FIRST_BANKER",
        "LC_X_SHUFFLE",
        "X_WAITING",
        "LC_X_DEAL",
        "LC_X_BANKER_CARD",
        "LC_X_REPRISE",
        "LC_X_DRAWING",
        "LC_X_BANK_DECISION",
        "LC_X_FORCED",
        "X_ACCEPT_OR_DECLINE",
    )

    # -- COM-3.8 what the session actions do here ---------------------------------------------
    # COM-9.2 the first banker, chosen by agreement or by lot, only a coupeur (LC-2.1), takes
    # the bank as SessionCore.first_banker has it.

    def banker_left(self, state: LCState, seat: int) -> LCState:
        """A banker who leaves gives up the bank (LC-7.3, COM-9.6)."""
        # LC-7.3 offered from the seat to the right of his former seat, without him; banker null.
        offer = bank_offer(state.seating, seat, include_banker=False)
        if not offer:
            return _vacant(state)
        return replace(
            state,
            phase=SUCCESSOR_OFFER,
            banker=None,
            vacant=False,
            offer=offer,
            forced_successor=False,
        )

    def ended(self, state: LCState) -> LCState:
        """COM-3.8 end_session: nothing to return in this game (LC-8.4)."""
        return replace(
            state,
            phase=session.SESSION_ENDED,
            banker=None,
            vacant=False,
            offer=(),
            forced_successor=False,
        )

    # -- settings and start --------------------------------------------------------------------

    def settings_validate(self, raw: Mapping[str, Any], seat_count: int) -> dict[str, Any]:
        """§1 table; ``max_players`` is fixed and capped by ``seat_count`` (LC-2.5)."""
        return settings_check(SETTINGS_TABLE, raw)

    def start(self, settings: Mapping[str, Any], seating: Seating) -> LCState:
        return LCState(Config.of(settings, seating.seat_count), seating)

    # -- apply (LC-5.0.1) ----------------------------------------------------------------------

    def apply(self, state: Any, action: Action) -> LCState:
        assert isinstance(state, LCState)
        # Step 1 (the rest is the shape check of game.step): the actor is a non-empty string.
        ACTIONS[action.type].empty_actor_check(action)
        # Step 2: réjouissance first, in every state (LC-I7).
        if action.type == "rejouissance":
            raise RuleError("LC_E_NO_REJOUISSANCE")
        # Specific code first (COM-10.2): the forced successor cannot refuse (LC-7.2). Anybody
        # else's decline_bank goes through the generic checks: E_NOT_PRESENT, E_NOT_ELIGIBLE,
        # E_OUT_OF_TURN.
        forced = state.phase == SUCCESSOR_OFFER and state.forced_successor
        if (
            action.type == "decline_bank"
            and forced
            and _names_seat(state, action.actor, state.offer[0])
        ):
            raise RuleError("LC_E_CANNOT_REFUSE")
        if action.type in session.SESSION_TYPES:
            return self.session_apply(state, action)
        self._state_check(state, action.type)
        # Step 3: the actor is at the table, then may perform the action at all.
        who = state.seating.resolve(action.actor)
        self._eligibility_check(state, action.type, who)
        return _HANDLERS[action.type](state, action, who)

    def _state_check(self, state: LCState, action_type: str) -> None:
        """LC-5.0.1 step 2: ``E_WRONG_STATE``, then ``E_TABLE_SIZE`` for ``start_coup``."""
        if not allowed_in_state(state, action_type):
            legal = [legal.type for legal in self.legal_actions(state)]
            raise wrong_state(action_type, state.phase, legal)
        if action_type == "start_coup":
            # LC-2.3 a coup needs 4 to min(12, seat_count) seated players.
            session.seated_check(state, self.code)

    def _eligibility_check(self, state: LCState, action_type: str, who: Who) -> None:
        """LC-5.0.1 step 3, second part: ``E_NOT_ELIGIBLE``."""
        if action_type in _CROUPIER_ACTIONS:
            who.require_croupier(action_type, "R_CROUPIER_ONLY")
        elif action_type == "carabin_bet":
            if who.kind == "croupier":
                raise not_eligible(who.label, action_type, "R_CROUPIER_NEVER_PLAYS")
            if who.kind == "seat":
                # LC-2.2 only carabins (players without a seat) bet on cartes de reprise.
                raise not_eligible(who.label, action_type, "LC_R_COUPEUR_NOT_CARABIN")
        elif action_type in ("keep_bank", "pass_bank"):
            who.require_banker(action_type, state.banker, "R_BANKER_ONLY")
        elif action_type in ("accept_bank", "decline_bank"):
            # LC-2.1, COM-9.1 only a seated coupeur may hold the bank.
            who.require_seated(action_type, "LC_R_COUPEUR_HOLDS")


GAME = LansquenetClassique(LCState, legal_actions, table_view)
