"""Lansquenet moderne (docs/rules/lansquenet-moderne.md): known answers and random playouts."""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest

from tables.engine.actions import Action
from tables.engine.errors import RuleError
from tables.engine.game import step
from tables.engine.lansquenet_moderne import GAME
from tables.engine.lansquenet_moderne.coup import rightful_successor
from tables.engine.lansquenet_moderne.state import LMState
from tables.engine.settlement import CAGNOTTE, Transfer
from tables.engine.table import Seating
from tables.engine.words import words

Raw = Mapping[str, Any]


def _seating(seats: int | Mapping[int, str] = 3, standing: Sequence[str] = ()) -> Seating:
    if isinstance(seats, int):
        seats = {seat: f"S{seat}" for seat in range(1, seats + 1)}
    return Seating(12, tuple(sorted(seats.items())), tuple(standing))


def _start(
    settings: Raw | None = None,
    seats: int | Mapping[int, str] = 3,
    standing: Sequence[str] = (),
) -> LMState:
    validated = GAME.settings_validate(settings or {}, 12)
    return GAME.start(validated, _seating(seats, standing))


def _act(kind: str, actor: Any, **params: Any) -> Action:
    return Action(kind, actor, params)


def _run(state: LMState, *actions: Action) -> LMState:
    for action in actions:
        new = step(GAME, state, action)
        assert isinstance(new, LMState)
        state = new
    return state


def _code(state: LMState, action: Action) -> str:
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as raised:
        step(GAME, state, action)
    assert state == before  # a rejected action changes nothing (COM-10.2)
    return raised.value.code


def _cards(*ranks: str) -> list[Action]:
    return [_act("turn_card", "croupier", rank=rank) for rank in ranks]


def _flows(transfers: Sequence[Transfer]) -> list[tuple[str, str, int, str]]:
    return [(t.source, t.target, t.amount, t.reason) for t in transfers]


def _opened(settings: Raw | None = None, bank: int = 100, **kw: Any) -> LMState:
    """S1 first banker (LM-6.7) who announced ``bank``."""
    state = _start(settings, **kw)
    return _run(
        state,
        _act("set_first_banker", "croupier", seat=1),
        _act("announce_bank", 1, amount=bank),
    )


# -- settings (§1) ------------------------------------------------------------------------------


def test_lm_1_defaults() -> None:
    settings = GAME.settings_validate({}, 12)
    assert settings["decks"] == 2
    assert settings["max_players"] == 12
    assert settings["min_bank"] == settings["min_stake"] == settings["chip_unit"] == 1
    assert settings["max_bank"] is None
    assert settings["banco_mode"] == "whole"
    assert settings["standing_completion"] is True
    assert settings["abandonment_offers"] is True
    assert settings["max_consecutive_purchases"] == 3
    assert settings["cagnotte_rate_bp"] == 500
    assert settings["cagnotte_rounding"] == "down"


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        ({"decks": 0}, "decks"),
        ({"decks": 7}, "decks"),
        ({"decks": True}, "decks"),
        ({"min_players": 3}, "min_players"),
        ({"max_players": 13}, "max_players"),
        ({"max_players": 1}, "max_players"),
        ({"chip_unit": 0}, "chip_unit"),
        ({"chip_unit": 5, "min_bank": 7}, "min_bank"),
        ({"min_bank": 20, "max_bank": 10}, "max_bank"),
        ({"min_bank": 20, "min_stake": 25}, "min_stake"),
        ({"chip_unit": 5, "min_stake": 3}, "min_stake"),
        ({"banco_mode": "half"}, "banco_mode"),
        ({"standing_completion": "yes"}, "standing_completion"),
        ({"abandonment_offers": 1}, "abandonment_offers"),
        ({"max_consecutive_purchases": 4}, "max_consecutive_purchases"),
        ({"cagnotte_rate_bp": 10001}, "cagnotte_rate_bp"),
        ({"chip_unit": 5, "cagnotte_step": 3}, "cagnotte_step"),
        ({"cagnotte_rounding": "up"}, "cagnotte_rounding"),
        ({"fond": 10}, "fond"),
    ],
)
def test_lm_1_settings_validate_refuses_naming_the_setting(raw: Raw, name: str) -> None:
    with pytest.raises(RuleError) as raised:
        GAME.settings_validate(raw, 12)
    assert raised.value.code == "E_SETTING"
    assert name in words(raised.value.code, raised.value.params)


