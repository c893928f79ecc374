"""Baccara chemin de fer (docs/rules/chemin-de-fer.md, rule prefix CF).

A player banker puts up a bank; one player (banco), or several together, cover it; one ponte,
the card holder, plays a two- or three-card baccara hand for all of them against the banker's.
The croupier levies the cagnotte on the banker's winnings (COM-6). The bank stays with a winning
banker (who may set winnings aside au reliquat, COM-7, or offer a suite) and passes to the right
when he loses.

The session is a fold over the croupier's record (COM-10.1): ``CFState`` is immutable, and each
action type has one handler that validates in the order of COM-10.2 / CF-7.1 and returns a new
state. The settings, the state, the settlement (CF-5), the passing of the bank (CF-6) and the
faults (CF-8) live in ``tables.engine.chemin_de_fer_rules``; the table screen in
``tables.engine.chemin_de_fer_view``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, Literal

from tables.engine.actions import AMOUNT, INT, RANK, SEAT, Action, ActionSpec, Param, spec
from tables.engine.cards import Pack, rank_check
from tables.engine.chemin_de_fer_rules import (
    BANCO_CALL,
    BANK_DECISION,
    BANK_PENDING,
    BANKER_DRAW_DECISION,
    BANKER_RESPONSE,
    COMPLETION,
    COVERED_PHASES,
    DEALING,
    HAND_OFFER,
    OPEN_STAKING,
    PONTE_DECISION,
    SESSION_ENDED,
    SUITE_OFFER,
    TITLE,
    CFState,
    Coup,
    Offer,
    Rules,
    Shoe,
    claim_shape_ok,
    expected_cutter,
    hand_text,
    hand_value,
    is_natural,
    pass_hand,
    ponte_fault,
    priority_order,
    return_reliquat,
    rules_from,
    settings_table,
    showdown,
    stake_total,
    suite_declined_by_all,
    with_reliquat_in,
)
from tables.engine.chemin_de_fer_view import table_view
from tables.engine.errors import (
    RuleError,
    above_limit,
    bank_covered,
    below_minimum,
    not_eligible,
    not_present,
    out_of_turn,
    table_size,
    wrong_state,
)
from tables.engine.game import LegalAction
from tables.engine.money import amount_check
from tables.engine.settings import settings_check
from tables.engine.settlement import CROUPIER, CoupRecord, is_player_id
from tables.engine.table import Actor, Seating, Who

# -- action shapes (COM-10.2 step 1, CF-7.2) --------------------------------------------------

# CF-7.2 a player id: a non-empty text other than the reserved names.
PLAYER_ID = Param("a player id (not croupier, cagnotte, reserve_fund or reliquat:…)", is_player_id)
TWO_RANKS = Param(
    "a list of two rank codes",
    lambda v: isinstance(v, list) and len(v) == 2 and all(isinstance(r, str) for r in v),
)
CLAIMS = Param(
    "a list of {player, kind} with kind banco, or banco_with_table and an integer amount",
    lambda v: isinstance(v, list) and all(claim_shape_ok(c) for c in v),
)

ACTIONS: Mapping[str, ActionSpec] = {
    # CF-4.1 bank_pending
    "new_shoe": spec("new_shoe", cut_by=INT),
    "announce_bank": spec("announce_bank", amount=AMOUNT),
    "give_up_bank": spec("give_up_bank"),
    "offer_suite": spec("offer_suite"),
    "accept_bank": spec("accept_bank"),
    "decline_bank": spec("decline_bank"),
    # CF-4.2 to CF-4.7 the coup
    "banco_call": spec("banco_call", claims=CLAIMS),
    "stake": spec("stake", amount=AMOUNT),
    "close_bets": spec("close_bets"),
    "deal": spec("deal", ponte=TWO_RANKS, banker=TWO_RANKS),
    "ponte_show_natural": spec("ponte_show_natural"),
    "ponte_stand": spec("ponte_stand"),
    "ponte_draw": spec("ponte_draw"),
    "banker_show_natural": spec("banker_show_natural"),
    "ponte_third_card": spec("ponte_third_card", rank=RANK),
    "banker_draw": spec("banker_draw", rank=RANK),
    "banker_stand": spec("banker_stand"),
    # CF-6 the bank after the coup
    "continue_bank": spec("continue_bank", reliquat=AMOUNT),
    "take_suite": spec("take_suite"),
    "decline_suite": spec("decline_suite"),
    # COM-3.8 session actions; CF has no set_first_banker (CF-6.6: E_UNKNOWN_ACTION)
    "sit": spec("sit", player=PLAYER_ID, seat=SEAT),
    "leave": spec("leave", one_of=({"seat": SEAT}, {"player": PLAYER_ID})),
    "add_standing": spec("add_standing", player=PLAYER_ID),
    "end_session": spec("end_session"),
}

# -- common checks -----------------------------------------------------------------------------


def _fail_state(state: CFState, action: Action) -> RuleError:
    """COM-10.2 step 2, E_WRONG_STATE, listing what is expected now."""
    legal = [legal.type for legal in _legal(state)]
    return wrong_state(action.type, state.phase, legal)


def _actor(state: CFState, action: Action) -> Who:
    """CF-2.5 the actor is at the table (E_NO_SUCH_SEAT, E_NOT_PRESENT), step 3 first half."""
    return state.seating.resolve(action.actor)


def _croupier_only(state: CFState, action: Action) -> None:
    """CF-7.1 step 3: cards, calls and session actions are recorded by the croupier."""
    _actor(state, action).require_croupier(action.type, "only the croupier records it")


def _banker_only(state: CFState, action: Action) -> Who:
    """CF-7.1 step 3: a banker's decision (E_NOT_ELIGIBLE for anybody else)."""
    reason = f"only the banker {state.banker} decides it"
    return _actor(state, action).require_banker(action.type, state.banker, reason)


