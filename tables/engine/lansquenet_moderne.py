"""Lansquenet moderne (rules file ``docs/rules/lansquenet-moderne.md``, prefix LM).

One banker plays alone against the pontes. He announces a bank, the pontes cover it in up to two
speaking rounds (standing players may complete it), then the croupier turns the banker's card, the
pontes' card and middle cards until one of the two ranks comes again (LM-4). Settlement is LM-5;
what happens to the bank afterwards (stay, refait, purchase, rightful successor) is LM-6.

The state and the settings table are in ``lansquenet_moderne_state``, the croupier's table screen
in ``lansquenet_moderne_view``. The session is a fold over immutable ``LMState`` values: ``apply``
validates an action in the order of COM-10.2 (LM-4.0.2) and returns a new state, or raises
``RuleError`` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from tables.engine.actions import (
    AMOUNT,
    BOOL,
    INT,
    RANK,
    SESSION_ACTIONS,
    Action,
    ActionSpec,
    empty_actor_check,
    spec,
)
from tables.engine.cards import Pack
from tables.engine.errors import (
    RuleError,
    above_limit,
    bad_action,
    bank_covered,
    below_minimum,
    not_eligible,
    out_of_turn,
    table_size,
    wrong_state,
)
from tables.engine.game import GameState, LegalAction
from tables.engine.lansquenet_moderne_state import (
    ABANDONED,
    ABANDONMENT_PENDING,
    BANK_DECISION,
    BANK_OFFER,
    BANK_PENDING,
    BANKER_CARD,
    BANKER_CARD_OUT,
    CARD_PHASES,
    COVERED_PHASES,
    DOUBLET,
    MIDDLE_CARDS,
    PONTES_CARD,
    PONTES_CARD_OUT,
    PURCHASE,
    REFAIT_PURCHASE,
    ROTATION,
    SESSION_ENDED,
    SHORTFALL,
    SPEAKING,
    STANDING_COMPLETION,
    SUCCESSOR_OFFER,
    WITHDRAWN,
    Config,
    Coup,
    Decision,
    FixedBank,
    LMState,
    Offer,
    settings_table,
)
from tables.engine.lansquenet_moderne_view import table_view
from tables.engine.money import amount_check, cagnotte_levy, round_down
from tables.engine.settings import settings_check
from tables.engine.settlement import CAGNOTTE, CROUPIER, CoupRecord, Transfer, is_player_id
from tables.engine.table import Actor, Seating, Who

__all__ = ["GAME", "LMState", "LansquenetModerne", "rightful_successor"]

EMPTY_PACK_HINT = "record shuffle_pack first"


def _own(state: GameState) -> LMState:
    assert isinstance(state, LMState)
    return state


# -- checks shared by the handlers (COM-10.2) -------------------------------------------------


def _legal_types(st: LMState) -> list[str]:
    return sorted({legal.type for legal in _legal(st)})


def _wrong_state(st: LMState, action: Action, why: str = "") -> RuleError:
    where = f"{st.phase}: {why}" if why else st.phase
    return wrong_state(action.type, where, _legal_types(st))


def _actor(st: LMState, action: Action) -> Who:
    """COM-10.2 step 3, first half: who is acting (LM-2.4, LM-I21)."""
    return st.seating.resolve(action.actor)


def _croupier_only(st: LMState, action: Action) -> None:
    _actor(st, action).require_croupier(action.type, "only the croupier records it")


def _banker_only(st: LMState, action: Action) -> Who:
    reason = f"only the banker {st.banker} decides this"
    return _actor(st, action).require_banker(action.type, st.banker, reason)


def _check_amount(st: LMState, amount: object, minimum: int, maximum: int, what: str) -> int:
    """COM-10.2 step 6: ``E_BAD_AMOUNT``, ``E_BELOW_MINIMUM``, ``E_ABOVE_LIMIT``."""
    checked = amount_check(amount, st.config.chip_unit)
    if checked < minimum:
        raise below_minimum(checked, minimum)
    if checked > maximum:
        raise above_limit(checked, what, maximum)
    return checked


def _shape_extras(action: Action) -> None:
    """Step 1 completed (LM-2.4): an empty actor, a ``player`` that is no player id."""
    empty_actor_check(action, "an actor: a seat number, a player id or croupier")
    if "player" in action.params and not is_player_id(action["player"]):
        raise bad_action(action.type, "a player id (not croupier, cagnotte or reserve_fund)")


# -- session actions (COM-3.8, LM-4.0.1) ------------------------------------------------------


def _can_start_coup(st: LMState) -> bool:
    return st.phase == BANK_PENDING


def _sit(st: LMState, action: Action) -> LMState:
    if not _can_start_coup(st):
        raise _wrong_state(st, action, "players sit down only between coups")
    _croupier_only(st, action)
    seating = st.seating.sit(action["player"], action["seat"])
    # LM-2.2: after the COM-3.8 errors, a seat beyond max_players is E_TABLE_SIZE.
    if seating.seated_count > st.config.max_players:
        raise table_size(
            GAME.title, st.config.min_players, st.config.max_players, seating.seated_count
        )
    return replace(st, seating=seating)


def _leave(st: LMState, action: Action) -> LMState:
    if not _can_start_coup(st):
        raise _wrong_state(st, action, "players leave only between coups")
    _croupier_only(st, action)
    who = st.seating.leaving(seat=action.get("seat"), player=action.get("player"))
    left = replace(st, seating=st.seating.without(who))
    if who.kind == "seat" and who.seat == st.banker_seat:
        # LM-6.8 / COM-9.6: a banker who leaves is treated as LM-6.1, even with a fixed bank
        # pending; banker is null until someone accepts.
        return _successor_offer(replace(left, banker_seat=None, bank_rule=None), None, None)
    return left


def _add_standing(st: LMState, action: Action) -> LMState:
    # COM-3.8: accepted in every state but session_ended (checked in apply).
    _croupier_only(st, action)
    return replace(st, seating=st.seating.add_standing(action["player"]))


def _set_first_banker(st: LMState, action: Action) -> LMState:
    if not (_can_start_coup(st) and st.banker_seat is None and not st.coups):
        raise _wrong_state(st, action, "the first banker is set before the first coup")
    _croupier_only(st, action)
    seat = st.seating.seat_param(action["seat"])
    # LM-6.7: the first banker holds by rotation, anchor := him, no purchase, free bank.
    return _new_banker_by_rotation(st, seat)


def _end_session(st: LMState, action: Action) -> LMState:
    if not _can_start_coup(st):
        raise _wrong_state(st, action, "the session ends only between coups")
    _croupier_only(st, action)
    # COM-3.8: LM has no reliquat and no reserve fund: nothing moves.
    return replace(
        st, phase=SESSION_ENDED, banker_seat=None, vacant=False, bank_rule=None, offer=None
    )


# -- bank_pending (LM-4.1) ---------------------------------------------------------------------


def _announce_bank(st: LMState, action: Action) -> LMState:
    if st.phase != BANK_PENDING or st.banker_seat is None:
        raise _wrong_state(st, action, "there is no banker to announce a bank")
    seated = st.seating.seated_count
    # LM-2.2: 2 … max_players seated, checked with the state (LM-4.0.2).
    if not st.config.min_players <= seated <= st.config.max_players:
        raise table_size(GAME.title, st.config.min_players, st.config.max_players, seated)
    _banker_only(st, action)
    amount = amount_check(action["amount"], st.config.chip_unit)
    rule = st.bank_rule
    if rule is None:
        # LM-4.1 free bank: min_bank ≤ amount ≤ max_bank (LM-I14).
        if amount < st.config.min_bank:
            raise below_minimum(amount, st.config.min_bank)
        if st.config.max_bank is not None and amount > st.config.max_bank:
            raise above_limit(amount, "the table's maximum bank", st.config.max_bank)
    elif amount != rule.amount:
        # COM-9.8: a fixed bank is announced at exactly its amount, unchecked against limits.
        raise RuleError(
            "LM_E_BANK_FIXED",
            f"The bank must be {rule.amount} ({rule.why}); {amount} was announced.",
        )
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
        _croupier_only(st, action)
        return replace(st, pack=st.pack.fresh())
    if st.phase in CARD_PHASES:
        _croupier_only(st, action)
        if st.pack.left > 0:
            # LM-3.4: during a coup only with the pack empty (step 7).
            raise RuleError(
                "LM_E_PACK_NOT_EMPTY",
                f"The pack still has {st.pack.left} cards; turn the next card.",
            )
        # LM-3.4 / LM-I12: every card but those on the table forms the new pack.
        return replace(st, pack=st.pack.fresh().draw_many(st.in_play.on_table))
    raise _wrong_state(st, action)


def _accept_bank(st: LMState, action: Action) -> LMState:
    if st.phase == SUCCESSOR_OFFER:
        seat = _offeree_turn(st, action, purchase=False)
        return _new_banker_by_rotation(st, seat)  # LM-6.6
    if st.phase == BANK_PENDING and st.vacant:
        # LM-6.6.2 / LM-I24: any seated player, the outgoing banker included, in no order.
        who = _actor(st, action)
        who.require_seated(action.type, "only a seated player may hold the bank")
        assert who.seat is not None
        return _new_banker_by_rotation(st, who.seat)
    raise _wrong_state(st, action)


def _new_banker_by_rotation(st: LMState, seat: int) -> LMState:
    """LM-6.6 / LM-6.7: holding rotation, anchor := him, purchases_in_row := 0, free bank."""
    return replace(
        st,
        phase=BANK_PENDING,
        banker_seat=seat,
        holding=ROTATION,
        anchor=seat,
        purchases_in_row=0,
        bank_rule=None,
        vacant=False,
        coup=None,
        decision=None,
        offer=None,
    )


# -- speaking rounds and completion (LM-4.2 to LM-4.4) ----------------------------------------


def _stake_or_speak(st: LMState, action: Action) -> LMState:
    if action.type in ("stake", "banco") and st.phase in COVERED_PHASES:
        raise bank_covered(st.in_play.bank)  # LM-4.2.3
    if action.type == "stake" and st.phase == STANDING_COMPLETION:
        return _complete(st, action)
    if st.phase != SPEAKING:
        raise _wrong_state(st, action)  # LM-4.4.1: no banco or pass in completion
    coup = st.in_play
    who = _actor(st, action)
    who.require_seated(
        action.type,
        "standing players only complete after round 2 (LM-4.4.1)",
        croupier="the croupier never plays",
    )
    if who.seat == st.banker_seat:
        raise not_eligible(who.label, action.type, "the banker does not stake on his own bank")
    expected = coup.speakers[coup.turn]
    if who.seat != expected:
        raise out_of_turn(st.name(expected), who.label)  # LM-4.2
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
    return _check_amount(st, amount, minimum, remainder, "what is left to cover of the bank")


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
    who = _actor(st, action)
    if who.kind != "standing":
        raise not_eligible(who.label, action.type, "only standing players complete the stakes")
    assert who.player is not None
    amount = _stake_amount(st, coup, action["amount"])
    coup = coup.with_stake(who.player, amount)
    if coup.uncovered == 0:
        return _cards_begin(st, coup)
    return replace(st, coup=coup)


def _close_completion(st: LMState, action: Action) -> LMState:
    if st.phase != STANDING_COMPLETION:
        raise _wrong_state(st, action)
    _croupier_only(st, action)
    coup = st.in_play
    if coup.uncovered == 0:
        return _cards_begin(st, coup)
    return replace(st, phase=SHORTFALL)


def _cards_begin(st: LMState, coup: Coup) -> LMState:
    """Betting is closed: ``Σ s(q) = E`` (LM-5) → the banker's card."""
    return replace(st, phase=BANKER_CARD, coup=coup)