def test_com_10_2_1_max_players_at_most_seat_count() -> None:
    assert GAME.settings_validate({}, 6)["max_players"] == 6
    with pytest.raises(RuleError):
        GAME.settings_validate({"max_players": 7}, 6)


# -- speaking (LM-2, LM-4.2, LM-4.3) -------------------------------------------------------------


def test_lm_2_3_speaking_order_is_rotation_from_banker() -> None:
    state = _start(seats={1: "A", 2: "B", 3: "C", 5: "D", 7: "E"})
    state = _run(
        state,
        _act("set_first_banker", "croupier", seat=3),
        _act("announce_bank", 3, amount=50),
    )
    assert state.coup is not None
    assert state.coup.speakers == (5, 7, 1, 2)
    assert _code(state, _act("pass", 1)) == "E_OUT_OF_TURN"
    assert _code(state, _act("stake", 3, amount=5)) == "E_NOT_ELIGIBLE"


def test_lm_4_2_banco_takes_whole_bank() -> None:
    state = _run(_opened(), _act("stake", 2, amount=40), _act("banco", 3))
    assert state.phase == "banker_card"
    assert state.coup is not None and state.coup.stakes == (("S3", 100),)


def test_lm_4_3_2_banco_remainder_keeps_earlier_stakes() -> None:
    state = _opened({"banco_mode": "remainder"})
    state = _run(state, _act("stake", 2, amount=40), _act("banco", 3))
    assert state.coup is not None and state.coup.stakes == (("S2", 40), ("S3", 60))


def test_lm_4_3_1_stake_equal_to_remainder_closes_betting() -> None:
    state = _run(_opened(), _act("stake", 2, amount=30), _act("stake", 3, amount=70))
    assert state.phase == "banker_card"
    assert _code(state, _act("banco", 2)) == "E_BANK_COVERED"  # LM-4.2.3


def test_lm_4_2_1_round_two_adds_to_round_one_stake() -> None:
    state = _run(
        _opened(),
        _act("stake", 2, amount=30),
        _act("pass", 3),
        _act("stake", 2, amount=20),
    )
    assert state.coup is not None
    assert state.coup.round == 2 and state.coup.stake_of("S2") == 50


def test_lm_i14_stake_may_equal_remainder_below_min_stake() -> None:
    state = _opened({"chip_unit": 5, "min_bank": 20, "min_stake": 10}, bank=105)
    assert _code(state, _act("stake", 2, amount=5)) == "E_BELOW_MINIMUM"
    state = _run(state, _act("stake", 2, amount=100))
    assert _code(state, _act("stake", 3, amount=110)) == "E_ABOVE_LIMIT"
    state = _run(state, _act("stake", 3, amount=5))
    assert state.phase == "banker_card"


def test_lm_4_4_standing_completion_and_shortfall() -> None:
    state = _opened(standing=["X"])
    assert _code(state, _act("stake", "X", amount=5)) == "E_NOT_ELIGIBLE"  # LM-4.4.1
    state = _run(state, _act("pass", 2), _act("pass", 3), _act("pass", 2), _act("pass", 3))
    assert state.phase == "standing_completion"
    assert _code(state, _act("banco", "X")) == "E_WRONG_STATE"
    state = _run(state, _act("stake", "X", amount=30), _act("close_completion", "croupier"))
    assert state.phase == "shortfall"
    state = _run(state, _act("reduce_bank", 1))  # LM-4.5, LM-I5
    assert state.coup is not None and state.coup.bank == 30


def test_lm_4_2_2_no_completion_setting_goes_to_shortfall() -> None:
    state = _opened({"standing_completion": False}, standing=["X"])
    state = _run(state, _act("pass", 2), _act("pass", 3), _act("pass", 2), _act("pass", 3))
    assert state.phase == "shortfall"
    assert _code(state, _act("reduce_bank", 1)) == "LM_E_NOTHING_STAKED"


# -- settlement (LM-5) --------------------------------------------------------------------------


