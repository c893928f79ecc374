"""Ландскнехт — Russian landsknecht with the shared reserve fund (docs/rules/landsknecht-russe.md).

The banker stakes an amount ``S``; the ponters cover it in rotation order, each speaking once, and
the reserve fund (запасной фонд) covers what they leave (LR-2.3, LR-4.2.2). The croupier turns the
banker's card, the ponters' card, then middle cards until one of the two ranks comes again
(LR-4.3). A winning banker doubles or quits (LR-6.2); a losing one passes the deal (LR-6.1).

The session is a fold over the recorded actions (COM-10.1): ``LRState`` is immutable and every
handler returns a new state or raises ``RuleError`` in the order of COM-10.2.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from tables.engine.actions import (
    AMOUNT,
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
from tables.engine.money import (
    Rounding,
    amount_check,
    cagnotte_levy,
    is_whole_chips,
    split_largest_remainder,
)
from tables.engine.settings import (
    CHIP_UNIT,
    Setting,
    Settings,
    bool_setting,
    cagnotte_settings,
    chips_setting,
    int_setting,
    is_int,
    settings_check,
)
from tables.engine.settlement import (
    CAGNOTTE,
    RESERVE_FUND,
    CoupRecord,
    Transfer,
    is_player_owner,
    zero_sum_check,
)
from tables.engine.table import Actor, Seating, Who

DECKS = 2  # LR-3.1 two full decks shuffled together
MIN_PLAYERS = 2  # §1 a banker and a ponter

# The states of LR-4 (LR-4.0).
BANK_PENDING = "bank_pending"
COVERING = "covering"
FIRST_CARD = "first_card"
SECOND_CARD = "second_card"
MIDDLE_CARDS = "middle_cards"
BANK_DECISION = "bank_decision"
SUCCESSOR_OFFER = "successor_offer"
SESSION_ENDED = "session_ended"
CARD_PHASES = (FIRST_CARD, SECOND_CARD, MIDDLE_CARDS)

CROUPIER_ACTOR = "croupier"
EMPTY_PACK_HINT = "record shuffle_pack to re-form it"


# -- settings (§1) ---------------------------------------------------------------------------


def _required_chips(name: str) -> Setting:
    """A positive multiple of ``chip_unit`` that has no default: it must be set (§1)."""

    def missing(_: Settings) -> Any:
        raise RuleError(
            "E_SETTING",
            f"Setting {name} must be set: a positive multiple of the chip unit.",
        )

    base = chips_setting(name)
    return Setting(name, missing, base.check, base.allowed)


def _max_bank_setting() -> Setting:
    """``max_bank``: none, or a multiple of ``chip_unit`` ≥ ``A`` and ≥ ``min_bank`` (LR-I10)."""

    def check(value: Any, earlier: Settings) -> bool:
        if value is None:
            return True
        return (
            is_whole_chips(value, earlier["chip_unit"])
            and value >= earlier["agreed_stake"]
            and value >= earlier["min_bank"]
        )

    def allowed(earlier: Settings) -> str:
        return (
            f"none or multiples of the chip unit {earlier.get('chip_unit')} not below "
            f"agreed_stake={earlier.get('agreed_stake')} and min_bank={earlier.get('min_bank')}"
        )

    return Setting("max_bank", None, check, allowed)


def _settings_table(seat_count: int) -> tuple[Setting, ...]:
    """The rows of §1, in order (each row is checked against the rows before it)."""
    return (
        int_setting("decks", DECKS, DECKS, DECKS),
        int_setting("min_players", MIN_PLAYERS, MIN_PLAYERS, MIN_PLAYERS),
        int_setting("max_players", seat_count, MIN_PLAYERS, seat_count),  # LR-4.1.3
        CHIP_UNIT,
        _required_chips("reserve_contribution"),  # LR-2.1 C
        _required_chips("agreed_stake"),  # LR-4.1.1 A
        bool_setting("free_opening", False),  # LR-I2
        chips_setting("min_bank"),
        _max_bank_setting(),  # LR-I10
        chips_setting("min_stake"),
        *cagnotte_settings(),  # COM-6.1, LR-I12
    )


@dataclass(frozen=True)
class Config:
    """The validated settings of the table."""

    seat_count: int
    max_players: int
    chip_unit: int
    reserve_contribution: int
    agreed_stake: int
    free_opening: bool
    min_bank: int
    max_bank: int | None
    min_stake: int
    cagnotte_rate_bp: int
    cagnotte_step: int
    cagnotte_rounding: Rounding

    @classmethod
    def of(cls, settings: Mapping[str, Any], seat_count: int) -> Config:
        return cls(
            seat_count=seat_count,
            max_players=settings["max_players"],
            chip_unit=settings["chip_unit"],
            reserve_contribution=settings["reserve_contribution"],
            agreed_stake=settings["agreed_stake"],
            free_opening=settings["free_opening"],
            min_bank=settings["min_bank"],
            max_bank=settings["max_bank"],
            min_stake=settings["min_stake"],
            cagnotte_rate_bp=settings["cagnotte_rate_bp"],
            cagnotte_step=settings["cagnotte_step"],
            cagnotte_rounding=settings["cagnotte_rounding"],
        )

    def within_max_bank(self, amount: int) -> bool:
        return self.max_bank is None or amount <= self.max_bank


# -- the state ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class BankRule:
    """The carry-over rule fixing the next announced stake (LR-4.1.1).

    ``opening``: the agreed stake (or any amount with ``free_opening``); ``opening_or_figure``:
    that, or the quitting banker's figure ``Q`` (LR-6.2, LR-I14); ``fixed``: exactly the doubled
    stake ``S`` (LR-6.2).
    """

    kind: Literal["opening", "opening_or_figure", "fixed"]
    amount: int | None = None

    def describe(self) -> str:
        return self.kind if self.amount is None else f"{self.kind}({self.amount})"


OPENING = BankRule("opening")


@dataclass(frozen=True)
class Coup:
    """The coup in play: the stake, who spoke and took what, the fund's cover and the cards."""

    stake: int  # S
    speakers: tuple[int, ...]  # LR-4.2 the ponters' seats in rotation order from the banker
    spoken: int = 0
    takes: tuple[tuple[str, int], ...] = ()  # (ponter, s(q)) in speaking order
    cover: int = 0  # U, the fund's part (LR-2.3)
    replenishments: tuple[Transfer, ...] = ()  # LR-2.4, they belong to the coup
    banker_card: str | None = None  # b
    ponters_card: str | None = None  # p
    middle: tuple[str, ...] = ()

    @property
    def taken(self) -> int:
        return sum(amount for _, amount in self.takes)

    @property
    def remaining(self) -> int:
        """``R``: the part of ``S`` not yet taken (LR-4.2)."""
        return self.stake - self.taken - self.cover

    @property
    def speaker(self) -> int | None:
        return self.speakers[self.spoken] if self.spoken < len(self.speakers) else None

    @property
    def table_cards(self) -> tuple[str, ...]:
        """Every card turned in this coup, still on the table (LR-3.4)."""
        first = tuple(c for c in (self.banker_card, self.ponters_card) if c is not None)
        return first + self.middle


