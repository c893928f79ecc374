"""Landsknecht: a coup in play, from the ponters' covering to the settlement.

The ponters cover the banker's stake in rotation order, each speaking once, and the reserve fund
(запасной фонд) covers what they leave (LR-2.3, LR-4.2.2). The croupier turns the banker's card,
the ponters' card, then middle cards until one of the two ranks comes again (LR-4.3). The
settlement (LR-5) moves the money and the bank: a winning banker doubles or quits (LR-6.2); a
losing one passes the deal (LR-6.1).
"""

from __future__ import annotations

from collections.abc import Callable

from tables.engine.actions import Action
from tables.engine.cards import Pack
from tables.engine.checks import croupier_only
from tables.engine.errors import RuleError, above_limit, below_minimum, not_eligible, out_of_turn
from tables.engine.immutable import replace
from tables.engine.landsknecht.legal import (
    seated_player,
    state_check,
)
from tables.engine.landsknecht.state import (
    BANK_DECISION,
    BANK_PENDING,
    FIRST_CARD,
    MIDDLE_CARDS,
    OPENING,
    SECOND_CARD,
    SUCCESSOR_OFFER,
    BankRule,
    Coup,
    LRState,
    Offer,
    player_at,
    require_coup,
)
from tables.engine.levy import coup_levy, paid_by_banker
from tables.engine.money import amount_check
from tables.engine.settlement import RESERVE_FUND, CoupRecord, Transfer
from tables.engine.table import Who

EMPTY_PACK_HINT = "LR_R_REFORM"


# -- settlement (LR-5) -------------------------------------------------------------------------


