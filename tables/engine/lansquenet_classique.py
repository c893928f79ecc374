"""Lansquenet classique, with coupeurs and carabins (LC): docs/rules/lansquenet-classique.md.

The banker deals a carte droite to every coupeur (LC-5.2), turns his own card (LC-5.3), then
turns the talon (LC-5.4) until his rank comes out or every coupeur card is taken. Carabins bet
only on the cartes de reprise (LC-6). There is no bank amount: the banker pays from his own
chips (LC-8.3).

A session is a fold over immutable states (COM-10.1): ``apply`` validates an action in the
order of LC-5.0.1 and returns a new state, or raises ``RuleError`` and changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from tables.engine.actions import (
    AMOUNT,
    INT,
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
from tables.engine.game import LegalAction
from tables.engine.money import Rounding, amount_check, cagnotte_levy
from tables.engine.settings import (
    CHIP_UNIT,
    Setting,
    Settings,
    bool_setting,
    cagnotte_settings,
    chips_setting,
    int_setting,
    settings_check,
)
from tables.engine.settlement import CAGNOTTE, CROUPIER, CoupRecord, Transfer
from tables.engine.table import Actor, Seating, Who

# -- phases (LC-5.0) -------------------------------------------------------------------------

COUP_START = "coup_start"
DEAL = "deal"
BANKER_CARD = "banker_card"
DRAWING = "drawing"
BANK_DECISION = "bank_decision"
SUCCESSOR_OFFER = "successor_offer"
SESSION_ENDED = "session_ended"

# -- outcomes (LC-5.2.1, LC-5.3.1, LC-5.4.1) ----------------------------------------------------

COUPEUR_QUADRUPLE = "coupeur_quadruple"
BANKER_QUADRUPLE = "banker_quadruple"
BANKER_CARD_OUT = "banker_card_out"
ALL_TAKEN = "all_taken"

TITLE = "lansquenet classique"
MIN_PLAYERS = 4  # LC-2.3, LC-I16: banker included
MAX_PLAYERS = 12  # LC-2.5

# LC-4.1 the stake on a coupeur card of multiplicity 1, 2, 3 is F, 2F, 4F.
_STAKE_FACTOR = {1: 1, 2: 2, 3: 4}

# -- settings (§1) ----------------------------------------------------------------------------

_SESSION_LIMIT = re.compile(r"(minutes|coups):[1-9][0-9]*")


def _base_stake_required(earlier: Settings) -> int:
    """``base_stake`` has no default (§1): a table that does not set it is ``E_SETTING``."""
    raise RuleError(
        "E_SETTING",
        "Setting base_stake (the fond du jeu) must be set: a positive multiple of the chip "
        f"unit {earlier.get('chip_unit')}.",
    )


def _base_stake_default(earlier: Settings) -> int:
    value: int = earlier["base_stake"]
    return value


def _session_limit_ok(value: Any, _: Settings) -> bool:
    if value is None or value == "none":
        return True
    return isinstance(value, str) and _SESSION_LIMIT.fullmatch(value) is not None


SETTINGS_TABLE: tuple[Setting, ...] = (
    int_setting("decks", 1, 1, 1),
    int_setting("min_players", MIN_PLAYERS, MIN_PLAYERS, MIN_PLAYERS),  # LC-I16
    int_setting("max_players", MAX_PLAYERS, MAX_PLAYERS, MAX_PLAYERS),
    CHIP_UNIT,
    replace(chips_setting("base_stake"), default=_base_stake_required),
    chips_setting("carabin_max_stake", _base_stake_default, at_least="base_stake"),  # LC-I8
    bool_setting("sprinkle_on_banker_card", True),  # LC-I6
    *cagnotte_settings(),  # LC-I17, COM-6
    Setting(
        "session_limit",
        None,
        _session_limit_ok,
        lambda _: 'none, "minutes:n" or "coups:n" (n a positive integer)',
    ),
)


@dataclass(frozen=True)
class Config:
    """The settings the rules read, typed."""

    base_stake: int
    chip_unit: int
    carabin_max_stake: int
    sprinkle_on_banker_card: bool
    cagnotte_rate_bp: int
    cagnotte_step: int
    cagnotte_rounding: Rounding
    max_seated: int  # LC-2.5 min(max_players, seat_count)

    def stake(self, multiplicity: int) -> int:
        return self.base_stake * _STAKE_FACTOR[multiplicity]


# -- action shapes (LC-5.0.1 step 1) ----------------------------------------------------------


ACTIONS: Mapping[str, ActionSpec] = {
    "start_coup": spec("start_coup"),
    "deal_card": spec("deal_card", to=SEAT, rank=RANK),
    "turn_card": spec("turn_card", rank=RANK),
    "carabin_bet": spec("carabin_bet", amount=AMOUNT),
    "keep_bank": spec("keep_bank"),
    "pass_bank": spec("pass_bank"),
    "accept_bank": spec("accept_bank"),
    "decline_bank": spec("decline_bank"),
    "rejouissance": spec("rejouissance", amount=INT),  # LC-I7: named, never accepted
    # COM-3.8 session actions, with the stricter player id of LC-5.0.1 step 1: a non-empty
    # string other than the reserved owner names.
    **session_actions(PLAYER_ID),
}

_CROUPIER_ACTIONS = frozenset(
    {
        "start_coup",
        "deal_card",
        "turn_card",
        "sit",
        "leave",
        "add_standing",
        "set_first_banker",
        "end_session",
    }
)

# -- state ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CoupeurCard:
    """A carte droite in play (LC-4.1): its holder, rank and multiplicity (1, 2 or 3)."""

    seat: int
    player: str
    rank: str
    multiplicity: int = 1


@dataclass(frozen=True)
class CarabinCard:
    """A carabin's bet on a carte de reprise (LC-6.2, LC-6.3)."""

    player: str
    rank: str
    amount: int


