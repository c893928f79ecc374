"""Pontoon (PT): the game of ``docs/rules/pontoon.md`` as an immutable state machine.

The banker plays alone against every other seated player; one deck, gathered and shuffled before
every coup (PT-3.1); the banker's cards stay hidden to the end and he wins every tie (PT-5.1); a
pontoon or a five-card trick pays double (PT-5.2); a player dealt a pontoon takes the bank unless
the banker was dealt one too (PT-6.1).

A session is a fold: ``GAME.apply(state, action)`` returns a new state or raises ``RuleError``
and changes nothing. Every action is checked in the order of PT-7.1 (COM-10.2): the shape
(``step``), the specific codes of PT-7.2, the state, the actor, the seats and players named, the
turn, the cards, the amounts, then the conditions of the action tables.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from tables.engine.actions import (
    AMOUNT,
    PLAYER_ID,
    RANK,
    SEAT,
    Action,
    ActionSpec,
    empty_actor_check,
    session_actions,
    spec,
)
from tables.engine.cards import Pack
from tables.engine.errors import (
    RuleError,
    above_limit,
    below_minimum,
    not_eligible,
    out_of_turn,
    table_size,
    wrong_state,
)
from tables.engine.game import GameState, LegalAction
from tables.engine.money import amount_check, cagnotte_levy
from tables.engine.pontoon_model import (
    BANK_TRANSFER,
    BANKER_TURN,
    CODE,
    COUP_START,
    DECKS,
    FIRST_ROUND,
    PLAYER_TURNS,
    SECOND_ROUND,
    SESSION_ENDED,
    STAKING,
    SUCCESSOR_OFFER,
    Coup,
    Hand,
    Offer,
    PontoonState,
    Rules,
    hand_kind,
    hand_total,
    is_bust,
    is_pontoon,
)
from tables.engine.pontoon_view import view
from tables.engine.settings import (
    CHIP_UNIT,
    Setting,
    bool_setting,
    cagnotte_settings,
    chips_setting,
    int_setting,
    is_int,
    settings_check,
)
from tables.engine.settlement import CAGNOTTE, CROUPIER, CoupRecord, Transfer
from tables.engine.table import Actor, Seating, Who

TITLE = "Pontoon"
DEFAULT_SEAT_COUNT = 8
MIN_PLAYERS = 2  # PT-1 "de deux à huit joueurs", banker included
MAX_PLAYERS = 8

# -- settings (PT-1) ---------------------------------------------------------------------------

SETTINGS: tuple[Setting, ...] = (
    int_setting("decks", DECKS, DECKS, DECKS),
    int_setting("min_players", MIN_PLAYERS, MIN_PLAYERS, MIN_PLAYERS),
    int_setting("max_players", MAX_PLAYERS, MAX_PLAYERS, MAX_PLAYERS),
    CHIP_UNIT,
    chips_setting("min_stake"),
    chips_setting("max_stake", None, nullable=True, at_least="min_stake"),
    int_setting("buy_max_multiple", 1, 1),  # PT-I2
    bool_setting("banker_special_collects_double", False),  # PT-I5
    *cagnotte_settings(),  # COM-6.1, COM-6.3, PT-I14
)


# -- actions (PT-7.3) --------------------------------------------------------------------------


PLAY_ACTIONS = ("buy", "twist", "stick")

ACTIONS: Mapping[str, ActionSpec] = {
    "start_coup": spec("start_coup"),
    "deal_card": spec("deal_card", to=SEAT, rank=RANK),
    "stake": spec("stake", amount=AMOUNT),
    "sit_out": spec("sit_out"),
    "buy": spec("buy", rank=RANK, amount=AMOUNT),
    "twist": spec("twist", rank=RANK),
    "stick": spec("stick"),
    "banker_draw": spec("banker_draw", rank=RANK),
    "banker_stand": spec("banker_stand"),
    "accept_bank": spec("accept_bank"),
    "decline_bank": spec("decline_bank"),
    "give_up_bank": spec("give_up_bank"),
    # COM-3.8 session actions; PT-7.3 a player id is a non-empty string other than the owners'
    # reserved names.
    **session_actions(PLAYER_ID),
}


# -- PT-7 error helpers ------------------------------------------------------------------------


def already_staked(player: str, stake: int) -> RuleError:
    return RuleError("PT_E_ALREADY_STAKED", f"{player} has already staked {stake}.")


def buy_after_twist(player: str) -> RuleError:
    return RuleError(
        "PT_E_BUY_AFTER_TWIST", f"{player} has twisted: he can twist or stick, not buy."
    )


def five_cards(who: str) -> RuleError:
    return RuleError("PT_E_FIVE_CARDS", f"{who} already has five cards.")


def stick_under_15(player: str, total: int) -> RuleError:
    return RuleError("PT_E_STICK_UNDER_15", f"{player} has {total}: he must buy or twist until 15.")


def pontoon_no_decision(player: str) -> RuleError:
    return RuleError("PT_E_PONTOON_NO_DECISION", f"{player} holds a pontoon and takes no decision.")


def _legal_types(state: PontoonState) -> list[str]:
    return sorted({legal.type for legal in _legal_actions(state)})


def _wrong_state(state: PontoonState, action: Action, why: str | None = None) -> RuleError:
    where = state.phase if why is None else f"{state.phase}: {why}"
    return wrong_state(action.type, where, _legal_types(state))


def _require(state: PontoonState, action: Action, allowed: bool) -> None:
    """PT-7.1 step 3: the type exists in the current state (PT-4.4), else ``E_WRONG_STATE``."""
    if not allowed:
        raise _wrong_state(state, action)


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


def _finished_check(state: PontoonState, action: Action) -> None:
    """PT-7.2 (PT-I16): the reason a player finished, in whatever state, until ``start_coup``."""
    coup = state.coup
    if coup is None or state.phase == SESSION_ENDED:
        return
    if action.type in PLAY_ACTIONS:
        hand = _hand_of_actor(state, coup, action.actor)
        if hand is None or not hand.staked:
            return
        if hand.bust:
            raise _wrong_state(state, action, f"{hand.player} has bust")
        if hand.pontoon:
            raise pontoon_no_decision(hand.player)  # PT-4.2.1
        if len(hand.cards) >= 5:
            raise five_cards(hand.player)  # PT-4.2.2
        if hand.stuck:
            raise _wrong_state(state, action, f"{hand.player} has stuck")
    elif (
        action.type == "banker_draw"
        and _is_coup_banker(state, coup, action.actor)
        and len(coup.banker_cards) >= 5
    ):
        # PT-7.2, PT-I4 the five-card limit binds the banker too.
        raise five_cards(coup.banker)


# -- step 4: actors (PT-7.5) -------------------------------------------------------------------


def _croupier(state: PontoonState, action: Action) -> Who:
    """PT-7.5 ``start_coup``, ``deal_card`` and the session actions: the croupier only."""
    who = state.seating.resolve(action.actor)
    return who.require_croupier(action.type, "only the croupier records this")


def _seated(state: PontoonState, action: Action) -> Who:
    """A seated player, never the croupier or a standing player (PT-2.3, PT-7.5)."""
    who = state.seating.resolve(action.actor)
    return who.require_seated(
        action.type,
        "a standing player has no role in pontoon",
        croupier="the croupier is never a player",
    )


def _coup_player(state: PontoonState, coup: Coup, action: Action) -> Hand:
    """PT-7.5 a seated player of the coup, not the banker, who has not sat out."""
    who = _seated(state, action)
    assert who.seat is not None
    if who.seat == coup.banker_seat:
        raise not_eligible(who.label, action.type, "he is the banker")
    hand = coup.hand_at(who.seat)
    if hand is None or hand.player != who.player:
        raise not_eligible(who.label, action.type, "he is not a player of this coup")
    if hand.sat_out:
        raise not_eligible(who.label, action.type, "he sat out this coup")  # PT-4.1.2
    return hand


def _coup_banker(state: PontoonState, coup: Coup, action: Action) -> Who:
    """PT-7.5 ``banker_draw``, ``banker_stand``: the coup's banker."""
    who = _seated(state, action)
    if who.seat != coup.banker_seat:
        raise not_eligible(who.label, action.type, f"only the banker {coup.banker} can")
    return who