def test_lm_5_1_banker_wins_pays_cagnotte_on_gross() -> None:
    settings = {"chip_unit": 5, "min_bank": 20, "min_stake": 5}
    state = _opened(settings, bank=195, seats=4)
    state = _run(
        state,
        _act("pass", 2),
        _act("stake", 3, amount=120),
        _act("stake", 4, amount=75),
        *_cards("9", "2", "Q", "9"),
    )
    coup = state.coups[-1]
    assert coup.outcome == "banker_card_out"
    assert _flows(coup.transfers) == [
        ("S3", "S1", 120, "stake_lost"),
        ("S4", "S1", 75, "stake_lost"),
        ("S1", CAGNOTTE, 5, "cagnotte"),  # floor(9.75 / 5) × 5
    ]
    assert state.decision is not None and state.decision.doubled == 385  # LM-I16


def test_lm_5_2_pontes_win_no_cagnotte() -> None:
    state = _run(_opened(), _act("banco", 2), *_cards("K", "7", "3", "7"))
    assert _flows(state.coups[-1].transfers) == [("S1", "S2", 100, "stake_won")]


def test_lm_5_3_abandonment_rounds_each_payment_down() -> None:
    state = _opened({"chip_unit": 5, "min_bank": 5, "min_stake": 5}, bank=105, seats=4)
    state = _run(
        state,
        _act("stake", 2, amount=35),
        _act("stake", 3, amount=65),
        _act("stake", 4, amount=5),
        *_cards("J", "Q"),
        _act("offer_abandonment", 1, fraction_bp=3333),
        _act("answer_abandonment", 3, accept=True),
        _act("answer_abandonment", 4, accept=True),
    )
    assert _code(state, _act("answer_abandonment", 3, accept=True)) == "LM_E_ALREADY_ANSWERED"
    state = _run(state, _act("answer_abandonment", 2, accept=True))
    assert _flows(state.coups[-1].transfers) == [
        ("S1", "S2", 10, "abandonment"),
        ("S1", "S3", 20, "abandonment"),
    ]


def test_lm_4_7_2_refusal_lapses_the_offer() -> None:
    state = _run(
        _opened(),
        _act("banco", 2),
        *_cards("8", "3"),
        _act("offer_abandonment", 1, fraction_bp=5000),
    )
    assert _code(state, _act("turn_card", "croupier", rank="5")) == "E_WRONG_STATE"
    state = _run(state, _act("answer_abandonment", 2, accept=False))
    assert state.phase == "middle_cards"


def test_lm_4_7_3_abandon_disabled_checked_first() -> None:
    state = _start({"abandonment_offers": False})
    assert _code(state, _act("offer_abandonment", 2, fraction_bp=0)) == "LM_E_ABANDON_DISABLED"


def test_lm_5_4_withdrawn_coup_listed_without_transfers() -> None:
    state = _opened()
    state = _run(state, *[_act("pass", seat) for seat in (2, 3, 2, 3)])
    state = _run(state, _act("close_completion", "croupier"), _act("withdraw_bank", 1))
    assert state.coups[-1].outcome == "withdrawn"
    assert state.coups[-1].transfers == ()
    assert state.phase == "successor_offer" and state.offer is not None
    assert state.offer.offerees == (2, 3, 1)  # LM-6.6 outgoing banker last


def test_lm_5_5_transfer_order_seated_then_standing() -> None:
    state = _opened(standing=["X", "Y"])
    state = _run(
        state,
        _act("pass", 2),
        _act("stake", 3, amount=20),
        _act("pass", 2),
        _act("pass", 3),
        _act("stake", "Y", amount=10),
        _act("stake", "X", amount=10),
        _act("stake", "Y", amount=60),
        *_cards("9", "9"),
    )
    sources = [t.source for t in state.coups[-1].transfers]
    assert sources == ["S3", "Y", "X", "S1"]


# -- cards (LM-3) -------------------------------------------------------------------------------


def test_lm_3_4_shuffle_during_coup_only_with_empty_pack() -> None:
    state = _run(_opened({"decks": 1}), _act("banco", 2), *_cards("A"))
    assert _code(state, _act("shuffle_pack", "croupier")) == "LM_E_PACK_NOT_EMPTY"


def test_lm_i12_cards_on_table_counted_after_shuffle() -> None:
    state = _run(_opened({"decks": 1}), _act("banco", 2), *_cards("A", "2"))
    # Empty the pack artificially: every other card recorded.
    seen = tuple(4 for _ in range(13))
    state = replace(state, pack=replace(state.pack, seen=seen))
    assert _code(state, _act("turn_card", "croupier", rank="3")) == "E_PACK_EMPTY"
    state = _run(state, _act("shuffle_pack", "croupier"))
    assert state.pack.left == 50
    assert state.pack.left_of("A") == 3 and state.pack.left_of("2") == 3