@dataclass(frozen=True)
class Coup:
    """The coup (manche, LC-I19) in progress.

    ``cards`` are the coupeur cards in play in deal order; ``carabins`` the carabin cards in
    bet order (LC-2.6); ``last_match`` says what the last card turned from the talon matched
    (None: a carte de reprise); ``turned_any`` is false until the first talon card.
    """

    number: int
    banker: str
    banker_seat: int
    pack: Pack
    deal_order: tuple[int, ...]
    dealt: int = 0
    cards: tuple[CoupeurCard, ...] = ()
    banker_rank: str | None = None
    banker_multiplicity: int = 0
    carabins: tuple[CarabinCard, ...] = ()
    bettors: tuple[str, ...] = ()
    turned: tuple[str, ...] = ()
    last_match: str | None = None
    transfers: tuple[Transfer, ...] = ()
    gross: int = 0  # COM-6.2 / LC-8.2: every stake the banker collected

    @property
    def next_recipient(self) -> int | None:
        return self.deal_order[self.dealt] if self.dealt < len(self.deal_order) else None

    def card_of_rank(self, rank: str) -> CoupeurCard | None:
        for card in self.cards:
            if card.rank == rank:
                return card
        return None

    def carabins_on(self, rank: str) -> tuple[CarabinCard, ...]:
        return tuple(bet for bet in self.carabins if bet.rank == rank)

    def last_is_live_reprise(self) -> bool:
        """LC-6.1, LC-6.5: the last talon card is a carte de reprise not yet dead."""
        if not self.turned or self.last_match is not None:
            return False
        return self.pack.left_of(self.turned[-1]) > 0


@dataclass(frozen=True)
class LCState:
    """The session at one table (the ``GameState`` of game.py)."""

    config: Config
    seating: Seating
    phase: str = COUP_START
    banker: str | None = None
    vacant: bool = False  # LC-7.6 the bank is vacant
    offer: tuple[int, ...] = ()  # LC-7.1 offerees still to answer, the current one first
    forced_successor: bool = False  # LC-7.2
    coup: Coup | None = None
    coups: tuple[CoupRecord, ...] = ()
    session_transfers: tuple[Transfer, ...] = ()  # LC-8.4 always empty