def _offeree(state: CFState, action: Action, *, banker_may: bool) -> Who:
    """Answers to a suite or hand offer: a seated player (step 3), the next offeree (step 4)."""
    who = _actor(state, action)
    who.require_seated(action.type, "only a seated player answers a bank offer")
    if not banker_may and who.player == state.banker:
        raise not_eligible(who.label, action.type, "the banker offers his own suite")
    offer = state.offer
    assert offer is not None
    expected = offer.offerees[0]
    if who.seat != expected:
        expected_player = state.seating.player_at(expected)
        raise out_of_turn(str(expected_player), who.label)
    return who


def _covered_or_wrong(state: CFState, action: Action) -> RuleError:
    """CF-4.3.2 a stake or banco from R = 0 until the settlement is E_BANK_COVERED."""
    if state.coup is not None and (
        state.phase in COVERED_PHASES
        or (state.phase in (COMPLETION, OPEN_STAKING) and state.coup.left_to_cover == 0)
    ):
        return bank_covered(state.coup.bank)
    return _fail_state(state, action)


def _has_banker(state: CFState) -> bool:
    return state.phase == BANK_PENDING and state.banker is not None


def _seated_count_ok(state: CFState) -> bool:
    """CF-2.2 / CF-I22: 4 to max_players seated, banker included."""
    return 4 <= state.seating.seated_count <= state.rules.max_players


# -- CF-4.1 bank_pending -------------------------------------------------------------------------


def _new_shoe(state: CFState, action: Action) -> CFState:
    if not _has_banker(state):
        raise _fail_state(state, action)
    if state.shoe_running:
        # CF-3.4 a shoe still runs.
        raise RuleError(
            "CF_E_SHOE_NOT_ENDED",
            f"The shoe is not finished ({state.cards_before_stop} cards before the red card).",
        )
    _croupier_only(state, action)
    expected = expected_cutter(state)
    if action["cut_by"] != expected:
        raise RuleError("CF_E_WRONG_CUTTER", f"Seat {expected} cuts this shoe.")  # CF-3.2
    # CF-3.2 a fresh shoe: the card tracking restarts (COM-2.2).
    return replace(state, shoe=Shoe(Pack(state.rules.decks)), last_cutter=expected)