def test_lm_3_3_shuffle_between_coups_restarts_tracking() -> None:
    state = _run(_opened({"decks": 1}, bank=20), _act("banco", 2), *_cards("K", "2", "K"))
    state = _run(state, _act("stay", 1))
    assert state.pack.left == 49
    state = _run(state, _act("shuffle_pack", "croupier"))
    assert state.pack.left == 52


# -- the bank after the coup (LM-6) -------------------------------------------------------------


def test_lm_i8_rightful_successor_walk() -> None:
    seating = _seating(4)
    assert rightful_successor(seating, 2, 2) == 3
    assert rightful_successor(seating, 2, 3) == 4  # outgoing buyer skipped
    assert rightful_successor(seating, 4, 1) == 2
    gone = Seating(12, ((1, "S1"), (3, "S3")), ())
    assert rightful_successor(gone, 2, None) == 3  # the anchor has left
    assert rightful_successor(Seating(12, ((2, "S2"),), ()), 2, 2) is None


def test_lm_6_2_stay_doubles_the_bank() -> None:
    state = _run(_opened(bank=100), _act("banco", 2), *_cards("4", "J", "8", "4"))
    state = _run(state, _act("stay", 1))
    assert state.bank_rule is not None and state.bank_rule.amount == 195
    assert _code(state, _act("announce_bank", 1, amount=100)) == "LM_E_BANK_FIXED"


def test_lm_i17_stay_above_max_bank_refused() -> None:
    state = _opened({"max_bank": 150}, bank=100)
    state = _run(state, _act("banco", 2), *_cards("4", "J", "4"))
    assert _code(state, _act("stay", 1)) == "E_ABOVE_LIMIT"
    assert {legal.type for legal in GAME.legal_actions(state)} == {"pass_hand", "add_standing"}


def test_lm_6_4_doublet_offer_levels_then_successor_then_vacant() -> None:
    state = _run(_opened(bank=40), _act("banco", 2), *_cards("9", "9"), _act("pass_hand", 1))
    assert state.offer is not None
    assert state.offer.levels == ((78, "purchase"), (40, "refait_purchase"))  # LM-I7
    assert _code(state, _act("buy_bank", 1)) == "E_NOT_ELIGIBLE"
    state = _run(state, *[_act("decline_bank", seat) for seat in (2, 3, 2, 3)])
    assert state.phase == "successor_offer"
    state = _run(state, *[_act("decline_bank", seat) for seat in (2, 3, 1)])
    assert state.phase == "bank_pending" and state.vacant and state.banker is None
    state = _run(state, _act("accept_bank", 1))  # LM-I24
    assert state.banker == "S1" and state.holding == "rotation" and state.bank_rule is None


def test_lm_6_3_1_refait_buyer_must_pass() -> None:
    state = _run(
        _opened(bank=20),
        _act("banco", 2),
        *_cards("3", "3"),
        _act("pass_hand", 1),
        _act("decline_bank", 2),
        _act("decline_bank", 3),
        _act("buy_bank", 2),
    )
    assert state.holding == "refait_purchase" and state.purchases_in_row == 1  # LM-I9
    state = _run(state, _act("announce_bank", 2, amount=20), _act("banco", 3))
    state = _run(state, *_cards("7", "7"))
    assert state.phase == "successor_offer"
    assert _code(state, _act("stay", "croupier")) == "LM_E_MUST_PASS"
    assert state.offer is not None and state.offer.current == 3


def test_lm_6_4_1_three_purchases_then_no_offer() -> None:
    state = _opened(bank=20)
    for banker, ponte, buyer, bank in ((1, 2, 2, 39), (2, 3, 3, 77), (3, 1, 1, 151)):
        state = _run(state, _act("banco", ponte), *_cards("5", "6", "5"))
        state = _run(state, _act("pass_hand", banker), _act("buy_bank", buyer))
        assert state.bank_rule is not None and state.bank_rule.amount == bank
        state = _run(state, _act("announce_bank", buyer, amount=bank))
    assert state.purchases_in_row == 3 and state.anchor == 1
    state = _run(state, _act("banco", 2), *_cards("8", "9", "8"), _act("pass_hand", 1))
    assert state.phase == "successor_offer"  # LM-6.4 (1): no purchase offer
    assert state.offer is not None and state.offer.current == 2