def _fund_cover(state: LRState, coup: Coup) -> LRState:
    """LR-4.2.2 the fund covers ``U = R``, replenished first if short (LR-2.4, LR-I4)."""
    cover = coup.remaining
    fund = state.fund
    replenishments: tuple[Transfer, ...] = ()
    if fund < cover:
        members = state.members_in_seat_order()
        contribution = state.config.reserve_contribution
        rounds = -(-(cover - fund) // (len(members) * contribution))  # k = ceil(...)
        replenishments = tuple(
            Transfer(member, RESERVE_FUND, rounds * contribution, "fund_replenishment")
            for member in members
        )
        fund += len(members) * rounds * contribution
    coup = replace(coup, cover=cover, replenishments=replenishments)
    return replace(state, coup=coup, fund=fund, phase=FIRST_CARD)


def _stakes(coup: Coup) -> tuple[tuple[str, int], ...]:
    """The stakes settled against the bank: each ponter's take, then the fund's cover (LR-5.1)."""
    cover = ((RESERVE_FUND, coup.cover),) if coup.cover else ()
    return (*coup.takes, *cover)


def _settle(state: LRState, coup: Coup, outcome: str, pack: Pack) -> LRState:
    """LR-5: transfers in the order of LR-5.3, then the bank after the coup (LR-6)."""
    banker = state.banker_player
    assert banker is not None
    config = state.config
    transfers = list(coup.replenishments)  # LR-5.3 replenishments first
    banker_wins = outcome in ("plie", "banker_card_out")
    if banker_wins:
        # LR-5.1 each ponter pays his stake, the fund pays U; G = S (LR-I12).
        for ponter, amount in coup.takes:
            transfers.append(Transfer(ponter, banker, amount, "stake_lost"))
        if coup.cover:
            transfers.append(Transfer(RESERVE_FUND, banker, coup.cover, "fund_cover_lost"))
        taken = coup_levy(config, banker, gross=coup.stake, stakes=_stakes(coup))  # COM-6.3
        transfers += taken  # COM-6.4, LV-1
        levy = paid_by_banker(taken, banker)
        fund = state.fund - coup.cover
    else:
        # LR-5.2 the banker pays each ponter and the fund; no cagnotte.
        for ponter, amount in coup.takes:
            transfers.append(Transfer(banker, ponter, amount, "stake_won"))
        if coup.cover:
            transfers.append(Transfer(banker, RESERVE_FUND, coup.cover, "fund_cover_won"))
        transfers += coup_levy(config, banker, gross=0, stakes=_stakes(coup))  # LV-1
        levy = 0
        fund = state.fund + coup.cover
    assert fund >= 0  # COM-5.6 INV-2
    record = CoupRecord(len(state.coups) + 1, outcome, tuple(transfers))  # COM-5.5 asserted
    settled = replace(state, coup=coup, pack=pack, fund=fund, coups=(*state.coups, record))
    if banker_wins:
        # LR-3.2, LR-I7 a reshuffle is due; LR-6.2 the banker doubles or quits.
        return replace(settled, phase=BANK_DECISION, shuffle_due=True, figure=2 * coup.stake - levy)
    # LR-6.1 the deal passes at once: offered to next(banker), at the opening stake.
    seat = state.banker_seat
    assert seat is not None
    return start_offer(settled, seat, OPENING, outgoing_last=True)


def start_offer(state: LRState, seat: int, rule: BankRule, *, outgoing_last: bool) -> LRState:
    """COM-9.4: offered from next(seat) in rotation order, the outgoing banker last."""
    order = state.seating.rotation_from(seat)
    if outgoing_last:
        order = (*order, seat)
    if not order:
        return bank_vacant(state, rule)
    return replace(
        state, phase=SUCCESSOR_OFFER, offer=Offer(order, 0, rule), coup=None, bank_rule=rule
    )


def bank_vacant(state: LRState, rule: BankRule) -> LRState:
    """COM-9.7, LR-6.7: nobody took the bank; its rule is kept (LR-I17)."""
    return _bank_held_by(state, None, rule)


def new_banker(state: LRState, player: str, rule: BankRule) -> LRState:
    return _bank_held_by(state, player, rule)


def _bank_held_by(state: LRState, player: str | None, rule: BankRule) -> LRState:
    """The bank between coups, at ``rule``: held by ``player``, or vacant when None."""
    return replace(
        state,
        phase=BANK_PENDING,
        banker_player=player,
        vacant=player is None,
        bank_rule=rule,
        offer=None,
        coup=None,
    )


# -- handlers: covering (LR-4.2) ---------------------------------------------------------------


def _ponter_to_speak(state: LRState, action: Action) -> tuple[Coup, Who]:
    state_check(state, action)
    coup = require_coup(state)
    who = seated_player(state, action)
    if who.player == state.banker_player:
        raise not_eligible(who.label, action.type, "LR_R_BANKER_TAKES")
    speaker = coup.speaker
    assert speaker is not None
    if who.seat != speaker:  # COM-10.2 step 4
        raise out_of_turn(player_at(state, speaker), who.label)
    return coup, who


def _take(state: LRState, action: Action) -> LRState:
    coup, who = _ponter_to_speak(state, action)
    assert who.player is not None
    config = state.config
    amount = amount_check(action["amount"], config.chip_unit)  # COM-10.2 step 6
    remaining = coup.remaining
    minimum = min(config.min_stake, remaining)  # LR-4.2
    if amount < minimum:
        raise below_minimum(amount, minimum)
    if amount > remaining:
        raise above_limit(amount, "R_LEFT_TO_COVER", remaining)
    coup = replace(coup, spoken=coup.spoken + 1, takes=(*coup.takes, (who.player, amount)))
    return _after_speaking(state, coup)


def _pass(state: LRState, action: Action) -> LRState:
    coup, _ = _ponter_to_speak(state, action)
    return _after_speaking(state, replace(coup, spoken=coup.spoken + 1))


def _after_speaking(state: LRState, coup: Coup) -> LRState:
    if coup.remaining == 0:
        return replace(state, coup=coup, phase=FIRST_CARD)  # covered: the others do not speak
    if coup.speaker is None:
        return _fund_cover(state, coup)  # LR-4.2.2, LR-I3
    return replace(state, coup=coup)


# -- handlers: the cards (LR-4.3) --------------------------------------------------------------


def _turn_card(state: LRState, action: Action) -> LRState:
    state_check(state, action)
    croupier_only(state, action)
    if state.phase == FIRST_CARD and state.shuffle_due:  # LR-3.3, LR-I15 before the rank
        raise RuleError("LR_E_SHUFFLE_DUE")
    pack = state.pack.draw(action["rank"], empty_hint=EMPTY_PACK_HINT)  # COM-10.2 step 5
    rank: str = action["rank"]
    coup = require_coup(state)
    if state.phase == FIRST_CARD:
        coup = replace(coup, banker_card=rank)  # b, to the right
        return replace(state, coup=coup, pack=pack, phase=SECOND_CARD)
    if state.phase == SECOND_CARD:
        coup = replace(coup, ponters_card=rank)  # p, to the left
        if rank == coup.banker_card:
            return _settle(state, coup, "plie", pack)  # plié: the banker wins
        return replace(state, coup=coup, pack=pack, phase=MIDDLE_CARDS)
    coup = replace(coup, middle=(*coup.middle, rank))
    if rank == coup.banker_card:
        return _settle(state, coup, "banker_card_out", pack)
    if rank == coup.ponters_card:
        return _settle(state, coup, "ponters_card_out", pack)
    return replace(state, coup=coup, pack=pack)


COUP_HANDLERS: dict[str, Callable[[LRState, Action], LRState]] = {
    "take": _take,
    "pass": _pass,
    "turn_card": _turn_card,
}
