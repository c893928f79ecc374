"""Lansquenet classique: a coup (manche) in play, from ``start_coup`` to its settlement.

The banker deals a carte droite to every coupeur (LC-5.2), turns his own card (LC-5.3), then
turns the talon (LC-5.4) until his rank comes out or every coupeur card is taken. Carabins bet
only on the cartes de reprise (LC-6). There is no bank amount: the banker pays from his own
chips (LC-8.3). The settlement (LC-8) hands the bank on (LC-7.1) or leaves the banker to decide.
"""

from __future__ import annotations

from collections.abc import Callable

from tables.engine.actions import Action
from tables.engine.cards import Pack
from tables.engine.errors import RuleError, above_limit, below_minimum, out_of_turn
from tables.engine.immutable import replace
from tables.engine.lansquenet_classique.settings import Config
from tables.engine.lansquenet_classique.state import (
    ALL_TAKEN,
    BANK_DECISION,
    BANKER_CARD,
    BANKER_CARD_OUT,
    BANKER_QUADRUPLE,
    COUPEUR_QUADRUPLE,
    DEAL,
    DRAWING,
    SUCCESSOR_OFFER,
    CarabinCard,
    Coup,
    CoupeurCard,
    LCState,
    banker_seat,
    seat_label,
)
from tables.engine.levy import coup_levy
from tables.engine.money import amount_check
from tables.engine.settlement import CoupRecord, Transfer
from tables.engine.table import Seating, Who


def bank_offer(seating: Seating, banker_seat: int, *, include_banker: bool) -> tuple[int, ...]:
    """LC-7.1, COM-9.4: the offer order from next(banker), the outgoing banker last."""
    order = seating.rotation_from(banker_seat)
    return (*order, banker_seat) if include_banker else order


# -- settlement (LC-8) ------------------------------------------------------------------------


def _take(coup: Coup, card: CoupeurCard, config: Config) -> Coup:
    """LC-4.4 a coupeur taken pays his stake to the banker (``stake_lost``) and leaves play."""
    amount = config.stake(card.multiplicity)
    return replace(
        coup,
        cards=tuple(c for c in coup.cards if c.seat != card.seat),
        transfers=(*coup.transfers, Transfer(card.player, coup.banker, amount, "stake_lost")),
        gross=coup.gross + amount,  # LC-8.2
    )


def _sprinkle(coup: Coup, taken: CoupeurCard, config: Config) -> Coup:
    """LC-5.5 the taken coupeur pays F to every coupeur still holding a card, in deal order."""
    sprinkles = tuple(
        Transfer(taken.player, card.player, config.base_stake, "sprinkle") for card in coup.cards
    )
    return replace(coup, transfers=coup.transfers + sprinkles)


def _collect_all(coup: Coup, config: Config) -> Coup:
    """Every coupeur holding a card pays his stake, in deal order (quadruples, LC-5.2.1, 5.3.1)."""
    for card in coup.cards:
        coup = _take(coup, card, config)
    return coup


def _settle(state: LCState, coup: Coup, outcome: str) -> LCState:
    """LC-8: the cagnotte last (COM-6.4, LC-8.2), the coup recorded, the bank's next step (LC-7)."""
    config = state.config
    # LV-1 the stakes settled against the bank: what each coupeur or carabin paid or was paid.
    stakes = [
        (t.source if t.target == coup.banker else t.target, t.amount)
        for t in coup.transfers
        if t.reason in ("stake_lost", "stake_won")
    ]
    levy = coup_levy(config, coup.banker, gross=coup.gross, stakes=stakes)
    transfers = (*coup.transfers, *levy)
    record = CoupRecord(coup.number, outcome, transfers)  # COM-5.5 zero sum asserted
    settled = replace(state, coup=None, coups=(*state.coups, record))
    if outcome in (BANKER_CARD_OUT, COUPEUR_QUADRUPLE):
        # LC-7.1, LC-I21: offered from next(banker), the outgoing banker last; LC-7.7, LC-I20:
        # after a coupeur's quadruple at once, and it may be declined.
        offer = bank_offer(state.seating, coup.banker_seat, include_banker=True)
        return replace(settled, phase=SUCCESSOR_OFFER, offer=offer, forced_successor=False)
    # LC-7: all_taken or banker_quadruple, the banker decides (LC-I15).
    return replace(settled, phase=BANK_DECISION)


# -- handlers of the coup ------------------------------------------------------------------------