# -- shortfall (LM-4.5) ------------------------------------------------------------------------


def _reduce_bank(st: LMState, action: Action) -> LMState:
    if st.phase != SHORTFALL:
        raise _wrong_state(st, action)
    _banker_only(st, action)
    coup = st.in_play
    if coup.staked == 0:
        raise RuleError("LM_E_NOTHING_STAKED", "Nothing is staked: the banker can only withdraw.")
    # LM-4.5 / LM-I5: E := T; the uncovered part goes back to the banker (no transfer).
    return _cards_begin(st, replace(coup, bank=coup.staked))


def _withdraw_bank(st: LMState, action: Action) -> LMState:
    if st.phase != SHORTFALL:
        raise _wrong_state(st, action)
    _banker_only(st, action)
    # LM-4.5 / LM-I4 / LM-5.4: every stake returned, no transfer; LM-6.1 rightful successor.
    return _settle(st, st.in_play, WITHDRAWN, ())


# -- the cards (LM-4.6) ------------------------------------------------------------------------


def _turn_card(st: LMState, action: Action) -> LMState:
    if st.phase == ABANDONMENT_PENDING:
        raise _wrong_state(st, action, "an abandonment offer awaits answers")  # LM-4.7.2
    if st.phase not in CARD_PHASES:
        raise _wrong_state(st, action)
    _croupier_only(st, action)
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
    if st.phase != MIDDLE_CARDS:
        raise _wrong_state(st, action)
    _banker_only(st, action)
    fraction = action["fraction_bp"]
    if fraction < 1:
        raise below_minimum(fraction, 1)
    if fraction > 9999:
        raise above_limit(fraction, "the largest fraction in basis points", 9999)
    coup = replace(st.in_play, fraction_bp=fraction, accepted=())
    return replace(st, phase=ABANDONMENT_PENDING, coup=coup)  # LM-4.7.1, LM-I10


