"""Chemin de fer: a coup in play, from the banco call to the settlement, and the bank after it.

The handlers of CF-4.2 to CF-4.7 (the banco call, the stakes, the deal, the ponte's and the
banker's decisions); the faults (CF-8); the showdown and the settlement (CF-4.8, CF-5); the
reliquat's money (COM-7, CF-5.5) and the passing of the bank (CF-6), which the handlers between
coups (``tables.engine.chemin_de_fer.handlers``) share.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from tables.engine.actions import Action
from tables.engine.cards import Pack, rank_check
from tables.engine.checks import acting, banker_only, croupier_only
from tables.engine.chemin_de_fer import state as cf
from tables.engine.chemin_de_fer.legal import refused
from tables.engine.chemin_de_fer.state import (
    CFState,
    Coup,
    Offer,
    hand_text,
    hand_value,
    is_natural,
    stake_total,
)
from tables.engine.errors import (
    RuleError,
    above_limit,
    bank_covered,
    below_minimum,
    not_eligible,
    not_present,
)
from tables.engine.immutable import replace
from tables.engine.levy import coup_levy, paid_by_banker
from tables.engine.money import amount_check
from tables.engine.settlement import CROUPIER, CoupRecord, Transfer, reliquat_of
from tables.engine.table import Actor, Seating


def _covered_or_wrong(state: CFState, action: Action) -> RuleError:
    """CF-4.3.2 a stake or banco from R = 0 until the settlement is E_BANK_COVERED."""
    if state.coup is not None and (
        state.phase in cf.COVERED_PHASES
        or (state.phase in (cf.COMPLETION, cf.OPEN_STAKING) and state.coup.left_to_cover == 0)
    ):
        return bank_covered(state.coup.bank)
    return refused(state, action)


# -- CF-4.2 banco_call -------------------------------------------------------------------------


def _claimant(seating: Seating, player: Actor) -> str:
    """CF-2.5 a claim's player, by seat number or id (E_NO_SUCH_SEAT, E_NOT_PRESENT)."""
    if isinstance(player, int):
        return seating.resolve(player).label  # a seated player: his id
    if player == CROUPIER or not seating.is_present(player):
        raise not_present(player)
    return player


def _banco_call(state: CFState, action: Action) -> CFState:
    if state.phase != cf.BANCO_CALL:
        raise _covered_or_wrong(state, action)
    croupier_only(state, action)
    coup = state.coup
    assert coup is not None
    claims: list[dict[str, Any]] = action["claims"]
    rules = state.rules
    # CF-4.2.2 pass 1: each claimant present (CF-2.5) and not the banker.
    players: list[str] = []
    for claim in claims:
        player = _claimant(state.seating, claim["player"])
        if player == state.banker:
            raise not_eligible(player, action.type, "R_IS_BANKER")
        players.append(player)
    # pass 2: the amounts (COM-5.1).
    for claim in claims:
        if claim["kind"] == "banco_with_table":
            amount_check(claim["amount"], rules.chip_unit)
    # pass 3: a player answers once.
    seen: set[str] = set()
    for player in players:
        if player in seen:
            raise RuleError("CF_E_DUPLICATE_CLAIM", player=player)
        seen.add(player)
    # pass 4: avec la table holds more than half and less than the bank (CF-I3).
    for claim in claims:
        if claim["kind"] == "banco_with_table":
            amount = claim["amount"]
            if not (2 * amount > coup.bank and amount < coup.bank):
                half = f"{coup.bank // 2}" if coup.bank % 2 == 0 else f"{coup.bank // 2}.5"
                raise RuleError("CF_E_TABLE_THRESHOLD", half=half, bank=coup.bank)
    # CF-4.2.1 resolution by priority order (CF-2.3, CF-I1): a banco alone first.
    standing_order = tuple(p for p in players if state.seating.seat_of(p) is None)
    alone = [p for p, c in zip(players, claims, strict=True) if c["kind"] == "banco"]
    with_table = {
        p: c["amount"]
        for p, c in zip(players, claims, strict=True)
        if c["kind"] == "banco_with_table"
    }
    if alone:
        holder = priority_order(state, alone, standing_order)[0]
        coup = replace(coup, stakes=((holder, coup.bank),), holder=holder, card_holder=holder)
        return replace(state, phase=cf.DEALING, coup=coup)
    if with_table:
        holder = priority_order(state, list(with_table), standing_order)[0]
        coup = replace(coup, stakes=((holder, with_table[holder]),), holder=holder)
        return replace(state, phase=cf.COMPLETION, coup=coup)
    return replace(state, phase=cf.OPEN_STAKING)  # « Qui ponte ? »