# -- the game ---------------------------------------------------------------------------------


class LansquenetClassique:
    """The ``Game`` of lansquenet classique."""

    code = "lansquenet_classique"
    title = TITLE
    default_seat_count = 12
    actions: Mapping[str, ActionSpec] = ACTIONS

    # -- settings and start --------------------------------------------------------------------

    def settings_validate(self, raw: Mapping[str, Any], seat_count: int) -> dict[str, Any]:
        """§1 table; ``max_players`` is fixed and capped by ``seat_count`` (LC-2.5)."""
        return settings_check(SETTINGS_TABLE, raw)

    def start(self, settings: Mapping[str, Any], seating: Seating) -> LCState:
        config = Config(
            base_stake=settings["base_stake"],
            chip_unit=settings["chip_unit"],
            carabin_max_stake=settings["carabin_max_stake"],
            sprinkle_on_banker_card=settings["sprinkle_on_banker_card"],
            cagnotte_rate_bp=settings["cagnotte_rate_bp"],
            cagnotte_step=settings["cagnotte_step"],
            cagnotte_rounding=settings["cagnotte_rounding"],
            max_seated=min(settings["max_players"], seating.seat_count),
        )
        return LCState(config, seating)

    # -- apply (LC-5.0.1) ----------------------------------------------------------------------

    def apply(self, state: Any, action: Action) -> LCState:
        assert isinstance(state, LCState)
        # Step 1 (the rest is the shape check of game.step): the actor is a non-empty string.
        empty_actor_check(action, ACTIONS[action.type].describe())
        # Step 2: réjouissance first, in every state (LC-I7).
        if action.type == "rejouissance":
            raise RuleError(
                "LC_E_NO_REJOUISSANCE", "Réjouissance stakes are not played at this table."
            )
        # Specific code first (COM-10.2): the forced successor cannot refuse (LC-7.2).
        forced = state.phase == SUCCESSOR_OFFER and state.forced_successor
        if action.type == "decline_bank" and forced:
            raise RuleError(
                "LC_E_CANNOT_REFUSE", "After the banker's quadruple the bank cannot be refused."
            )
        self._state_check(state, action.type)
        # Step 3: the actor is at the table, then may perform the action at all.
        who = state.seating.resolve(action.actor)
        self._eligibility_check(state, action.type, who)
        return _HANDLERS[action.type](state, action, who)

    def _state_check(self, state: LCState, action_type: str) -> None:
        """LC-5.0.1 step 2: ``E_WRONG_STATE``, then ``E_TABLE_SIZE`` for ``start_coup``."""
        if not _allowed_in_state(state, action_type):
            legal = [legal.type for legal in self.legal_actions(state)]
            raise wrong_state(action_type, state.phase, legal)
        if action_type == "start_coup":
            seated = state.seating.seated_count
            if not MIN_PLAYERS <= seated <= state.config.max_seated:
                # LC-2.3 a coup needs 4 to min(12, seat_count) seated players.
                raise table_size(self.title, MIN_PLAYERS, state.config.max_seated, seated)

    def _eligibility_check(self, state: LCState, action_type: str, who: Who) -> None:
        """LC-5.0.1 step 3, second part: ``E_NOT_ELIGIBLE``."""
        if action_type in _CROUPIER_ACTIONS:
            who.require_croupier(action_type, "only the croupier records this")
        elif action_type == "carabin_bet":
            if who.kind == "croupier":
                raise not_eligible(who.label, action_type, "the croupier is never a player")
            if who.kind == "seat":
                # LC-2.2 only carabins (players without a seat) bet on cartes de reprise.
                raise not_eligible(who.label, action_type, "a coupeur is not a carabin")
        elif action_type in ("keep_bank", "pass_bank"):
            who.require_banker(action_type, state.banker, "only the banker decides on his bank")
        elif action_type in ("accept_bank", "decline_bank"):
            # LC-2.1, COM-9.1 only a seated coupeur may hold the bank.
            who.require_seated(action_type, "only a seated coupeur can hold the bank")

    # -- legal actions (LC-5.0) ----------------------------------------------------------------

    def legal_actions(self, state: Any) -> tuple[LegalAction, ...]:
        assert isinstance(state, LCState)
        found: list[LegalAction] = []
        croupier: tuple[Actor, ...] = (CROUPIER,)
        seats: tuple[Actor, ...] = tuple(state.seating.occupied)
        if state.phase == SESSION_ENDED:
            return ()
        if state.phase == COUP_START:
            seated = state.seating.seated_count
            if state.banker is not None and MIN_PLAYERS <= seated <= state.config.max_seated:
                found.append(LegalAction("start_coup", croupier))
            if state.banker is None and not state.coups and seats:
                found.append(LegalAction("set_first_banker", croupier))
            if state.vacant and seats:
                found.append(LegalAction("accept_bank", seats))
            free = state.seating.seat_count > seated
            if free and seated < state.config.max_seated:
                found.append(LegalAction("sit", croupier))
            if seated or state.seating.standing:
                found.append(LegalAction("leave", croupier))
            found.append(LegalAction("end_session", croupier))
        elif state.phase == DEAL:
            found.append(LegalAction("deal_card", croupier))
        elif state.phase == BANKER_CARD:
            found.append(LegalAction("turn_card", croupier))
        elif state.phase == DRAWING:
            found.append(LegalAction("turn_card", croupier))
            coup = state.coup
            assert coup is not None
            if coup.last_is_live_reprise():
                carabins = tuple(c for c in state.seating.standing if c not in coup.bettors)
                if carabins:
                    found.append(LegalAction("carabin_bet", carabins))
        elif state.phase == BANK_DECISION:
            banker_seat = _banker_seat(state)
            found.append(LegalAction("keep_bank", (banker_seat,)))
            found.append(LegalAction("pass_bank", (banker_seat,)))
        elif state.phase == SUCCESSOR_OFFER:
            offeree: tuple[Actor, ...] = (state.offer[0],)
            found.append(LegalAction("accept_bank", offeree))
            if not state.forced_successor:
                found.append(LegalAction("decline_bank", offeree))
        found.append(LegalAction("add_standing", croupier))  # COM-3.8, LC-2.7
        return tuple(found)

    # -- view ----------------------------------------------------------------------------------

    def view(self, state: Any) -> dict[str, Any]:
        """The croupier's table screen."""
        assert isinstance(state, LCState)
        coup = state.coup
        config = state.config
        stakes: list[dict[str, Any]] = []
        cards: dict[str, Any] = {"coupeurs": [], "banker": None, "carabins": [], "talon": []}
        if coup is not None:
            for card in coup.cards:
                stakes.append(
                    {
                        "player": card.player,
                        "amount": config.stake(card.multiplicity),
                        "kind": "coupeur",
                        "seat": card.seat,
                    }
                )
                cards["coupeurs"].append(
                    {
                        "seat": card.seat,
                        "player": card.player,
                        "rank": card.rank,
                        "multiplicity": card.multiplicity,
                    }
                )
            for bet in coup.carabins:
                stakes.append({"player": bet.player, "amount": bet.amount, "kind": "carabin"})
                cards["carabins"].append(
                    {"player": bet.player, "rank": bet.rank, "amount": bet.amount}
                )
            if coup.banker_rank is not None:
                cards["banker"] = {
                    "rank": coup.banker_rank,
                    "multiplicity": coup.banker_multiplicity,
                }
            cards["talon"] = list(coup.turned)
        pack = None
        if coup is not None and state.phase in (DEAL, BANKER_CARD, DRAWING):
            pack = {"left": coup.pack.left, "counts": coup.pack.counts_left()}
        return {
            "phase": state.phase,
            "banker": state.banker,
            "bank": None,  # LC-8.3 no bank amount
            "to_cover": None,
            "stakes": stakes,
            "cards": cards,
            "pack": pack,
            "expected": _expected(state),
            "base_stake": config.base_stake,
            "carabin_max_stake": config.carabin_max_stake,
            "coup_number": coup.number if coup is not None else len(state.coups) + 1,
            "next_recipient": _seat_label(state, coup.next_recipient)
            if coup is not None and state.phase == DEAL
            else None,
            "reprise_open": bool(
                coup is not None and state.phase == DRAWING and coup.last_is_live_reprise()
            ),
            "carabins_who_bet": list(coup.bettors) if coup is not None else [],
            "offer": [_seat_label(state, seat) for seat in state.offer],
            "forced_successor": state.forced_successor,
            "vacant": state.vacant,
            "seats": [{"seat": seat, "player": player} for seat, player in state.seating.seats],
            "carabins": list(state.seating.standing),
            "coups_played": len(state.coups),
        }