def _answer_abandonment(st: LMState, action: Action) -> LMState:
    if st.phase != ABANDONMENT_PENDING:
        raise _wrong_state(st, action)
    coup = st.in_play
    who = _actor(st, action)
    if who.kind == "croupier" or who.player is None or coup.stake_of(who.player) == 0:
        raise not_eligible(who.label, action.type, "only a ponte with a stake answers the offer")
    if who.player in coup.accepted:
        raise RuleError("LM_E_ALREADY_ANSWERED", f"{who.player} has already answered this offer.")
    if not action["accept"]:
        # LM-4.7.2: the offer lapses; the coup goes on; a new offer may come later.
        return replace(st, phase=MIDDLE_CARDS, coup=replace(coup, fraction_bp=0, accepted=()))
    coup = replace(coup, accepted=(*coup.accepted, who.player))
    if all(player in coup.accepted for player, amount in coup.stakes if amount > 0):
        return _settle_abandoned(st, coup)  # LM-4.7.1 unanimous
    return replace(st, coup=coup)


# -- settlement (LM-5) -------------------------------------------------------------------------


def _pontes_in_order(st: LMState, coup: Coup) -> list[tuple[str, int]]:
    """LM-5.5 / LM-I19: seated pontes in speaking order, then standing players as they staked."""
    seated = [st.seating.player_at(seat) for seat in coup.speakers]
    stakes = dict(coup.stakes)
    first = [(p, stakes[p]) for p in seated if p is not None and stakes.get(p, 0) > 0]
    rest = [(p, a) for p, a in coup.stakes if p not in seated and a > 0]
    return first + rest