# -- CF-4.3 completion and open_staking --------------------------------------------------------


def _stake(state: CFState, action: Action) -> CFState:
    coup = state.coup
    if (
        state.phase not in (cf.COMPLETION, cf.OPEN_STAKING)
        or coup is None
        or coup.left_to_cover == 0
    ):
        raise _covered_or_wrong(state, action)
    who = acting(state, action)
    if who.kind == "croupier":
        raise not_eligible(who.label, action.type, "CF_R_CROUPIER_NEVER_STAKES")
    assert who.player is not None
    if who.player == state.banker:
        raise not_eligible(who.label, action.type, "CF_R_BANKER_STAKES")
    if state.phase == cf.COMPLETION and who.player == coup.holder:
        raise not_eligible(who.label, action.type, "CF_R_HOLDS_WITH_TABLE")
    rules = state.rules
    amount = amount_check(action["amount"], rules.chip_unit)  # COM-5.1
    left = coup.left_to_cover
    minimum = min(rules.min_stake, left)
    if amount < minimum:
        raise below_minimum(amount, minimum)
    if amount > left:
        raise above_limit(amount, "R_LEFT_TO_COVER", left)
    # CF-4.3 / CF-I4 stakes in the order recorded; a player may stake several times.
    stakes = dict(coup.stakes)
    stakes[who.player] = stakes.get(who.player, 0) + amount
    return replace(state, coup=replace(coup, stakes=tuple(stakes.items())))


def _close_bets(state: CFState, action: Action) -> CFState:
    if state.phase not in (cf.COMPLETION, cf.OPEN_STAKING):
        raise refused(state, action)
    croupier_only(state, action)
    coup = state.coup
    assert coup is not None
    total = stake_total(coup)
    if total == 0:
        # CF-4.3.1 (1) / CF-I18 nobody staked: a coup of the record, not played.
        record = CoupRecord(len(state.coups) + 1, "no_play")
        return replace(state, phase=cf.BANK_PENDING, coup=None, coups=(*state.coups, record))
    # CF-4.3.1 (2) / CF-I6 the uncovered part goes back to the banker's own chips.
    card_holder = coup.holder
    if card_holder is None:
        # CF-4.3.1 (3) / CF-I5 the largest stake, ties by priority order.
        largest = max(amount for _, amount in coup.stakes)
        tied = [player for player, amount in coup.stakes if amount == largest]
        standing_order = tuple(p for p, _ in coup.stakes if state.seating.seat_of(p) is None)
        card_holder = priority_order(state, tied, standing_order)[0]
    coup = replace(coup, bank=total, card_holder=card_holder)
    return replace(state, phase=cf.DEALING, coup=coup)


# -- CF-4.4 dealing ----------------------------------------------------------------------------


def _draw(state: CFState, ranks: list[str]) -> Pack:
    shoe = state.shoe
    assert shoe is not None
    return shoe.pack.draw_many(ranks)


def _deal(state: CFState, action: Action) -> CFState:
    if state.phase != cf.DEALING:
        raise _covered_or_wrong(state, action)
    croupier_only(state, action)
    ponte: list[str] = action["ponte"]
    banker: list[str] = action["banker"]
    # CF-4.4.1 every rank first for E_BAD_RANK, then in deal order (CF-3.5 / CF-I7).
    for rank in (*ponte, *banker):
        rank_check(rank)
    pack = _draw(state, [ponte[0], banker[0], ponte[1], banker[1]])
    coup = state.coup
    assert coup is not None and state.shoe is not None
    coup = replace(coup, ponte_cards=tuple(ponte), banker_cards=tuple(banker))
    return replace(state, phase=cf.PONTE_DECISION, coup=coup, shoe=replace(state.shoe, pack=pack))


# -- CF-4.5 ponte_decision ---------------------------------------------------------------------


def _card_holder_only(state: CFState, action: Action) -> Coup:
    coup = state.coup
    if state.phase != cf.PONTE_DECISION or coup is None:
        raise refused(state, action)
    who = acting(state, action)
    if who.kind == "croupier" or who.player != coup.card_holder:
        # CF-2.4 the card holder decides alone.
        holder = coup.card_holder or ""
        raise not_eligible(who.label, action.type, "CF_R_CARD_HOLDER", holder=holder)
    return coup