@dataclass(frozen=True)
class Offer:
    """A successor offer (COM-9.4): its order is fixed when it starts (LR-6.7)."""

    order: tuple[int, ...]
    index: int
    rule: BankRule

    @property
    def offeree(self) -> int:
        return self.order[self.index]


@dataclass(frozen=True)
class LRState:
    """A landsknecht session at one table; never mutated (``dataclasses.replace``)."""

    config: Config
    seating: Seating
    phase: str = BANK_PENDING
    # The banker, or the outgoing banker in bank_decision and successor_offer; None before the
    # first banker, in a vacant bank and during an offer after the banker left (LR-4.0.3).
    banker_player: str | None = None
    vacant: bool = False  # COM-9.7, LR-6.7
    bank_rule: BankRule = OPENING
    shuffle_due: bool = False  # LR-3.2
    pack: Pack = Pack(DECKS)
    reserve_open: bool = False
    members: tuple[str, ...] = ()  # LR-2.1 the players seated at the opening, still seated
    fund: int = 0  # V
    coup: Coup | None = None
    figure: int = 0  # 2S − c after a win (LR-6.2, LR-I9, LR-I10)
    offer: Offer | None = None
    coups: tuple[CoupRecord, ...] = ()
    session_transfers: tuple[Transfer, ...] = ()

    @property
    def banker(self) -> str | None:
        return self.banker_player

    @property
    def banker_seat(self) -> int | None:
        if self.banker_player is None:
            return None
        return self.seating.seat_of(self.banker_player)

    def members_in_seat_order(self) -> tuple[str, ...]:
        seated = [player for _, player in self.seating.seats]
        return tuple(player for player in seated if player in self.members)


