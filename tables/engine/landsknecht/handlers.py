"""Ландскнехт — Russian landsknecht with the shared reserve fund (docs/rules/landsknecht-russe.md).

The banker stakes an amount ``S``; the ponters cover it, and the reserve fund covers what they
leave (LR-2.3). A winning banker doubles or quits (LR-6.2); a losing one passes the deal (LR-6.1).

The session is a fold over the recorded actions (COM-10.1): ``LRState`` is immutable and every
handler returns a new state or raises ``RuleError`` in the order of COM-10.2. Here: the action
shapes, the handlers between coups (LR-2.1, LR-3, LR-4.1, LR-6), what the session actions of
COM-3.8 do in this game (LR-2.5, LR-2.6), and the game. The coup in play is in ``coup``; the
legal actions and the table screen in ``legal``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tables.engine.actions import (
    AMOUNT,
    RANK,
    SESSION_ACTIONS,
    Action,
    ActionSpec,
    by_type,
    player_id_check,
    spec,
)
from tables.engine.checks import croupier_only
from tables.engine.errors import (
    ParamValue,
    RuleError,
    above_limit,
    out_of_turn,
    table_size,
    with_common_errors,
    with_shared_reasons,
)
from tables.engine.game import GameState, own_state
from tables.engine.immutable import replace
from tables.engine.landsknecht.coup import COUP_HANDLERS, bank_vacant, new_banker, start_offer
from tables.engine.landsknecht.legal import (
    legal_actions,
    seated_player,
    state_check,
    table_view,
    the_banker,
)
from tables.engine.landsknecht.settings import CODE, MIN_PLAYERS, TITLE, Config, settings_table
from tables.engine.landsknecht.state import (
    BANK_PENDING,
    COVERING,
    FIRST_CARD,
    MIDDLE_CARDS,
    OPENING,
    SECOND_CARD,
    BankRule,
    Coup,
    LRState,
    player_at,
    require_coup,
)
from tables.engine.money import amount_check, split_largest_remainder
from tables.engine.session import (
    BANK_ANSWERS,
    SESSION_ENDED,
    SESSION_TYPES,
    SessionCore,
    seated_check,
)
from tables.engine.settings import seat_count_check, settings_check
from tables.engine.settlement import RESERVE_FUND, Transfer, zero_sum_check
from tables.engine.table import Seating, Who

# -- bank amounts (LR-4.1.1) -------------------------------------------------------------------


def _opening_allows(config: Config, amount: int) -> bool:
    if not config.free_opening:
        return amount == config.agreed_stake
    return amount >= config.min_bank and config.within_max_bank(amount)  # LR-I2


def _amount_allowed(config: Config, rule: BankRule, amount: int) -> bool:
    if rule.kind == "fixed":
        return amount == rule.amount  # COM-9.8: not checked against min_bank
    if rule.kind == "opening_or_figure":
        assert rule.amount is not None
        if amount == rule.amount and config.within_max_bank(rule.amount):
            return True  # LR-I14 the figure is an extra option
    return _opening_allows(config, amount)


def _allowed(config: Config, rule: BankRule) -> dict[str, ParamValue]:
    """What the banker may stake (LR_E_BANK_AMOUNT): ``allowed`` a code, and its values."""
    if rule.kind == "fixed":
        assert rule.amount is not None
        return {"allowed": "LR_R_EXACTLY", "bank": rule.amount}
    found: dict[str, ParamValue]
    if not config.free_opening:
        found = {"allowed": "LR_R_AGREED", "agreed": config.agreed_stake}
    elif config.max_bank is None:
        found = {"allowed": "LR_R_AT_LEAST", "minimum": config.min_bank}
    else:
        found = {"allowed": "LR_R_BETWEEN", "minimum": config.min_bank, "maximum": config.max_bank}
    figure = rule.amount if rule.kind == "opening_or_figure" else None
    if figure is not None and config.within_max_bank(figure):
        # LR-I14 the figure is an extra option: the opening's words, then the figure.
        found = {
            **found,
            "opening": found["allowed"],
            "allowed": "LR_R_OR_FIGURE",
            "figure": figure,
        }
    return found


# -- handlers: bank_pending (LR-4.1) -----------------------------------------------------------


def _announce_bank(state: LRState, action: Action) -> LRState:
    # LR-4.1.2 the reserve first, before the state and the actor.
    if not state.reserve_open:
        raise RuleError("LR_E_RESERVE_NOT_OPEN")
    state_check(state, action)
    seated_check(state, CODE)  # COM-10.2 step 2, LR-4.1.2
    config = state.config
    the_banker(state, action, "LR_R_BANKER_ANNOUNCES")
    amount = amount_check(action["amount"], config.chip_unit)  # COM-5.1
    if not _amount_allowed(config, state.bank_rule, amount):  # LR-4.1.1
        raise RuleError("LR_E_BANK_AMOUNT", amount=amount, **_allowed(config, state.bank_rule))
    banker_seat = state.banker_seat
    assert banker_seat is not None
    # LR-4.2, LR-I1 the ponters speak once each, in rotation order from the banker.
    coup = Coup(stake=amount, speakers=state.seating.rotation_from(banker_seat))
    return replace(state, phase=COVERING, coup=coup)


def _shuffle_pack(state: LRState, action: Action) -> LRState:
    state_check(state, action)
    croupier_only(state, action)
    empty = state.pack.left == 0
    # LR-3.3, LR-I15 a due reshuffle before the first card; LR-3.4 an empty pack anywhere.
    due = state.shuffle_due and state.phase in (BANK_PENDING, FIRST_CARD)
    allowed = due or empty
    if not allowed:  # COM-10.2 step 7
        raise RuleError("LR_E_SHUFFLE_NOT_DUE", left=state.pack.left)
    pack = state.pack.fresh()
    if state.phase in (SECOND_CARD, MIDDLE_CARDS):
        # LR-3.4, LR-I8 re-formed without the cards on the table in this coup.
        pack = pack.draw_many(require_coup(state).table_cards)
    return replace(state, pack=pack, shuffle_due=False)


def _open_reserve(state: LRState, action: Action) -> LRState:
    state_check(state, action)  # LR-2.1.1 once, before the first coup, not while vacant
    croupier_only(state, action)
    seated = state.seating.seated_count
    if seated < MIN_PLAYERS:  # LR-2.1.1 checked after the actor
        raise table_size(CODE, MIN_PLAYERS, state.config.max_players, seated)
    members = tuple(player for _, player in state.seating.seats)
    contribution = state.config.reserve_contribution
    # LR-2.1 every seated player pays C, listed in seat order.
    paid = tuple(
        Transfer(member, RESERVE_FUND, contribution, "fund_contribution") for member in members
    )
    zero_sum_check(paid)  # COM-5.5
    return replace(
        state,
        reserve_open=True,
        members=members,
        fund=state.fund + contribution * len(members),
        session_transfers=state.session_transfers + paid,
    )


def _accept_bank(state: LRState, action: Action) -> LRState:
    state_check(state, action)
    who = seated_player(state, action)  # LR-2.8 standing players are E_NOT_ELIGIBLE
    assert who.player is not None
    if state.phase == BANK_PENDING:
        # COM-9.7, LR-6.7 vacant bank: any seated player, in no order, with the kept rule.
        return new_banker(state, who.player, state.bank_rule)
    offer = state.offer
    assert offer is not None
    if who.seat != offer.offeree:  # COM-10.2 step 4
        raise out_of_turn(player_at(state, offer.offeree), who.label)
    return new_banker(state, who.player, offer.rule)  # LR-6.4


def _decline_bank(state: LRState, action: Action) -> LRState:
    state_check(state, action)  # LR-6.7 decline_bank in a vacant bank is E_WRONG_STATE
    who = seated_player(state, action)
    offer = state.offer
    assert offer is not None
    if who.seat != offer.offeree:
        raise out_of_turn(player_at(state, offer.offeree), who.label)
    if offer.index + 1 < len(offer.order):
        return replace(state, offer=replace(offer, index=offer.index + 1))
    return bank_vacant(state, offer.rule)  # LR-6.7 everybody declined


# -- handlers: the bank after the coup (LR-6) --------------------------------------------------


def _double(state: LRState, action: Action) -> LRState:
    state_check(state, action)
    the_banker(state, action, "R_BANKER_ONLY")
    if not state.config.within_max_bank(state.figure):  # LR-6.2, LR-I10
        assert state.config.max_bank is not None
        raise above_limit(state.figure, "R_MAX_BANK", state.config.max_bank)
    # LR-6.2 he stays; the next stake is fixed at 2S − c.
    return replace(state, phase=BANK_PENDING, bank_rule=BankRule("fixed", state.figure), coup=None)


def _quit_bank(state: LRState, action: Action) -> LRState:
    state_check(state, action)
    who = the_banker(state, action, "R_BANKER_ONLY")
    assert who.seat is not None
    # LR-6.2 сняться: he keeps Q = 2S − c (LR-6.5); the bank is offered with the figure Q.
    rule = BankRule("opening_or_figure", state.figure)
    return start_offer(state, who.seat, rule, outgoing_last=True)


def _member_leaves(state: LRState, player: str) -> LRState:
    """LR-2.5, LR-I6 his floor share; the remainder stays in the fund."""
    unit = state.config.chip_unit
    share = state.fund // (len(state.members) * unit) * unit
    moved: tuple[Transfer, ...] = ()
    if share:
        moved = (Transfer(RESERVE_FUND, player, share, "fund_share"),)
    return replace(
        state,
        members=tuple(member for member in state.members if member != player),
        fund=state.fund - share,
        session_transfers=state.session_transfers + moved,
    )


def _ended(state: LRState) -> LRState:
    """LR-4.0 ``session_ended``: no banker, no legal action."""
    return replace(
        state,
        phase=SESSION_ENDED,
        banker_player=None,
        vacant=False,
        reserve_open=False,
        members=(),
        offer=None,
        coup=None,
    )


_HANDLERS: Mapping[str, Callable[[LRState, Action], LRState]] = {
    "announce_bank": _announce_bank,
    **COUP_HANDLERS,
    "shuffle_pack": _shuffle_pack,
    "open_reserve": _open_reserve,
    "double": _double,
    "quit_bank": _quit_bank,
    "accept_bank": _accept_bank,
    "decline_bank": _decline_bank,
}


# -- the game ----------------------------------------------------------------------------------


def _actions() -> Mapping[str, ActionSpec]:
    own = (
        spec("announce_bank", amount=AMOUNT),
        spec("take", amount=AMOUNT),
        spec("pass"),
        spec("turn_card", rank=RANK),
        spec("shuffle_pack"),
        spec("open_reserve"),
        spec("double"),
        spec("quit_bank"),
        *BANK_ANSWERS.values(),  # COM-9.4, COM-9.7
    )
    return {**by_type(*own), **SESSION_ACTIONS}


class Landsknecht(SessionCore[LRState]):
    """The ``Game`` of landsknecht (LR)."""

    code = CODE
    title = TITLE
    label = "Landsknecht (Russian)"
    rules_file = "landsknecht-russe.md"  # docs/rules/landsknecht-russe.md
    actions: Mapping[str, ActionSpec] = _actions()
    handlers = _HANDLERS
    coup_start_phases = frozenset({BANK_PENDING})  # COM-3.8, LR-4.0.1
    new_pack_actions = frozenset({"shuffle_pack"})  # LR-3.2 to LR-3.4
    # Every code this game may answer with (tests/engine/test_words.py checks their words).
    error_codes: tuple[str, ...] = with_common_errors(
        "LR_E_RESERVE_NOT_OPEN",
        "LR_E_BANK_AMOUNT",
        "LR_E_SHUFFLE_DUE",
        "LR_E_SHUFFLE_NOT_DUE",
    )
    reason_codes: tuple[str, ...] = with_shared_reasons(
        "R_MAX_BANK",
        "R_LEFT_TO_COVER",
        "LR_R_REFORM",
        "LR_R_BANKER_TAKES",
        "LR_R_BANKER_ANNOUNCES",
        "LR_R_STANDING_NO_PART",
        "LR_R_EXACTLY",
        "LR_R_AGREED",
        "LR_R_AT_LEAST",
        "LR_R_BETWEEN",
        "LR_R_OR_FIGURE",
        "LR_S_MAX_BANK",
        "LR_P_ACTOR",
        "S_REQUIRED_CHIPS",
    )
    # What its table screen may expect next (``view()["expected"]``, from legal.py).
    expected_codes: tuple[str, ...] = (
        "X_SESSION_ENDED",
        "LR_X_VACANT",
        "LR_X_FIRST_BANKER_AND_RESERVE",
        "LR_X_OPEN_RESERVE",
        "X_FIRST_BANKER",
        "LR_X_SHUFFLE_AND_ANNOUNCE",
        "LR_X_ANNOUNCE",
        "LR_X_TAKE",
        "LR_X_SHUFFLE",
        "LR_X_BANKER_CARD",
        "LR_X_PACK_EMPTY",
        "LR_X_PONTERS_CARD",
        "LR_X_MIDDLE_CARDS",
        "LR_X_BANK_DECISION",
        "X_ACCEPT_OR_DECLINE",
    )

    # -- COM-3.8 / LR-4.0.1 what the session actions do here ----------------------------------

    def first_banker(self, state: LRState, seat: int) -> LRState:
        return new_banker(state, player_at(state, seat), OPENING)  # LR-6.6

    def left(self, state: LRState, who: Who) -> LRState:
        if who.player in state.members:
            state = _member_leaves(state, who.player)
            if not state.members:
                # LR-2.6 the last member left: the reserve closes and the session ends.
                return _ended(state)
        if who.seat is not None and who.player == state.banker_player and not state.vacant:
            # LR-6.6, COM-9.6 as LR-6.1, at the opening stake; banker null until someone accepts.
            state = replace(state, banker_player=None)
            return start_offer(state, who.seat, OPENING, outgoing_last=False)
        return state

    def ended(self, state: LRState) -> LRState:
        # LR-2.6, LR-7.1, COM-8.2 the balance by largest remainder, in seat order.
        members = state.members_in_seat_order()
        shares = split_largest_remainder(state.fund, len(members), state.config.chip_unit)
        moved = tuple(
            Transfer(RESERVE_FUND, member, share, "fund_share")
            for member, share in zip(members, shares, strict=True)
            if share
        )
        zero_sum_check(moved)
        left = state.fund - sum(shares)
        return _ended(replace(state, fund=left, session_transfers=state.session_transfers + moved))

    # -- the Game protocol --------------------------------------------------------------------

    def settings_validate(self, raw: Mapping[str, Any], seat_count: int) -> dict[str, Any]:
        seat_count_check(seat_count, 2)
        return settings_check(settings_table(seat_count), raw)

    def start(self, settings: Mapping[str, Any], seating: Seating) -> LRState:
        return LRState(config=Config.of(settings, seating.seat_count), seating=seating)

    def apply(self, state: GameState, action: Action) -> LRState:
        # Step 1 completed: an actor or ``player`` that is not a player id (LR-4.0.4).
        player_id_check(action, ["LR_P_ACTOR"])
        return self.dispatch(own_state(state, LRState), action)


GAME = Landsknecht(LRState, legal_actions, table_view)
assert set(_HANDLERS) | set(SESSION_TYPES) == set(GAME.actions)
