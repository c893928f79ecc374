"""Baccara chemin de fer (docs/rules/chemin-de-fer.md, rule prefix CF): the action handlers.

A player banker puts up a bank; one player (banco), or several together, cover it; one ponte,
the card holder, plays a two- or three-card baccara hand for all of them against the banker's.
The croupier levies the cagnotte on the banker's winnings (COM-6). The bank stays with a winning
banker (who may set winnings aside au reliquat, COM-7, or offer a suite) and passes to the right
when he loses.

The session is a fold over the croupier's record (COM-10.1): ``CFState`` is immutable, and each
action type has one handler that validates in the order of COM-10.2 / CF-7.1 and returns a new
state. Here: the action shapes, the handlers between coups (CF-4.1, CF-6), what the session
actions of COM-3.8 do in this game, and the game. The coup in play is in ``coup``; the legal
actions and the table screen in ``legal``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tables.engine.actions import (
    AMOUNT,
    INT,
    PLAYER_ID,
    RANK,
    Action,
    ActionSpec,
    Param,
    by_type,
    spec,
)
from tables.engine.cards import Pack
from tables.engine.checks import acting, banker_only, croupier_only
from tables.engine.chemin_de_fer.coup import (
    COUP_HANDLERS,
    bank_pending,
    pass_hand,
    return_reliquat,
    suite_declined_by_all,
    with_reliquat_in,
)
from tables.engine.chemin_de_fer.legal import EXPECTED_BY_PHASE, legal_actions, refused, table_view
from tables.engine.chemin_de_fer.settings import CODE, TITLE, Rules, settings_table
from tables.engine.chemin_de_fer.state import (
    BANCO_CALL,
    BANK_DECISION,
    BANK_PENDING,
    HAND_OFFER,
    SUITE_OFFER,
    CFState,
    Coup,
    Offer,
    Shoe,
    expected_cutter,
)
from tables.engine.errors import (
    RuleError,
    above_limit,
    bad_setting,
    below_minimum,
    not_eligible,
    out_of_turn,
    with_common_errors,
)
from tables.engine.immutable import replace
from tables.engine.money import amount_check
from tables.engine.session import (
    BANK_ANSWERS,
    SESSION_ENDED,
    SESSION_TYPES,
    SessionCore,
    seated_check,
    session_specs,
)
from tables.engine.settings import settings_check, typed_rules
from tables.engine.table import Seating, Who

# -- action shapes (COM-10.2 step 1, CF-7.2) --------------------------------------------------


def claim_shape_ok(claim: object) -> bool:
    """CF-7.2 a claim: ``{player, kind}``, ``amount`` (an integer) only with avec la table."""
    if not isinstance(claim, dict):
        return False
    player = claim.get("player")
    if isinstance(player, bool) or not isinstance(player, int | str):
        return False
    kind = claim.get("kind")
    if kind == "banco":
        return set(claim) == {"player", "kind"}
    if kind == "banco_with_table":
        amount = claim.get("amount")
        return (
            set(claim) == {"player", "kind", "amount"}
            and isinstance(amount, int)
            and not isinstance(amount, bool)
        )
    return False


TWO_RANKS = Param(
    "CF_P_TWO_RANKS",
    lambda v: isinstance(v, list) and len(v) == 2 and all(isinstance(r, str) for r in v),
)
CLAIMS = Param(
    "CF_P_CLAIMS",
    lambda v: isinstance(v, list) and all(claim_shape_ok(c) for c in v),
)


ACTIONS: Mapping[str, ActionSpec] = {
    **by_type(
        # CF-4.1 bank_pending
        spec("new_shoe", cut_by=INT),
        spec("announce_bank", amount=AMOUNT),
        spec("give_up_bank"),
        spec("offer_suite"),
        *BANK_ANSWERS.values(),  # COM-9.4, COM-9.7
        # CF-4.2 to CF-4.7 the coup
        spec("banco_call", claims=CLAIMS),
        spec("stake", amount=AMOUNT),
        spec("close_bets"),
        spec("deal", ponte=TWO_RANKS, banker=TWO_RANKS),
        spec("ponte_show_natural"),
        spec("ponte_stand"),
        spec("ponte_draw"),
        spec("banker_show_natural"),
        spec("ponte_third_card", rank=RANK),
        spec("banker_draw", rank=RANK),
        spec("banker_stand"),
        # CF-6 the bank after the coup
        spec("continue_bank", reliquat=AMOUNT),
        spec("take_suite"),
        spec("decline_suite"),
    ),
    # COM-3.8 session actions, with the player id of CF-7.2 (a non-empty text other than the
    # reserved names); CF has no set_first_banker (CF-6.6: E_UNKNOWN_ACTION)
    **session_specs(PLAYER_ID, first_banker=False),
}

# -- checks of the handlers between coups ----------------------------------------------------


def _offeree(state: CFState, action: Action, *, banker_may: bool) -> Who:
    """Answers to a suite or hand offer: a seated player (step 3), the next offeree (step 4)."""
    who = acting(state, action)
    who.require_seated(action.type, "R_SEATED_ANSWERS")
    if not banker_may and who.player == state.banker:
        raise not_eligible(who.label, action.type, "CF_R_OWN_SUITE")
    offer = state.offer
    assert offer is not None
    expected = offer.offerees[0]
    if who.seat != expected:
        expected_player = state.seating.player_at(expected)
        raise out_of_turn(expected_player or expected, who.label)
    return who


def _has_banker(state: CFState) -> bool:
    return state.phase == BANK_PENDING and state.banker is not None


# -- CF-4.1 bank_pending -------------------------------------------------------------------------


def _new_shoe(state: CFState, action: Action) -> CFState:
    if not _has_banker(state):
        raise refused(state, action)
    if state.shoe_running:
        # CF-3.4 a shoe still runs.
        raise RuleError("CF_E_SHOE_NOT_ENDED", left=state.cards_before_stop)
    croupier_only(state, action)
    expected = expected_cutter(state)
    if action["cut_by"] != expected:
        raise RuleError("CF_E_WRONG_CUTTER", seat=expected)  # CF-3.2
    # CF-3.2 a fresh shoe: the card tracking restarts (COM-2.2).
    return replace(state, shoe=Shoe(Pack(state.rules.decks)), last_cutter=expected)


def _announce_bank(state: CFState, action: Action) -> CFState:
    if not _has_banker(state):
        raise refused(state, action)
    if not state.shoe_running:
        # CF-3.4 no coup before the first shoe or after the stop-card coup.
        why = "CF_R_NO_SHOE" if state.shoe is None else "CF_R_RED_CARD"
        raise RuleError("CF_E_SHOE_ENDED", why=why)
    seated_check(state, CODE)  # CF-2.2
    banker_only(state, action)
    rules = state.rules
    amount = amount_check(action["amount"], rules.chip_unit)  # COM-5.1
    if state.bank_rule is None:
        # CF-4.1 a free bank within the house limits.
        if amount < rules.min_bank:
            raise below_minimum(amount, rules.min_bank)
        if rules.max_bank is not None and amount > rules.max_bank:
            raise above_limit(amount, "R_MAX_BANK", rules.max_bank)
    elif amount != state.bank_rule:
        # CF-4.1 / COM-9.8 a fixed bank is announced at exactly its amount.
        raise RuleError("CF_E_BANK_FIXED", bank=state.bank_rule, amount=amount)
    return replace(state, phase=BANCO_CALL, coup=Coup(bank=amount))


def _fixed_banker_error(state: CFState) -> RuleError:
    return RuleError("CF_E_FIXED_BANKER", player=state.adjudicated or "")


def _give_up_bank(state: CFState, action: Action) -> CFState:
    if not _has_banker(state):
        raise refused(state, action)
    if state.adjudicated is not None:
        raise _fixed_banker_error(state)  # CF-6.5
    who = banker_only(state, action)
    assert who.player is not None and who.seat is not None
    # CF-4.1 / CF-5.5 reliquat returned as a session transfer; the hand passes (CF-6.3).
    state = return_reliquat(state, who.player, on_coup=False)
    return pass_hand(state, outgoing=who.player, anchor=who.seat)


def _offer_suite(state: CFState, action: Action) -> CFState:
    if not (_has_banker(state) or state.phase == BANK_DECISION):
        raise refused(state, action)
    if state.adjudicated is not None:
        raise _fixed_banker_error(state)  # CF-6.5
    if state.phase == BANK_PENDING and not (state.bank_rule is not None and state.suite):
        # CF-4.1 only a bank won or tied in his own tenure makes a suite.
        raise RuleError("CF_E_NO_SUITE", banker=state.banker or "")
    who = banker_only(state, action)
    assert who.seat is not None
    if state.phase == BANK_DECISION:
        amount = state.bank_after
        assert amount is not None
        if state.rules.max_bank is not None and amount > state.rules.max_bank:
            # CF-6.1 a suite cannot exceed the maximum bank.
            raise above_limit(amount, "R_MAX_BANK", state.rules.max_bank)
        from_decision = True
    else:
        assert state.bank_rule is not None
        amount = state.bank_rule
        from_decision = False
    # CF-6.2 / CF-I13 the suite is offered in rotation order from the banker.
    offerees = state.seating.rotation_from(who.seat)
    offer = Offer("suite", state.banker, who.seat, offerees, amount, from_decision)
    state = replace(state, phase=SUITE_OFFER, offer=offer, coup=None)
    if not offerees:
        return suite_declined_by_all(state)
    return state


def _accept_bank(state: CFState, action: Action) -> CFState:
    if state.phase == BANK_PENDING and state.banker is None:
        # CF-6.7 / COM-9.7 vacant bank: any seated player, in any order.
        who = acting(state, action)
        who.require_seated(action.type, "R_SEATED_HOLDS")
    elif state.phase == HAND_OFFER:
        who = _offeree(state, action, banker_may=True)  # CF-6.3 / COM-9.4
    else:
        raise refused(state, action)
    return bank_pending(state, banker=who.player)  # CF-6.3 the new banker announces a free bank


def _declined(state: CFState, action: Action, phase: str, *, banker_may: bool) -> CFState | None:
    """The offeree in turn declines the offer of ``phase``: the offer passes to the next
    offeree, or None when every offeree has declined."""
    if state.phase != phase:
        raise refused(state, action)
    _offeree(state, action, banker_may=banker_may)
    offer = state.offer
    assert offer is not None
    rest = offer.offerees[1:]
    if rest:
        return replace(state, offer=replace(offer, offerees=rest))
    return None


def _decline_bank(state: CFState, action: Action) -> CFState:
    passed = _declined(state, action, HAND_OFFER, banker_may=True)
    if passed is not None:
        return passed
    return bank_pending(state, banker=None)  # CF-6.7 everyone declined: the bank is vacant


# -- CF-6 the bank after the coup ----------------------------------------------------------------


def _continue_bank(state: CFState, action: Action) -> CFState:
    if state.phase != BANK_DECISION:
        raise refused(state, action)
    who = banker_only(state, action)
    assert who.player is not None
    rules = state.rules
    bank = state.bank_after
    assert bank is not None
    reliquat = amount_check(action["reliquat"], rules.chip_unit, allow_zero=True)  # CF-6.1
    kept = bank - reliquat
    if reliquat > 0 and kept < rules.min_bank:
        raise below_minimum(kept, rules.min_bank)
    if rules.max_bank is not None and kept > rules.max_bank:
        # CF-6.1 the excess over max_bank must go to the reliquat.
        raise above_limit(kept, "R_MAX_BANK", rules.max_bank)
    if reliquat > 0 and state.last_outcome == "tie":
        # CF-I12 the reliquat takes winnings only.
        raise RuleError("CF_E_RELIQUAT")
    # COM-7.1 / CF-5.5 the reliquat_in belongs to this coup's transfers.
    state = with_reliquat_in(state, who.player, reliquat)
    # CF-6.1 next bank fixed at what is kept, a suite to offer.
    return bank_pending(state, banker=state.banker, bank_rule=kept, suite=True)


def _take_suite(state: CFState, action: Action) -> CFState:
    if state.phase != SUITE_OFFER:
        raise refused(state, action)
    who = _offeree(state, action, banker_may=False)
    offer = state.offer
    assert offer is not None and offer.outgoing is not None
    # CF-6.2 the outgoing banker's tenure ends: his reliquat is returned (CF-5.5 coup or session).
    state = return_reliquat(state, offer.outgoing, on_coup=offer.from_decision)
    # CF-6.2 the taker puts up the suite amount; he has no suite before he plays it.
    return bank_pending(state, banker=who.player, bank_rule=offer.amount)


def _decline_suite(state: CFState, action: Action) -> CFState:
    passed = _declined(state, action, SUITE_OFFER, banker_may=False)
    if passed is not None:
        return passed
    return suite_declined_by_all(state)  # CF-6.2 / CF-I13


HANDLERS: Mapping[str, Callable[[CFState, Action], CFState]] = {
    "new_shoe": _new_shoe,
    "announce_bank": _announce_bank,
    "give_up_bank": _give_up_bank,
    "offer_suite": _offer_suite,
    "accept_bank": _accept_bank,
    "decline_bank": _decline_bank,
    **COUP_HANDLERS,
    "continue_bank": _continue_bank,
    "take_suite": _take_suite,
    "decline_suite": _decline_suite,
}
assert set(HANDLERS) | set(SESSION_TYPES) >= set(ACTIONS)


# -- the game --------------------------------------------------------------------------------

# Every code this game may answer with (tests/engine/test_words.py checks each has its words).
ERROR_CODES: tuple[str, ...] = with_common_errors(
    "CF_E_SHOE_ENDED",
    "CF_E_SHOE_NOT_ENDED",
    "CF_E_WRONG_CUTTER",
    "CF_E_BANK_FIXED",
    "CF_E_DUPLICATE_CLAIM",
    "CF_E_TABLE_THRESHOLD",
    "CF_E_NOT_NATURAL",
    "CF_E_NO_THIRD_CARD",
    "CF_E_RELIQUAT",
    "CF_E_NO_SUITE",
    "CF_E_FIXED_BANKER",
)
# The words an error's parameters name (its reason, its limit, what is allowed …).
REASON_CODES: tuple[str, ...] = (
    "R_STATE",
    "R_CROUPIER_ONLY",
    "R_BANKER_ONLY",
    "R_IS_BANKER",
    "R_SEATED_ANSWERS",
    "R_SEATED_HOLDS",
    "R_MAX_BANK",
    "R_LEFT_TO_COVER",
    "CF_R_CROUPIER_NEVER_STAKES",
    "CF_R_BANKER_STAKES",
    "CF_R_HOLDS_WITH_TABLE",
    "CF_R_CARD_HOLDER",
    "CF_R_OWN_SUITE",
    "CF_R_NO_SHOE",
    "CF_R_RED_CARD",
    "CF_S_FIXED_BANKER",
    "CF_S_SEATED_AT_START",
    "CF_P_TWO_RANKS",
    "CF_P_CLAIMS",
)
# What this game's table screen may expect next (``view()["expected"]``, from legal.py).
EXPECTED_CODES: tuple[str, ...] = (
    "CF_X_VACANT",
    "CF_X_CUT",
    "CF_X_ANNOUNCE_AT",
    "CF_X_ANNOUNCE",
    "CF_X_THIRD_CARD",
    "CF_X_BANKER_RESPONSE",
    *EXPECTED_BY_PHASE.values(),
)


class CheminDeFer(SessionCore[CFState]):
    """The ``Game`` of chemin de fer (game.py protocol)."""

    code = CODE
    title = TITLE
    label = "Chemin de fer"
    rules_file = "chemin-de-fer.md"  # docs/rules/chemin-de-fer.md
    actions: Mapping[str, ActionSpec] = ACTIONS
    handlers = HANDLERS
    coup_start_phases = frozenset({BANK_PENDING})  # COM-3.8
    new_pack_actions = frozenset({"new_shoe"})  # CF-3.2
    has_claims = True  # CF-4.2 the banco call names who claims what
    # Every code this game's errors and views may say (tests/engine/test_words.py).
    error_codes = ERROR_CODES
    reason_codes = REASON_CODES
    expected_codes = EXPECTED_CODES

    # -- COM-3.8 / CF-6.8 what the session actions do here ------------------------------------

    def left(self, state: CFState, who: Who) -> CFState:
        """CF-6.8 the reliquat goes back (a session transfer); a banker gives up the bank."""
        assert who.player is not None
        was_banker = who.player == state.banker
        state = return_reliquat(state, who.player, on_coup=False)
        if state.adjudicated == who.player:
            state = replace(state, adjudicated=None)  # CF-6.5 / CF-I27 adjudication ends
        if was_banker:
            # CF-6.8 / COM-9.6 a banker who leaves gives up the bank; the hand passes without him.
            assert who.seat is not None
            return pass_hand(state, outgoing=None, anchor=who.seat)
        return state

    def ended(self, state: CFState) -> CFState:
        for player, _ in state.reliquats:
            state = return_reliquat(state, player, on_coup=False)  # COM-7.2 / CF-6.8
        return replace(state, phase=SESSION_ENDED, banker=None, offer=None, adjudicated=None)

    # -- the Game protocol --------------------------------------------------------------------

    def settings_validate(self, raw: Mapping[str, Any], seat_count: int) -> dict[str, Any]:
        """§1 of the rules file; a table of fewer than 4 seats can never play (E_SETTING)."""
        if seat_count < 4:
            raise bad_setting("seat_count", seat_count, "S_AT_LEAST", minimum=4)
        return settings_check(settings_table(seat_count), raw)

    def start(self, settings: Mapping[str, Any], seating: Seating) -> CFState:
        """CF-6.6 the session opens in bank_pending with its first banker and no shoe (CF-I28)."""
        rules = typed_rules(Rules, settings)
        fixed = rules.fixed_banker
        if fixed is not None:
            if seating.seat_of(fixed) is None:
                # CF-I27 the adjudicated banker is seated when the session opens.
                raise bad_setting("fixed_banker", fixed, "CF_S_SEATED_AT_START")
            banker: str | None = fixed
        else:
            banker = seating.seats[0][1] if seating.seats else None  # CF-6.6 / CF-I19
        return CFState(
            rules=rules, seating=seating, phase=BANK_PENDING, banker=banker, adjudicated=fixed
        )

    def apply(self, state: Any, action: Action) -> CFState:
        assert isinstance(state, CFState)
        if state.phase == SESSION_ENDED:
            raise refused(state, action)  # CF-7.1 after end_session nothing passes
        return self.dispatch(state, action)


GAME = CheminDeFer(CFState, legal_actions, table_view)