def _lr(state: GameState) -> LRState:
    assert isinstance(state, LRState)
    return state


def _require_coup(state: LRState) -> Coup:
    assert state.coup is not None
    return state.coup


# -- common checks (COM-10.2) ------------------------------------------------------------------


def _id_check(action: Action) -> None:
    """Step 1 completed: an actor or ``player`` that is not a player id (LR-4.0.4)."""
    empty_actor_check(action, "an actor: a seat, a player id or croupier")
    player = action.get("player")
    if isinstance(player, str) and not is_player_owner(player):
        raise bad_action(action.type, f"a player id, not {player!r}")


def _accepted_types(state: LRState) -> frozenset[str]:
    """The rows of the state tables plus the session actions of LR-4.0.1 (COM-10.2 step 2)."""
    phase = state.phase
    if phase == SESSION_ENDED:
        return frozenset()  # LR-4.0
    types = {"add_standing"}
    if phase == BANK_PENDING:
        types |= {"sit", "leave", "end_session"}
        if state.vacant:
            types.add("accept_bank")  # COM-9.7
        else:
            types.add("shuffle_pack")  # LR-3.3
            if not state.reserve_open:
                types.add("open_reserve")  # LR-2.1.1
            if state.banker_player is not None:
                types.add("announce_bank")
        if state.banker_player is None and not state.coups:
            types.add("set_first_banker")  # LR-4.0.1
    elif phase == COVERING:
        types |= {"take", "pass"}
    elif phase in CARD_PHASES:
        types |= {"turn_card", "shuffle_pack"}
    elif phase == BANK_DECISION:
        types |= {"double", "quit_bank"}
    elif phase == SUCCESSOR_OFFER:
        types |= {"accept_bank", "decline_bank"}
    return frozenset(types)


def _state_check(state: LRState, action: Action) -> None:
    """COM-10.2 step 2 (``E_BANK_COVERED`` for a take once the stake is covered, LR-4.2.3)."""
    if action.type == "take" and state.phase in CARD_PHASES:
        raise bank_covered(_require_coup(state).stake)
    if action.type not in _accepted_types(state):
        legal = [legal.type for legal in _legal_actions(state)]
        raise wrong_state(action.type, state.phase, legal)


def _resolve(state: LRState, action: Action) -> Who:
    """COM-10.2 step 3, LR-4.0.4: ``E_NO_SUCH_SEAT``, then ``E_NOT_PRESENT``."""
    return state.seating.resolve(action.actor)


def _croupier_only(state: LRState, action: Action) -> None:
    """COM-10.2 step 3: only the croupier records cards and session actions (COM-3.7)."""
    _resolve(state, action).require_croupier(action.type, "only the croupier records this")


def _seated_player(state: LRState, action: Action) -> Who:
    """COM-10.2 step 3 for a player's own decision: a seated player (LR-2.8, LR-4.0.4)."""
    return _resolve(state, action).require_seated(
        action.type,
        "standing players have no part in landsknecht (LR-2.8)",
        croupier="the croupier is never a player (COM-3.7)",
    )


def _the_banker(state: LRState, action: Action, reason: str) -> Who:
    who = _seated_player(state, action)
    return who.require_banker(action.type, state.banker_player, reason)


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


def _allowed_words(config: Config, rule: BankRule) -> str:
    if rule.kind == "fixed":
        return f"exactly {rule.amount} (the doubled stake)"
    if config.free_opening:
        top = "" if config.max_bank is None else f" and at most {config.max_bank}"
        opening = f"at least {config.min_bank}{top}"
    else:
        opening = f"the agreed stake {config.agreed_stake}"
    figure = rule.amount if rule.kind == "opening_or_figure" else None
    if figure is not None and config.within_max_bank(figure):
        return f"{opening}, or the figure {figure}"
    return opening


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
        levy = cagnotte_levy(
            coup.stake,
            rate_bp=config.cagnotte_rate_bp,
            step=config.cagnotte_step,
            rounding=config.cagnotte_rounding,
        )  # COM-6.3, COM-6.4
        if levy:
            transfers.append(Transfer(banker, CAGNOTTE, levy, "cagnotte"))
        fund = state.fund - coup.cover
    else:
        # LR-5.2 the banker pays each ponter and the fund; no cagnotte.
        for ponter, amount in coup.takes:
            transfers.append(Transfer(banker, ponter, amount, "stake_won"))
        if coup.cover:
            transfers.append(Transfer(banker, RESERVE_FUND, coup.cover, "fund_cover_won"))
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
    return _start_offer(settled, seat, OPENING, outgoing_last=True)