def test_lm_6_8_banker_leaving_starts_successor_offer() -> None:
    state = _start()
    state = _run(
        state,
        _act("set_first_banker", "croupier", seat=1),
        _act("leave", "croupier", player="S1"),
    )
    assert state.phase == "successor_offer" and state.banker is None
    assert state.offer is not None and state.offer.offerees == (2, 3)


# -- validation order and session actions (LM-2.2, LM-2.4, LM-4.0) -------------------------------


def test_lm_4_0_2_validation_order_of_announce_bank() -> None:
    state = _start({"chip_unit": 5, "min_bank": 20, "max_bank": 500}, seats={1: "S1"})
    state = _run(state, _act("set_first_banker", "croupier", seat=1))
    assert _code(state, _act("announce_bank", 9, amount=7)) == "E_TABLE_SIZE"
    state = _run(state, _act("sit", "croupier", player="S2", seat=2))
    assert _code(state, _act("announce_bank", 13, amount=7)) == "E_NO_SUCH_SEAT"
    assert _code(state, _act("announce_bank", 2, amount=7)) == "E_NOT_ELIGIBLE"
    assert _code(state, _act("announce_bank", 1, amount=7)) == "E_BAD_AMOUNT"
    assert _code(state, _act("announce_bank", 1, amount=10)) == "E_BELOW_MINIMUM"
    assert _code(state, _act("announce_bank", 1, amount=505)) == "E_ABOVE_LIMIT"


def test_lm_2_4_actor_checks() -> None:
    state = _start()
    assert _code(state, _act("set_first_banker", "", seat=1)) == "E_BAD_ACTION"
    assert _code(state, _act("set_first_banker", 7, seat=1)) == "E_NOT_PRESENT"
    assert _code(state, _act("set_first_banker", "S1", seat=1)) == "E_NOT_ELIGIBLE"
    assert _code(state, _act("add_standing", "croupier", player="cagnotte")) == "E_BAD_ACTION"
    assert _code(state, _act("frobnicate", "croupier")) == "E_UNKNOWN_ACTION"
    assert _code(state, _act("announce_bank", 1)) == "E_BAD_ACTION"


def test_lm_2_2_sit_beyond_max_players() -> None:
    state = _start({"max_players": 3})
    assert _code(state, _act("sit", "croupier", player="S4", seat=2)) == "E_SEAT_TAKEN"
    assert _code(state, _act("sit", "croupier", player="S4", seat=4)) == "E_TABLE_SIZE"


def test_lm_4_0_session_ended_refuses_everything() -> None:
    state = _run(_start({"abandonment_offers": False}), _act("end_session", "croupier"))
    assert state.phase == "session_ended" and GAME.legal_actions(state) == ()
    assert _code(state, _act("offer_abandonment", 1, fraction_bp=1)) == "E_WRONG_STATE"
    assert _code(state, _act("add_standing", "croupier", player="Z")) == "E_WRONG_STATE"


def test_view_shows_the_table() -> None:
    state = _run(_opened(bank=100, standing=["X"]), _act("stake", 2, amount=30))
    view = GAME.view(state)
    assert view["phase"] == "speaking" and view["banker"] == "S1"
    assert view["bank"] == 100 and view["to_cover"] == 70
    assert view["stakes"] == [{"player": "S2", "amount": 30, "seat": 2, "standing": False}]
    assert view["pack"]["left"] == 104
    assert view["expected"] == {"code": "LM_X_SPEAKS", "player": "S3", "round": 1}
    start = GAME.view(_start())
    assert start["bank"] is None and start["expected"] == {"code": "X_FIRST_BANKER"}


# -- random playouts: invariants (COM-5.5, COM-5.6, COM-10.1) ------------------------------------

RANK_CODES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def _random_settings(rng: random.Random) -> dict[str, Any]:
    unit = rng.choice((1, 5))
    settings: dict[str, Any] = {
        "decks": rng.choice((1, 2)),
        "chip_unit": unit,
        "min_bank": 4 * unit,
        "min_stake": unit * rng.choice((1, 2)),
        "banco_mode": rng.choice(("whole", "remainder")),
        "standing_completion": rng.random() < 0.7,
        "abandonment_offers": rng.random() < 0.7,
        "cagnotte_rounding": rng.choice(("down", "nearest")),
    }
    if rng.random() < 0.3:
        settings["max_bank"] = 400 * unit
    return settings


