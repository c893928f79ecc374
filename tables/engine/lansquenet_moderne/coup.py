"""Lansquenet moderne: a coup in play, from the speaking rounds to the settlement.

The pontes cover the bank in up to two speaking rounds (standing players may complete it), then
the croupier turns the banker's card, the pontes' card and middle cards until one of the two
ranks comes again (LM-4). Settlement is LM-5; the rightful successor's offer that follows a lost
coup (LM-6.1) is here too, since the handlers between coups (``handlers``) share it.
"""

from __future__ import annotations

from collections.abc import Callable

from tables.engine.actions import Action
from tables.engine.checks import acting, croupier_only
from tables.engine.errors import (
    RuleError,
    above_limit,
    bank_covered,
    below_minimum,
    not_eligible,
    out_of_turn,
)
from tables.engine.immutable import replace
from tables.engine.lansquenet_moderne.legal import banker_in, phase_check, refused
from tables.engine.lansquenet_moderne.state import (
    ABANDONED,
    ABANDONMENT_PENDING,
    BANK_DECISION,
    BANK_PENDING,
    BANKER_CARD,
    BANKER_CARD_OUT,
    CARD_PHASES,
    COVERED_PHASES,
    DOUBLET,
    MIDDLE_CARDS,
    PONTES_CARD,
    PONTES_CARD_OUT,
    REFAIT_PURCHASE,
    SHORTFALL,
    SPEAKING,
    STANDING_COMPLETION,
    SUCCESSOR_OFFER,
    WITHDRAWN,
    Coup,
    Decision,
    LMState,
    Offer,
    pontes_in_order,
)
from tables.engine.levy import coup_levy, paid_by_banker
from tables.engine.money import amount_check, round_down
from tables.engine.settlement import CoupRecord, Transfer
from tables.engine.table import Seating

EMPTY_PACK_HINT = "LM_R_SHUFFLE_FIRST"


def _check_amount(st: LMState, amount: object, minimum: int, maximum: int, what: str) -> int:
    """COM-10.2 step 6: ``E_BAD_AMOUNT``, ``E_BELOW_MINIMUM``, ``E_ABOVE_LIMIT``."""
    checked = amount_check(amount, st.config.chip_unit)
    if checked < minimum:
        raise below_minimum(checked, minimum)
    if checked > maximum:
        raise above_limit(checked, what, maximum)
    return checked


# -- speaking rounds and completion (LM-4.2 to LM-4.4) ----------------------------------------


def _stake_or_speak(st: LMState, action: Action) -> LMState:
    if action.type in ("stake", "banco") and st.phase in COVERED_PHASES:
        raise bank_covered(st.in_play.bank)  # LM-4.2.3
    if action.type == "stake" and st.phase == STANDING_COMPLETION:
        return _complete(st, action)
    if st.phase != SPEAKING:
        raise refused(st, action)  # LM-4.4.1: no banco or pass in completion
    coup = st.in_play
    who = acting(st, action)
    who.require_seated(
        action.type,
        "LM_R_STANDING_COMPLETE_LATER",
        croupier="R_CROUPIER_NEVER_PLAYS",
    )
    if who.seat == st.banker_seat:
        raise not_eligible(who.label, action.type, "LM_R_BANKER_STAKES")
    expected = coup.speakers[coup.turn]
    if who.seat != expected:
        raise out_of_turn(st.who_at(expected), who.label)  # LM-4.2
    assert who.player is not None
    if action.type == "pass":
        return _after_speech(st, coup)
    if action.type == "stake":
        amount = _stake_amount(st, coup, action["amount"])
        return _after_speech(st, coup.with_stake(who.player, amount))  # LM-4.3.1
    return _banco(st, coup, who.player)


def _stake_amount(st: LMState, coup: Coup, amount: object) -> int:
    """``min(min_stake, R) ≤ amount ≤ R`` (LM-4.2, LM-I14, LM-I18)."""
    remainder = coup.uncovered
    minimum = min(st.config.min_stake, remainder)
    return _check_amount(st, amount, minimum, remainder, "R_LEFT_TO_COVER")