# -- the handlers ------------------------------------------------------------------------------

Handler = Callable[[PontoonState, Action], PontoonState]


def _start_coup(state: PontoonState, action: Action) -> PontoonState:
    _require(state, action, state.phase == COUP_START and state.banker is not None)
    seated = state.seating.seated_count
    if not MIN_PLAYERS <= seated <= state.rules.max_seated:  # PT-2.1, PT-1.2
        raise table_size(TITLE, MIN_PLAYERS, state.rules.max_seated, seated)
    _croupier(state, action)
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
    return replace(state, phase=FIRST_ROUND, coup=coup, coup_started=True, offer=None)


def _deal_card(state: PontoonState, action: Action) -> PontoonState:
    _require(state, action, state.phase in (FIRST_ROUND, SECOND_ROUND))
    _croupier(state, action)
    coup = state.coup
    assert coup is not None
    to = state.seating.seat_param(action["to"])  # PT-7.4
    expected = coup.next_recipient(state.phase)
    if to != expected:  # PT-4.1 players in order, then the banker; a sat-out player gets none
        expected_player = state.seating.player_at(expected) or f"seat {expected}"
        raise out_of_turn(expected_player, f"seat {to}")
    pack = coup.pack.draw(action["rank"])  # PT-7.1 step 7
    rank: str = action["rank"]
    if to == coup.banker_seat:
        coup = replace(coup, pack=pack, banker_cards=(*coup.banker_cards, rank))
        if state.phase == FIRST_ROUND:
            return replace(state, phase=STAKING, coup=coup)  # PT-4.1.1
        return _after_play(state, coup)  # PT-4.2
    hand = coup.hand_at(to)
    assert hand is not None
    coup = replace(coup, pack=pack).with_hand(replace(hand, cards=(*hand.cards, rank)))
    return replace(state, coup=coup)


