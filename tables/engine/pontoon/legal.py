"""Pontoon (PT): what may be done now and by whom, and what the table screen shows.

The legal actions of PT-4.4, the checks of PT-7.1 (COM-10.2) that the handlers share (the state,
the actor), what is expected next, and the croupier's table screen (``Game.view``).
"""

from __future__ import annotations

from typing import Any

from tables.engine.actions import Action
from tables.engine.checks import acting
from tables.engine.errors import ParamValue, RuleError, wrong_state
from tables.engine.game import LegalAction, hand_view, sorted_types
from tables.engine.pontoon.settings import CODE, MIN_PLAYERS
from tables.engine.pontoon.state import (
    BANK_TRANSFER,
    BANKER_TURN,
    COUP_START,
    FIRST_ROUND,
    PLAYER_TURNS,
    SECOND_ROUND,
    STAKING,
    SUCCESSOR_OFFER,
    Coup,
    Hand,
    PontoonState,
    hand_kind,
    hand_total,
)
from tables.engine.session import (
    ADD_STANDING,
    SESSION_ENDED,
    first_banker_legal,
    session_legal,
)
from tables.engine.settlement import CROUPIER
from tables.engine.table import Actor, Who

# -- checks (PT-7.1) -----------------------------------------------------------------------------


def refused(
    state: PontoonState, action: Action, where: str = "R_STATE", **why: ParamValue
) -> RuleError:
    """E_WRONG_STATE; ``where`` (a code) may say why not here (PT-7.2: a finished hand)."""
    return wrong_state(action.type, state.phase, sorted_types(legal_actions(state)), where, **why)


def require(state: PontoonState, action: Action, allowed: bool) -> None:
    """PT-7.1 step 3: the type exists in the current state (PT-4.4), else ``E_WRONG_STATE``."""
    if not allowed:
        raise refused(state, action)


# -- step 4: actors (PT-7.5) -------------------------------------------------------------------


def seated_player(state: PontoonState, action: Action) -> Who:
    """A seated player, never the croupier or a standing player (PT-2.3, PT-7.5)."""
    return acting(state, action).require_seated(
        action.type,
        "PT_R_STANDING_NO_ROLE",
        croupier="R_CROUPIER_NEVER_PLAYS",
    )


# -- legal actions (PT-4.4) --------------------------------------------------------------------


def legal_actions(state: PontoonState) -> tuple[LegalAction, ...]:
    """PT-4.4 every action type accepted now, with its possible actors."""
    phase = state.phase
    if phase == SESSION_ENDED:
        return ()
    croupier: tuple[Actor, ...] = (CROUPIER,)
    found: list[LegalAction] = [ADD_STANDING]
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
        found += first_banker_legal(state)  # PT-6.4
        if state.vacant and seated > 0:
            found.append(LegalAction("accept_bank", seating.occupied))
    return found + session_legal(state)  # COM-3.8 sit, leave, end_session


# -- the table screen --------------------------------------------------------------------------


def _expected(state: PontoonState) -> dict[str, Any]:
    """What is expected next: a code and its parameters."""
    phase, coup = state.phase, state.coup
    if phase == SESSION_ENDED:
        return {"code": "X_SESSION_ENDED"}
    if phase == COUP_START:
        if state.banker is not None:
            return {"code": "PT_X_NEXT_COUP", "player": state.banker}
        if state.vacant:
            return {"code": "PT_X_VACANT"}
        return {"code": "X_FIRST_BANKER"}
    if phase in (BANK_TRANSFER, SUCCESSOR_OFFER):
        assert state.offer is not None
        return {"code": "X_ACCEPT_OR_DECLINE", "player": state.offer.current[1]}
    assert coup is not None
    if phase in (FIRST_ROUND, SECOND_ROUND):
        seat = coup.next_recipient(phase)
        code = "PT_X_FIRST_CARD" if phase == FIRST_ROUND else "PT_X_SECOND_CARD"
        return {"code": code, "player": state.seating.player_at(seat) or seat}
    if phase == STAKING:
        waiting = [hand.player for hand in coup.hands if hand.to_speak]
        return {"code": "PT_X_STAKING", "players": waiting}
    if phase == PLAYER_TURNS:
        current = coup.current
        assert current is not None
        return {
            "code": "PT_X_PLAYER_TURN",
            "player": current.player,
            "total": hand_total(current.cards),
        }
    return {"code": "PT_X_BANKER_TURN", "player": coup.banker}