def _start_offer(state: LRState, seat: int, rule: BankRule, *, outgoing_last: bool) -> LRState:
    """COM-9.4: offered from next(seat) in rotation order, the outgoing banker last."""
    order = state.seating.rotation_from(seat)
    if outgoing_last:
        order = (*order, seat)
    if not order:
        return _vacant(state, rule)
    return replace(
        state, phase=SUCCESSOR_OFFER, offer=Offer(order, 0, rule), coup=None, bank_rule=rule
    )


def _vacant(state: LRState, rule: BankRule) -> LRState:
    """COM-9.7, LR-6.7: nobody took the bank; its rule is kept (LR-I17)."""
    return replace(
        state,
        phase=BANK_PENDING,
        banker_player=None,
        vacant=True,
        bank_rule=rule,
        offer=None,
        coup=None,
    )


def _new_banker(state: LRState, player: str, rule: BankRule) -> LRState:
    return replace(
        state,
        phase=BANK_PENDING,
        banker_player=player,
        vacant=False,
        bank_rule=rule,
        offer=None,
        coup=None,
    )


# -- handlers: bank_pending (LR-4.1) -----------------------------------------------------------


def _announce_bank(state: LRState, action: Action) -> LRState:
    # LR-4.1.2 the reserve first, before the state and the actor.
    if not state.reserve_open:
        raise RuleError("LR_E_RESERVE_NOT_OPEN", "The reserve fund is not open.")
    _state_check(state, action)
    config = state.config
    seated = state.seating.seated_count
    if not MIN_PLAYERS <= seated <= config.max_players:  # COM-10.2 step 2, LR-4.1.2
        raise table_size(GAME.title, MIN_PLAYERS, config.max_players, seated)
    _the_banker(state, action, "only the banker announces the bank")
    amount = amount_check(action["amount"], config.chip_unit)  # COM-5.1
    if not _amount_allowed(config, state.bank_rule, amount):  # LR-4.1.1
        raise RuleError(
            "LR_E_BANK_AMOUNT",
            f"The banker must stake {_allowed_words(config, state.bank_rule)}; "
            f"{amount} was announced.",
        )
    banker_seat = state.banker_seat
    assert banker_seat is not None
    # LR-4.2, LR-I1 the ponters speak once each, in rotation order from the banker.
    coup = Coup(stake=amount, speakers=state.seating.rotation_from(banker_seat))
    return replace(state, phase=COVERING, coup=coup)


def _shuffle_pack(state: LRState, action: Action) -> LRState:
    _state_check(state, action)
    _croupier_only(state, action)
    empty = state.pack.left == 0
    # LR-3.3, LR-I15 a due reshuffle before the first card; LR-3.4 an empty pack anywhere.
    due = state.shuffle_due and state.phase in (BANK_PENDING, FIRST_CARD)
    allowed = due or empty
    if not allowed:  # COM-10.2 step 7
        raise RuleError(
            "LR_E_SHUFFLE_NOT_DUE", f"No shuffle is due; {state.pack.left} cards are left."
        )
    pack = state.pack.fresh()
    if state.phase in (SECOND_CARD, MIDDLE_CARDS):
        # LR-3.4, LR-I8 re-formed without the cards on the table in this coup.
        pack = pack.draw_many(_require_coup(state).table_cards)
    return replace(state, pack=pack, shuffle_due=False)