def _stake(state: PontoonState, action: Action) -> PontoonState:
    _require(state, action, state.phase == STAKING)
    coup = state.coup
    assert coup is not None
    hand = _coup_player(state, coup, action)
    rules = state.rules
    amount = amount_check(action["amount"], rules.chip_unit)  # PT-7.1 step 8
    if amount < rules.min_stake:
        raise below_minimum(amount, rules.min_stake)
    if rules.max_stake is not None and amount > rules.max_stake:
        raise above_limit(amount, "the table maximum", rules.max_stake)
    if hand.staked:  # PT-7.1 step 9
        raise already_staked(hand.player, hand.initial)
    coup = coup.with_hand(replace(hand, initial=amount, stake=amount))
    return _after_speaking(state, coup)


def _sit_out(state: PontoonState, action: Action) -> PontoonState:
    _require(state, action, state.phase == STAKING)
    coup = state.coup
    assert coup is not None
    hand = _coup_player(state, coup, action)
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
        return replace(state, phase=COUP_START, coup=coup)
    return replace(state, phase=SECOND_ROUND, coup=coup)


def _play_turn(state: PontoonState, action: Action) -> Hand:
    """Steps 3, 4 and 6 of a player's decision in ``player_turns``."""
    _require(state, action, state.phase == PLAYER_TURNS)
    coup = state.coup
    assert coup is not None
    hand = _coup_player(state, coup, action)
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
        raise above_limit(amount, "the buy limit", limit)
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
        return replace(state, phase=PLAYER_TURNS, coup=coup)
    if any(hand.in_play for hand in coup.hands):
        return replace(state, phase=BANKER_TURN, coup=coup)
    return _settle(state, coup)  # PT-I11 every player has bust: the banker does not play


def _banker_draw(state: PontoonState, action: Action) -> PontoonState:
    _require(state, action, state.phase == BANKER_TURN)  # PT-4.3
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
    _require(state, action, state.phase == BANKER_TURN)  # PT-4.3
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
    levy = cagnotte_levy(
        gross,
        rate_bp=rules.cagnotte_rate_bp,
        step=rules.cagnotte_step,
        rounding=rules.cagnotte_rounding,
    )
    if levy > 0:
        transfers.append(Transfer(coup.banker, CAGNOTTE, levy, "cagnotte"))
    return tuple(transfers)


def _settle(state: PontoonState, coup: Coup) -> PontoonState:
    """PT-5 settle, then PT-6.1 / PT-6.2 the bank after the coup."""
    record = CoupRecord(
        len(state.coups) + 1,  # COM-11.1 coups numbered from 1
        outcome_of(coup),
        settlement_transfers(coup, state.rules),  # COM-5.5 zero sum asserted by CoupRecord
        (),  # PT-5.8, PT-I10 pontoon has no faults
    )
    settled = replace(state, coups=(*state.coups, record), coup=coup, phase=COUP_START)
    # PT-6.1, PT-I7 the banker's first two cards decide; PT-I6 players in play order.
    entitled = tuple((h.seat, h.player) for h in coup.hands if h.dealt_pontoon)
    if entitled and not is_pontoon(coup.banker_cards[:2]):
        return replace(settled, phase=BANK_TRANSFER, offer=Offer(BANK_TRANSFER, entitled))
    return settled  # PT-6.2 the bank stays with the banker


# -- the bank (PT-6) ---------------------------------------------------------------------------


