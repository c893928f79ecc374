"""Lansquenet moderne (rules file ``docs/rules/lansquenet-moderne.md``, prefix LM).

One banker plays alone against the pontes. He announces a bank, the pontes cover it in up to two
speaking rounds (standing players may complete it), then the croupier turns the banker's card, the
pontes' card and middle cards until one of the two ranks comes again (LM-4). Settlement is LM-5;
what happens to the bank afterwards (stay, refait, purchase, rightful successor) is LM-6.

The session is a fold over immutable ``LMState`` values: ``apply`` validates an action in the
order of COM-10.2 (LM-4.0.2) and returns a new state, or raises ``RuleError`` and changes nothing.
Here: the action shapes, the handlers between coups (LM-4.1, LM-6), what the session actions of
COM-3.8 do in this game, and the game. The coup in play is in ``coup``; the legal actions and
the table screen in ``legal``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from tables.engine.actions import (
    AMOUNT,
    BOOL,
    INT,
    RANK,
    SESSION_ACTIONS,
    Action,
    ActionSpec,
    player_id_check,
    spec,
)
from tables.engine.cards import Pack
from tables.engine.checks import acting, banker_only, croupier_only
from tables.engine.errors import (
    RuleError,
    above_limit,
    below_minimum,
    not_eligible,
    out_of_turn,
    table_size,
    with_common_errors,
    with_shared_reasons,
)
from tables.engine.game import GameState, own_state
from tables.engine.immutable import replace
from tables.engine.lansquenet_moderne.coup import (
    COUP_HANDLERS,
    bank_vacant,
    between_coups,
    successor_offer,
)
from tables.engine.lansquenet_moderne.legal import (
    EXPECTED_BY_PHASE,
    banker_in,
    legal_actions,
    phase_check,
    refused,
    table_view,
)
from tables.engine.lansquenet_moderne.settings import CODE, TITLE, Config, settings_table
from tables.engine.lansquenet_moderne.state import (
    BANK_DECISION,
    BANK_OFFER,
    BANK_PENDING,
    CARD_PHASES,
    PURCHASE,
    REFAIT_PURCHASE,
    ROTATION,
    SPEAKING,
    SUCCESSOR_OFFER,
    Coup,
    FixedBank,
    LMState,
    Offer,
)
from tables.engine.money import amount_check
from tables.engine.session import (
    BANK_ANSWERS,
    SESSION_ENDED,
    SESSION_TYPES,
    SessionCore,
    seated_check,
)
from tables.engine.settings import settings_check
from tables.engine.table import Seating, Who

# -- bank_pending (LM-4.1) ---------------------------------------------------------------------


def _announce_bank(st: LMState, action: Action) -> LMState:
    if st.phase != BANK_PENDING or st.banker_seat is None:
        raise refused(st, action, "LM_R_NO_BANKER")
    # LM-2.2: 2 … max_players seated, checked with the state (LM-4.0.2).
    seated_check(st, CODE)
    banker_only(st, action)
    amount = amount_check(action["amount"], st.config.chip_unit)
    rule = st.bank_rule
    if rule is None:
        # LM-4.1 free bank: min_bank ≤ amount ≤ max_bank (LM-I14).
        if amount < st.config.min_bank:
            raise below_minimum(amount, st.config.min_bank)
        if st.config.max_bank is not None and amount > st.config.max_bank:
            raise above_limit(amount, "R_MAX_BANK", st.config.max_bank)
    elif amount != rule.amount:
        # COM-9.8: a fixed bank is announced at exactly its amount, unchecked against limits.
        why = f"LM_R_{rule.why.upper()}"  # LM_R_DOUBLED, LM_R_REFAIT, LM_R_BOUGHT
        raise RuleError("LM_E_BANK_FIXED", bank=rule.amount, why=why, amount=amount)
    speakers = st.seating.rotation_from(st.banker_at)  # LM-2.3
    return replace(
        st,
        phase=SPEAKING,
        coup=Coup(bank=amount, speakers=speakers),
        bank_rule=None,
        decision=None,
        offer=None,
    )


def _shuffle_pack(st: LMState, action: Action) -> LMState:
    if st.phase == BANK_PENDING and not st.vacant:
        # LM-3.3 / LM-I13: between coups, a new full pack.
        croupier_only(st, action)
        return replace(st, pack=st.pack.fresh())
    if st.phase in CARD_PHASES:
        croupier_only(st, action)
        if st.pack.left > 0:
            # LM-3.4: during a coup only with the pack empty (step 7).
            raise RuleError("LM_E_PACK_NOT_EMPTY", left=st.pack.left)
        # LM-3.4 / LM-I12: every card but those on the table forms the new pack.
        return replace(st, pack=st.pack.fresh().draw_many(st.in_play.on_table))
    raise refused(st, action)


def _accept_bank(st: LMState, action: Action) -> LMState:
    if st.phase == SUCCESSOR_OFFER:
        seat = _offeree_turn(st, action, purchase=False)
        return _new_banker_by_rotation(st, seat)  # LM-6.6
    if st.phase == BANK_PENDING and st.vacant:
        # LM-6.6.2 / LM-I24: any seated player, the outgoing banker included, in no order.
        who = acting(st, action)
        who.require_seated(action.type, "R_SEATED_HOLDS")
        assert who.seat is not None
        return _new_banker_by_rotation(st, who.seat)
    raise refused(st, action)


def _new_banker_by_rotation(st: LMState, seat: int) -> LMState:
    """LM-6.6 / LM-6.7: holding rotation, anchor := him, purchases_in_row := 0, free bank."""
    return replace(
        between_coups(st),
        banker_seat=seat,
        holding=ROTATION,
        anchor=seat,
        purchases_in_row=0,
        bank_rule=None,
        vacant=False,
    )


def _stay(st: LMState, action: Action) -> LMState:
    # LM_E_MUST_PASS is checked first, in apply (LM-6.3.1, LM-I23).
    banker_in(st, action, BANK_DECISION)
    decision = st.current_decision
    # LM-6.2 / LM-I17: the doubled bank may not exceed max_bank.
    if st.config.max_bank is not None and decision.doubled > st.config.max_bank:
        raise above_limit(decision.doubled, "R_MAX_BANK", st.config.max_bank)
    return _stays(st, FixedBank(decision.doubled, "doubled"))


def _stay_refait(st: LMState, action: Action) -> LMState:
    if st.phase != BANK_DECISION or not st.current_decision.doublet:
        raise refused(st, action, "LM_R_REFAIT_AFTER_DOUBLET")
    banker_only(st, action)
    return _stays(st, FixedBank(st.current_decision.bank, "refait"))  # LM-6.3


def _stays(st: LMState, rule: FixedBank) -> LMState:
    return replace(st, phase=BANK_PENDING, bank_rule=rule, decision=None)


def _pass_hand(st: LMState, action: Action) -> LMState:
    banker_in(st, action, BANK_DECISION)
    decision = st.current_decision
    outgoing = st.banker_at
    # LM-6.4.1: after three purchases in a row there is no offer.
    if st.purchases_in_row >= st.config.max_consecutive_purchases:
        return successor_offer(st, outgoing, None)
    # LM-6.4.3 / LM-I7: full price first, then the refait level after a doublet.
    levels = [(decision.doubled, PURCHASE)]
    if decision.doublet:
        levels.append((decision.bank, REFAIT_PURCHASE))
    limit = st.config.max_bank
    levels = [level for level in levels if limit is None or level[0] <= limit]
    if not levels:
        return successor_offer(st, outgoing, None)
    # LM-6.4.2 / LM-I1: every other seated player, in rotation order from the outgoing banker.
    offerees = st.seating.rotation_from(outgoing)
    return replace(st, phase=BANK_OFFER, decision=None, offer=Offer(offerees, levels=tuple(levels)))


def _offeree_turn(st: LMState, action: Action, *, purchase: bool) -> int:
    """Steps 3–4 for an answer to an offer (LM-6.4.2, LM-6.6.1)."""
    offer = st.current_offer
    who = acting(st, action)
    who.require_seated(action.type, "R_SEATED_HOLDS")
    if purchase and who.seat == st.banker_seat:
        raise not_eligible(who.label, action.type, "LM_R_OWN_BANK")
    if who.seat != offer.current:
        raise out_of_turn(st.who_at(offer.current), who.label)
    return offer.current


def _buy_bank(st: LMState, action: Action) -> LMState:
    phase_check(st, action, BANK_OFFER)
    seat = _offeree_turn(st, action, purchase=True)
    offer = st.current_offer
    price, holding = offer.levels[offer.level]
    # LM-6.4.4: fixed(price), anchor unchanged, purchases_in_row += 1 (LM-I9);
    # LM-6.4.6 / COM-9.5: no money passes between the buyer and the outgoing banker.
    return replace(
        st,
        phase=BANK_PENDING,
        banker_seat=seat,
        holding=holding,
        purchases_in_row=st.purchases_in_row + 1,
        bank_rule=FixedBank(price, "bought"),
        offer=None,
    )


def _decline_bank(st: LMState, action: Action) -> LMState:
    if st.phase == BANK_OFFER:
        _offeree_turn(st, action, purchase=True)
        offer = st.current_offer
        if offer.index + 1 < len(offer.offerees):
            return replace(st, offer=replace(offer, index=offer.index + 1))
        if offer.level + 1 < len(offer.levels):
            return replace(st, offer=replace(offer, index=0, level=offer.level + 1))
        return successor_offer(st, st.banker_at, None)  # LM-6.4.5 / LM-I6
    if st.phase == SUCCESSOR_OFFER:
        _offeree_turn(st, action, purchase=False)  # LM-6.6 / LM-I20
        offer = st.current_offer
        if offer.index + 1 < len(offer.offerees):
            return replace(st, offer=replace(offer, index=offer.index + 1))
        return bank_vacant(st)  # LM-6.6.2
    raise refused(st, action)


HANDLERS: Mapping[str, Callable[[LMState, Action], LMState]] = {
    "announce_bank": _announce_bank,
    "shuffle_pack": _shuffle_pack,
    "accept_bank": _accept_bank,
    "decline_bank": _decline_bank,
    **COUP_HANDLERS,
    "stay": _stay,
    "stay_refait": _stay_refait,
    "pass_hand": _pass_hand,
    "buy_bank": _buy_bank,
}

ACTIONS: Mapping[str, ActionSpec] = {
    **SESSION_ACTIONS,
    "announce_bank": spec("announce_bank", amount=AMOUNT),
    "shuffle_pack": spec("shuffle_pack"),
    **BANK_ANSWERS,  # COM-9.4, COM-9.7
    "pass": spec("pass"),
    "stake": spec("stake", amount=AMOUNT),
    "banco": spec("banco"),
    "close_completion": spec("close_completion"),
    "reduce_bank": spec("reduce_bank"),
    "withdraw_bank": spec("withdraw_bank"),
    "turn_card": spec("turn_card", rank=RANK),
    "offer_abandonment": spec("offer_abandonment", fraction_bp=INT),
    "answer_abandonment": spec("answer_abandonment", accept=BOOL),
    "stay": spec("stay"),
    "stay_refait": spec("stay_refait"),
    "pass_hand": spec("pass_hand"),
    "buy_bank": spec("buy_bank"),
}
assert set(ACTIONS) == set(HANDLERS) | set(SESSION_TYPES)


class LansquenetModerne(SessionCore[LMState]):
    """The ``Game`` of lansquenet moderne (registry code ``lansquenet_moderne``)."""

    code = CODE
    title = TITLE
    label = "Lansquenet (modern)"
    rules_file = "lansquenet-moderne.md"  # docs/rules/lansquenet-moderne.md
    actions: Mapping[str, ActionSpec] = ACTIONS
    handlers = HANDLERS
    coup_start_phases = frozenset({BANK_PENDING})  # COM-3.8, LM-4.0.1
    new_pack_actions = frozenset({"shuffle_pack"})  # LM-3.3, LM-3.4
    session_why: ClassVar[Mapping[str, str]] = {
        "sit": "LM_R_SIT_BETWEEN",
        "leave": "LM_R_LEAVE_BETWEEN",
        "set_first_banker": "LM_R_FIRST_BANKER_BEFORE",
        "end_session": "LM_R_END_BETWEEN",
    }
    # Every code this game may answer with (tests/engine/test_words.py checks their words).
    error_codes: tuple[str, ...] = with_common_errors(
        "LM_E_BANK_FIXED",
        "LM_E_NOTHING_STAKED",
        "LM_E_MUST_PASS",
        "LM_E_ABANDON_DISABLED",
        "LM_E_ALREADY_ANSWERED",
        "LM_E_PACK_NOT_EMPTY",
    )
    reason_codes: tuple[str, ...] = with_shared_reasons(
        "R_SEATED_HOLDS",
        "R_MAX_BANK",
        "R_LEFT_TO_COVER",
        "LM_R_SHUFFLE_FIRST",
        "LM_R_STANDING_COMPLETE_LATER",
        "LM_R_BANKER_STAKES",
        "LM_R_STANDING_ONLY",
        "LM_R_LARGEST_FRACTION",
        "LM_R_STAKED_ANSWERS",
        "LM_R_ABANDONMENT_AWAITS",
        "LM_R_NO_BANKER",
        "LM_R_DOUBLED",
        "LM_R_REFAIT",
        "LM_R_BOUGHT",
        "LM_R_REFAIT_AFTER_DOUBLET",
        "LM_R_OWN_BANK",
        "LM_R_SESSION_ENDED",
        "LM_R_SIT_BETWEEN",
        "LM_R_LEAVE_BETWEEN",
        "LM_R_FIRST_BANKER_BEFORE",
        "LM_R_END_BETWEEN",
        "LM_S_MIN_STAKE",
        "LM_P_ACTOR",
    )
    # What its table screen may expect next (``view()["expected"]``, from legal.py).
    expected_codes: tuple[str, ...] = (
        "X_SESSION_ENDED",
        "LM_X_VACANT",
        "X_FIRST_BANKER",
        "X_ANNOUNCE_AT",
        "X_ANNOUNCE",
        "LM_X_SPEAKS",
        *EXPECTED_BY_PHASE.values(),
        "LM_X_PACK_EMPTY",
        "LM_X_BUY_BANK",
        "X_ACCEPT_OR_DECLINE",
    )

    # -- COM-3.8 / LM-4.0.1 what the session actions do here ----------------------------------

    def sat(self, state: LMState, player: str, seat: int) -> Seating:
        seating = state.seating.sit(player, seat)
        config = state.config
        # LM-2.2: after the COM-3.8 errors, a seat beyond max_players is E_TABLE_SIZE.
        if seating.seated_count > config.max_players:
            raise table_size(CODE, config.min_players, config.max_players, seating.seated_count)
        return seating

    def first_banker(self, state: LMState, seat: int) -> LMState:
        # LM-6.7: the first banker holds by rotation, anchor := him, no purchase, free bank.
        return _new_banker_by_rotation(state, seat)

    def left(self, state: LMState, who: Who) -> LMState:
        if who.kind == "seat" and who.seat == state.banker_seat:
            # LM-6.8 / COM-9.6: a banker who leaves is treated as LM-6.1, even with a fixed bank
            # pending; banker is null until someone accepts.
            return successor_offer(replace(state, banker_seat=None, bank_rule=None), None, None)
        return state

    def ended(self, state: LMState) -> LMState:
        # COM-3.8: LM has no reliquat and no reserve fund: nothing moves.
        return replace(
            state, phase=SESSION_ENDED, banker_seat=None, vacant=False, bank_rule=None, offer=None
        )

    # -- the Game protocol --------------------------------------------------------------------

    def settings_validate(self, raw: Mapping[str, Any], seat_count: int) -> dict[str, Any]:
        """§1 (E_SETTING for an unknown, mistyped or out-of-range setting)."""
        return settings_check(settings_table(seat_count), raw)

    def start(self, settings: Mapping[str, Any], seating: Seating) -> LMState:
        config = Config(**settings)
        return LMState(config=config, seating=seating, pack=Pack(config.decks))  # LM-3.1

    def apply(self, state: GameState, action: Action) -> LMState:
        st = own_state(state, LMState)
        player_id_check(action, ["LM_P_ACTOR"])  # step 1 completed (LM-2.4)
        if st.phase == SESSION_ENDED:
            raise refused(st, action, "LM_R_SESSION_ENDED")  # LM-4.0, LM-I22
        # LM-4.0.2: two specific codes right after step 1.
        if action.type == "offer_abandonment" and not st.config.abandonment_offers:
            raise RuleError("LM_E_ABANDON_DISABLED")  # LM-4.7.3
        if (
            action.type in ("stay", "stay_refait")
            and st.phase == SUCCESSOR_OFFER
            and st.current_offer.must_pass is not None
        ):
            raise RuleError("LM_E_MUST_PASS", banker=st.current_offer.must_pass)  # LM-6.3.1
        return self.dispatch(st, action)


GAME = LansquenetModerne(LMState, legal_actions, table_view)