def _banco(st: LMState, coup: Coup, player: str) -> LMState:
    """LM-4.3.2 / LM-I2: ``whole`` cancels every other stake; ``remainder`` takes ``R``."""
    if st.config.banco_mode == "whole":
        covered = replace(coup, stakes=((player, coup.bank),))
    else:
        covered = coup.with_stake(player, coup.uncovered)
    return _cards_begin(st, covered)


def _after_speech(st: LMState, coup: Coup) -> LMState:
    """Next speaker, next round, or the end of speaking (LM-4.2.2)."""
    if coup.uncovered == 0:
        return _cards_begin(st, coup)
    turn = coup.turn + 1
    if turn < len(coup.speakers):
        return replace(st, coup=replace(coup, turn=turn))
    if coup.round == 1:
        return replace(st, coup=replace(coup, round=2, turn=0))  # LM-4.2.1, LM-I3
    if st.config.standing_completion:
        return replace(st, phase=STANDING_COMPLETION, coup=coup)  # LM-4.4, LM-I11
    return replace(st, phase=SHORTFALL, coup=coup)  # LM-4.5


def _complete(st: LMState, action: Action) -> LMState:
    """LM-4.4: a standing player completes the stakes, possibly more than once."""
    coup = st.in_play
    who = acting(st, action)
    if who.kind != "standing":
        raise not_eligible(who.label, action.type, "LM_R_STANDING_ONLY")
    assert who.player is not None
    amount = _stake_amount(st, coup, action["amount"])
    coup = coup.with_stake(who.player, amount)
    if coup.uncovered == 0:
        return _cards_begin(st, coup)
    return replace(st, coup=coup)


def _close_completion(st: LMState, action: Action) -> LMState:
    phase_check(st, action, STANDING_COMPLETION)
    croupier_only(st, action)
    coup = st.in_play
    if coup.uncovered == 0:
        return _cards_begin(st, coup)
    return replace(st, phase=SHORTFALL)


def _cards_begin(st: LMState, coup: Coup) -> LMState:
    """Betting is closed: ``Σ s(q) = E`` (LM-5) → the banker's card."""
    return replace(st, phase=BANKER_CARD, coup=coup)


# -- shortfall (LM-4.5) ------------------------------------------------------------------------


def _reduce_bank(st: LMState, action: Action) -> LMState:
    banker_in(st, action, SHORTFALL)
    coup = st.in_play
    if coup.staked == 0:
        raise RuleError("LM_E_NOTHING_STAKED")
    # LM-4.5 / LM-I5: E := T; the uncovered part goes back to the banker (no transfer).
    return _cards_begin(st, replace(coup, bank=coup.staked))


def _withdraw_bank(st: LMState, action: Action) -> LMState:
    banker_in(st, action, SHORTFALL)
    # LM-4.5 / LM-I4 / LM-5.4: every stake returned, no transfer; LM-6.1 rightful successor.
    return _settle(st, st.in_play, WITHDRAWN, ())


# -- the cards (LM-4.6) ------------------------------------------------------------------------


def _turn_card(st: LMState, action: Action) -> LMState:
    if st.phase == ABANDONMENT_PENDING:
        raise refused(st, action, "LM_R_ABANDONMENT_AWAITS")  # LM-4.7.2
    if st.phase not in CARD_PHASES:
        raise refused(st, action)
    croupier_only(st, action)
    # COM-2.2 / COM-10.2 step 5: E_BAD_RANK, E_PACK_EMPTY, E_RANK_EXHAUSTED.
    rank = st.pack.check_draw(action["rank"], empty_hint=EMPTY_PACK_HINT)
    st = replace(st, pack=st.pack.draw(rank))  # LM-3.2: never reused within a pack
    coup = st.in_play
    if st.phase == BANKER_CARD:
        return replace(st, phase=PONTES_CARD, coup=replace(coup, banker_card=rank))
    if st.phase == PONTES_CARD:
        coup = replace(coup, pontes_card=rank)
        if rank == coup.banker_card:
            return _settle_banker_wins(st, coup, DOUBLET)  # LM-4.6 doublet
        return replace(st, phase=MIDDLE_CARDS, coup=coup)
    coup = replace(coup, middle=(*coup.middle, rank))
    if rank == coup.banker_card:
        return _settle_banker_wins(st, coup, BANKER_CARD_OUT)
    if rank == coup.pontes_card:
        return _settle_pontes_win(st, coup)
    return replace(st, coup=coup)