# -- helpers ----------------------------------------------------------------------------------


def _allowed_in_state(state: LCState, action_type: str) -> bool:
    """LC-5.0 the states in which each action type is accepted."""
    phase = state.phase
    if action_type == "add_standing":
        return phase != SESSION_ENDED
    if action_type in ("sit", "leave", "end_session"):
        return phase == COUP_START
    if action_type == "start_coup":
        return phase == COUP_START and state.banker is not None
    if action_type == "set_first_banker":
        return phase == COUP_START and state.banker is None and not state.coups
    if action_type == "accept_bank":
        return phase == SUCCESSOR_OFFER or (phase == COUP_START and state.vacant)
    if action_type == "decline_bank":
        return phase == SUCCESSOR_OFFER
    if action_type == "deal_card":
        return phase == DEAL
    if action_type == "turn_card":
        return phase in (BANKER_CARD, DRAWING)
    if action_type == "carabin_bet":
        return phase == DRAWING
    if action_type in ("keep_bank", "pass_bank"):
        return phase == BANK_DECISION
    return False


def _banker_seat(state: LCState) -> int:
    assert state.banker is not None
    seat = state.seating.seat_of(state.banker)
    assert seat is not None
    return seat


def _seat_label(state: LCState, seat: int | None) -> str | None:
    if seat is None:
        return None
    return state.seating.player_at(seat)