def _announce_bank(state: CFState, action: Action) -> CFState:
    if not _has_banker(state):
        raise _fail_state(state, action)
    if not state.shoe_running:
        # CF-3.4 no coup before the first shoe or after the stop-card coup.
        message = (
            "No shoe yet: record a new shoe."
            if state.shoe is None
            else "The red card has come out: record a new shoe."
        )
        raise RuleError("CF_E_SHOE_ENDED", message)
    if not _seated_count_ok(state):
        raise table_size(TITLE, 4, state.rules.max_players, state.seating.seated_count)  # CF-2.2
    _banker_only(state, action)
    rules = state.rules
    amount = amount_check(action["amount"], rules.chip_unit)  # COM-5.1
    if state.bank_rule is None:
        # CF-4.1 a free bank within the house limits.
        if amount < rules.min_bank:
            raise below_minimum(amount, rules.min_bank)
        if rules.max_bank is not None and amount > rules.max_bank:
            raise above_limit(amount, "the maximum bank", rules.max_bank)
    elif amount != state.bank_rule:
        # CF-4.1 / COM-9.8 a fixed bank is announced at exactly its amount.
        raise RuleError(
            "CF_E_BANK_FIXED", f"The bank is {state.bank_rule}; {amount} was announced."
        )
    return replace(state, phase=BANCO_CALL, coup=Coup(bank=amount))


def _fixed_banker_error(state: CFState) -> RuleError:
    return RuleError("CF_E_FIXED_BANKER", f"The bank is adjudicated to {state.adjudicated}.")


def _give_up_bank(state: CFState, action: Action) -> CFState:
    if not _has_banker(state):
        raise _fail_state(state, action)
    if state.adjudicated is not None:
        raise _fixed_banker_error(state)  # CF-6.5
    who = _banker_only(state, action)
    assert who.player is not None and who.seat is not None
    # CF-4.1 / CF-5.5 reliquat returned as a session transfer; the hand passes (CF-6.3).
    state = return_reliquat(state, who.player, on_coup=False)
    return pass_hand(state, outgoing=who.player, anchor=who.seat)


def _offer_suite(state: CFState, action: Action) -> CFState:
    if not (_has_banker(state) or state.phase == BANK_DECISION):
        raise _fail_state(state, action)
    if state.adjudicated is not None:
        raise _fixed_banker_error(state)  # CF-6.5
    if state.phase == BANK_PENDING and not (state.bank_rule is not None and state.suite):
        # CF-4.1 only a bank won or tied in his own tenure makes a suite.
        raise RuleError(
            "CF_E_NO_SUITE",
            f"There is no suite to offer: {state.banker} has not played his bank yet.",
        )
    who = _banker_only(state, action)
    assert who.seat is not None
    if state.phase == BANK_DECISION:
        amount = state.bank_after
        assert amount is not None
        if state.rules.max_bank is not None and amount > state.rules.max_bank:
            # CF-6.1 a suite cannot exceed the maximum bank.
            raise above_limit(amount, "the maximum bank", state.rules.max_bank)
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
        who = _actor(state, action)
        who.require_seated(action.type, "only a seated player holds the bank")
    elif state.phase == HAND_OFFER:
        who = _offeree(state, action, banker_may=True)  # CF-6.3 / COM-9.4
    else:
        raise _fail_state(state, action)
    # CF-6.3 the new banker announces a free bank.
    return replace(
        state,
        phase=BANK_PENDING,
        banker=who.player,
        bank_rule=None,
        suite=False,
        offer=None,
    )


def _decline_bank(state: CFState, action: Action) -> CFState:
    if state.phase != HAND_OFFER:
        raise _fail_state(state, action)
    _offeree(state, action, banker_may=True)
    offer = state.offer
    assert offer is not None
    rest = offer.offerees[1:]
    if rest:
        return replace(state, offer=replace(offer, offerees=rest))
    # CF-6.7 everyone declined: the bank is vacant.
    return replace(state, phase=BANK_PENDING, banker=None, bank_rule=None, suite=False, offer=None)