def _open_reserve(state: LRState, action: Action) -> LRState:
    _state_check(state, action)  # LR-2.1.1 once, before the first coup, not while vacant
    _croupier_only(state, action)
    seated = state.seating.seated_count
    if seated < MIN_PLAYERS:  # LR-2.1.1 checked after the actor
        raise table_size(GAME.title, MIN_PLAYERS, state.config.max_players, seated)
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
    _state_check(state, action)
    who = _seated_player(state, action)  # LR-2.8 standing players are E_NOT_ELIGIBLE
    assert who.player is not None
    if state.phase == BANK_PENDING:
        # COM-9.7, LR-6.7 vacant bank: any seated player, in no order, with the kept rule.
        return _new_banker(state, who.player, state.bank_rule)
    offer = state.offer
    assert offer is not None
    if who.seat != offer.offeree:  # COM-10.2 step 4
        raise out_of_turn(_player_at(state, offer.offeree), who.label)
    return _new_banker(state, who.player, offer.rule)  # LR-6.4


def _decline_bank(state: LRState, action: Action) -> LRState:
    _state_check(state, action)  # LR-6.7 decline_bank in a vacant bank is E_WRONG_STATE
    who = _seated_player(state, action)
    offer = state.offer
    assert offer is not None
    if who.seat != offer.offeree:
        raise out_of_turn(_player_at(state, offer.offeree), who.label)
    if offer.index + 1 < len(offer.order):
        return replace(state, offer=replace(offer, index=offer.index + 1))
    return _vacant(state, offer.rule)  # LR-6.7 everybody declined


def _player_at(state: LRState, seat: int) -> str:
    player = state.seating.player_at(seat)
    assert player is not None
    return player


# -- handlers: covering (LR-4.2) ---------------------------------------------------------------


def _ponter_to_speak(state: LRState, action: Action) -> tuple[Coup, Who]:
    _state_check(state, action)
    coup = _require_coup(state)
    who = _seated_player(state, action)
    if who.player == state.banker_player:
        raise not_eligible(who.label, action.type, "the banker cannot take part of his own stake")
    speaker = coup.speaker
    assert speaker is not None
    if who.seat != speaker:  # COM-10.2 step 4
        raise out_of_turn(_player_at(state, speaker), who.label)
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
        raise above_limit(amount, "the part of the stake left to cover", remaining)
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
    _state_check(state, action)
    _croupier_only(state, action)
    if state.phase == FIRST_CARD and state.shuffle_due:  # LR-3.3, LR-I15 before the rank
        raise RuleError(
            "LR_E_SHUFFLE_DUE", "The banker's card came out last coup: shuffle the pack first."
        )
    pack = state.pack.draw(action["rank"], empty_hint=EMPTY_PACK_HINT)  # COM-10.2 step 5
    rank: str = action["rank"]
    coup = _require_coup(state)
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


# -- handlers: the bank after the coup (LR-6) --------------------------------------------------


def _double(state: LRState, action: Action) -> LRState:
    _state_check(state, action)
    _the_banker(state, action, "only the banker decides on his bank")
    if not state.config.within_max_bank(state.figure):  # LR-6.2, LR-I10
        assert state.config.max_bank is not None
        raise above_limit(state.figure, "the table's maximum bank", state.config.max_bank)
    # LR-6.2 he stays; the next stake is fixed at 2S − c.
    return replace(state, phase=BANK_PENDING, bank_rule=BankRule("fixed", state.figure), coup=None)


def _quit_bank(state: LRState, action: Action) -> LRState:
    _state_check(state, action)
    who = _the_banker(state, action, "only the banker decides on his bank")
    assert who.seat is not None
    # LR-6.2 сняться: he keeps Q = 2S − c (LR-6.5); the bank is offered with the figure Q.
    rule = BankRule("opening_or_figure", state.figure)
    return _start_offer(state, who.seat, rule, outgoing_last=True)


# -- handlers: session actions (COM-3.8, LR-4.0.1) ---------------------------------------------


def _set_first_banker(state: LRState, action: Action) -> LRState:
    _state_check(state, action)
    _croupier_only(state, action)
    seat = state.seating.seat_param(action["seat"])
    return _new_banker(state, _player_at(state, seat), OPENING)  # LR-6.6


def _sit(state: LRState, action: Action) -> LRState:
    _state_check(state, action)
    _croupier_only(state, action)
    # COM-3.8 errors, then LR-4.1.3 E_TABLE_SIZE.
    seating = state.seating.sit_up_to(
        action["player"],
        action["seat"],
        state.config.max_players,
        game_title=GAME.title,
        minimum=MIN_PLAYERS,
    )
    return replace(state, seating=seating)  # LR-2.2, LR-I5 not a member