def _expected(state: LCState) -> str:
    """A short phrase of what happens next, for the table screen."""
    phase = state.phase
    coup = state.coup
    if phase == SESSION_ENDED:
        return "The session is over"
    if phase == COUP_START:
        if state.vacant:
            return "The bank is vacant: any seated coupeur may take it"
        if state.banker is None:
            return "The croupier records the first banker"
        if MIN_PLAYERS <= state.seating.seated_count <= state.config.max_seated:
            return f"{state.banker} shuffles the 52 cards: the croupier starts the coup"
        return f"Waiting for {MIN_PLAYERS} to {state.config.max_seated} seated players"
    if phase == DEAL:
        assert coup is not None
        return f"The banker deals a carte droite to {_seat_label(state, coup.next_recipient)}"
    if phase == BANKER_CARD:
        return "The banker turns his own card"
    if phase == DRAWING:
        assert coup is not None
        if coup.last_is_live_reprise():
            return (
                f"Carabins may bet on the carte de reprise {coup.turned[-1]}; "
                "then the banker turns the next card"
            )
        return "The banker turns the next card of the talon"
    if phase == BANK_DECISION:
        return f"{state.banker} keeps the bank or passes it to his right"
    offeree = _seat_label(state, state.offer[0])
    if state.forced_successor:
        return f"{offeree} must accept the bank (after the banker's quadruple)"
    return f"{offeree} accepts or declines the bank"