# -- CF-4.2 banco_call -------------------------------------------------------------------------


def _claimant(seating: Seating, player: Actor) -> str:
    """CF-2.5 a claim's player, by seat number or id (E_NO_SUCH_SEAT, E_NOT_PRESENT)."""
    if isinstance(player, int):
        return seating.resolve(player).label  # a seated player: his id
    if player == CROUPIER or not seating.is_present(player):
        raise not_present(player)
    return player


def _banco_call(state: CFState, action: Action) -> CFState:
    if state.phase != BANCO_CALL:
        raise _covered_or_wrong(state, action)
    _croupier_only(state, action)
    coup = state.coup
    assert coup is not None
    claims: list[dict[str, Any]] = action["claims"]
    rules = state.rules
    # CF-4.2.2 pass 1: each claimant present (CF-2.5) and not the banker.
    players: list[str] = []
    for claim in claims:
        player = _claimant(state.seating, claim["player"])
        if player == state.banker:
            raise not_eligible(player, "claim the banco", "he is the banker")
        players.append(player)
    # pass 2: the amounts (COM-5.1).
    for claim in claims:
        if claim["kind"] == "banco_with_table":
            amount_check(claim["amount"], rules.chip_unit)
    # pass 3: a player answers once.
    seen: set[str] = set()
    for player in players:
        if player in seen:
            raise RuleError("CF_E_DUPLICATE_CLAIM", f"{player} answered twice.")
        seen.add(player)
    # pass 4: avec la table holds more than half and less than the bank (CF-I3).
    for claim in claims:
        if claim["kind"] == "banco_with_table":
            amount = claim["amount"]
            if not (2 * amount > coup.bank and amount < coup.bank):
                half = f"{coup.bank // 2}" if coup.bank % 2 == 0 else f"{coup.bank // 2}.5"
                raise RuleError(
                    "CF_E_TABLE_THRESHOLD",
                    f"Avec la table needs more than {half} and less than {coup.bank}.",
                )
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
        return replace(state, phase=DEALING, coup=coup)
    if with_table:
        holder = priority_order(state, list(with_table), standing_order)[0]
        coup = replace(coup, stakes=((holder, with_table[holder]),), holder=holder)
        return replace(state, phase=COMPLETION, coup=coup)
    return replace(state, phase=OPEN_STAKING)  # « Qui ponte ? »


# -- CF-4.3 completion and open_staking --------------------------------------------------------


def _stake(state: CFState, action: Action) -> CFState:
    coup = state.coup
    if state.phase not in (COMPLETION, OPEN_STAKING) or coup is None or coup.left_to_cover == 0:
        raise _covered_or_wrong(state, action)
    who = _actor(state, action)
    if who.kind == "croupier":
        raise not_eligible(who.label, action.type, "the croupier never stakes")
    assert who.player is not None
    if who.player == state.banker:
        raise not_eligible(who.label, action.type, "the banker does not stake against his bank")
    if state.phase == COMPLETION and who.player == coup.holder:
        raise not_eligible(who.label, action.type, "he holds the banco avec la table")
    rules = state.rules
    amount = amount_check(action["amount"], rules.chip_unit)  # COM-5.1
    left = coup.left_to_cover
    minimum = min(rules.min_stake, left)
    if amount < minimum:
        raise below_minimum(amount, minimum)
    if amount > left:
        raise above_limit(amount, "what is left to cover", left)
    # CF-4.3 / CF-I4 stakes in the order recorded; a player may stake several times.
    stakes = dict(coup.stakes)
    stakes[who.player] = stakes.get(who.player, 0) + amount
    return replace(state, coup=replace(coup, stakes=tuple(stakes.items())))


