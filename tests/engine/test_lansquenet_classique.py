"""Lansquenet classique (LC): known answers, validation order, settings and random playouts.

No database and no Django: the engine is pure Python (docs/rules/lansquenet-classique.md).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest

from tables.engine.actions import Action
from tables.engine.cards import RANKS
from tables.engine.errors import RuleError
from tables.engine.game import step
from tables.engine.lansquenet_classique import GAME
from tables.engine.lansquenet_classique.state import LCState
from tables.engine.scenario import check_one
from tables.engine.settlement import CAGNOTTE, results_of
from tables.engine.table import Actor, Seating
from tables.engine.words import words

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios" / "lansquenet_classique"


# -- helpers --------------------------------------------------------------------------------------


def new_state(
    seats: int = 5,
    *,
    standing: Iterable[str] = (),
    seat_count: int = 12,
    **settings: Any,
) -> LCState:
    raw: dict[str, Any] = {"base_stake": 10, **settings}
    full = GAME.settings_validate(raw, seat_count)
    seating = Seating(
        seat_count,
        tuple((k, f"S{k}") for k in range(1, seats + 1)),
        tuple(standing),
    )
    state = GAME.start(full, seating)
    assert isinstance(state, LCState)
    return state


def act(state: LCState, type_: str, actor: Actor = "croupier", **params: Any) -> LCState:
    result = step(GAME, state, Action(type_, actor, params))
    assert isinstance(result, LCState)
    return result


def play(state: LCState, *actions: tuple[Any, ...]) -> LCState:
    """Apply ``(type, actor, params)`` triples in order."""
    for type_, actor, params in actions:
        state = act(state, type_, actor, **params)
    return state


def rejected(state: LCState, type_: str, actor: Actor = "croupier", **params: Any) -> str:
    with pytest.raises(RuleError) as caught:
        step(GAME, state, Action(type_, actor, params))
    return caught.value.code


def dealt(state: LCState, banker: int, deal: Iterable[tuple[int, str]]) -> LCState:
    state = act(state, "set_first_banker", seat=banker)
    state = act(state, "start_coup")
    for seat, rank in deal:
        state = act(state, "deal_card", to=seat, rank=rank)
    return state


def turns(state: LCState, *ranks: str) -> LCState:
    for rank in ranks:
        state = act(state, "turn_card", rank=rank)
    return state


def legal_types(state: LCState) -> set[str]:
    return {legal.type for legal in GAME.legal_actions(state)}


def transfers(state: LCState, number: int = 1) -> list[tuple[str, str, int, str]]:
    coup = state.coups[number - 1]
    return [(t.source, t.target, t.amount, t.reason) for t in coup.transfers]


# -- corpus ---------------------------------------------------------------------------------------


def _scenario_files() -> list[Path]:
    return sorted(SCENARIOS.glob("**/*.json"))


@pytest.mark.parametrize("path", _scenario_files(), ids=lambda p: p.name)
def test_lc_scenario_corpus_passes(path: Path) -> None:
    outcome = check_one(json.loads(path.read_text(encoding="utf-8")))
    assert outcome.passed, outcome.detail


# -- LC-5.2.1 the deal ------------------------------------------------------------------------


def test_lc_5_2_1_double_takes_earlier_holder_without_sprinkle() -> None:
    state = dealt(new_state(4), 1, [(2, "A"), (3, "A"), (4, "K")])
    assert state.phase == "banker_card"
    coup = state.coup
    assert coup is not None
    assert [(c.player, c.rank, c.multiplicity) for c in coup.cards] == [
        ("S3", "A", 2),
        ("S4", "K", 1),
    ]
    # LC-5.2.2, LC-I5: no sprinkle during the deal, only the stake lost.
    assert coup.transfers[0].as_dict() == {
        "from": "S2",
        "to": "S1",
        "amount": 10,
        "reason": "stake_lost",
    }
    assert len(coup.transfers) == 1


def test_lc_5_2_1_coupeur_quadruple_pays_4f_and_collects_the_rest() -> None:
    # LC-X3 with F = 10: quadruple_paid first, then the other stakes in deal order (LC-8.1).
    state = dealt(new_state(7), 1, [(2, "8"), (3, "8"), (4, "8"), (5, "K"), (6, "8")])
    assert state.phase == "successor_offer"
    assert state.coups[0].outcome == "coupeur_quadruple"
    assert transfers(state) == [
        ("S2", "S1", 10, "stake_lost"),
        ("S3", "S1", 20, "stake_lost"),
        ("S1", "S4", 40, "quadruple_paid"),
        ("S5", "S1", 10, "stake_lost"),
        ("S1", CAGNOTTE, 2, "cagnotte"),  # G = 40, 5 % = 2
    ]
    # LC-I3: S7 was never dealt and plays nothing; LC-7.7 offered from S2, S1 last.
    assert state.offer == (2, 3, 4, 5, 6, 7, 1)
    assert rejected(state, "deal_card", to=7, rank="2") == "E_WRONG_STATE"


# -- LC-5.3.1 the banker's card ---------------------------------------------------------------


def test_lc_5_3_1_banker_card_takes_and_sprinkles_by_default() -> None:
    state = dealt(new_state(5), 1, [(2, "2"), (3, "3"), (4, "4"), (5, "5")])
    state = turns(state, "3")
    coup = state.coup
    assert coup is not None and state.phase == "drawing"
    assert coup.banker_multiplicity == 2  # LC-I14
    assert [(t.target, t.amount, t.reason) for t in coup.transfers] == [
        ("S1", 10, "stake_lost"),
        ("S2", 10, "sprinkle"),
        ("S4", 10, "sprinkle"),
        ("S5", 10, "sprinkle"),
    ]


def test_lc_i6_sprinkle_on_banker_card_false() -> None:
    state = new_state(5, sprinkle_on_banker_card=False)
    state = turns(dealt(state, 1, [(2, "2"), (3, "3"), (4, "4"), (5, "5")]), "3")
    assert state.coup is not None
    assert [t.reason for t in state.coup.transfers] == ["stake_lost"]


def test_lc_5_3_1_banker_quadruple_collects_every_stake_no_sprinkle() -> None:
    # LC-X4: S3 banker, deal order S4, S5, S1, S2; F = 20, chip_unit 5.
    state = new_state(5, base_stake=20, chip_unit=5)
    state = turns(dealt(state, 3, [(4, "Q"), (5, "Q"), (1, "Q"), (2, "6")]), "Q")
    assert state.phase == "bank_decision"
    assert state.coups[0].results == {
        "S3": 155,
        "S4": -20,
        "S5": -40,
        "S1": -80,
        "S2": -20,
        CAGNOTTE: 5,
    }
    assert "sprinkle" not in {t[3] for t in transfers(state)}


# -- LC-5.4.1 the drawing, LC-5.5 sprinkles ----------------------------------------------------


def test_lc_5_5_premier_pris_pays_the_most() -> None:
    # LC-X1: S4 taken first pays F to S2, S3, S5; the banker's card then pays the rest.
    state = dealt(new_state(5, base_stake=20), 1, [(2, "7"), (3, "K"), (4, "3"), (5, "9")])
    state = turns(state, "Q", "5", "3", "8", "Q")
    assert state.coups[0].outcome == "banker_card_out"
    assert state.coups[0].results == {
        "S1": -41,
        "S2": 40,
        "S3": 40,
        "S4": -80,
        "S5": 40,
        CAGNOTTE: 1,
    }
    assert state.banker == "S1" and state.offer == (2, 3, 4, 5, 1)  # LC-7.5, LC-I21


def test_lc_5_5_triple_taken_sprinkles_only_f() -> None:
    state = dealt(new_state(5), 1, [(2, "8"), (3, "8"), (4, "8"), (5, "9")])
    state = turns(state, "K", "8")
    assert state.coup is not None
    assert [(t.source, t.target, t.amount, t.reason) for t in state.coup.transfers[-2:]] == [
        ("S4", "S1", 40, "stake_lost"),
        ("S4", "S5", 10, "sprinkle"),
    ]


def test_lc_5_6_all_taken_returns_carabin_bets() -> None:
    state = dealt(new_state(4, standing=["C1"]), 1, [(2, "2"), (3, "3"), (4, "4")])
    state = turns(state, "K", "9")
    state = act(state, "carabin_bet", "C1", amount=10)
    state = turns(state, "2", "3", "4")
    assert state.coups[0].outcome == "all_taken"
    assert "C1" not in state.coups[0].results  # LC-I10
    assert state.phase == "bank_decision"
    assert legal_types(state) == {"keep_bank", "pass_bank", "add_standing"}


def test_lc_i11_banker_card_out_pays_carabins_after_coupeurs() -> None:
    state = dealt(
        new_state(4, standing=["C1", "C2"], carabin_max_stake=30), 1, [(2, "2"), (3, "3"), (4, "4")]
    )
    state = turns(state, "K", "9")
    state = act(state, "carabin_bet", "C2", amount=30)
    state = act(state, "carabin_bet", "C1", amount=10)
    state = turns(state, "K")
    assert transfers(state)[-2:] == [("S1", "C2", 30, "stake_won"), ("S1", "C1", 10, "stake_won")]


def test_lc_6_4_card_taking_a_carabin_card_is_not_a_reprise() -> None:
    state = dealt(new_state(4, standing=["C1", "C2"]), 1, [(2, "2"), (3, "3"), (4, "4")])
    state = turns(state, "K", "9")
    state = act(state, "carabin_bet", "C1", amount=10)
    state = turns(state, "9")
    assert state.coup is not None and state.coup.transfers[-1].source == "C1"
    assert "carabin_bet" not in legal_types(state)
    assert rejected(state, "carabin_bet", "C2", amount=10) == "LC_E_NOT_REPRISE"


def test_lc_6_5_dead_card() -> None:
    state = dealt(new_state(4, standing=["C1"]), 1, [(2, "2"), (3, "3"), (4, "4")])
    state = turns(state, "K", "9", "9", "9", "9")
    assert "carabin_bet" not in legal_types(state)
    assert rejected(state, "carabin_bet", "C1", amount=10) == "LC_E_DEAD_CARD"
    assert rejected(state, "turn_card", rank="9") == "E_RANK_EXHAUSTED"  # LC-3.1


# -- validation order (LC-5.0.1) ----------------------------------------------------------------


def test_lc_5_0_1_rejouissance_before_state_check() -> None:
    state = new_state(4)
    assert rejected(state, "rejouissance", 99, amount=10) == "LC_E_NO_REJOUISSANCE"
    assert rejected(state, "rejouissance", 1) == "E_BAD_ACTION"
    ended = act(state, "end_session")
    assert rejected(ended, "rejouissance", "croupier", amount=5) == "LC_E_NO_REJOUISSANCE"


def test_lc_5_0_1_table_size_before_actor() -> None:
    state = act(new_state(3), "set_first_banker", seat=1)
    assert rejected(state, "start_coup", 2) == "E_TABLE_SIZE"
    assert rejected(new_state(3), "start_coup") == "E_WRONG_STATE"  # no banker yet


def test_lc_5_0_1_deal_card_order() -> None:
    state = act(act(new_state(4), "set_first_banker", seat=1), "start_coup")
    assert rejected(state, "deal_card", 99, to=3, rank="Z") == "E_NO_SUCH_SEAT"
    assert rejected(state, "deal_card", 2, to=99, rank="Z") == "E_NOT_ELIGIBLE"
    assert rejected(state, "deal_card", to=99, rank="Z") == "E_NO_SUCH_SEAT"
    assert rejected(state, "deal_card", to=9, rank="Z") == "E_NOT_PRESENT"
    assert rejected(state, "deal_card", to=3, rank="Z") == "E_OUT_OF_TURN"
    assert rejected(state, "deal_card", to=2, rank="Z") == "E_BAD_RANK"
    assert rejected(state, "deal_card", to=2) == "E_BAD_ACTION"
    assert rejected(state, "deal_card", "", to=2, rank="2") == "E_BAD_ACTION"


def test_lc_5_0_1_out_of_turn_deal_message() -> None:
    state = act(act(new_state(4), "set_first_banker", seat=1), "start_coup")
    with pytest.raises(RuleError) as caught:
        act(state, "deal_card", to=3, rank="2")
    # LC-2.4 the card goes to S2, not to the coupeur named.
    assert caught.value.params == {"expected": "S2", "actor": "S3"}
    assert words(caught.value.code, caught.value.params) == "It is S2's turn, not S3's."


def test_lc_5_0_1_carabin_amount_before_conditions() -> None:
    state = dealt(new_state(4, standing=["C1"]), 1, [(2, "2"), (3, "3"), (4, "4")])
    state = turns(state, "K")  # no talon card yet: not a reprise
    assert rejected(state, "carabin_bet", "C1", amount=7) == "E_BELOW_MINIMUM"
    assert rejected(state, "carabin_bet", "C1", amount=20) == "E_ABOVE_LIMIT"
    assert rejected(state, "carabin_bet", "C1", amount=0) == "E_BAD_AMOUNT"
    assert rejected(state, "carabin_bet", "C1", amount=10) == "LC_E_NOT_REPRISE"
    assert rejected(state, "carabin_bet", 2, amount=10) == "E_NOT_ELIGIBLE"
    with pytest.raises(RuleError) as caught:
        act(state, "carabin_bet", "C1", amount=10)
    assert caught.value.params == {"why": "LC_R_NOTHING_TURNED"}
    said = words(caught.value.code, caught.value.params)
    assert said.endswith("no card has been turned from the talon yet.")


def test_lc_7_2_forced_successor_cannot_refuse() -> None:
    state = dealt(new_state(4), 1, [(2, "K"), (3, "K"), (4, "K")])
    state = act(turns(state, "K"), "pass_bank", 1)
    assert state.forced_successor and state.offer == (2,)
    assert rejected(state, "decline_bank", 2) == "LC_E_CANNOT_REFUSE"
    assert legal_types(state) == {"accept_bank", "add_standing"}
    state = act(state, "accept_bank", 2)
    assert not state.forced_successor and state.banker == "S2"


def test_lc_7_2_cannot_refuse_answers_only_the_forced_successor() -> None:
    """LC_E_CANNOT_REFUSE is the forced successor's, by seat or by id; anybody else's
    decline_bank gets the generic codes in the order of COM-10.2 (LC-5.0.1 steps 3 and 4)."""
    state = dealt(new_state(5, standing=["C1"]), 1, [(2, "K"), (3, "K"), (4, "K"), (5, "2")])
    state = act(turns(state, "K"), "pass_bank", 1)
    assert state.forced_successor and state.offer == (2,)
    before = GAME.view(state)
    assert rejected(state, "decline_bank", 2) == "LC_E_CANNOT_REFUSE"
    assert rejected(state, "decline_bank", "S2") == "LC_E_CANNOT_REFUSE"
    assert rejected(state, "decline_bank", 99) == "E_NO_SUCH_SEAT"  # step 3: at the table
    assert rejected(state, "decline_bank", 7) == "E_NOT_PRESENT"  # an empty seat
    assert rejected(state, "decline_bank", "nobody") == "E_NOT_PRESENT"
    assert rejected(state, "decline_bank", "croupier") == "E_NOT_ELIGIBLE"  # step 3: seated
    assert rejected(state, "decline_bank", "C1") == "E_NOT_ELIGIBLE"  # a carabin
    assert rejected(state, "decline_bank", 3) == "E_OUT_OF_TURN"  # step 4: not the offeree
    assert rejected(state, "decline_bank", "S1") == "E_OUT_OF_TURN"  # the outgoing banker
    assert rejected(state, "accept_bank", 3) == "E_OUT_OF_TURN"
    assert GAME.view(state) == before  # a rejected action changes nothing (COM-10.2)


# -- the bank after the coup (LC-7) ----------------------------------------------------------------


def test_lc_7_1_offer_order_skips_empty_seats() -> None:
    seating = Seating(8, ((2, "P2"), (4, "P4"), (6, "P6"), (8, "P8")))
    state = GAME.start(GAME.settings_validate({"base_stake": 10}, 8), seating)
    assert isinstance(state, LCState)
    state = act(act(state, "set_first_banker", seat=6), "start_coup")
    assert state.coup is not None and state.coup.deal_order == (8, 2, 4)  # LC-2.4
    state = play(
        state,
        ("deal_card", "croupier", {"to": 8, "rank": "2"}),
        ("deal_card", "croupier", {"to": 2, "rank": "3"}),
        ("deal_card", "croupier", {"to": 4, "rank": "4"}),
        ("turn_card", "croupier", {"rank": "5"}),
        ("turn_card", "croupier", {"rank": "5"}),
    )
    assert state.offer == (8, 2, 4, 6)


def test_lc_7_3_banker_leaving_offers_from_his_right_without_him() -> None:
    state = act(new_state(5), "set_first_banker", seat=3)
    state = act(state, "leave", seat=3)
    assert state.phase == "successor_offer" and state.banker is None
    assert state.offer == (4, 5, 1, 2)


def test_lc_7_6_vacant_bank_any_seated_player() -> None:
    state = dealt(new_state(4, standing=["C1"]), 1, [(2, "2"), (3, "3"), (4, "4")])
    state = turns(state, "5", "5")
    for seat in (2, 3, 4, 1):
        state = act(state, "decline_bank", seat)
    assert state.phase == "coup_start" and state.banker is None and state.vacant
    assert rejected(state, "accept_bank", "C1") == "E_NOT_ELIGIBLE"
    assert rejected(state, "set_first_banker", seat=2) == "E_WRONG_STATE"
    assert act(state, "accept_bank", 4).banker == "S4"


def test_lc_2_5_sit_beyond_twelve() -> None:
    state = new_state(12, seat_count=14)
    assert rejected(state, "sit", player="P13", seat=1) == "E_SEAT_TAKEN"
    assert rejected(state, "sit", player="P13", seat=13) == "E_TABLE_SIZE"
    assert "sit" not in legal_types(state)


# -- cagnotte (COM-6.3, LC-8.2) -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "levy"),
    [
        ({"base_stake": 100, "chip_unit": 10}, 30),
        ({"base_stake": 100, "chip_unit": 10, "cagnotte_rounding": "nearest"}, 40),
        ({"base_stake": 100, "chip_unit": 5, "cagnotte_step": 25}, 25),
        ({"base_stake": 100, "cagnotte_rate_bp": 0}, 0),
        ({"base_stake": 100, "cagnotte_rate_bp": 10000}, 700),
    ],
)
def test_com_6_3_cagnotte_on_banker_quadruple(settings: dict[str, Any], levy: int) -> None:
    raw = dict(settings)
    base = raw.pop("base_stake")
    state = new_state(4, base_stake=base, **raw)
    state = turns(dealt(state, 1, [(2, "Q"), (3, "Q"), (4, "Q")]), "Q")  # G = 700
    assert state.coups[0].results.get(CAGNOTTE, 0) == levy
    assert state.coups[0].results.get("S1", 0) == 700 - levy


# -- settings (§1) --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        ("base_stake", {}),
        ("base_stake", {"base_stake": 0}),
        ("base_stake", {"base_stake": 15, "chip_unit": 10}),
        ("decks", {"base_stake": 10, "decks": 2}),
        ("min_players", {"base_stake": 10, "min_players": 2}),
        ("max_players", {"base_stake": 10, "max_players": 13}),
        ("chip_unit", {"base_stake": 10, "chip_unit": 0}),
        ("carabin_max_stake", {"base_stake": 10, "carabin_max_stake": 5}),
        ("carabin_max_stake", {"base_stake": 10, "carabin_max_stake": 15, "chip_unit": 10}),
        ("sprinkle_on_banker_card", {"base_stake": 10, "sprinkle_on_banker_card": 1}),
        ("cagnotte_rate_bp", {"base_stake": 10, "cagnotte_rate_bp": -1}),
        ("cagnotte_rate_bp", {"base_stake": 10, "cagnotte_rate_bp": 10001}),
        ("cagnotte_step", {"base_stake": 10, "cagnotte_step": 3, "chip_unit": 2}),
        ("cagnotte_rounding", {"base_stake": 10, "cagnotte_rounding": "up"}),
        ("session_limit", {"base_stake": 10, "session_limit": "coups:0"}),
        ("session_limit", {"base_stake": 10, "session_limit": "hours:3"}),
        ("session_limit", {"base_stake": 10, "session_limit": 30}),
        ("banco_limit", {"base_stake": 10, "banco_limit": 30}),
    ],
)
def test_lc_settings_refuse_out_of_range(name: str, raw: Mapping[str, Any]) -> None:
    with pytest.raises(RuleError) as caught:
        GAME.settings_validate(raw, 12)
    assert caught.value.code == "E_SETTING"
    assert name in words(caught.value.code, caught.value.params)


def test_lc_settings_defaults() -> None:
    full = GAME.settings_validate({"base_stake": 20}, 12)
    assert full["carabin_max_stake"] == 20  # LC-I8
    assert full["sprinkle_on_banker_card"] is True  # LC-I6
    assert full["cagnotte_rate_bp"] == 500 and full["cagnotte_step"] == 1
    assert full["session_limit"] is None
    for limit in (None, "none", "minutes:90", "coups:12"):
        GAME.settings_validate({"base_stake": 20, "session_limit": limit}, 12)


# -- view -----------------------------------------------------------------------------------------


def test_lc_view_shows_cards_and_stakes() -> None:
    state = dealt(new_state(4, standing=["C1"]), 1, [(2, "A"), (3, "A"), (4, "K")])
    state = turns(state, "5", "9")
    state = act(state, "carabin_bet", "C1", amount=10)
    view = GAME.view(state)
    assert view["phase"] == "drawing" and view["banker"] == "S1"
    assert view["bank"] is None and view["to_cover"] is None
    assert {(s["player"], s["amount"]) for s in view["stakes"]} == {
        ("S3", 20),
        ("S4", 10),
        ("C1", 10),
    }
    assert view["cards"]["banker"] == {"rank": "5", "multiplicity": 1}
    assert view["pack"]["left"] == 52 - 5
    assert view["expected"] == {"code": "LC_X_REPRISE", "rank": "9"}
    json.dumps(view)


# -- random playouts ------------------------------------------------------------------------------


def _random_action(rng: random.Random, state: LCState, serial: list[int]) -> Action:
    """An action chosen among the legal ones, with generated (mostly valid) parameters."""
    legal = GAME.legal_actions(state)
    choice = rng.choice(legal)
    actor = rng.choice(choice.actors)
    config = state.config
    coup = state.coup
    if choice.type == "add_standing" and rng.random() < 0.9 and len(legal) > 1:
        choice = rng.choice([c for c in legal if c.type != "add_standing"])
        actor = rng.choice(choice.actors)
    if choice.type in ("end_session", "leave") and rng.random() < 0.97:
        choice = rng.choice([c for c in legal if c.type not in ("end_session", "leave")])
        actor = rng.choice(choice.actors)
    params: dict[str, Any] = {}
    if choice.type in ("deal_card", "turn_card"):
        assert coup is not None
        ranks = [r for r in RANKS if coup.pack.left_of(r) > 0]
        params["rank"] = rng.choice(ranks) if rng.random() < 0.95 else rng.choice(RANKS)
        if choice.type == "deal_card":
            expected = coup.next_recipient
            assert expected is not None
            params["to"] = expected if rng.random() < 0.95 else rng.choice(state.seating.occupied)
    elif choice.type == "carabin_bet":
        units = config.carabin_max_stake // config.chip_unit
        low = config.base_stake // config.chip_unit
        params["amount"] = config.chip_unit * rng.randint(low - 1, units + 1)
    elif choice.type == "sit":
        free = [
            s for s in range(1, state.seating.seat_count + 1) if state.seating.player_at(s) is None
        ]
        serial[0] += 1
        params = {"player": f"N{serial[0]}", "seat": rng.choice(free)}
    elif choice.type == "leave":
        people = [p for _, p in state.seating.seats] + list(state.seating.standing)
        params = {"player": rng.choice(people)}
    elif choice.type == "add_standing":
        serial[0] += 1
        params = {"player": f"C{serial[0]}"}
    elif choice.type == "set_first_banker":
        params = {"seat": rng.choice(state.seating.occupied)}
    return Action(choice.type, actor, params)


def _check_invariants(state: LCState) -> None:
    unit = state.config.chip_unit
    for coup in state.coups:
        assert sum(coup.results.values()) == 0  # COM-5.5 INV-1
        assert coup.faults == ()  # LC-8.4
        for transfer in coup.transfers:
            assert transfer.amount > 0 and transfer.amount % unit == 0  # COM-5.6 INV-3
    assert state.session_transfers == ()  # LC-8.4
    cagnotte = results_of(t for coup in state.coups for t in coup.transfers).get(CAGNOTTE, 0)
    assert cagnotte >= 0  # COM-5.6 INV-2
    assert [coup.number for coup in state.coups] == list(range(1, len(state.coups) + 1))


@pytest.mark.parametrize("seed", range(12))
def test_lc_random_playout_invariants(seed: int) -> None:
    rng = random.Random(seed)
    chip_unit = rng.choice([1, 5, 10])
    state = new_state(
        rng.randint(4, 8),
        standing=[f"K{i}" for i in range(rng.randint(0, 3))],
        chip_unit=chip_unit,
        base_stake=chip_unit * rng.randint(1, 4),
        carabin_max_stake=chip_unit * 8,
        sprinkle_on_banker_card=rng.random() < 0.5,
        cagnotte_rounding=rng.choice(["down", "nearest"]),
    )
    start = state
    accepted: list[Action] = []
    serial = [0]
    cagnotte_before = 0
    for _ in range(600):
        if state.phase == "session_ended":
            assert GAME.legal_actions(state) == ()
            break
        action = _random_action(rng, state, serial)
        before = copy.deepcopy(state)
        try:
            after = step(GAME, state, action)
        except RuleError:
            assert state == before  # COM-10.2 a rejected action changes nothing
            continue
        assert isinstance(after, LCState)
        accepted.append(action)
        state = after
        _check_invariants(state)
        moved = [t for coup in state.coups for t in coup.transfers]
        cagnotte = results_of(moved).get(CAGNOTTE, 0)
        assert cagnotte >= cagnotte_before  # COM-5.6 the cagnotte never decreases
        cagnotte_before = cagnotte
    # COM-10.1 the fold is deterministic: replaying the accepted actions gives the same state.
    again = start
    for action in accepted:
        result = step(GAME, again, action)
        assert isinstance(result, LCState)
        again = result
    assert again == state
    json.dumps(GAME.view(state))


@pytest.mark.parametrize("seed", range(6))
def test_lc_rejected_action_leaves_state_unchanged(seed: int) -> None:
    rng = random.Random(1000 + seed)
    state = dealt(new_state(5, standing=["C1"]), 1, [(2, "2"), (3, "3"), (4, "4"), (5, "6")])
    state = turns(state, "K")
    snapshot = state
    bad = [
        Action("deal_card", "croupier", {"to": 2, "rank": "2"}),
        Action("turn_card", "croupier", {"rank": "Z"}),
        Action("carabin_bet", "C1", {"amount": rng.choice([1, 5, 25])}),
        Action("keep_bank", 1, {}),
        Action("sit", "croupier", {"player": "X", "seat": 9}),
        Action("rejouissance", "croupier", {"amount": 10}),
        Action("turn_card", 2, {"rank": "9"}),
    ]
    for action in bad:
        with pytest.raises(RuleError):
            step(GAME, state, action)
        assert state == snapshot