def _bank_offer(seating: Seating, banker_seat: int, *, include_banker: bool) -> tuple[int, ...]:
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
    levy = cagnotte_levy(
        coup.gross,
        rate_bp=config.cagnotte_rate_bp,
        step=config.cagnotte_step,
        rounding=config.cagnotte_rounding,
    )
    transfers = coup.transfers
    if levy > 0:
        transfers = (*transfers, Transfer(coup.banker, CAGNOTTE, levy, "cagnotte"))
    record = CoupRecord(coup.number, outcome, transfers)  # COM-5.5 zero sum asserted
    settled = replace(state, coup=None, coups=(*state.coups, record))
    if outcome in (BANKER_CARD_OUT, COUPEUR_QUADRUPLE):
        # LC-7.1, LC-I21: offered from next(banker), the outgoing banker last; LC-7.7, LC-I20:
        # after a coupeur's quadruple at once, and it may be declined.
        offer = _bank_offer(state.seating, coup.banker_seat, include_banker=True)
        return replace(settled, phase=SUCCESSOR_OFFER, offer=offer, forced_successor=False)
    # LC-7: all_taken or banker_quadruple, the banker decides (LC-I15).
    return replace(settled, phase=BANK_DECISION)


# -- handlers: one per action type --------------------------------------------------------------

Handler = Callable[[LCState, Action, Who], LCState]