def _not_natural(cards: tuple[str, ...]) -> RuleError:
    return RuleError("CF_E_NOT_NATURAL", hand=hand_text(cards), value=hand_value(cards))


def _ponte_show_natural(state: CFState, action: Action) -> CFState:
    coup = _card_holder_only(state, action)
    if not is_natural(coup.ponte_cards):
        raise _not_natural(coup.ponte_cards)  # CF-4.5
    return showdown(state)  # no card is drawn (CF-4.5)


def _ponte_speaks(said: Literal["stand", "draw"]) -> Callable[[CFState, Action], CFState]:
    def handler(state: CFState, action: Action) -> CFState:
        coup = _card_holder_only(state, action)
        fault = ponte_fault(coup.ponte_cards, said)  # CF-8.1: recorded, never rejected
        faults = coup.faults if fault is None else (*coup.faults, fault)
        coup = replace(coup, ponte_said=said, faults=faults)
        return replace(state, phase=cf.BANKER_RESPONSE, coup=coup)

    return handler


# -- CF-4.6 banker_response, CF-4.7 banker_draw_decision ---------------------------------------


def _banker_show_natural(state: CFState, action: Action) -> CFState:
    coup = state.coup
    if state.phase != cf.BANKER_RESPONSE or coup is None:
        raise refused(state, action)
    banker_only(state, action)
    if not is_natural(coup.banker_cards):
        raise _not_natural(coup.banker_cards)  # CF-4.6
    return showdown(state)  # the ponte shows too; no card is drawn, even after « Carte »


def _natural_not_shown(coup: Coup, phase: str) -> Coup:
    """CF-4.6.2 / CF-I10 a banker who plays on with a natural: noted, not penalised."""
    if phase == cf.BANKER_RESPONSE and is_natural(coup.banker_cards):
        return replace(coup, faults=(*coup.faults, "banker_natural_not_shown"))
    return coup


def _ponte_third_card(state: CFState, action: Action) -> CFState:
    coup = state.coup
    if state.phase != cf.BANKER_RESPONSE or coup is None:
        raise refused(state, action)
    if coup.ponte_said != "draw":
        raise RuleError("CF_E_NO_THIRD_CARD")  # CF-4.6
    croupier_only(state, action)
    pack = _draw(state, [action["rank"]])  # COM-10.2 step 5
    assert state.shoe is not None
    coup = _natural_not_shown(coup, state.phase)
    coup = replace(coup, ponte_cards=(*coup.ponte_cards, action["rank"]))
    return replace(
        state, phase=cf.BANKER_DRAW_DECISION, coup=coup, shoe=replace(state.shoe, pack=pack)
    )


def _banker_plays_on(state: CFState, action: Action) -> Coup:
    """CF-4.6 after « Non », CF-4.7 after the ponte's third card: the banker's free choice."""
    coup = state.coup
    after_non = (
        state.phase == cf.BANKER_RESPONSE and coup is not None and coup.ponte_said == "stand"
    )
    if not (after_non or state.phase == cf.BANKER_DRAW_DECISION) or coup is None:
        raise refused(state, action)
    banker_only(state, action)
    return coup


def _banker_draw(state: CFState, action: Action) -> CFState:
    coup = _banker_plays_on(state, action)
    pack = _draw(state, [action["rank"]])  # COM-10.2 step 5
    assert state.shoe is not None
    coup = _natural_not_shown(coup, state.phase)
    coup = replace(coup, banker_cards=(*coup.banker_cards, action["rank"]))
    return showdown(replace(state, coup=coup, shoe=replace(state.shoe, pack=pack)))


def _banker_stand(state: CFState, action: Action) -> CFState:
    coup = _banker_plays_on(state, action)
    coup = _natural_not_shown(coup, state.phase)  # CF-4.6.1 he may stand at any value
    return showdown(replace(state, coup=coup))


# -- CF-8 faults ---------------------------------------------------------------------------------


def ponte_fault(cards: Sequence[str], said: str) -> str | None:
    """CF-8.1 / CF-I8 the card holder's departure from the drawing rule of CF-4.5, if any."""
    value = hand_value(cards)
    if value >= 8:
        return "F_NATURAL_NOT_SHOWN"
    if value in (6, 7) and said == "draw":
        return "F_DREW_ON_6_7"
    if value <= 4 and said == "stand":
        return "F_STOOD_UNDER_5"
    return None  # 5 is free (CF-4.5)