def _hand_view(hand: Hand) -> dict[str, Any]:
    return {
        "seat": hand.seat,
        "player": hand.player,
        "cards": list(hand.cards),
        "total": hand_total(hand.cards) if hand.cards else None,
        "kind": hand_kind(hand.cards) if len(hand.cards) >= 2 else None,
        "stake": hand.stake,
        "sat_out": hand.sat_out,
        "twisted": hand.twisted,
        "finished": hand.staked and hand.finished,
    }


IN_COUP = (FIRST_ROUND, STAKING, SECOND_ROUND, PLAYER_TURNS, BANKER_TURN)


def _table_cards(state: PontoonState, coup: Coup) -> dict[str, Any]:
    """Every hand of a coup, the banker's last (PT-2.2)."""
    return {
        "players": [_hand_view(hand) for hand in coup.hands],
        "banker": {
            "seat": coup.banker_seat,
            "player": coup.banker,
            "cards": list(coup.banker_cards),
            "total": hand_total(coup.banker_cards) if coup.banker_cards else None,
            "kind": hand_kind(coup.banker_cards) if len(coup.banker_cards) >= 2 else None,
            # PT-4.1.1 nothing of the banker's hand is shown to the players before his turn.
            "shown": state.phase not in (FIRST_ROUND, STAKING, SECOND_ROUND, PLAYER_TURNS),
        },
    }


def _said(cards: tuple[str, ...], *, sat_out: bool = False) -> list[str]:
    """PT-3.3 to PT-3.5 what a hand of two cards or more is, but a plain total; PT-4.1.2 a
    player who sat out."""
    kind = hand_kind(cards) if len(cards) >= 2 else None
    said = [kind] if kind is not None and kind != "total" else []
    return [*said, "sat_out"] if sat_out else said


def _hands(coup: Coup) -> list[dict[str, Any]]:
    """Every hand of the coup in play order, the banker's last (PT-2.2)."""
    players = [
        hand_view(
            "player",
            hand.cards,
            seat=hand.seat,
            player=hand.player,
            total=hand_total(hand.cards) if hand.cards else None,
            said=_said(hand.cards, sat_out=hand.sat_out),
        )
        for hand in coup.hands
    ]
    banker = hand_view(
        "banker",
        coup.banker_cards,
        seat=coup.banker_seat,
        player=coup.banker,
        total=hand_total(coup.banker_cards) if coup.banker_cards else None,
        said=_said(coup.banker_cards),
    )
    return [*players, banker]


def _next_seat(state: PontoonState) -> int | None:
    """PT-4.1 the seat the next card goes to: the players in order, then the banker."""
    if state.coup is not None and state.phase in (FIRST_ROUND, SECOND_ROUND):
        return state.coup.next_recipient(state.phase)
    return None


def table_view(state: PontoonState) -> dict[str, Any]:
    """The croupier's table screen (``Game.view``).

    ``cards`` and ``stakes`` describe the coup in progress; between coups they are empty and
    ``last_coup`` holds the hands of the coup just played (PT-7.2 still reads them).
    """
    coup = state.coup
    in_coup = coup is not None and state.phase in IN_COUP
    cards: dict[str, Any] = {"players": [], "banker": None}
    stakes: list[dict[str, Any]] = []
    last_coup: dict[str, Any] | None = None
    pack: dict[str, Any] | None = None
    current: str | None = None
    if coup is not None and in_coup:
        cards = _table_cards(state, coup)
        stakes = [
            {
                "player": hand.player,
                "seat": hand.seat,
                "amount": hand.stake,
                "initial": hand.initial,
                "bust": hand.bust,
            }
            for hand in coup.hands
            if hand.staked
        ]
        pack = coup.pack.view()
        if state.phase == PLAYER_TURNS and coup.current is not None:
            current = coup.current.player
    elif coup is not None:
        last_coup = _table_cards(state, coup)
    offer = state.offer
    return {
        "game": CODE,
        "phase": state.phase,
        "banker": state.banker,
        "bank": None,  # COM-9.3 pontoon has no bank amount
        "to_cover": None,
        "stakes": stakes,
        "cards": cards,
        "hands": _hands(coup) if coup is not None and in_coup else [],
        "next_seat": _next_seat(state),
        "current_player": current,
        "last_coup": last_coup,
        "pack": pack,
        "offer": (
            {
                "kind": offer.kind,
                "offerees": [player for _, player in offer.offerees],
                "current": offer.current[1],
            }
            if offer is not None
            else None
        ),
        "vacant": state.vacant,
        "coups": len(state.coups),
        "seats": [{"seat": seat, "player": player} for seat, player in state.seating.seats],
        "standing": list(state.seating.standing),
        "expected": _expected(state),
    }