def _offeree(state: PontoonState, action: Action) -> Who:
    """PT-7.5 / PT-7.1 step 6 the offeree answering a bank offer, in turn."""
    who = _seated(state, action)
    offer = state.offer
    assert offer is not None
    if (who.seat, who.player) not in offer.offerees:
        reason = (
            "the bank goes only to a player dealt a pontoon"
            if offer.kind == BANK_TRANSFER
            else "the bank is not offered to him"
        )
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
        _require(state, action, state.phase == COUP_START and state.vacant)
        who = _seated(state, action)
    return replace(state, phase=COUP_START, banker=who.player, offer=None, vacant=False)


def _decline_bank(state: PontoonState, action: Action) -> PontoonState:
    _require(state, action, state.phase in (BANK_TRANSFER, SUCCESSOR_OFFER))
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
    _require(state, action, state.phase == COUP_START and state.banker is not None)  # PT-6.6
    who = _seated(state, action)
    who.require_banker(action.type, state.banker, f"only the banker {state.banker} can")
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


# -- session actions (COM-3.8, PT-6.6) ---------------------------------------------------------


def _sit(state: PontoonState, action: Action) -> PontoonState:
    _require(state, action, state.phase == COUP_START)
    _croupier(state, action)
    # PT-7.4 E_NO_SUCH_SEAT, E_SEAT_TAKEN, E_PLAYER_PRESENT, then E_TABLE_SIZE (PT-1.2).
    seating = state.seating.sit_up_to(
        action["player"],
        action["seat"],
        state.rules.max_seated,
        game_title=TITLE,
        minimum=MIN_PLAYERS,
    )
    return replace(state, seating=seating)


def _leave(state: PontoonState, action: Action) -> PontoonState:
    _require(state, action, state.phase == COUP_START)
    _croupier(state, action)
    who = state.seating.leaving(seat=action.get("seat"), player=action.get("player"))
    seating = state.seating.without(who)
    if who.kind != "seat" or who.player != state.banker:
        return replace(state, seating=seating)
    assert who.seat is not None
    # PT-6.3, COM-9.6 a banker who leaves gives up the bank: offered from his right.
    offerees = _named(seating, seating.rotation_from(who.seat))
    if not offerees:  # PT-6.5 nobody left seated: the bank is vacant
        return replace(state, seating=seating, banker=None, vacant=True)
    offer = Offer(SUCCESSOR_OFFER, offerees)
    return replace(state, seating=seating, banker=None, phase=SUCCESSOR_OFFER, offer=offer)


def _add_standing(state: PontoonState, action: Action) -> PontoonState:
    _require(state, action, state.phase != SESSION_ENDED)
    _croupier(state, action)
    # PT-2.3 a standing player is only made known; PT-7.4 E_PLAYER_PRESENT.
    return replace(state, seating=state.seating.add_standing(action["player"]))


def _set_first_banker(state: PontoonState, action: Action) -> PontoonState:
    # PT-6.4 only in coup_start, while there is no banker and no coup has started.
    allowed = state.phase == COUP_START and state.banker is None and not state.coup_started
    _require(state, action, allowed)
    _croupier(state, action)
    seat = state.seating.seat_param(action["seat"])  # PT-7.4
    player = state.seating.player_at(seat)
    return replace(state, banker=player, vacant=False)


def _end_session(state: PontoonState, action: Action) -> PontoonState:
    _require(state, action, state.phase == COUP_START)  # PT-6.6
    _croupier(state, action)
    return replace(state, phase=SESSION_ENDED, banker=None, coup=None, offer=None, vacant=False)


HANDLERS: Mapping[str, Handler] = {
    "start_coup": _start_coup,
    "deal_card": _deal_card,
    "stake": _stake,
    "sit_out": _sit_out,
    "buy": _buy,
    "twist": _twist,
    "stick": _stick,
    "banker_draw": _banker_draw,
    "banker_stand": _banker_stand,
    "accept_bank": _accept_bank,
    "decline_bank": _decline_bank,
    "give_up_bank": _give_up_bank,
    "sit": _sit,
    "leave": _leave,
    "add_standing": _add_standing,
    "set_first_banker": _set_first_banker,
    "end_session": _end_session,
}


# -- legal actions (PT-4.4) --------------------------------------------------------------------