def _settle_banker_wins(st: LMState, coup: Coup, outcome: str) -> LMState:
    """LM-5.1: every ponte pays his stake; ``G = E``; the banker pays ``c`` (COM-6.3, COM-6.4)."""
    banker = st.banker
    assert banker is not None
    transfers = [
        Transfer(player, banker, amount, "stake_lost")
        for player, amount in _pontes_in_order(st, coup)
    ]
    gross = sum(t.amount for t in transfers)  # COM-6.2: G, here = E
    levy = cagnotte_levy(
        gross,
        rate_bp=st.config.cagnotte_rate_bp,
        step=st.config.cagnotte_step,
        rounding=st.config.cagnotte_rounding,
    )
    if levy > 0:
        transfers.append(Transfer(banker, CAGNOTTE, levy, "cagnotte"))
    settled = _settle(st, coup, outcome, tuple(transfers))
    if settled.phase != BANK_DECISION:
        return settled
    return replace(settled, decision=Decision(coup.bank, levy, outcome == DOUBLET))


def _settle_pontes_win(st: LMState, coup: Coup) -> LMState:
    """LM-5.2: the banker pays every ponte his stake; no cagnotte."""
    banker = st.banker
    assert banker is not None
    transfers = tuple(
        Transfer(banker, player, amount, "stake_won")
        for player, amount in _pontes_in_order(st, coup)
    )
    return _settle(st, coup, PONTES_CARD_OUT, transfers)


