"""Pontoon (PT): a coup in play, from ``start_coup`` to its settlement.

The banker plays alone against every other seated player; one deck, gathered and shuffled before
every coup (PT-3.1); the banker's cards stay hidden to the end and he wins every tie (PT-5.1); a
pontoon or a five-card trick pays double (PT-5.2). Here: the specific codes of PT-7.2 for a
player or banker who has finished, the handlers of the deal, the stakes and the decisions
(PT-4), and the settlement (PT-5), which hands the bank on (PT-6.1).
"""

from __future__ import annotations

from collections.abc import Callable

from tables.engine.actions import Action
from tables.engine.cards import Pack
from tables.engine.checks import croupier_only
from tables.engine.errors import (
    RuleError,
    above_limit,
    below_minimum,
    not_eligible,
    out_of_turn,
)
from tables.engine.immutable import replace
from tables.engine.levy import coup_levy
from tables.engine.money import amount_check
from tables.engine.pontoon import state as pt
from tables.engine.pontoon.legal import refused, require, seated_player
from tables.engine.pontoon.settings import CODE, DECKS, Rules
from tables.engine.pontoon.state import (
    Coup,
    Hand,
    Offer,
    PontoonState,
    hand_kind,
    hand_total,
    is_bust,
    is_pontoon,
)
from tables.engine.session import SESSION_ENDED, seated_check
from tables.engine.settlement import CoupRecord, Transfer
from tables.engine.table import Actor, Who

PLAY_ACTIONS = ("buy", "twist", "stick")

# -- PT-7 error helpers ------------------------------------------------------------------------


def already_staked(player: str, stake: int) -> RuleError:
    return RuleError("PT_E_ALREADY_STAKED", player=player, stake=stake)


def buy_after_twist(player: str) -> RuleError:
    return RuleError("PT_E_BUY_AFTER_TWIST", player=player)


def five_cards(who: str) -> RuleError:
    return RuleError("PT_E_FIVE_CARDS", who=who)


def stick_under_15(player: str, total: int) -> RuleError:
    return RuleError("PT_E_STICK_UNDER_15", player=player, total=total)


def pontoon_no_decision(player: str) -> RuleError:
    return RuleError("PT_E_PONTOON_NO_DECISION", player=player)


# -- step 2: a player or banker who has finished (PT-7.2) --------------------------------------


def _hand_of_actor(state: PontoonState, coup: Coup, actor: Actor | None) -> Hand | None:
    """The coup's hand an actor names, if he still sits where he played."""
    if isinstance(actor, bool):
        return None
    if isinstance(actor, int):
        hand = coup.hand_at(actor)
        if hand is not None and state.seating.player_at(actor) == hand.player:
            return hand
        return None
    if isinstance(actor, str):
        for hand in coup.hands:
            if hand.player == actor and state.seating.seat_of(actor) == hand.seat:
                return hand
    return None


def _is_coup_banker(state: PontoonState, coup: Coup, actor: Actor | None) -> bool:
    if isinstance(actor, bool):
        return False
    if isinstance(actor, int):
        return actor == coup.banker_seat and state.seating.player_at(actor) == coup.banker
    return actor == coup.banker and state.seating.seat_of(coup.banker) == coup.banker_seat


def finished_check(state: PontoonState, action: Action) -> None:
    """PT-7.2 (PT-I16): the reason a player finished, in whatever state, until ``start_coup``."""
    coup = state.coup
    if coup is None or state.phase == SESSION_ENDED:
        return
    if action.type in PLAY_ACTIONS:
        hand = _hand_of_actor(state, coup, action.actor)
        if hand is None or not hand.staked:
            return
        if hand.bust:
            raise refused(state, action, "PT_R_HAS_BUST", player=hand.player)
        if hand.pontoon:
            raise pontoon_no_decision(hand.player)  # PT-4.2.1
        if len(hand.cards) >= 5:
            raise five_cards(hand.player)  # PT-4.2.2
        if hand.stuck:
            raise refused(state, action, "PT_R_HAS_STUCK", player=hand.player)
    elif (
        action.type == "banker_draw"
        and _is_coup_banker(state, coup, action.actor)
        and len(coup.banker_cards) >= 5
    ):
        # PT-7.2, PT-I4 the five-card limit binds the banker too.
        raise five_cards(coup.banker)