def _close_bets(state: CFState, action: Action) -> CFState:
    if state.phase not in (COMPLETION, OPEN_STAKING):
        raise _fail_state(state, action)
    _croupier_only(state, action)
    coup = state.coup
    assert coup is not None
    total = stake_total(coup)
    if total == 0:
        # CF-4.3.1 (1) / CF-I18 nobody staked: a coup of the record, not played.
        record = CoupRecord(len(state.coups) + 1, "no_play")
        return replace(state, phase=BANK_PENDING, coup=None, coups=(*state.coups, record))
    # CF-4.3.1 (2) / CF-I6 the uncovered part goes back to the banker's own chips.
    card_holder = coup.holder
    if card_holder is None:
        # CF-4.3.1 (3) / CF-I5 the largest stake, ties by priority order.
        largest = max(amount for _, amount in coup.stakes)
        tied = [player for player, amount in coup.stakes if amount == largest]
        standing_order = tuple(p for p, _ in coup.stakes if state.seating.seat_of(p) is None)
        card_holder = priority_order(state, tied, standing_order)[0]
    coup = replace(coup, bank=total, card_holder=card_holder)
    return replace(state, phase=DEALING, coup=coup)


# -- CF-4.4 dealing ----------------------------------------------------------------------------


def _draw(state: CFState, ranks: list[str]) -> Pack:
    shoe = state.shoe
    assert shoe is not None
    return shoe.pack.draw_many(ranks)


def _deal(state: CFState, action: Action) -> CFState:
    if state.phase != DEALING:
        raise _covered_or_wrong(state, action)
    _croupier_only(state, action)
    ponte: list[str] = action["ponte"]
    banker: list[str] = action["banker"]
    # CF-4.4.1 every rank first for E_BAD_RANK, then in deal order (CF-3.5 / CF-I7).
    for rank in (*ponte, *banker):
        rank_check(rank)
    pack = _draw(state, [ponte[0], banker[0], ponte[1], banker[1]])
    coup = state.coup
    assert coup is not None and state.shoe is not None
    coup = replace(coup, ponte_cards=tuple(ponte), banker_cards=tuple(banker))
    return replace(state, phase=PONTE_DECISION, coup=coup, shoe=replace(state.shoe, pack=pack))


# -- CF-4.5 ponte_decision ---------------------------------------------------------------------


def _card_holder_only(state: CFState, action: Action) -> Coup:
    coup = state.coup
    if state.phase != PONTE_DECISION or coup is None:
        raise _fail_state(state, action)
    who = _actor(state, action)
    if who.kind == "croupier" or who.player != coup.card_holder:
        # CF-2.4 the card holder decides alone.
        raise not_eligible(who.label, action.type, f"{coup.card_holder} holds the cards")
    return coup


def _not_natural(cards: tuple[str, ...]) -> RuleError:
    return RuleError(
        "CF_E_NOT_NATURAL", f"{hand_text(cards)} is worth {hand_value(cards)}: not a natural."
    )


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
        return replace(state, phase=BANKER_RESPONSE, coup=coup)

    return handler


# -- CF-4.6 banker_response, CF-4.7 banker_draw_decision ---------------------------------------


def _banker_show_natural(state: CFState, action: Action) -> CFState:
    coup = state.coup
    if state.phase != BANKER_RESPONSE or coup is None:
        raise _fail_state(state, action)
    _banker_only(state, action)
    if not is_natural(coup.banker_cards):
        raise _not_natural(coup.banker_cards)  # CF-4.6
    return showdown(state)  # the ponte shows too; no card is drawn, even after « Carte »


def _natural_not_shown(coup: Coup, phase: str) -> Coup:
    """CF-4.6.2 / CF-I10 a banker who plays on with a natural: noted, not penalised."""
    if phase == BANKER_RESPONSE and is_natural(coup.banker_cards):
        return replace(coup, faults=(*coup.faults, "banker_natural_not_shown"))
    return coup