def _leave(state: LRState, action: Action) -> LRState:
    _state_check(state, action)
    _croupier_only(state, action)
    who = state.seating.leaving(seat=action.get("seat"), player=action.get("player"))
    seat = who.seat
    state = replace(state, seating=state.seating.without(who))
    if who.player in state.members:
        state = _member_leaves(state, who.player)
        if not state.members:
            # LR-2.6 the last member left: the reserve closes and the session ends.
            return _ended(state)
    if seat is not None and who.player == state.banker_player and not state.vacant:
        # LR-6.6, COM-9.6 as LR-6.1, at the opening stake; banker null until someone accepts.
        state = replace(state, banker_player=None)
        return _start_offer(state, seat, OPENING, outgoing_last=False)
    return state


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


def _add_standing(state: LRState, action: Action) -> LRState:
    _state_check(state, action)
    _croupier_only(state, action)
    return replace(state, seating=state.seating.add_standing(action["player"]))  # LR-2.8


def _end_session(state: LRState, action: Action) -> LRState:
    _state_check(state, action)
    _croupier_only(state, action)
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
    "take": _take,
    "pass": _pass,
    "turn_card": _turn_card,
    "shuffle_pack": _shuffle_pack,
    "open_reserve": _open_reserve,
    "double": _double,
    "quit_bank": _quit_bank,
    "accept_bank": _accept_bank,
    "decline_bank": _decline_bank,
    "sit": _sit,
    "leave": _leave,
    "add_standing": _add_standing,
    "set_first_banker": _set_first_banker,
    "end_session": _end_session,
}


# -- legal actions (LR-4.0.2) ------------------------------------------------------------------


def _legal_actions(state: LRState) -> tuple[LegalAction, ...]:
    phase = state.phase
    if phase == SESSION_ENDED:
        return ()
    config = state.config
    seating = state.seating
    seats: tuple[Actor, ...] = seating.occupied
    croupier: tuple[Actor, ...] = (CROUPIER_ACTOR,)
    seated = seating.seated_count
    legal: list[LegalAction] = [LegalAction("add_standing", croupier)]
    coup = state.coup
    if phase == BANK_PENDING:
        banker_seat = state.banker_seat
        if (
            banker_seat is not None
            and state.reserve_open
            and MIN_PLAYERS <= seated <= config.max_players
        ):
            legal.append(LegalAction("announce_bank", (banker_seat,)))
        if state.vacant:
            if seats:
                legal.append(LegalAction("accept_bank", seats))
        else:
            if state.shuffle_due or state.pack.left == 0:
                legal.append(LegalAction("shuffle_pack", croupier))
            if not state.reserve_open and seated >= MIN_PLAYERS:
                legal.append(LegalAction("open_reserve", croupier))
        if state.banker_player is None and not state.coups and seats:
            legal.append(LegalAction("set_first_banker", croupier))
        if seated < seating.seat_count and seated < config.max_players:
            legal.append(LegalAction("sit", croupier))
        if seats or seating.standing:
            legal.append(LegalAction("leave", croupier))
        legal.append(LegalAction("end_session", croupier))
    elif phase == COVERING:
        assert coup is not None and coup.speaker is not None
        legal += [LegalAction("take", (coup.speaker,)), LegalAction("pass", (coup.speaker,))]
    elif phase in CARD_PHASES:
        due = phase == FIRST_CARD and state.shuffle_due
        if not due and state.pack.left > 0:
            legal.append(LegalAction("turn_card", croupier))
        if due or state.pack.left == 0:
            legal.append(LegalAction("shuffle_pack", croupier))
    elif phase == BANK_DECISION:
        banker_seat = state.banker_seat
        assert banker_seat is not None
        if config.within_max_bank(state.figure):
            legal.append(LegalAction("double", (banker_seat,)))
        legal.append(LegalAction("quit_bank", (banker_seat,)))
    elif phase == SUCCESSOR_OFFER:
        assert state.offer is not None
        offeree: tuple[Actor, ...] = (state.offer.offeree,)
        legal += [LegalAction("accept_bank", offeree), LegalAction("decline_bank", offeree)]
    return tuple(legal)


# -- the table screen --------------------------------------------------------------------------