def _player_in(state: PontoonState, action: Action, phase: str) -> tuple[Coup, Hand]:
    """PT-7.1 a player's decision in ``phase``: the state, then the actor (``_coup_player``);
    the coup in play and his hand."""
    require(state, action, state.phase == phase)
    coup = state.coup
    assert coup is not None
    return coup, _coup_player(state, coup, action)


def _coup_player(state: PontoonState, coup: Coup, action: Action) -> Hand:
    """PT-7.5 a seated player of the coup, not the banker, who has not sat out."""
    who = seated_player(state, action)
    assert who.seat is not None
    if who.seat == coup.banker_seat:
        raise not_eligible(who.label, action.type, "R_IS_BANKER")
    hand = coup.hand_at(who.seat)
    if hand is None or hand.player != who.player:
        raise not_eligible(who.label, action.type, "PT_R_NOT_IN_COUP")
    if hand.sat_out:
        raise not_eligible(who.label, action.type, "PT_R_SAT_OUT")  # PT-4.1.2
    return hand


def _coup_banker(state: PontoonState, coup: Coup, action: Action) -> Who:
    """PT-7.5 ``banker_draw``, ``banker_stand``: the coup's banker."""
    who = seated_player(state, action)
    if who.seat != coup.banker_seat:
        raise not_eligible(who.label, action.type, "R_BANKER_ONLY", banker=coup.banker)
    return who


# -- the handlers ------------------------------------------------------------------------------


def _start_coup(state: PontoonState, action: Action) -> PontoonState:
    require(state, action, state.phase == pt.COUP_START and state.banker is not None)
    seated_check(state, CODE)  # PT-2.1, PT-1.2
    croupier_only(state, action)
    assert state.banker is not None
    banker_seat = state.seating.seat_of(state.banker)
    assert banker_seat is not None
    # PT-2.2 players are dealt to and play in rotation order from the banker.
    hands = tuple(
        Hand(seat, player)
        for seat in state.seating.rotation_from(banker_seat)
        if (player := state.seating.player_at(seat)) is not None
    )
    # PT-3.1 a fresh deck: card tracking restarts at every start_coup (PT-I9).
    coup = Coup(state.banker, banker_seat, hands, pack=Pack(DECKS))
    return replace(state, phase=pt.FIRST_ROUND, coup=coup, coup_started=True, offer=None)


def _deal_card(state: PontoonState, action: Action) -> PontoonState:
    require(state, action, state.phase in (pt.FIRST_ROUND, pt.SECOND_ROUND))
    croupier_only(state, action)
    coup = state.coup
    assert coup is not None
    to = state.seating.seat_param(action["to"])  # PT-7.4
    expected = coup.next_recipient(state.phase)
    if to != expected:  # PT-4.1 players in order, then the banker; a sat-out player gets none
        raise out_of_turn(state.seating.player_at(expected) or expected, to)
    pack = coup.pack.draw(action["rank"])  # PT-7.1 step 7
    rank: str = action["rank"]
    if to == coup.banker_seat:
        coup = replace(coup, pack=pack, banker_cards=(*coup.banker_cards, rank))
        if state.phase == pt.FIRST_ROUND:
            return replace(state, phase=pt.STAKING, coup=coup)  # PT-4.1.1
        return _after_play(state, coup)  # PT-4.2
    hand = coup.hand_at(to)
    assert hand is not None
    coup = replace(coup, pack=pack).with_hand(replace(hand, cards=(*hand.cards, rank)))
    return replace(state, coup=coup)


def _stake(state: PontoonState, action: Action) -> PontoonState:
    coup, hand = _player_in(state, action, pt.STAKING)
    rules = state.rules
    amount = amount_check(action["amount"], rules.chip_unit)  # PT-7.1 step 8
    if amount < rules.min_stake:
        raise below_minimum(amount, rules.min_stake)
    if rules.max_stake is not None and amount > rules.max_stake:
        raise above_limit(amount, "R_MAX_STAKE", rules.max_stake)
    if hand.staked:  # PT-7.1 step 9
        raise already_staked(hand.player, hand.initial)
    coup = coup.with_hand(replace(hand, initial=amount, stake=amount))
    return _after_speaking(state, coup)


def _sit_out(state: PontoonState, action: Action) -> PontoonState:
    coup, hand = _player_in(state, action, pt.STAKING)
    if hand.staked:  # PT-7.1 step 9
        raise already_staked(hand.player, hand.initial)
    # PT-4.1.2, PT-I15 his card stays dealt and recorded; he takes no further part.
    coup = coup.with_hand(replace(hand, sat_out=True))
    return _after_speaking(state, coup)