def _legal_actions(state: PontoonState) -> tuple[LegalAction, ...]:
    phase = state.phase
    if phase == SESSION_ENDED:
        return ()
    croupier: tuple[Actor, ...] = (CROUPIER,)
    found: list[LegalAction] = [LegalAction("add_standing", croupier)]
    coup = state.coup
    if phase == COUP_START:
        found += _coup_start_actions(state)
    elif phase in (FIRST_ROUND, SECOND_ROUND):
        found.append(LegalAction("deal_card", croupier))
    elif phase == STAKING:
        assert coup is not None
        speakers = tuple(hand.seat for hand in coup.hands if hand.to_speak)
        found += [LegalAction("stake", speakers), LegalAction("sit_out", speakers)]
    elif phase == PLAYER_TURNS:
        assert coup is not None
        current = coup.current
        assert current is not None
        me: tuple[Actor, ...] = (current.seat,)
        if not current.twisted:
            found.append(LegalAction("buy", me))
        found.append(LegalAction("twist", me))
        if hand_total(current.cards) >= 15:
            found.append(LegalAction("stick", me))
    elif phase == BANKER_TURN:
        assert coup is not None
        banker: tuple[Actor, ...] = (coup.banker_seat,)
        found += [LegalAction("banker_draw", banker), LegalAction("banker_stand", banker)]
    elif phase in (BANK_TRANSFER, SUCCESSOR_OFFER):
        assert state.offer is not None
        offeree: tuple[Actor, ...] = (state.offer.current[0],)
        found += [LegalAction("accept_bank", offeree), LegalAction("decline_bank", offeree)]
    return tuple(found)


def _coup_start_actions(state: PontoonState) -> list[LegalAction]:
    seating = state.seating
    croupier: tuple[Actor, ...] = (CROUPIER,)
    seated = seating.seated_count
    found: list[LegalAction] = []
    if state.banker is not None:
        if MIN_PLAYERS <= seated <= state.rules.max_seated:
            found.append(LegalAction("start_coup", croupier))
        banker_seat = seating.seat_of(state.banker)
        assert banker_seat is not None
        found.append(LegalAction("give_up_bank", (banker_seat,)))
    else:
        if not state.coup_started and seated > 0:
            found.append(LegalAction("set_first_banker", croupier))
        if state.vacant and seated > 0:
            found.append(LegalAction("accept_bank", seating.occupied))
    if seated < state.rules.max_seated:  # a seat is free and the table is not full
        found.append(LegalAction("sit", croupier))
    if seated > 0 or seating.standing:
        found.append(LegalAction("leave", croupier))
    found.append(LegalAction("end_session", croupier))
    return found


# -- the game ----------------------------------------------------------------------------------


class Pontoon:
    """The ``Game`` of pontoon (registry code ``pontoon``)."""

    code = CODE
    title = TITLE
    default_seat_count = DEFAULT_SEAT_COUNT
    actions: Mapping[str, ActionSpec] = ACTIONS

    def settings_validate(self, raw: Mapping[str, Any], seat_count: int) -> dict[str, Any]:
        """PT-1 the settings table; PT-1.1 anything else is ``E_SETTING``."""
        if not is_int(seat_count) or seat_count < 2:
            raise RuleError(  # COM-10.2.1
                "E_SETTING", f"Setting seat_count={seat_count!r} is outside integers ≥ 2."
            )
        # PT-1.2 max_players (fixed at 8) is capped by seat_count, not checked against it.
        return settings_check(SETTINGS, raw)

    def start(self, settings: Mapping[str, Any], seating: Seating) -> PontoonState:
        return PontoonState(Rules.of(settings, seating.seat_count), seating)

    def apply(self, state: GameState, action: Action) -> PontoonState:
        assert isinstance(state, PontoonState)
        # PT-7.3 an actor is an integer or a non-empty string
        empty_actor_check(action, ACTIONS[action.type].describe())
        handler = HANDLERS.get(action.type)
        if handler is None:  # the shape check has refused it already (E_UNKNOWN_ACTION)
            raise RuleError("E_UNKNOWN_ACTION", f"'{action.type}' does not exist in {TITLE}.")
        _finished_check(state, action)  # PT-7.1 step 2, PT-7.2
        return handler(state, action)

    def legal_actions(self, state: GameState) -> tuple[LegalAction, ...]:
        assert isinstance(state, PontoonState)
        return _legal_actions(state)

    def view(self, state: GameState) -> dict[str, Any]:
        assert isinstance(state, PontoonState)
        return view(state)


GAME = Pontoon()

__all__ = [
    "ACTIONS",
    "GAME",
    "SETTINGS",
    "Coup",
    "Hand",
    "Offer",
    "Pontoon",
    "PontoonState",
    "Rules",
    "outcome_of",
    "player_wins",
    "settlement_transfers",
]