def _params(rng: random.Random, state: LMState, kind: str, counter: list[int]) -> dict[str, Any]:
    config = state.config
    unit = config.chip_unit
    if kind == "announce_bank":
        if state.bank_rule is not None:
            return {"amount": state.bank_rule.amount}
        top = config.max_bank if config.max_bank is not None else 60 * unit
        return {"amount": rng.randrange(config.min_bank, top + 1, unit)}
    if kind == "stake":
        assert state.coup is not None
        remainder = state.coup.uncovered
        low = min(config.min_stake, remainder)
        return {"amount": rng.randrange(low, remainder + 1, unit)}
    if kind == "turn_card":
        left = [rank for rank, n in state.pack.counts_left().items() if n > 0]
        return {"rank": rng.choice(left)}
    if kind == "offer_abandonment":
        return {"fraction_bp": rng.randint(1, 9999)}
    if kind == "answer_abandonment":
        return {"accept": rng.random() < 0.7}
    if kind in ("sit", "add_standing"):
        counter[0] += 1
        params: dict[str, Any] = {"player": f"P{counter[0]}"}
        if kind == "sit":
            free = [s for s in range(1, 13) if state.seating.player_at(s) is None]
            params["seat"] = rng.choice(free)
        return params
    if kind == "leave":
        people = [p for _, p in state.seating.seats] + list(state.seating.standing)
        return {"player": rng.choice(people)}
    if kind == "set_first_banker":
        return {"seat": rng.choice(state.seating.occupied)}
    return {}


WEIGHTS = {
    "end_session": 0.003,
    "leave": 0.1,
    "sit": 0.2,
    "add_standing": 0.1,
    "offer_abandonment": 0.15,
}


def _random_junk(rng: random.Random) -> Action:
    kind = rng.choice([*(k for k in GAME.actions if k != "end_session"), "nonsense"])
    actors: list[int | str] = [1, 2, 5, 13, "croupier", "S1", "X", "nobody", ""]
    actor = rng.choice(actors)
    shapes: list[dict[str, Any]] = [
        {},
        {"amount": rng.randint(-5, 500)},
        {"rank": rng.choice(["Z", "K", "5"])},
        {"seat": 3},
    ]
    params = rng.choice(shapes)
    return Action(kind, actor, params)


def _check_invariants(state: LMState) -> None:
    unit = state.config.chip_unit
    cagnotte = 0
    for number, coup in enumerate(state.coups, start=1):
        assert coup.number == number
        assert sum(coup.results.values()) == 0  # COM-5.5 INV-1
        for transfer in coup.transfers:
            assert transfer.amount > 0 and transfer.amount % unit == 0  # COM-5.6 INV-3
            if transfer.target == CAGNOTTE:
                cagnotte += transfer.amount
            assert transfer.source != CAGNOTTE  # INV-2: the cagnotte never decreases
    assert cagnotte >= 0


@pytest.mark.parametrize("seed", range(12))
def test_com_10_1_random_playout_invariants(seed: int) -> None:
    rng = random.Random(seed)
    settings = GAME.settings_validate(_random_settings(rng), 12)
    seats = {seat: f"S{seat}" for seat in rng.sample(range(1, 13), rng.randint(2, 6))}
    start = GAME.start(settings, _seating(seats, ("X",) if rng.random() < 0.5 else ()))
    assert isinstance(start, LMState)
    state = start
    accepted: list[Action] = []
    counter = [0]
    for _ in range(600):
        legal = GAME.legal_actions(state)
        if not legal:
            break
        if rng.random() < 0.15:
            junk = _random_junk(rng)
            before = copy.deepcopy(state)
            try:
                new = step(GAME, state, junk)
            except RuleError:
                assert state == before
            else:
                assert isinstance(new, LMState)
                accepted.append(junk)
                state = new
            continue
        weights = [WEIGHTS.get(option.type, 1.0) for option in legal]
        option = rng.choices(legal, weights)[0]
        actor = rng.choice(option.actors)
        action = Action(option.type, actor, _params(rng, state, option.type, counter))
        new = step(GAME, state, action)  # LM-4.0.3: a legal action is accepted
        assert isinstance(new, LMState)
        accepted.append(action)
        state = new
        _check_invariants(state)
    replayed = _run(start, *accepted)
    assert replayed == state  # COM-10.1: the session is a deterministic fold