# -- abandonment (LM-4.7) ----------------------------------------------------------------------


def _offer_abandonment(st: LMState, action: Action) -> LMState:
    # LM_E_ABANDON_DISABLED is checked first, in apply (LM-4.7.3).
    banker_in(st, action, MIDDLE_CARDS)
    fraction = action["fraction_bp"]
    if fraction < 1:
        raise below_minimum(fraction, 1)
    if fraction > 9999:
        raise above_limit(fraction, "LM_R_LARGEST_FRACTION", 9999)
    coup = replace(st.in_play, fraction_bp=fraction, accepted=())
    return replace(st, phase=ABANDONMENT_PENDING, coup=coup)  # LM-4.7.1, LM-I10


def _answer_abandonment(st: LMState, action: Action) -> LMState:
    phase_check(st, action, ABANDONMENT_PENDING)
    coup = st.in_play
    who = acting(st, action)
    if who.kind == "croupier" or who.player is None or coup.stake_of(who.player) == 0:
        raise not_eligible(who.label, action.type, "LM_R_STAKED_ANSWERS")
    if who.player in coup.accepted:
        raise RuleError("LM_E_ALREADY_ANSWERED", player=who.player)
    if not action["accept"]:
        # LM-4.7.2: the offer lapses; the coup goes on; a new offer may come later.
        return replace(st, phase=MIDDLE_CARDS, coup=replace(coup, fraction_bp=0, accepted=()))
    coup = replace(coup, accepted=(*coup.accepted, who.player))
    if all(player in coup.accepted for player, amount in coup.stakes if amount > 0):
        return _settle_abandoned(st, coup)  # LM-4.7.1 unanimous
    return replace(st, coup=coup)


# -- settlement (LM-5) -------------------------------------------------------------------------


def _settle_banker_wins(st: LMState, coup: Coup, outcome: str) -> LMState:
    """LM-5.1: every ponte pays his stake; ``G = E``; the banker pays ``c`` (COM-6.3, COM-6.4)."""
    banker = st.banker
    assert banker is not None
    transfers = [
        Transfer(player, banker, amount, "stake_lost")
        for player, amount in pontes_in_order(st, coup)
    ]
    gross = sum(t.amount for t in transfers)  # COM-6.2: G, here = E
    taken = coup_levy(st.config, banker, gross=gross, stakes=pontes_in_order(st, coup))
    transfers += taken  # COM-6.4, LV-1
    levy = paid_by_banker(taken, banker)
    settled = _settle(st, coup, outcome, tuple(transfers))
    if settled.phase != BANK_DECISION:
        return settled
    return replace(settled, decision=Decision(coup.bank, levy, outcome == DOUBLET))


def _settle_pontes_win(st: LMState, coup: Coup) -> LMState:
    """LM-5.2: the banker pays every ponte his stake; no cagnotte."""
    banker = st.banker
    assert banker is not None
    stakes = pontes_in_order(st, coup)
    transfers = tuple(Transfer(banker, player, amount, "stake_won") for player, amount in stakes)
    transfers += coup_levy(st.config, banker, gross=0, stakes=stakes)  # LV-1, LV-2
    return _settle(st, coup, PONTES_CARD_OUT, transfers)