def _start_coup(state: LCState, action: Action, who: Who) -> LCState:
    """LC-5.1, LC-3.1: a fresh pack; the deal from next(banker) (LC-2.4)."""
    seat = banker_seat(state)
    assert state.banker is not None
    coup = Coup(
        number=len(state.coups) + 1,
        banker=state.banker,
        banker_seat=seat,
        pack=Pack(1),
        deal_order=state.seating.rotation_from(seat),  # LC-2.1 every coupeur plays
    )
    return replace(state, phase=DEAL, coup=coup)


def _deal_card(state: LCState, action: Action, who: Who) -> LCState:
    """LC-5.2 one carte droite to each coupeur in deal order, merged per LC-5.2.1."""
    coup = state.coup
    assert coup is not None
    config = state.config
    to = state.seating.seat_param(action["to"])  # step 3: E_NO_SUCH_SEAT, E_NOT_PRESENT
    expected = coup.next_recipient
    assert expected is not None
    if to != expected:  # step 4, LC-2.4
        # LC-2.4 the card goes to the next coupeur: whose turn it is, and who was named.
        raise out_of_turn(seat_label(state, expected) or expected, seat_label(state, to) or to)
    pack = coup.pack.draw(action["rank"])  # step 5: E_BAD_RANK, E_RANK_EXHAUSTED
    rank: str = action["rank"]
    player = state.seating.player_at(to)
    assert player is not None
    coup = replace(coup, pack=pack, dealt=coup.dealt + 1)
    held = coup.card_of_rank(rank)
    if held is None:
        # LC-5.2.1 no card of this rank: a simple card, stake F.
        coup = replace(coup, cards=(*coup.cards, CoupeurCard(to, player, rank, 1)))
    elif held.multiplicity < 3:
        # LC-5.2.1, LC-I1: the holder is taken (no sprinkle in the deal, LC-5.2.2, LC-I5);
        # his card goes under the new one, which becomes a double or a triple.
        coup = _take(coup, held, config)
        merged = CoupeurCard(to, player, rank, held.multiplicity + 1)
        coup = replace(coup, cards=(*coup.cards, merged))
    else:
        # LC-5.2.1, LC-I3 coupeur's quadruple: the banker pays the triple's holder 4F
        # (quadruple_paid first, LC-8.1), collects every other stake; `to` stakes nothing.
        paid = Transfer(coup.banker, held.player, config.stake(3), "quadruple_paid")
        others = tuple(c for c in coup.cards if c.seat != held.seat)
        coup = replace(coup, cards=others, transfers=(*coup.transfers, paid))
        return _settle(state, _collect_all(coup, config), COUPEUR_QUADRUPLE)
    if coup.next_recipient is None:
        return replace(state, phase=BANKER_CARD, coup=coup)  # LC-5.2.3
    return replace(state, coup=coup)


def _turn_card(state: LCState, action: Action, who: Who) -> LCState:
    """LC-5.3 the banker's own card, or LC-5.4 a card of the talon."""
    coup = state.coup
    assert coup is not None
    pack = coup.pack.draw(action["rank"])  # step 5: E_BAD_RANK, E_RANK_EXHAUSTED (LC-3.2)
    rank: str = action["rank"]
    coup = replace(coup, pack=pack)
    if state.phase == BANKER_CARD:
        return _banker_card(state, coup, rank)
    return _drawing_card(state, coup, rank)


def _banker_card(state: LCState, coup: Coup, rank: str) -> LCState:
    """LC-5.3.1 the banker's card."""
    config = state.config
    held = coup.card_of_rank(rank)
    if held is None:
        coup = replace(coup, banker_rank=rank, banker_multiplicity=1)
        return replace(state, phase=DRAWING, coup=coup)
    if held.multiplicity == 3:
        # LC-5.3.1 banker's quadruple: every coupeur holding a card pays his stake, in deal
        # order; no sprinkle (LC-5.5, LC-I5).
        coup = replace(coup, banker_rank=rank, banker_multiplicity=4)
        return _settle(state, _collect_all(coup, config), BANKER_QUADRUPLE)
    # LC-5.3.1 a simple or a double is taken; the banker's card becomes double or triple
    # (LC-I14: no amount changes); the taken coupeur sprinkles if the house rule says so (LC-I6).
    coup = _take(coup, held, config)
    coup = replace(coup, banker_rank=rank, banker_multiplicity=held.multiplicity + 1)
    if config.sprinkle_on_banker_card:
        coup = _sprinkle(coup, held, config)
    if not coup.cards:  # LC-5.3.2: cannot happen with 3 coupeurs or more
        return _settle(state, coup, ALL_TAKEN)
    return replace(state, phase=DRAWING, coup=coup)


