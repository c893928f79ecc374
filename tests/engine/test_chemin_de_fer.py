"""Chemin de fer engine: known answers of the tricky rules, settings, and seeded playouts.

No database and no Django: the engine is pure Python (docs/rules/chemin-de-fer.md).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tables.engine.actions import Action
from tables.engine.cards import RANKS
from tables.engine.chemin_de_fer import GAME
from tables.engine.chemin_de_fer.coup import ponte_fault
from tables.engine.chemin_de_fer.state import (
    BANK_DECISION,
    BANK_PENDING,
    HAND_OFFER,
    CFState,
    Shoe,
    hand_value,
)
from tables.engine.errors import RuleError
from tables.engine.game import step
from tables.engine.scenario import check_one
from tables.engine.session import SESSION_ENDED
from tables.engine.settlement import Transfer, results_of
from tables.engine.table import Actor, Seating
from tables.engine.words import words

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "scenarios" / "chemin_de_fer"
STD: dict[str, Any] = {"decks": 3, "chip_unit": 10, "min_bank": 100, "min_stake": 10}


# -- helpers -------------------------------------------------------------------------------------


def table(
    settings: Mapping[str, Any] | None = None,
    seats: int = 6,
    standing: tuple[str, ...] = ("X", "Y"),
    seat_count: int = 12,
) -> CFState:
    """A session with S1..S<seats> seated and a shoe cut by seat 1."""
    full = GAME.settings_validate(dict(STD if settings is None else settings), seat_count)
    seating = Seating(seat_count, tuple((i, f"S{i}") for i in range(1, seats + 1)), standing)
    state = GAME.start(full, seating)
    return act(state, "new_shoe", cut_by=1)


def act(state: CFState, type_: str, actor: Actor = "croupier", **params: Any) -> CFState:
    new = step(GAME, state, Action(type_, actor, params))
    assert isinstance(new, CFState)
    return new


def rejected(state: CFState, type_: str, actor: Actor = "croupier", **params: Any) -> str:
    with pytest.raises(RuleError) as caught:
        step(GAME, state, Action(type_, actor, params))
    return caught.value.code


def as_tuples(transfers: tuple[Transfer, ...]) -> list[tuple[str, str, int, str]]:
    return [(t.source, t.target, t.amount, t.reason) for t in transfers]


def banco_coup(
    state: CFState, bank: int, holder: Actor, ponte: list[str], banker: list[str]
) -> CFState:
    state = act(state, "announce_bank", 1, amount=bank)
    state = act(state, "banco_call", claims=[{"player": holder, "kind": "banco"}])
    return act(state, "deal", ponte=ponte, banker=banker)


# -- CF-3.1 points, CF-8.1 faults -------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "value"),
    [
        (["8", "4"], 2),
        (["7", "3"], 0),
        (["6", "8"], 4),
        (["K", "9"], 9),
        (["A", "J", "Q"], 1),
        (["9", "9", "9"], 7),
    ],
)
def test_cf_3_1_hand_value_is_points_modulo_ten(cards: list[str], value: int) -> None:
    assert hand_value(cards) == value


@pytest.mark.parametrize(
    ("cards", "said", "fault"),
    [
        (["8", "K"], "stand", "F_NATURAL_NOT_SHOWN"),
        (["9", "K"], "draw", "F_NATURAL_NOT_SHOWN"),
        (["6", "K"], "draw", "F_DREW_ON_6_7"),
        (["7", "K"], "draw", "F_DREW_ON_6_7"),
        (["7", "K"], "stand", None),
        (["5", "K"], "stand", None),
        (["5", "K"], "draw", None),
        (["2", "2"], "stand", "F_STOOD_UNDER_5"),
        (["K", "Q"], "draw", None),
    ],
)
def test_cf_8_1_fault_table_and_cf_i8(cards: list[str], said: str, fault: str | None) -> None:
    assert ponte_fault(cards, said) == fault


# -- worked example and settlement known answers ----------------------------------------------


def test_cf_x1_banco_by_priority_banker_wins_with_reliquat() -> None:
    state = table()
    state = act(state, "announce_bank", 1, amount=1000)
    claims = [
        {"player": 5, "kind": "banco"},
        {"player": 3, "kind": "banco"},
        {"player": "X", "kind": "banco"},
    ]
    state = act(state, "banco_call", claims=claims)
    assert state.coup is not None and state.coup.card_holder == "S3"  # CF-2.3
    state = act(state, "deal", ponte=["7", "8"], banker=["K", "6"])
    state = act(state, "ponte_draw", 3)
    state = act(state, "ponte_third_card", rank="9")
    state = act(state, "banker_stand", 1)
    assert state.phase == BANK_DECISION and state.bank_after == 1950  # CF-5.1
    state = act(state, "continue_bank", 1, reliquat=450)
    assert as_tuples(state.coups[0].transfers) == [
        ("S3", "S1", 1000, "stake_lost"),
        ("S1", "cagnotte", 50, "cagnotte"),
        ("S1", "reliquat:S1", 450, "reliquat_in"),
    ]
    assert state.coups[0].results == {
        "S1": 500,
        "S3": -1000,
        "cagnotte": 50,
        "reliquat:S1": 450,
    }
    assert state.bank_rule == 1500 and state.suite  # CF-6.1


@pytest.mark.parametrize(
    ("chip_unit", "step_", "rounding", "gross", "levy"),
    [
        (10, 10, "down", 1000, 50),
        (10, 10, "down", 700, 30),
        (5, 5, "down", 250, 10),
        (1, 1, "down", 40, 2),
        (25, 25, "down", 150, 0),
        (10, 10, "nearest", 1300, 70),
        (10, 10, "nearest", 1100, 60),
        (10, 10, "nearest", 1080, 50),
        (10, 10, "nearest", 700, 40),
        (10, 50, "down", 1300, 50),
    ],
)
def test_com_6_3_cagnotte_on_the_banker_gross_win(
    chip_unit: int, step_: int, rounding: str, gross: int, levy: int
) -> None:
    settings = {
        "chip_unit": chip_unit,
        "min_bank": chip_unit,
        "cagnotte_step": step_,
        "cagnotte_rounding": rounding,
    }
    state = banco_coup(table(settings), gross, 2, ["2", "K"], ["9", "K"])
    state = act(state, "ponte_draw", 2)
    state = act(state, "banker_show_natural", 1)
    cagnotte = [t for t in state.coups[-1].transfers if t.reason == "cagnotte"]
    assert sum(t.amount for t in cagnotte) == levy
    assert state.bank_after == gross + gross - levy  # COM-6.6


def test_cf_i6_reduced_bank_after_a_win_is_t_plus_t_minus_c() -> None:
    state = table()
    state = act(state, "announce_bank", 1, amount=1000)
    state = act(state, "banco_call", claims=[])
    state = act(state, "stake", 2, amount=400)
    state = act(state, "stake", 3, amount=300)
    state = act(state, "close_bets")
    assert state.coup is not None and state.coup.bank == 700  # CF-4.3.1 (2)
    state = act(state, "deal", ponte=["3", "3"], banker=["4", "3"])
    state = act(state, "ponte_stand", 2)
    state = act(state, "banker_stand", 1)
    assert state.bank_after == 700 + 670


def test_cf_5_2_ponte_wins_paid_in_seat_order_then_standing_in_stake_order() -> None:
    state = table()
    state = act(state, "announce_bank", 1, amount=1000)
    state = act(state, "banco_call", claims=[])
    for actor, amount in (("Y", 100), (5, 300), ("X", 100), (2, 200)):
        state = act(state, "stake", actor, amount=amount)
    state = act(state, "close_bets")
    state = act(state, "deal", ponte=["9", "K"], banker=["3", "4"])
    state = act(state, "ponte_show_natural", 5)
    assert as_tuples(state.coups[0].transfers) == [
        ("S1", "S2", 200, "stake_won"),
        ("S1", "S5", 300, "stake_won"),
        ("S1", "Y", 100, "stake_won"),
        ("S1", "X", 100, "stake_won"),
    ]
    assert state.phase == HAND_OFFER and state.offer is not None
    assert state.offer.offerees == (2, 3, 4, 5, 6, 1)  # CF-6.3 outgoing banker last


def test_cf_8_2_fault_reimbursement_order_and_amounts() -> None:
    state = table()
    state = act(state, "announce_bank", 1, amount=700)
    state = act(state, "banco_call", claims=[])
    for actor, amount in (("Y", 100), (5, 300), (2, 200), ("X", 100)):
        state = act(state, "stake", actor, amount=amount)
    state = act(state, "close_bets")
    state = act(state, "deal", ponte=["8", "K"], banker=["3", "3"])
    state = act(state, "ponte_stand", 5)
    state = act(state, "banker_draw", 1, rank="3")
    record = state.coups[0]
    assert record.faults == ("F_NATURAL_NOT_SHOWN",)
    assert as_tuples(record.transfers)[4:] == [
        ("S1", "cagnotte", 30, "cagnotte"),
        ("S5", "S2", 200, "fault_reimbursement"),
        ("S5", "Y", 100, "fault_reimbursement"),
        ("S5", "X", 100, "fault_reimbursement"),
    ]
    assert record.results == {"S1": 670, "S5": -700, "cagnotte": 30}


def test_cf_8_2_no_penalty_when_the_ponte_wins_or_ties() -> None:
    state = table()
    state = act(state, "announce_bank", 1, amount=500)
    state = act(state, "banco_call", claims=[])
    state = act(state, "stake", 2, amount=300)
    state = act(state, "stake", 3, amount=200)
    state = act(state, "close_bets")
    state = act(state, "deal", ponte=["6", "K"], banker=["5", "K"])
    state = act(state, "ponte_draw", 2)
    state = act(state, "ponte_third_card", rank="K")
    state = act(state, "banker_draw", 1, rank="A")
    assert state.coups[0].outcome == "tie"
    assert state.coups[0].faults == ("F_DREW_ON_6_7",)
    assert state.coups[0].transfers == ()


def test_cf_4_6_2_banker_natural_not_shown_is_noted_without_penalty() -> None:
    state = banco_coup(table(), 500, 2, ["6", "K"], ["4", "4"])
    state = act(state, "ponte_stand", 2)
    state = act(state, "banker_draw", 1, rank="5")
    assert state.coups[0].outcome == "ponte_wins"
    assert state.coups[0].faults == ("banker_natural_not_shown",)


# -- priority, card holder, rotation ------------------------------------------------------------


def test_cf_2_3_banco_priority_is_rotation_from_the_banker() -> None:
    state = table()
    state = act(state, "give_up_bank", 1)
    state = act(state, "decline_bank", 2)
    state = act(state, "decline_bank", 3)
    state = act(state, "accept_bank", 4)
    state = act(state, "announce_bank", 4, amount=500)
    claims = [{"player": p, "kind": "banco"} for p in (2, 6, 3)]
    state = act(state, "banco_call", claims=claims)
    assert state.coup is not None and state.coup.card_holder == "S6"


def test_cf_4_2_1_banco_alone_beats_avec_la_table() -> None:
    state = table()
    state = act(state, "announce_bank", 1, amount=800)
    claims = [
        {"player": 2, "kind": "banco_with_table", "amount": 500},
        {"player": "Y", "kind": "banco"},
    ]
    state = act(state, "banco_call", claims=claims)
    assert state.coup is not None
    assert state.coup.card_holder == "Y" and state.coup.stakes == (("Y", 800),)


def test_cf_i5_cf_i25_card_holder_tie_seated_first_then_first_stake() -> None:
    state = table()
    state = act(state, "announce_bank", 1, amount=900)
    state = act(state, "banco_call", claims=[])
    state = act(state, "stake", "Y", amount=300)
    state = act(state, "stake", "X", amount=300)
    standing_only = act(state, "close_bets")
    assert standing_only.coup is not None and standing_only.coup.card_holder == "Y"
    state = act(state, "stake", 6, amount=300)
    state = act(state, "close_bets")
    assert state.coup is not None and state.coup.card_holder == "S6"


def test_cf_i3_avec_la_table_threshold_is_strict() -> None:
    state = act(table(), "announce_bank", 1, amount=1000)
    for amount in (500, 1000):
        claim = {"player": 2, "kind": "banco_with_table", "amount": amount}
        assert rejected(state, "banco_call", claims=[claim]) == "CF_E_TABLE_THRESHOLD"
    claim = {"player": 2, "kind": "banco_with_table", "amount": 510}
    assert act(state, "banco_call", claims=[claim]).phase == "completion"


# -- the bank after the coup ----------------------------------------------------------------------


def test_cf_6_5_fixed_banker_stays_after_a_loss_with_his_reliquat() -> None:
    state = table({**STD, "fixed_banker": "S3"})
    assert state.banker == "S3" and state.adjudicated == "S3"  # CF-6.6
    assert rejected(state, "give_up_bank", 3) == "CF_E_FIXED_BANKER"
    state = banco_coup_by(state, 3, 600, 5, ["6", "K"], ["9", "10"])
    state = act(state, "ponte_stand", 5)
    state = act(state, "banker_show_natural", 3)
    state = act(state, "continue_bank", 3, reliquat=170)
    state = banco_coup_by(state, 3, 1000, 6, ["7", "Q"], ["5", "J"])
    state = act(state, "ponte_stand", 6)
    state = act(state, "banker_draw", 3, rank="A")
    assert state.phase == BANK_PENDING and state.banker == "S3"
    assert state.bank_rule is None and state.reliquat("S3") == 170  # COM-7.2
    state = act(state, "leave", seat=3)
    assert state.banker is None and state.adjudicated is None
    assert as_tuples(state.session_transfers) == [("reliquat:S3", "S3", 170, "reliquat_out")]


def banco_coup_by(
    state: CFState, banker: int, bank: int, holder: Actor, ponte: list[str], cards: list[str]
) -> CFState:
    state = act(state, "announce_bank", banker, amount=bank)
    state = act(state, "banco_call", claims=[{"player": holder, "kind": "banco"}])
    return act(state, "deal", ponte=ponte, banker=cards)


def test_cf_5_5_suite_from_bank_decision_returns_reliquat_on_the_coup() -> None:
    state = banco_coup(table(), 1000, 2, ["5", "K"], ["8", "A"])
    state = act(state, "ponte_stand", 2)
    state = act(state, "banker_show_natural", 1)
    state = act(state, "continue_bank", 1, reliquat=450)
    state = banco_coup(state, 1500, 3, ["2", "2"], ["9", "K"])
    state = act(state, "ponte_draw", 3)
    state = act(state, "banker_show_natural", 1)
    state = act(state, "offer_suite", 1)
    state = act(state, "decline_suite", 2)
    state = act(state, "take_suite", 3)
    assert as_tuples(state.coups[-1].transfers)[-1] == ("reliquat:S1", "S1", 450, "reliquat_out")
    assert state.session_transfers == ()
    assert state.banker == "S3" and state.bank_rule == 2930 and not state.suite
    assert rejected(state, "offer_suite", 3) == "CF_E_NO_SUITE"


def test_cf_6_1_no_reliquat_after_a_tie() -> None:
    state = banco_coup(table(), 500, 2, ["6", "K"], ["6", "Q"])
    state = act(state, "ponte_stand", 2)
    state = act(state, "banker_stand", 1)
    assert rejected(state, "continue_bank", 1, reliquat=10) == "CF_E_RELIQUAT"
    assert act(state, "continue_bank", 1, reliquat=0).bank_rule == 500  # CF-I15


def test_cf_3_3_stop_card_ends_the_shoe_after_the_coup() -> None:
    state = table({**STD, "decks": 1}, seats=4, standing=())
    assert state.shoe is not None
    # CF-3.3 L = 52 - 7 = 45 with one deck: the shoe runs until card 46 is drawn.
    pack = state.shoe.pack.draw_many([r for r in RANKS for _ in range(4)][:45])
    at_l = replace(state, shoe=Shoe(pack))
    assert at_l.shoe_running and at_l.cards_before_stop == 0
    assert rejected(at_l, "new_shoe", cut_by=2) == "CF_E_SHOE_NOT_ENDED"
    after = replace(state, shoe=Shoe(pack.draw("K")))
    assert not after.shoe_running
    assert rejected(after, "announce_bank", 1, amount=100) == "CF_E_SHOE_ENDED"
    assert rejected(after, "new_shoe", cut_by=1) == "CF_E_WRONG_CUTTER"
    assert act(after, "new_shoe", cut_by=2).shoe_running


# -- validation order (COM-10.2, CF-7.1) --------------------------------------------------------


def test_com_10_2_state_before_actor_before_amount() -> None:
    fresh = GAME.start(GAME.settings_validate(STD, 12), table().seating)
    assert rejected(fresh, "announce_bank", 2, amount=15) == "CF_E_SHOE_ENDED"
    state = table()
    assert rejected(state, "announce_bank", 2, amount=15) == "E_NOT_ELIGIBLE"
    assert rejected(state, "announce_bank", 13, amount=100) == "E_NO_SUCH_SEAT"
    assert rejected(state, "announce_bank", 9, amount=100) == "E_NOT_PRESENT"
    assert rejected(state, "announce_bank", 1, amount=15) == "E_BAD_AMOUNT"
    assert rejected(state, "announce_bank", 1, amount=50) == "E_BELOW_MINIMUM"
    assert rejected(state, "set_first_banker", seat=1) == "E_UNKNOWN_ACTION"
    assert rejected(state, "announce_bank", 1) == "E_BAD_ACTION"
    state = act(state, "announce_bank", 1, amount=1000)
    state = act(state, "banco_call", claims=[{"player": 2, "kind": "banco"}])
    assert rejected(state, "deal", 1, ponte=["Z", "8"], banker=["K", "6"]) == "E_NOT_ELIGIBLE"
    assert rejected(state, "deal", ponte=["Z", "8"], banker=["K", "6"]) == "E_BAD_RANK"
    assert rejected(state, "stake", 3, amount=100) == "E_BANK_COVERED"


def test_cf_4_2_2_claims_in_four_passes() -> None:
    state = act(table(), "announce_bank", 1, amount=1000)
    bad_amount = {"player": 2, "kind": "banco_with_table", "amount": 15}
    assert rejected(state, "banco_call", claims=[bad_amount, {"player": 1, "kind": "banco"}]) == (
        "E_NOT_ELIGIBLE"
    )
    assert rejected(state, "banco_call", claims=[bad_amount, {"player": 2, "kind": "banco"}]) == (
        "E_BAD_AMOUNT"
    )
    low = {"player": 2, "kind": "banco_with_table", "amount": 100}
    assert rejected(state, "banco_call", claims=[low, {"player": "S2", "kind": "banco"}]) == (
        "CF_E_DUPLICATE_CLAIM"
    )


def test_cf_4_4_1_rejected_deal_records_no_card() -> None:
    state = banco_coup(table({**STD, "decks": 1}), 500, 3, ["7", "K"], ["7", "Q"])
    state = act(state, "ponte_stand", 3)
    state = act(state, "banker_stand", 1)
    state = act(state, "continue_bank", 1, reliquat=0)
    state = act(state, "announce_bank", 1, amount=500)
    state = act(state, "banco_call", claims=[{"player": 2, "kind": "banco"}])
    assert rejected(state, "deal", ponte=["7", "7"], banker=["7", "K"]) == "E_RANK_EXHAUSTED"
    assert state.shoe is not None and state.shoe.pack.left_of("7") == 2
    assert act(state, "deal", ponte=["7", "3"], banker=["7", "K"]).phase == "ponte_decision"


# -- settings (§1) -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("decks", 0),
        ("decks", 9),
        ("decks", True),
        ("stop_card_from_end", 6),
        ("min_players", 5),
        ("max_players", 3),
        ("max_players", 13),
        ("chip_unit", 0),
        ("min_bank", 15),
        ("max_bank", 50),
        ("min_stake", 0),
        ("cagnotte_rate_bp", 10001),
        ("cagnotte_step", 5),
        ("cagnotte_rounding", "up"),
        ("fault_reimbursement", "yes"),
        ("fixed_banker", "croupier"),
        ("fixed_banker", 3),
    ],
)
def test_cf_1_settings_validate_refuses_each_out_of_range_setting(name: str, value: Any) -> None:
    raw = {"chip_unit": 10, "min_bank": 100, name: value}
    with pytest.raises(RuleError) as caught:
        GAME.settings_validate(raw, 12)
    assert caught.value.code == "E_SETTING"
    assert name in words(caught.value.code, caught.value.params)


def test_cf_1_settings_defaults_and_seat_count() -> None:
    full = GAME.settings_validate({}, 8)
    assert full["decks"] == 3 and full["stop_card_from_end"] == 7 and full["min_players"] == 4
    assert full["max_players"] == 8 and full["min_bank"] == 1 and full["max_bank"] is None
    assert full["cagnotte_rate_bp"] == 500 and full["fault_reimbursement"] is True
    assert full["fixed_banker"] is None
    with pytest.raises(RuleError) as caught:
        GAME.settings_validate({}, 3)
    assert caught.value.code == "E_SETTING"


def test_cf_i27_fixed_banker_must_be_seated_at_start() -> None:
    full = GAME.settings_validate({"fixed_banker": "X"}, 12)
    with pytest.raises(RuleError) as caught:
        GAME.start(full, Seating(12, ((1, "S1"),), ("X",)))
    assert caught.value.code == "E_SETTING"


# -- the corpus and the view --------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", sorted(CORPUS.rglob("*.json")), ids=lambda p: str(p.relative_to(CORPUS))
)
def test_cf_scenario_corpus_passes(path: Path) -> None:
    outcome = check_one(json.loads(path.read_text(encoding="utf-8")))
    assert outcome.passed, outcome.detail


def test_view_has_the_table_screen_keys() -> None:
    state = act(table(), "announce_bank", 1, amount=1000)
    state = act(
        state, "banco_call", claims=[{"player": 2, "kind": "banco_with_table", "amount": 600}]
    )
    view = GAME.view(state)
    for key in ("phase", "banker", "bank", "to_cover", "stakes", "cards", "pack", "expected"):
        assert key in view
    assert view["bank"] == 1000 and view["to_cover"] == 400
    assert view["stakes"][0]["player"] == "S2" and view["stakes"][0]["amount"] == 600
    assert view["pack"]["left"] == 156
    json.dumps(view)


# -- seeded random playouts ---------------------------------------------------------------------


class Driver:
    """Plays whole sessions by choosing among ``legal_actions`` with generated parameters."""

    def __init__(self, rng: random.Random, state: CFState) -> None:
        self.rng = rng
        self.state = state
        self.start = state
        self.accepted: list[Action] = []
        self.new_ids = 0

    def chips(self, low: int, high: int) -> int:
        unit = self.state.rules.chip_unit
        return self.rng.randint(low // unit, high // unit) * unit

    def ranks_left(self) -> list[str]:
        assert self.state.shoe is not None
        pack = self.state.shoe.pack
        return [rank for rank in RANKS if pack.left_of(rank) > 0]

    def candidates(self, kind: str, actor: Actor) -> list[dict[str, Any]]:
        """Parameter sets to try for ``kind``; at least one should be accepted."""
        state, rules, rng = self.state, self.state.rules, self.rng
        if kind == "new_shoe":
            return [{"cut_by": seat} for seat in range(1, state.seating.seat_count + 1)]
        if kind == "announce_bank":
            if state.bank_rule is not None:
                return [{"amount": state.bank_rule}]
            high = rules.max_bank or rules.min_bank * 20
            return [{"amount": self.chips(rules.min_bank, high)}]
        if kind == "banco_call":
            coup = state.coup
            assert coup is not None
            people = [p for _, p in state.seating.seats if p != state.banker]
            people += list(state.seating.standing)
            rng.shuffle(people)
            claims: list[dict[str, Any]] = []
            for player in people[: rng.randint(0, 3)]:
                roll = rng.random()
                if roll < 0.3:
                    claims.append({"player": player, "kind": "banco"})
                elif roll < 0.5 and coup.bank >= 3 * rules.chip_unit:
                    low = coup.bank // 2 + rules.chip_unit
                    amount = self.chips(low, coup.bank - rules.chip_unit)
                    if 2 * amount > coup.bank and amount < coup.bank:
                        claims.append(
                            {"player": player, "kind": "banco_with_table", "amount": amount}
                        )
            return [{"claims": claims}]
        if kind == "stake":
            coup = state.coup
            assert coup is not None
            left = coup.left_to_cover
            low = min(rules.min_stake, left)
            return [{"amount": self.chips(low, left) if rng.random() < 0.6 else left}]
        if kind == "deal":
            ranks = self.ranks_left()
            return [
                {"ponte": rng.choices(ranks, k=2), "banker": rng.choices(ranks, k=2)}
                for _ in range(20)
            ]
        if kind in ("ponte_third_card", "banker_draw"):
            return [{"rank": rank} for rank in self.ranks_left()]
        if kind == "continue_bank":
            bank = state.bank_after
            assert bank is not None
            if state.last_outcome == "tie":
                return [{"reliquat": 0}]
            options = [{"reliquat": 0}]
            if bank > rules.min_bank:
                options.insert(0, {"reliquat": self.chips(0, bank - rules.min_bank)})
            if rules.max_bank is not None and bank > rules.max_bank:
                options.insert(0, {"reliquat": bank - rules.max_bank})
            return options
        if kind in ("sit", "add_standing"):
            self.new_ids += 1
            player = f"N{self.new_ids}"
            if kind == "add_standing":
                return [{"player": player}]
            free = [
                s for s in range(1, state.seating.seat_count + 1) if s not in state.seating.occupied
            ]
            return [{"player": player, "seat": rng.choice(free)}]
        if kind == "leave":
            present: list[Actor] = [*state.seating.occupied, *state.seating.standing]
            who = rng.choice(present)
            return [{"seat": who}] if isinstance(who, int) else [{"player": who}]
        return [{}]

    RARE = {"end_session": 0.002, "leave": 0.03, "sit": 0.05, "add_standing": 0.02}

    def pick(self) -> tuple[str, Actor] | None:
        legal = GAME.legal_actions(self.state)
        if not legal:
            return None
        weighted = [(la, self.RARE.get(la.type, 1.0)) for la in legal]
        choice = self.rng.choices([w[0] for w in weighted], [w[1] for w in weighted])[0]
        return choice.type, self.rng.choice(choice.actors)

    def try_bad_action(self) -> None:
        """A random (probably wrong) action: if rejected, nothing changes (COM-10.2)."""
        kind = self.rng.choice(sorted(GAME.actions))
        actors: list[Actor] = ["croupier", 1, 2, 7, 13, "X", "Z"]
        actor = self.rng.choice(actors)
        values: dict[str, Any] = {
            "cut_by": self.rng.choice([1, 2, 99]),
            "amount": self.rng.choice([-10, 0, 15, 100, 10**6]),
            "reliquat": self.rng.choice([-10, 0, 15, 10**6]),
            "claims": [{"player": self.rng.choice([1, 2, "X", "Z"]), "kind": "banco"}],
            "ponte": [self.rng.choice(RANKS), "Z"],
            "banker": ["K", "K"],
            "rank": self.rng.choice(["Z", "7", "K"]),
            "player": self.rng.choice(["S1", "X", "N0"]),
            "seat": self.rng.choice([1, 11, 13]),
        }
        spec = GAME.actions[kind]
        params = {name: values[name] for name in spec.required}
        if spec.one_of:
            params |= {name: values[name] for name in self.rng.choice(spec.one_of)}
        before = self.state
        snapshot = GAME.view(before)
        try:
            step(GAME, before, Action(kind, actor, params))
        except RuleError as error:
            assert error.code.startswith(("E_", "CF_E_"))
        assert self.state is before and GAME.view(before) == snapshot

    def run(self, max_steps: int) -> None:
        for _ in range(max_steps):
            if self.rng.random() < 0.2:
                self.try_bad_action()
            chosen = self.pick()
            if chosen is None:
                return
            kind, actor = chosen
            for params in self.candidates(kind, actor):
                action = Action(kind, actor, params)
                try:
                    new = step(GAME, self.state, action)
                except RuleError:
                    continue
                assert isinstance(new, CFState)
                self.state = new
                self.accepted.append(action)
                check_invariants(new)
                break
            else:
                if kind != "deal":  # a random deal may hit exhausted ranks 20 times
                    raise AssertionError(f"{kind} by {actor} is listed but nothing was accepted")


def check_invariants(state: CFState) -> None:
    unit = state.rules.chip_unit
    moved: list[Transfer] = []
    for number, record in enumerate(state.coups, start=1):
        assert record.number == number
        assert sum(record.results.values()) == 0  # COM-5.5 INV-1
        assert record.results.get("cagnotte", 0) >= 0  # COM-5.6 INV-2
        moved += record.transfers
    moved += state.session_transfers
    assert all(t.amount % unit == 0 and t.amount > 0 for t in moved)  # INV-3
    totals = results_of(moved)
    assert sum(totals.values()) == 0
    assert totals.get("cagnotte", 0) >= 0
    for owner, amount in totals.items():
        if owner.startswith("reliquat:"):
            assert amount >= 0 and amount == state.reliquat(owner.removeprefix("reliquat:"))
    assert all(amount > 0 for _, amount in state.reliquats)
    if state.coup is not None:
        assert 0 <= state.coup.left_to_cover <= state.coup.bank
    if state.bank_after is not None:
        assert state.bank_after >= 0 and state.bank_after % unit == 0
    if state.phase == SESSION_ENDED:
        assert state.banker is None and state.reliquats == ()
        assert GAME.legal_actions(state) == ()
    else:
        assert any(la.type == "add_standing" for la in GAME.legal_actions(state))


@pytest.mark.parametrize("seed", range(12))
def test_random_playouts_keep_the_invariants(seed: int) -> None:
    rng = random.Random(seed)
    settings: dict[str, Any] = {
        "decks": rng.choice([1, 2, 3, 6]),
        "chip_unit": rng.choice([1, 5, 10]),
        "cagnotte_rounding": rng.choice(["down", "nearest"]),
        "fault_reimbursement": rng.random() < 0.7,
    }
    unit = settings["chip_unit"]
    settings["min_bank"] = unit * rng.choice([1, 10, 20])
    if rng.random() < 0.5:
        settings["max_bank"] = settings["min_bank"] * rng.choice([5, 20])
    if rng.random() < 0.2:
        settings["fixed_banker"] = "S2"
    seats = rng.randint(4, 8)
    full = GAME.settings_validate(settings, 10)
    seating = Seating(10, tuple((i, f"S{i}") for i in range(1, seats + 1)), ("X", "Y"))
    start = GAME.start(full, seating)
    driver = Driver(rng, start)
    driver.run(1500)
    assert len(driver.accepted) > 100
    # COM-10.1 a session is a fold: replaying the accepted actions gives the same state.
    state = start
    for action in driver.accepted:
        new = step(GAME, state, action)
        assert isinstance(new, CFState)
        state = new
    assert state == driver.state
    assert GAME.view(state) == GAME.view(driver.state)