def _expected(state: LRState) -> str:
    phase = state.phase
    coup = state.coup
    if phase == SESSION_ENDED:
        return "The session has ended"
    if phase == BANK_PENDING:
        if state.vacant:
            return "The bank is vacant: any seated player may accept it"
        if not state.reserve_open:
            if state.banker_player is None:
                return "The croupier names the first banker and opens the reserve fund"
            return "The croupier opens the reserve fund"
        if state.banker_player is None:
            return "The croupier names the first banker"
        if state.shuffle_due:
            return "The croupier shuffles the pack; the banker announces his stake"
        return "The banker announces his stake"
    if phase == COVERING:
        assert coup is not None and coup.speaker is not None
        return f"{_player_at(state, coup.speaker)} takes part of the stake or passes"
    if phase == FIRST_CARD:
        if state.shuffle_due:
            return "The croupier shuffles the pack"
        return "The croupier turns the banker's card"
    if state.pack.left == 0:
        return "The pack is empty: the croupier re-forms it"
    if phase == SECOND_CARD:
        return "The croupier turns the ponters' card"
    if phase == MIDDLE_CARDS:
        return "The croupier turns middle cards until one of the two ranks comes out"
    if phase == BANK_DECISION:
        return "The banker doubles his stake or quits the bank"
    assert state.offer is not None
    return f"{_player_at(state, state.offer.offeree)} accepts or declines the bank"


def _view(state: LRState) -> dict[str, Any]:
    coup = state.coup
    in_coup = coup is not None and state.phase in (COVERING, *CARD_PHASES)
    stakes: list[dict[str, Any]] = []
    cards: dict[str, Any] = {"banker": None, "ponters": None, "middle": []}
    bank: int | None = None
    to_cover: int | None = None
    if coup is not None and in_coup:
        bank = coup.stake
        to_cover = coup.remaining
        stakes = [{"player": player, "amount": amount} for player, amount in coup.takes]
        if coup.cover:
            stakes.append({"player": RESERVE_FUND, "amount": coup.cover, "fund": True})
        cards = {
            "banker": coup.banker_card,
            "ponters": coup.ponters_card,
            "middle": list(coup.middle),
        }
    elif state.phase == BANK_DECISION:
        bank = state.figure
    elif state.phase == BANK_PENDING and state.bank_rule.kind == "fixed":
        bank = state.bank_rule.amount
    speaker = coup.speaker if coup is not None and state.phase == COVERING else None
    return {
        "phase": state.phase,
        "banker": state.banker,
        "bank": bank,
        "to_cover": to_cover,
        "stakes": stakes,
        "cards": cards,
        "pack": None
        if state.phase == SESSION_ENDED
        else {"left": state.pack.left, "counts": state.pack.counts_left()},
        "expected": _expected(state),
        "bank_rule": state.bank_rule.describe(),
        "shuffle_due": state.shuffle_due,
        "reserve_fund": {
            "open": state.reserve_open,
            "balance": state.fund,
            "members": list(state.members_in_seat_order()),
        },
        "speaker": None if speaker is None else _player_at(state, speaker),
        "offeree": None
        if state.offer is None or state.phase != SUCCESSOR_OFFER
        else _player_at(state, state.offer.offeree),
        "vacant": state.vacant,
        "coups": len(state.coups),
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
        spec("accept_bank"),
        spec("decline_bank"),
    )
    return {**{action.type: action for action in own}, **SESSION_ACTIONS}


class Landsknecht:
    """The ``Game`` of landsknecht (LR)."""

    code = "landsknecht"
    title = "landsknecht"
    default_seat_count = 12
    actions: Mapping[str, ActionSpec] = _actions()

    def settings_validate(self, raw: Mapping[str, Any], seat_count: int) -> dict[str, Any]:
        if not is_int(seat_count) or seat_count < 2:  # COM-10.2.1
            raise RuleError("E_SETTING", f"Setting seat_count={seat_count!r} is outside ≥ 2.")
        return settings_check(_settings_table(seat_count), raw)

    def start(self, settings: Mapping[str, Any], seating: Seating) -> LRState:
        return LRState(config=Config.of(settings, seating.seat_count), seating=seating)

    def apply(self, state: GameState, action: Action) -> LRState:
        _id_check(action)
        return _HANDLERS[action.type](_lr(state), action)

    def legal_actions(self, state: GameState) -> tuple[LegalAction, ...]:
        return _legal_actions(_lr(state))

    def view(self, state: GameState) -> dict[str, Any]:
        return _view(_lr(state))


GAME = Landsknecht()