def _settle_abandoned(st: LMState, coup: Coup) -> LMState:
    """LM-5.3: ``floor(s × fraction / (10000 × chip_unit)) × chip_unit`` to each ponte."""
    banker = st.banker
    assert banker is not None
    unit = st.config.chip_unit
    transfers = []
    stakes = pontes_in_order(st, coup)
    for player, amount in stakes:
        paid = round_down(amount * coup.fraction_bp // 10000, unit)
        if paid > 0:
            transfers.append(Transfer(banker, player, paid, "abandonment"))
    transfers += coup_levy(st.config, banker, gross=0, stakes=stakes)  # LV-1, LV-2
    return _settle(st, coup, ABANDONED, tuple(transfers))


def _settle(st: LMState, coup: Coup, outcome: str, transfers: tuple[Transfer, ...]) -> LMState:
    """Record the coup (CoupRecord asserts INV-1, COM-5.5) and move to the bank's next step."""
    record = CoupRecord(len(st.coups) + 1, outcome, transfers)
    st = replace(st, coups=(*st.coups, record), coup=None, decision=None)
    outgoing = st.banker_at
    if st.holding == REFAIT_PURCHASE:
        # LM-6.3.1 / LM-6.5: the refait buyer passes after his first coup, won or lost.
        return successor_offer(st, outgoing, st.banker)
    if outcome in (PONTES_CARD_OUT, ABANDONED, WITHDRAWN):
        return successor_offer(st, outgoing, None)  # LM-6.1
    return replace(st, phase=BANK_DECISION)  # LM-6.2, LM-6.3


# -- the bank after the coup (LM-6) ------------------------------------------------------------


def rightful_successor(seating: Seating, anchor: int, outgoing: int | None) -> int | None:
    """LM-6 / LM-I8: walk ``next(anchor)``, …, then ``anchor``; the first seated player who is
    not the outgoing banker."""
    walk = list(seating.rotation_from(anchor))
    if seating.player_at(anchor) is not None:
        walk.append(anchor)
    return next((seat for seat in walk if seat != outgoing), None)


def _successor_order(seating: Seating, anchor: int, outgoing: int | None) -> tuple[int, ...]:
    """LM-6.6 / COM-9.4: the rightful successor, then on in rotation order, the outgoing last."""
    first = rightful_successor(seating, anchor, outgoing)
    order: list[int] = []
    if first is not None:
        order = [first, *(s for s in seating.rotation_from(first) if s != outgoing)]
    if outgoing is not None and seating.player_at(outgoing) is not None:
        order.append(outgoing)
    return tuple(order)


def successor_offer(st: LMState, outgoing: int | None, must_pass: str | None) -> LMState:
    assert st.anchor is not None
    order = _successor_order(st.seating, st.anchor, outgoing)
    if not order:
        return bank_vacant(st)
    return replace(
        st,
        phase=SUCCESSOR_OFFER,
        banker_seat=outgoing,
        bank_rule=None,
        decision=None,
        offer=Offer(order, must_pass=must_pass),
    )


def between_coups(st: LMState) -> LMState:
    """LM-4.1 ``bank_pending`` with nothing in play: no coup, no decision, no offer."""
    return replace(st, phase=BANK_PENDING, coup=None, decision=None, offer=None)


def bank_vacant(st: LMState) -> LMState:
    """LM-6.6.2 / COM-9.7: nobody took the bank."""
    return replace(between_coups(st), banker_seat=None, bank_rule=None, vacant=True)


COUP_HANDLERS: dict[str, Callable[[LMState, Action], LMState]] = {
    "pass": _stake_or_speak,
    "stake": _stake_or_speak,
    "banco": _stake_or_speak,
    "close_completion": _close_completion,
    "reduce_bank": _reduce_bank,
    "withdraw_bank": _withdraw_bank,
    "turn_card": _turn_card,
    "offer_abandonment": _offer_abandonment,
    "answer_abandonment": _answer_abandonment,
}