def _ponte_third_card(state: CFState, action: Action) -> CFState:
    coup = state.coup
    if state.phase != BANKER_RESPONSE or coup is None:
        raise _fail_state(state, action)
    if coup.ponte_said != "draw":
        raise RuleError("CF_E_NO_THIRD_CARD", "The ponte said Non: no third card.")  # CF-4.6
    _croupier_only(state, action)
    pack = _draw(state, [action["rank"]])  # COM-10.2 step 5
    assert state.shoe is not None
    coup = _natural_not_shown(coup, state.phase)
    coup = replace(coup, ponte_cards=(*coup.ponte_cards, action["rank"]))
    return replace(
        state, phase=BANKER_DRAW_DECISION, coup=coup, shoe=replace(state.shoe, pack=pack)
    )


def _banker_plays_on(state: CFState, action: Action) -> Coup:
    """CF-4.6 after « Non », CF-4.7 after the ponte's third card: the banker's free choice."""
    coup = state.coup
    after_non = state.phase == BANKER_RESPONSE and coup is not None and coup.ponte_said == "stand"
    if not (after_non or state.phase == BANKER_DRAW_DECISION) or coup is None:
        raise _fail_state(state, action)
    _banker_only(state, action)
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


# -- CF-6 the bank after the coup ----------------------------------------------------------------


def _continue_bank(state: CFState, action: Action) -> CFState:
    if state.phase != BANK_DECISION:
        raise _fail_state(state, action)
    who = _banker_only(state, action)
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
        raise above_limit(kept, "the maximum bank", rules.max_bank)
    if reliquat > 0 and state.last_outcome == "tie":
        # CF-I12 the reliquat takes winnings only.
        raise RuleError("CF_E_RELIQUAT", "The reliquat takes winnings only; this coup was a tie.")
    # COM-7.1 / CF-5.5 the reliquat_in belongs to this coup's transfers.
    state = with_reliquat_in(state, who.player, reliquat)
    # CF-6.1 next bank fixed at what is kept, a suite to offer.
    return replace(
        state,
        phase=BANK_PENDING,
        bank_rule=kept,
        suite=True,
        bank_after=None,
        last_outcome=None,
    )


def _take_suite(state: CFState, action: Action) -> CFState:
    if state.phase != SUITE_OFFER:
        raise _fail_state(state, action)
    who = _offeree(state, action, banker_may=False)
    offer = state.offer
    assert offer is not None and offer.outgoing is not None
    # CF-6.2 the outgoing banker's tenure ends: his reliquat is returned (CF-5.5 coup or session).
    state = return_reliquat(state, offer.outgoing, on_coup=offer.from_decision)
    # CF-6.2 the taker puts up the suite amount; he has no suite before he plays it.
    return replace(
        state,
        phase=BANK_PENDING,
        banker=who.player,
        bank_rule=offer.amount,
        suite=False,
        offer=None,
        bank_after=None,
        last_outcome=None,
    )


def _decline_suite(state: CFState, action: Action) -> CFState:
    if state.phase != SUITE_OFFER:
        raise _fail_state(state, action)
    _offeree(state, action, banker_may=False)
    offer = state.offer
    assert offer is not None
    rest = offer.offerees[1:]
    if rest:
        return replace(state, offer=replace(offer, offerees=rest))
    return suite_declined_by_all(state)  # CF-6.2 / CF-I13


# -- COM-3.8 / CF-6.8 session actions ----------------------------------------------------------


def _session_state(state: CFState, action: Action) -> None:
    if state.phase != BANK_PENDING:
        raise _fail_state(state, action)
    _croupier_only(state, action)


def _sit(state: CFState, action: Action) -> CFState:
    _session_state(state, action)
    # COM-3.8 errors, then CF-6.8 E_TABLE_SIZE, checked after the seat and player checks.
    seating = state.seating.sit_up_to(
        action["player"], action["seat"], state.rules.max_players, game_title=TITLE, minimum=4
    )
    return replace(state, seating=seating)