def _settle_abandoned(st: LMState, coup: Coup) -> LMState:
    """LM-5.3: ``floor(s × fraction / (10000 × chip_unit)) × chip_unit`` to each ponte."""
    banker = st.banker
    assert banker is not None
    unit = st.config.chip_unit
    transfers = []
    for player, amount in _pontes_in_order(st, coup):
        paid = round_down(amount * coup.fraction_bp // 10000, unit)
        if paid > 0:
            transfers.append(Transfer(banker, player, paid, "abandonment"))
    return _settle(st, coup, ABANDONED, tuple(transfers))


def _settle(st: LMState, coup: Coup, outcome: str, transfers: tuple[Transfer, ...]) -> LMState:
    """Record the coup (CoupRecord asserts INV-1, COM-5.5) and move to the bank's next step."""
    record = CoupRecord(len(st.coups) + 1, outcome, transfers)
    st = replace(st, coups=(*st.coups, record), coup=None, decision=None)
    outgoing = st.banker_at
    if st.holding == REFAIT_PURCHASE:
        # LM-6.3.1 / LM-6.5: the refait buyer passes after his first coup, won or lost.
        return _successor_offer(st, outgoing, st.banker)
    if outcome in (PONTES_CARD_OUT, ABANDONED, WITHDRAWN):
        return _successor_offer(st, outgoing, None)  # LM-6.1
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


def _successor_offer(st: LMState, outgoing: int | None, must_pass: str | None) -> LMState:
    assert st.anchor is not None
    order = _successor_order(st.seating, st.anchor, outgoing)
    if not order:
        return _vacant(st)
    return replace(
        st,
        phase=SUCCESSOR_OFFER,
        banker_seat=outgoing,
        bank_rule=None,
        decision=None,
        offer=Offer(order, must_pass=must_pass),
    )


def _vacant(st: LMState) -> LMState:
    """LM-6.6.2 / COM-9.7: nobody took the bank."""
    return replace(
        st,
        phase=BANK_PENDING,
        banker_seat=None,
        bank_rule=None,
        vacant=True,
        coup=None,
        decision=None,
        offer=None,
    )


def _stay(st: LMState, action: Action) -> LMState:
    # LM_E_MUST_PASS is checked first, in apply (LM-6.3.1, LM-I23).
    if st.phase != BANK_DECISION:
        raise _wrong_state(st, action)
    _banker_only(st, action)
    decision = st.current_decision
    # LM-6.2 / LM-I17: the doubled bank may not exceed max_bank.
    if st.config.max_bank is not None and decision.doubled > st.config.max_bank:
        raise above_limit(decision.doubled, "the table's maximum bank", st.config.max_bank)
    return _stays(st, FixedBank(decision.doubled, "doubled"))


def _stay_refait(st: LMState, action: Action) -> LMState:
    if st.phase != BANK_DECISION or not st.current_decision.doublet:
        raise _wrong_state(st, action, "refait follows a doublet only")
    _banker_only(st, action)
    return _stays(st, FixedBank(st.current_decision.bank, "refait"))  # LM-6.3


def _stays(st: LMState, rule: FixedBank) -> LMState:
    return replace(st, phase=BANK_PENDING, bank_rule=rule, decision=None)


def _pass_hand(st: LMState, action: Action) -> LMState:
    if st.phase != BANK_DECISION:
        raise _wrong_state(st, action)
    _banker_only(st, action)
    decision = st.current_decision
    outgoing = st.banker_at
    # LM-6.4.1: after three purchases in a row there is no offer.
    if st.purchases_in_row >= st.config.max_consecutive_purchases:
        return _successor_offer(st, outgoing, None)
    # LM-6.4.3 / LM-I7: full price first, then the refait level after a doublet.
    levels = [(decision.doubled, PURCHASE)]
    if decision.doublet:
        levels.append((decision.bank, REFAIT_PURCHASE))
    limit = st.config.max_bank
    levels = [level for level in levels if limit is None or level[0] <= limit]
    if not levels:
        return _successor_offer(st, outgoing, None)
    # LM-6.4.2 / LM-I1: every other seated player, in rotation order from the outgoing banker.
    offerees = st.seating.rotation_from(outgoing)
    return replace(st, phase=BANK_OFFER, decision=None, offer=Offer(offerees, levels=tuple(levels)))


def _offeree_turn(st: LMState, action: Action, *, purchase: bool) -> int:
    """Steps 3–4 for an answer to an offer (LM-6.4.2, LM-6.6.1)."""
    offer = st.current_offer
    who = _actor(st, action)
    who.require_seated(action.type, "only a seated player may hold the bank")
    if purchase and who.seat == st.banker_seat:
        raise not_eligible(who.label, action.type, "the outgoing banker cannot buy his own bank")
    if who.seat != offer.current:
        raise out_of_turn(st.name(offer.current), who.label)
    return offer.current


def _buy_bank(st: LMState, action: Action) -> LMState:
    if st.phase != BANK_OFFER:
        raise _wrong_state(st, action)
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
        return _successor_offer(st, st.banker_at, None)  # LM-6.4.5 / LM-I6
    if st.phase == SUCCESSOR_OFFER:
        _offeree_turn(st, action, purchase=False)  # LM-6.6 / LM-I20
        offer = st.current_offer
        if offer.index + 1 < len(offer.offerees):
            return replace(st, offer=replace(offer, index=offer.index + 1))
        return _vacant(st)  # LM-6.6.2
    raise _wrong_state(st, action)


# -- legal actions (LM-4.0.3) ------------------------------------------------------------------


def _seats(st: LMState) -> tuple[Actor, ...]:
    return tuple(st.seating.occupied)


def _legal_session(st: LMState) -> list[LegalAction]:
    croupier: tuple[Actor, ...] = (CROUPIER,)
    legal = [LegalAction("add_standing", croupier)]
    if st.phase != BANK_PENDING:
        return legal
    seating = st.seating
    free_seat = seating.seated_count < seating.seat_count
    if free_seat and seating.seated_count < st.config.max_players:
        legal.append(LegalAction("sit", croupier))
    if seating.seats or seating.standing:
        legal.append(LegalAction("leave", croupier))
    legal.append(LegalAction("end_session", croupier))
    if st.banker_seat is None and not st.coups:
        legal.append(LegalAction("set_first_banker", croupier))
    return legal


def _legal_game(st: LMState) -> list[LegalAction]:
    croupier: tuple[Actor, ...] = (CROUPIER,)
    banker: tuple[Actor, ...] = (st.banker_seat,) if st.banker_seat is not None else ()
    phase = st.phase
    if phase == BANK_PENDING:
        legal: list[LegalAction] = []
        if st.vacant:
            if st.seating.seats:
                legal.append(LegalAction("accept_bank", _seats(st)))
            return legal
        legal.append(LegalAction("shuffle_pack", croupier))
        seated = st.seating.seated_count
        if banker and st.config.min_players <= seated <= st.config.max_players:
            legal.append(LegalAction("announce_bank", banker))
        return legal
    if phase == SPEAKING:
        coup = st.in_play
        speaker: tuple[Actor, ...] = (coup.speakers[coup.turn],)
        return [LegalAction(kind, speaker) for kind in ("pass", "stake", "banco")]
    if phase == STANDING_COMPLETION:
        legal = [LegalAction("close_completion", croupier)]
        if st.seating.standing:
            legal.append(LegalAction("stake", tuple(st.seating.standing)))
        return legal
    if phase == SHORTFALL:
        legal = [LegalAction("withdraw_bank", banker)]
        if st.in_play.staked > 0:
            legal.append(LegalAction("reduce_bank", banker))
        return legal
    if phase in CARD_PHASES:
        legal = [
            LegalAction("turn_card", croupier)
            if st.pack.left > 0
            else LegalAction("shuffle_pack", croupier)
        ]
        if phase == MIDDLE_CARDS and st.config.abandonment_offers:
            legal.append(LegalAction("offer_abandonment", banker))
        return legal
    if phase == ABANDONMENT_PENDING:
        return [LegalAction("answer_abandonment", _answerers(st))]
    if phase == BANK_DECISION:
        return _legal_decision(st, banker)
    if phase == BANK_OFFER:
        current: tuple[Actor, ...] = (st.current_offer.current,)
        return [LegalAction("buy_bank", current), LegalAction("decline_bank", current)]
    if phase == SUCCESSOR_OFFER:
        current = (st.current_offer.current,)
        return [LegalAction("accept_bank", current), LegalAction("decline_bank", current)]
    return []


def _answerers(st: LMState) -> tuple[Actor, ...]:
    coup = st.in_play
    actors: list[Actor] = []
    for player, _ in _pontes_in_order(st, coup):
        if player in coup.accepted:
            continue
        seat = st.seating.seat_of(player)
        actors.append(seat if seat is not None else player)
    return tuple(actors)


def _legal_decision(st: LMState, banker: tuple[Actor, ...]) -> list[LegalAction]:
    decision = st.current_decision
    legal = [LegalAction("pass_hand", banker)]
    if st.config.max_bank is None or decision.doubled <= st.config.max_bank:
        legal.append(LegalAction("stay", banker))  # LM-6.2, LM-I17
    if decision.doublet:
        legal.append(LegalAction("stay_refait", banker))  # LM-6.3
    return legal


def _legal(st: LMState) -> tuple[LegalAction, ...]:
    if st.phase == SESSION_ENDED:
        return ()  # LM-4.0
    return tuple(_legal_game(st) + _legal_session(st))


# -- the game ----------------------------------------------------------------------------------

Handler = Callable[[LMState, Action], LMState]

HANDLERS: Mapping[str, Handler] = {
    "sit": _sit,
    "leave": _leave,
    "add_standing": _add_standing,
    "set_first_banker": _set_first_banker,
    "end_session": _end_session,
    "announce_bank": _announce_bank,
    "shuffle_pack": _shuffle_pack,
    "accept_bank": _accept_bank,
    "decline_bank": _decline_bank,
    "pass": _stake_or_speak,
    "stake": _stake_or_speak,
    "banco": _stake_or_speak,
    "close_completion": _close_completion,
    "reduce_bank": _reduce_bank,
    "withdraw_bank": _withdraw_bank,
    "turn_card": _turn_card,
    "offer_abandonment": _offer_abandonment,
    "answer_abandonment": _answer_abandonment,
    "stay": _stay,
    "stay_refait": _stay_refait,
    "pass_hand": _pass_hand,
    "buy_bank": _buy_bank,
}

ACTIONS: Mapping[str, ActionSpec] = {
    **SESSION_ACTIONS,
    "announce_bank": spec("announce_bank", amount=AMOUNT),
    "shuffle_pack": spec("shuffle_pack"),
    "accept_bank": spec("accept_bank"),
    "decline_bank": spec("decline_bank"),
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
assert set(ACTIONS) == set(HANDLERS)


class LansquenetModerne:
    """The ``Game`` of lansquenet moderne (registry code ``lansquenet_moderne``)."""

    code = "lansquenet_moderne"
    title = "lansquenet moderne"
    default_seat_count = 12
    actions: Mapping[str, ActionSpec] = ACTIONS

    def settings_validate(self, raw: Mapping[str, Any], seat_count: int) -> dict[str, Any]:
        """§1 (E_SETTING for an unknown, mistyped or out-of-range setting)."""
        return settings_check(settings_table(seat_count), raw)

    def start(self, settings: Mapping[str, Any], seating: Seating) -> LMState:
        config = Config(**settings)
        return LMState(config=config, seating=seating, pack=Pack(config.decks))  # LM-3.1

    def apply(self, state: GameState, action: Action) -> LMState:
        st = _own(state)
        _shape_extras(action)
        if st.phase == SESSION_ENDED:
            raise _wrong_state(st, action, "the session has ended")  # LM-4.0, LM-I22
        # LM-4.0.2: two specific codes right after step 1.
        if action.type == "offer_abandonment" and not st.config.abandonment_offers:
            raise RuleError(
                "LM_E_ABANDON_DISABLED", "Abandonment offers are not allowed at this table."
            )  # LM-4.7.3
        if (
            action.type in ("stay", "stay_refait")
            and st.phase == SUCCESSOR_OFFER
            and st.current_offer.must_pass is not None
        ):
            raise RuleError(
                "LM_E_MUST_PASS",
                f"{st.current_offer.must_pass} bought the bank at the refait level "
                "and must pass the hand.",
            )  # LM-6.3.1, LM-I23
        return HANDLERS[action.type](st, action)

    def legal_actions(self, state: GameState) -> tuple[LegalAction, ...]:
        return _legal(_own(state))

    def view(self, state: GameState) -> dict[str, Any]:
        return table_view(_own(state), _legal(_own(state)))


GAME = LansquenetModerne()