def _after_speaking(state: PontoonState, coup: Coup) -> PontoonState:
    """PT-4.1.1 when every player has staked or sat out → ``second_round``."""
    if any(hand.to_speak for hand in coup.hands):
        return replace(state, coup=coup)
    if not any(hand.staked for hand in coup.hands):
        # PT-4.1.3 every player sat out: no settlement, not listed, the bank stays.
        return replace(state, phase=pt.COUP_START, coup=coup)
    return replace(state, phase=pt.SECOND_ROUND, coup=coup)


def _play_turn(state: PontoonState, action: Action) -> Hand:
    """Steps 3, 4 and 6 of a player's decision in ``player_turns``."""
    coup, hand = _player_in(state, action, pt.PLAYER_TURNS)
    current = coup.current
    assert current is not None
    if hand.seat != current.seat:
        raise out_of_turn(current.player, hand.player)  # PT-7.1 step 6
    return hand


def _buy(state: PontoonState, action: Action) -> PontoonState:
    hand = _play_turn(state, action)
    coup = state.coup
    assert coup is not None
    pack = coup.pack.draw(action["rank"])  # PT-7.1 step 7
    rules = state.rules
    amount = amount_check(action["amount"], rules.chip_unit)  # PT-7.1 step 8
    if amount < rules.min_stake:
        raise below_minimum(amount, rules.min_stake)
    limit = rules.buy_max_multiple * hand.initial  # PT-I2
    if amount > limit:
        raise above_limit(amount, "PT_R_BUY_LIMIT", limit)
    if hand.twisted:  # PT-4.2.3
        raise buy_after_twist(hand.player)
    # PT-4.2 stake += amount; one more card, face down.
    drawn = replace(hand, cards=(*hand.cards, action["rank"]), stake=hand.stake + amount)
    return _after_card(state, replace(coup, pack=pack), drawn)


def _twist(state: PontoonState, action: Action) -> PontoonState:
    hand = _play_turn(state, action)
    coup = state.coup
    assert coup is not None
    pack = coup.pack.draw(action["rank"])  # PT-7.1 step 7
    # PT-4.2 one more card, face up; no more buying (PT-4.2.3).
    drawn = replace(hand, cards=(*hand.cards, action["rank"]), twisted=True)
    return _after_card(state, replace(coup, pack=pack), drawn)


def _stick(state: PontoonState, action: Action) -> PontoonState:
    hand = _play_turn(state, action)
    coup = state.coup
    assert coup is not None
    total = hand_total(hand.cards)
    if total < 15:  # PT-4.2, PT-I3, PT-I10
        raise stick_under_15(hand.player, total)
    return _after_play(state, coup.with_hand(replace(hand, stuck=True)))


def _after_card(state: PontoonState, coup: Coup, hand: Hand) -> PontoonState:
    """PT-4.2.2 after every card: a bust loses his whole stake at once."""
    if hand.bust:
        lost = Transfer(hand.player, coup.banker, hand.stake, "stake_lost")
        coup = replace(coup, busts=(*coup.busts, lost))
    return _after_play(state, coup.with_hand(hand))


def _after_play(state: PontoonState, coup: Coup) -> PontoonState:
    """PT-4.2.4 next player; when all have finished, the banker's turn or the settlement."""
    if coup.current is not None:
        return replace(state, phase=pt.PLAYER_TURNS, coup=coup)
    if any(hand.in_play for hand in coup.hands):
        return replace(state, phase=pt.BANKER_TURN, coup=coup)
    return _settle(state, coup)  # PT-I11 every player has bust: the banker does not play


def _banker_draw(state: PontoonState, action: Action) -> PontoonState:
    require(state, action, state.phase == pt.BANKER_TURN)  # PT-4.3
    coup = state.coup
    assert coup is not None
    _coup_banker(state, coup, action)
    pack = coup.pack.draw(action["rank"])  # PT-7.1 step 7
    coup = replace(coup, pack=pack, banker_cards=(*coup.banker_cards, action["rank"]))
    # PT-4.3 a bust or a fifth card ends his turn (PT-I4).
    if is_bust(coup.banker_cards) or len(coup.banker_cards) >= 5:
        return _settle(state, coup)
    return replace(state, coup=coup)