def _leave(state: CFState, action: Action) -> CFState:
    _session_state(state, action)
    who = state.seating.leaving(seat=action.get("seat"), player=action.get("player"))
    assert who.player is not None
    was_banker = who.player == state.banker
    state = return_reliquat(state, who.player, on_coup=False)  # CF-6.8 session transfer
    state = replace(state, seating=state.seating.without(who))
    if state.adjudicated == who.player:
        state = replace(state, adjudicated=None)  # CF-6.5 / CF-I27 adjudication ends
    if was_banker:
        # CF-6.8 / COM-9.6 a banker who leaves gives up the bank; the hand passes without him.
        assert who.seat is not None
        return pass_hand(state, outgoing=None, anchor=who.seat)
    return state


def _add_standing(state: CFState, action: Action) -> CFState:
    if state.phase == SESSION_ENDED:
        raise _fail_state(state, action)
    _croupier_only(state, action)
    return replace(state, seating=state.seating.add_standing(action["player"]))


def _end_session(state: CFState, action: Action) -> CFState:
    _session_state(state, action)
    for player, _ in state.reliquats:
        state = return_reliquat(state, player, on_coup=False)  # COM-7.2 / CF-6.8
    return replace(state, phase=SESSION_ENDED, banker=None, offer=None, adjudicated=None)


HANDLERS: Mapping[str, Callable[[CFState, Action], CFState]] = {
    "new_shoe": _new_shoe,
    "announce_bank": _announce_bank,
    "give_up_bank": _give_up_bank,
    "offer_suite": _offer_suite,
    "accept_bank": _accept_bank,
    "decline_bank": _decline_bank,
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
    "continue_bank": _continue_bank,
    "take_suite": _take_suite,
    "decline_suite": _decline_suite,
    "sit": _sit,
    "leave": _leave,
    "add_standing": _add_standing,
    "end_session": _end_session,
}

# -- legal actions (CF-4.0: the types some actor could have accepted now) --------------------------


def _everyone(seating: Seating) -> list[Actor]:
    return [*seating.occupied, *seating.standing]


def _actor_of(seating: Seating, player: str | None) -> tuple[Actor, ...]:
    if player is None:
        return ()
    seat = seating.seat_of(player)
    return (seat if seat is not None else player,)


def _legal_bank_pending(state: CFState) -> list[LegalAction]:
    seating = state.seating
    found: list[LegalAction] = []
    if state.banker is None:
        if seating.occupied:
            found.append(LegalAction("accept_bank", seating.occupied))  # CF-6.7
    else:
        banker = _actor_of(seating, state.banker)
        if not state.shoe_running:
            found.append(LegalAction("new_shoe", (CROUPIER,)))
        elif _seated_count_ok(state):
            found.append(LegalAction("announce_bank", banker))
        if state.adjudicated is None:
            found.append(LegalAction("give_up_bank", banker))
            if state.bank_rule is not None and state.suite:
                found.append(LegalAction("offer_suite", banker))
    free_seat = len(seating.occupied) < seating.seat_count
    if free_seat and seating.seated_count < state.rules.max_players:
        found.append(LegalAction("sit", (CROUPIER,)))
    if _everyone(seating):
        found.append(LegalAction("leave", (CROUPIER,)))
    found.append(LegalAction("end_session", (CROUPIER,)))
    return found


def _legal_in_coup(state: CFState) -> list[LegalAction]:
    coup = state.coup
    assert coup is not None
    seating = state.seating
    banker = _actor_of(seating, state.banker)
    holder = _actor_of(seating, coup.card_holder)
    phase = state.phase
    if phase == BANCO_CALL:
        return [LegalAction("banco_call", (CROUPIER,))]
    if phase in (COMPLETION, OPEN_STAKING):
        found = [LegalAction("close_bets", (CROUPIER,))]
        excluded = {state.banker, coup.holder if phase == COMPLETION else None}
        stakers = tuple(
            actor
            for actor in _everyone(seating)
            if (seating.player_at(actor) if isinstance(actor, int) else actor) not in excluded
        )
        if coup.left_to_cover > 0 and stakers:
            found.append(LegalAction("stake", stakers))
        return found
    if phase == DEALING:
        return [LegalAction("deal", (CROUPIER,))]
    if phase == PONTE_DECISION:
        found = [LegalAction("ponte_stand", holder), LegalAction("ponte_draw", holder)]
        if is_natural(coup.ponte_cards):
            found.append(LegalAction("ponte_show_natural", holder))
        return found
    if phase == BANKER_RESPONSE:
        found = []
        if is_natural(coup.banker_cards):
            found.append(LegalAction("banker_show_natural", banker))
        if coup.ponte_said == "draw":
            found.append(LegalAction("ponte_third_card", (CROUPIER,)))
        else:
            found += [LegalAction("banker_draw", banker), LegalAction("banker_stand", banker)]
        return found
    assert phase == BANKER_DRAW_DECISION
    return [LegalAction("banker_draw", banker), LegalAction("banker_stand", banker)]