def _start_coup(state: LCState, action: Action, who: Who) -> LCState:
    """LC-5.1, LC-3.1: a fresh pack; the deal from next(banker) (LC-2.4)."""
    banker_seat = _banker_seat(state)
    assert state.banker is not None
    coup = Coup(
        number=len(state.coups) + 1,
        banker=state.banker,
        banker_seat=banker_seat,
        pack=Pack(1),
        deal_order=state.seating.rotation_from(banker_seat),  # LC-2.1 every coupeur plays
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
        raise RuleError(
            "E_OUT_OF_TURN",
            f"It is {_seat_label(state, expected)}'s turn to receive a card, "
            f"not {_seat_label(state, to)}'s.",
        )
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
        coup = replace(coup, last_match=f"{held.player}'s card")
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
            last_match="the carabin card of " + ", ".join(bet.player for bet in bets),
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
        raise above_limit(amount, "the carabin's maximum stake", config.carabin_max_stake)
    # Step 7, in the order of the LC-5.4 table.
    if not coup.turned or coup.last_match is not None:
        if coup.turned:
            reason = f"the last card {coup.turned[-1]} matched {coup.last_match}"
        else:
            reason = "no card has been turned from the talon yet"
        raise RuleError(
            "LC_E_NOT_REPRISE", f"Carabins bet only on a carte de reprise just turned; {reason}."
        )
    rank = coup.turned[-1]
    if coup.pack.left_of(rank) == 0:  # LC-6.5, LC-I22
        raise RuleError(
            "LC_E_DEAD_CARD",
            f"No {rank} is left in the talon: all four have been seen in this coup.",
        )
    if who.player in coup.bettors:  # LC-6.2, LC-I8 one bet per carabin per coup
        raise RuleError("LC_E_CARABIN_ALREADY_BET", f"{who.player} has already bet in this coup.")
    coup = replace(
        coup,
        carabins=(*coup.carabins, CarabinCard(who.player, rank, amount)),
        bettors=(*coup.bettors, who.player),
    )
    return replace(state, coup=coup)


def _keep_bank(state: LCState, action: Action, who: Who) -> LCState:
    """LC-7 the banker keeps the bank: the same banker deals the next coup (LC-I15)."""
    return replace(state, phase=COUP_START)


def _pass_bank(state: LCState, action: Action, who: Who) -> LCState:
    """LC-7 pass_bank: an offer from next(banker); after a banker's quadruple, forced (LC-7.2)."""
    banker_seat = _banker_seat(state)
    if state.coups[-1].outcome == BANKER_QUADRUPLE:
        # LC-7.2, LC-I13: offered to next(banker) alone, who cannot refuse.
        first = state.seating.next_seat(banker_seat)
        assert first is not None
        return replace(state, phase=SUCCESSOR_OFFER, offer=(first,), forced_successor=True)
    offer = _bank_offer(state.seating, banker_seat, include_banker=True)
    return replace(state, phase=SUCCESSOR_OFFER, offer=offer, forced_successor=False)


def _offeree_check(state: LCState, who: Who) -> None:
    """LC-5.0.1 step 4: a bank offer answered by another than the current offeree."""
    if state.phase == SUCCESSOR_OFFER and who.seat != state.offer[0]:
        expected = _seat_label(state, state.offer[0])
        raise out_of_turn(str(expected), who.label)


def _accept_bank(state: LCState, action: Action, who: Who) -> LCState:
    """LC-7 the offeree (or, while the bank is vacant, any seated player, LC-7.6) takes it."""
    _offeree_check(state, who)
    return replace(
        state,
        phase=COUP_START,
        banker=who.player,
        vacant=False,
        offer=(),
        forced_successor=False,  # LC-7.2 false again once he has accepted
    )


def _decline_bank(state: LCState, action: Action, who: Who) -> LCState:
    """LC-7.1 the offer moves on; after the last offeree the bank is vacant (LC-7.6)."""
    _offeree_check(state, who)
    rest = state.offer[1:]
    if rest:
        return replace(state, offer=rest)
    return _vacant(state)


def _vacant(state: LCState) -> LCState:
    """LC-7.6, COM-9.7 the vacant bank: coup_start with no banker."""
    return replace(
        state, phase=COUP_START, banker=None, vacant=True, offer=(), forced_successor=False
    )


def _sit(state: LCState, action: Action, who: Who) -> LCState:
    """COM-3.8 sit: E_NO_SUCH_SEAT, E_SEAT_TAKEN, E_PLAYER_PRESENT, then E_TABLE_SIZE (LC-2.5)."""
    seating = state.seating.sit_up_to(
        action["player"],
        action["seat"],
        state.config.max_seated,
        game_title=TITLE,
        minimum=MIN_PLAYERS,
    )
    return replace(state, seating=seating)


def _leave(state: LCState, action: Action, who: Who) -> LCState:
    """COM-3.8 leave; a banker who leaves gives up the bank (LC-7.3, COM-9.6)."""
    leaving = state.seating.leaving(seat=action.get("seat"), player=action.get("player"))
    seating = state.seating.without(leaving)
    left = replace(state, seating=seating)
    if leaving.kind != "seat" or leaving.player != state.banker:
        return left
    assert leaving.seat is not None
    # LC-7.3 offered from the seat to the right of his former seat, without him; banker null.
    offer = _bank_offer(seating, leaving.seat, include_banker=False)
    if not offer:
        return _vacant(left)
    return replace(
        left, phase=SUCCESSOR_OFFER, banker=None, vacant=False, offer=offer, forced_successor=False
    )


def _add_standing(state: LCState, action: Action, who: Who) -> LCState:
    """COM-3.8, LC-2.7 a carabin arrives (any state but session_ended)."""
    return replace(state, seating=state.seating.add_standing(action["player"]))


def _set_first_banker(state: LCState, action: Action, who: Who) -> LCState:
    """COM-9.2 the first banker, chosen by agreement or by lot; only a coupeur (LC-2.1)."""
    seat = state.seating.seat_param(action["seat"])
    return replace(state, banker=state.seating.player_at(seat), vacant=False)


def _end_session(state: LCState, action: Action, who: Who) -> LCState:
    """COM-3.8 end_session: nothing to return in this game (LC-8.4)."""
    return replace(
        state, phase=SESSION_ENDED, banker=None, vacant=False, offer=(), forced_successor=False
    )


_HANDLERS: Mapping[str, Handler] = {
    "start_coup": _start_coup,
    "deal_card": _deal_card,
    "turn_card": _turn_card,
    "carabin_bet": _carabin_bet,
    "keep_bank": _keep_bank,
    "pass_bank": _pass_bank,
    "accept_bank": _accept_bank,
    "decline_bank": _decline_bank,
    "sit": _sit,
    "leave": _leave,
    "add_standing": _add_standing,
    "set_first_banker": _set_first_banker,
    "end_session": _end_session,
}

GAME = LansquenetClassique()