# -- CF-2.3 priority and payment order ------------------------------------------------------------


def priority_order(
    state: CFState, players: Sequence[str], standing_order: Sequence[str]
) -> list[str]:
    """CF-2.3 / CF-I1 / CF-I25: seated players in rotation order from the banker, then the
    standing players in ``standing_order`` (their claims, or their first stakes)."""
    seating = state.seating
    assert state.banker is not None
    banker_seat = seating.seat_of(state.banker)
    assert banker_seat is not None
    rotation = seating.rotation_from(banker_seat)

    def key(player: str) -> tuple[int, int]:
        seat = seating.seat_of(player)
        if seat is not None:
            return (0, rotation.index(seat))
        return (1, list(standing_order).index(player))

    return sorted(players, key=key)


def payment_order(seating: Seating, stakes: Sequence[tuple[str, int]]) -> list[tuple[str, int]]:
    """CF-5.2 / CF-I17 / COM-3.4: seated pontes in seat order, then the standing players in the
    order their stakes were recorded."""
    seated = sorted(
        (
            (seating.seat_of(player), player, amount)
            for player, amount in stakes
            if seating.seat_of(player) is not None
        ),
        key=lambda item: item[0] or 0,
    )
    standing = [(p, a) for p, a in stakes if seating.seat_of(p) is None]
    return [(player, amount) for _, player, amount in seated] + standing


# -- money after the coup (COM-7, CF-5.5) ---------------------------------------------------------


def _book(state: CFState, transfer: Transfer, *, on_coup: bool) -> CFState:
    """CF-5.5 / COM-10.5: on the last coup's transfers, or on the session's."""
    if on_coup:
        last = state.coups[-1].with_transfers(transfer)
        return replace(state, coups=(*state.coups[:-1], last))
    return replace(state, session_transfers=(*state.session_transfers, transfer))


def return_reliquat(state: CFState, player: str, *, on_coup: bool) -> CFState:
    """COM-7.2 / CF-6.4 the reliquat goes back to its banker (``reliquat_out``)."""
    amount = state.reliquat(player)
    if amount == 0:
        return state
    state = replace(state, reliquats=tuple(r for r in state.reliquats if r[0] != player))
    transfer = Transfer(reliquat_of(player), player, amount, "reliquat_out")
    return _book(state, transfer, on_coup=on_coup)


def with_reliquat_in(state: CFState, player: str, amount: int) -> CFState:
    """COM-7.1 / CF-6.1 part of the bank set aside after a win (``reliquat_in``, the coup's)."""
    if amount == 0:
        return state
    held = dict(state.reliquats)
    held[player] = held.get(player, 0) + amount
    state = replace(state, reliquats=tuple(held.items()))
    transfer = Transfer(player, reliquat_of(player), amount, "reliquat_in")
    return _book(state, transfer, on_coup=True)


# -- CF-6 passing the bank ------------------------------------------------------------------------


def bank_pending(
    state: CFState, *, banker: str | None, bank_rule: int | None = None, suite: bool = False
) -> CFState:
    """CF-4.1 back to bank_pending, nothing offered and no bank decision pending: ``banker``
    holds the bank (None: vacant, CF-6.7) and announces it at ``bank_rule`` (None: free), with
    a ``suite`` to offer or not (CF-4 carry-over)."""
    return replace(
        state,
        phase=cf.BANK_PENDING,
        banker=banker,
        bank_rule=bank_rule,
        suite=suite,
        offer=None,
        bank_after=None,
        last_outcome=None,
    )


def pass_hand(state: CFState, *, outgoing: str | None, anchor: int) -> CFState:
    """CF-6.3 / COM-9.4 the hand is offered in rotation order from the banker's seat, the
    outgoing banker last if he is still seated; with nobody to offer it, the bank is vacant."""
    offerees = state.seating.rotation_from(anchor)
    if outgoing is not None and state.seating.seat_of(outgoing) == anchor:
        offerees = (*offerees, anchor)
    state = replace(
        state, bank_rule=None, suite=False, coup=None, bank_after=None, last_outcome=None
    )
    if not offerees:
        return bank_pending(state, banker=None)  # CF-6.7 / COM-9.7 vacant bank
    offer = Offer("hand", outgoing, anchor, offerees)
    return replace(state, phase=cf.HAND_OFFER, banker=outgoing, offer=offer)