def _drawing_card(state: LCState, coup: Coup, rank: str) -> LCState:
    """LC-5.4.1 a card of the talon, placed at the banker's left."""
    config = state.config
    coup = replace(coup, turned=(*coup.turned, rank))
    if rank == coup.banker_rank:
        # LC-5.4.1 banker's card out: the coupeurs in deal order, then the carabins in bet order
        # (LC-I11, LC-2.6, LC-8.1), each paid his stake (LC-4.3).
        won = tuple(
            Transfer(coup.banker, card.player, config.stake(card.multiplicity), "stake_won")
            for card in coup.cards
        ) + tuple(
            Transfer(coup.banker, bet.player, bet.amount, "stake_won") for bet in coup.carabins
        )
        coup = replace(coup, transfers=coup.transfers + won)
        return _settle(state, coup, BANKER_CARD_OUT)
    held = coup.card_of_rank(rank)
    if held is not None:
        # LC-5.4.1 the coupeur is taken, then sprinkles (LC-5.5).
        coup = _sprinkle(_take(coup, held, config), held, config)
        if not coup.cards:
            # LC-5.6, LC-I10: all_taken; carabin cards still in play are returned, no transfer.
            return _settle(state, coup, ALL_TAKEN)
        coup = replace(coup, last_match=("LC_R_COUPEUR_CARD", (held.player,)))
        return replace(state, coup=coup)
    bets = coup.carabins_on(rank)
    if bets:
        # LC-5.4.1, LC-6.3 every carabin on that card pays his stake; the card leaves play.
        lost = tuple(Transfer(bet.player, coup.banker, bet.amount, "stake_lost") for bet in bets)
        coup = replace(
            coup,
            carabins=tuple(bet for bet in coup.carabins if bet.rank != rank),
            transfers=coup.transfers + lost,
            gross=coup.gross + sum(bet.amount for bet in bets),  # LC-8.2
            # LC-6.4, LC-I9: the card that takes a carabin card is not a carte de reprise.
            last_match=("LC_R_CARABIN_CARD", tuple(bet.player for bet in bets)),
        )
        return replace(state, coup=coup)
    # LC-6.1 a carte de reprise: carabins may bet on it until the next card (LC-6.2).
    return replace(state, coup=replace(coup, last_match=None))


def _carabin_bet(state: LCState, action: Action, who: Who) -> LCState:
    """LC-5.4 / LC-6.2 a carabin bets on the carte de reprise just turned."""
    coup = state.coup
    assert coup is not None and who.player is not None
    config = state.config
    # Step 6 (LC-5.0.1, LC-I8): E_BAD_AMOUNT, E_BELOW_MINIMUM (F), E_ABOVE_LIMIT.
    amount = amount_check(action["amount"], config.chip_unit)
    if amount < config.base_stake:
        raise below_minimum(amount, config.base_stake)
    if amount > config.carabin_max_stake:
        raise above_limit(amount, "LC_R_CARABIN_MAX", config.carabin_max_stake)
    # Step 7, in the order of the LC-5.4 table.
    if not coup.turned or coup.last_match is not None:
        if coup.turned and coup.last_match is not None:
            what, players = coup.last_match
            raise RuleError(
                "LC_E_NOT_REPRISE",
                why="LC_R_MATCHED",
                rank=coup.turned[-1],
                what=what,
                players=list(players),
            )
        raise RuleError("LC_E_NOT_REPRISE", why="LC_R_NOTHING_TURNED")
    rank = coup.turned[-1]
    if coup.pack.left_of(rank) == 0:  # LC-6.5, LC-I22
        raise RuleError("LC_E_DEAD_CARD", rank=rank)
    if who.player in coup.bettors:  # LC-6.2, LC-I8 one bet per carabin per coup
        raise RuleError("LC_E_CARABIN_ALREADY_BET", player=who.player)
    coup = replace(
        coup,
        carabins=(*coup.carabins, CarabinCard(who.player, rank, amount)),
        bettors=(*coup.bettors, who.player),
    )
    return replace(state, coup=coup)


COUP_HANDLERS: dict[str, Callable[[LCState, Action, Who], LCState]] = {
    "start_coup": _start_coup,
    "deal_card": _deal_card,
    "turn_card": _turn_card,
    "carabin_bet": _carabin_bet,
}