def _banker_stand(state: PontoonState, action: Action) -> PontoonState:
    require(state, action, state.phase == pt.BANKER_TURN)  # PT-4.3
    coup = state.coup
    assert coup is not None
    _coup_banker(state, coup, action)
    return _settle(state, coup)


# -- settlement (PT-5) -------------------------------------------------------------------------


def player_wins(player: tuple[str, ...], banker: tuple[str, ...]) -> bool:
    """PT-5 table: does a player still in play beat the banker's final hand? (PT-5.1 ties)"""
    mine, his = hand_kind(player), hand_kind(banker)
    if his == "bust":
        return True
    if his == "pontoon":
        return False  # PT-5.1 pontoon against pontoon: the banker
    if mine == "pontoon":
        return True  # PT-3.3 beats everything else
    if his == "five_card_trick":
        return False  # PT-5.1 five-card trick against five-card trick: the banker
    if mine == "five_card_trick":
        return True  # PT-3.4
    return hand_total(player) > hand_total(banker)  # PT-3.5, PT-5.1 equal totals: the banker


def outcome_of(coup: Coup) -> str:
    """PT-5.7 the first outcome that applies."""
    if not any(hand.in_play for hand in coup.hands):
        return "all_bust"
    kind = hand_kind(coup.banker_cards)
    if kind == "bust":
        return "banker_bust"
    if kind == "pontoon":
        return "banker_pontoon"
    if kind == "five_card_trick":
        return "banker_five_card_trick"
    return "banker_total"


def settlement_transfers(coup: Coup, rules: Rules) -> tuple[Transfer, ...]:
    """PT-5 every transfer of the coup, in the order of PT-5.6."""
    transfers = list(coup.busts)  # PT-4.2.2, PT-5.4 busts in the order they happened
    gross = sum(t.amount for t in coup.busts)
    banker_kind = hand_kind(coup.banker_cards)
    for hand in coup.hands:  # PT-5.6 the other players in play order
        if not hand.in_play:
            continue  # PT-5.4 a bust has paid already; a player who sat out is not settled
        stake = hand.stake
        if player_wins(hand.cards, coup.banker_cards):
            special = hand_kind(hand.cards) in ("pontoon", "five_card_trick")
            paid = 2 * stake if special else stake  # PT-5.2 pays double
            transfers.append(Transfer(coup.banker, hand.player, paid, "stake_won"))
        else:
            special = banker_kind in ("pontoon", "five_card_trick")
            collected = 2 * stake if special and rules.collects_double else stake  # PT-5.3
            transfers.append(Transfer(hand.player, coup.banker, collected, "stake_lost"))
            gross += collected
    # PT-5.5, COM-6.2 to COM-6.4 the cagnotte on the gross win, due even on a losing coup.
    # LV-1 the stakes are the hands' stakes, busts included (PT-5.4), not what they paid.
    stakes = [(hand.player, hand.stake) for hand in coup.hands if hand.stake]
    transfers += coup_levy(rules, coup.banker, gross=gross, stakes=stakes)
    return tuple(transfers)


def _settle(state: PontoonState, coup: Coup) -> PontoonState:
    """PT-5 settle, then PT-6.1 / PT-6.2 the bank after the coup."""
    record = CoupRecord(
        len(state.coups) + 1,  # COM-11.1 coups numbered from 1
        outcome_of(coup),
        settlement_transfers(coup, state.rules),  # COM-5.5 zero sum asserted by CoupRecord
        (),  # PT-5.8, PT-I10 pontoon has no faults
    )
    settled = replace(state, coups=(*state.coups, record), coup=coup, phase=pt.COUP_START)
    # PT-6.1, PT-I7 the banker's first two cards decide; PT-I6 players in play order.
    entitled = tuple((h.seat, h.player) for h in coup.hands if h.dealt_pontoon)
    if entitled and not is_pontoon(coup.banker_cards[:2]):
        return replace(settled, phase=pt.BANK_TRANSFER, offer=Offer(pt.BANK_TRANSFER, entitled))
    return settled  # PT-6.2 the bank stays with the banker


COUP_HANDLERS: dict[str, Callable[[PontoonState, Action], PontoonState]] = {
    "start_coup": _start_coup,
    "deal_card": _deal_card,
    "stake": _stake,
    "sit_out": _sit_out,
    "buy": _buy,
    "twist": _twist,
    "stick": _stick,
    "banker_draw": _banker_draw,
    "banker_stand": _banker_stand,
}