def suite_declined_by_all(state: CFState) -> CFState:
    """CF-6.2 / CF-I13 nobody takes the suite: the reliquat is returned, the hand passes."""
    offer = state.offer
    assert offer is not None and offer.outgoing is not None
    state = return_reliquat(state, offer.outgoing, on_coup=offer.from_decision)
    return pass_hand(state, outgoing=offer.outgoing, anchor=offer.anchor)


# -- CF-4.8 showdown and CF-5 settlement ---------------------------------------------------------


def _banker_wins(state: CFState, coup: Coup, number: int) -> CFState:
    """CF-5.1 the pontes' stakes to the banker, the cagnotte, then the fault penalty."""
    banker = state.banker
    assert banker is not None
    rules = state.rules
    ordered = payment_order(state.seating, coup.stakes)
    transfers = [Transfer(player, banker, amount, "stake_lost") for player, amount in ordered]
    gross = stake_total(coup)  # COM-6.2 G = T
    taken = coup_levy(rules, banker, gross=gross, stakes=ordered)  # COM-6.3, LV-1
    transfers += taken  # COM-6.4
    levy = paid_by_banker(taken, banker)
    faulty = any(fault.startswith("F_") for fault in coup.faults)
    if faulty and rules.fault_reimbursement:
        # CF-8.2 / CF-I9 the card holder reimburses every other ponte his stake.
        holder = coup.card_holder
        assert holder is not None
        transfers += [
            Transfer(holder, player, amount, "fault_reimbursement")
            for player, amount in ordered
            if player != holder
        ]
    record = CoupRecord(number, "banker_wins", tuple(transfers), coup.faults)
    # CF-5.1 / COM-6.6 bank := T + (T − c).
    return replace(
        state,
        phase=cf.BANK_DECISION,
        coup=None,
        bank_after=gross + gross - levy,
        last_outcome="banker_wins",
        coups=(*state.coups, record),
    )


def _ponte_wins(state: CFState, coup: Coup, number: int) -> CFState:
    """CF-5.2 the banker pays every ponte out of the bank; his tenure ends (CF-6.4)."""
    banker = state.banker
    assert banker is not None
    ordered = payment_order(state.seating, coup.stakes)
    transfers = tuple(Transfer(banker, player, amount, "stake_won") for player, amount in ordered)
    transfers += coup_levy(state.rules, banker, gross=0, stakes=ordered)  # LV-1, LV-2
    record = CoupRecord(number, "ponte_wins", transfers, coup.faults)
    state = replace(state, coup=None, coups=(*state.coups, record))
    if state.adjudicated == banker:
        # CF-6.5 the adjudicated banker stays, announces a free bank, keeps his reliquat aside.
        return replace(state, phase=cf.BANK_PENDING, bank_rule=None, suite=False)
    state = return_reliquat(state, banker, on_coup=True)  # CF-5.5 / COM-7.2
    seat = state.seating.seat_of(banker)
    assert seat is not None
    return pass_hand(state, outgoing=banker, anchor=seat)  # CF-6.3


def showdown(state: CFState) -> CFState:
    """CF-4.8.1 the higher value wins, equal values tie; then the settlement (CF-5)."""
    coup = state.coup
    assert coup is not None
    ponte = hand_value(coup.ponte_cards)
    banker = hand_value(coup.banker_cards)
    number = len(state.coups) + 1
    if banker > ponte:
        return _banker_wins(state, coup, number)
    if ponte > banker:
        return _ponte_wins(state, coup, number)
    # CF-5.3 / CF-I15 tie: nothing moves, the bank stays at T.
    assert state.banker is not None
    levy = coup_levy(state.rules, state.banker, gross=0, stakes=coup.stakes)  # LV-1, LV-2
    record = CoupRecord(number, "tie", levy, coup.faults)
    return replace(
        state,
        phase=cf.BANK_DECISION,
        coup=None,
        bank_after=stake_total(coup),
        last_outcome="tie",
        coups=(*state.coups, record),
    )


COUP_HANDLERS: dict[str, Callable[[CFState, Action], CFState]] = {
    "banco_call": _banco_call,
    "stake": _stake,
    "close_bets": _close_bets,
    "deal": _deal,
    "ponte_show_natural": _ponte_show_natural,
    "ponte_stand": _ponte_speaks("stand"),
    "ponte_draw": _ponte_speaks("draw"),
    "banker_show_natural": _banker_show_natural,
    "ponte_third_card": _ponte_third_card,
    "banker_draw": _banker_draw,
    "banker_stand": _banker_stand,
}