def _legal(state: CFState) -> tuple[LegalAction, ...]:
    phase = state.phase
    if phase == SESSION_ENDED:
        return ()
    found: list[LegalAction] = [LegalAction("add_standing", (CROUPIER,))]
    banker = _actor_of(state.seating, state.banker)
    if phase == BANK_PENDING:
        found += _legal_bank_pending(state)
    elif phase == BANK_DECISION:
        found.append(LegalAction("continue_bank", banker))
        max_bank = state.rules.max_bank
        assert state.bank_after is not None
        if state.adjudicated is None and (max_bank is None or state.bank_after <= max_bank):
            found.append(LegalAction("offer_suite", banker))
    elif phase in (SUITE_OFFER, HAND_OFFER):
        assert state.offer is not None
        next_one = (state.offer.offerees[0],)
        kinds = ("take_suite", "decline_suite") if phase == SUITE_OFFER else ("accept_bank",)
        if phase == HAND_OFFER:
            kinds = ("accept_bank", "decline_bank")
        found += [LegalAction(kind, next_one) for kind in kinds]
    else:
        found += _legal_in_coup(state)
    return tuple(found)


# -- the game --------------------------------------------------------------------------------


class CheminDeFer:
    """The ``Game`` of chemin de fer (game.py protocol)."""

    code = "chemin_de_fer"
    title = TITLE
    default_seat_count = 12
    actions: Mapping[str, ActionSpec] = ACTIONS

    def settings_validate(self, raw: Mapping[str, Any], seat_count: int) -> dict[str, Any]:
        """§1 of the rules file; a table of fewer than 4 seats can never play (E_SETTING)."""
        if seat_count < 4:
            raise RuleError(
                "E_SETTING", f"Setting seat_count={seat_count!r} is outside integers ≥ 4."
            )
        return settings_check(settings_table(seat_count), raw)

    def start(self, settings: Mapping[str, Any], seating: Seating) -> CFState:
        """CF-6.6 the session opens in bank_pending with its first banker and no shoe (CF-I28)."""
        rules: Rules = rules_from(settings)
        fixed = rules.fixed_banker
        if fixed is not None:
            if seating.seat_of(fixed) is None:
                # CF-I27 the adjudicated banker is seated when the session opens.
                raise RuleError(
                    "E_SETTING",
                    f"Setting fixed_banker={fixed!r} is outside the players seated at the start.",
                )
            banker: str | None = fixed
        else:
            banker = seating.seats[0][1] if seating.seats else None  # CF-6.6 / CF-I19
        return CFState(
            rules=rules, seating=seating, phase=BANK_PENDING, banker=banker, adjudicated=fixed
        )

    def apply(self, state: Any, action: Action) -> CFState:
        assert isinstance(state, CFState)
        if state.phase == SESSION_ENDED:
            raise _fail_state(state, action)  # CF-7.1 after end_session nothing passes
        return HANDLERS[action.type](state, action)

    def legal_actions(self, state: Any) -> tuple[LegalAction, ...]:
        assert isinstance(state, CFState)
        return _legal(state)

    def view(self, state: Any) -> dict[str, Any]:
        assert isinstance(state, CFState)
        return table_view(state)


GAME = CheminDeFer()
