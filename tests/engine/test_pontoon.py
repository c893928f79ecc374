"""Pontoon (PT): known answers for the tricky rules, settings, and seeded random playouts.

No database and no Django: the engine is pure Python (``docs/rules/pontoon.md``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from tables.engine.actions import Action
from tables.engine.cards import RANKS
from tables.engine.errors import RuleError
from tables.engine.game import legal_action_types, step
from tables.engine.pontoon import GAME
from tables.engine.pontoon.coup import player_wins
from tables.engine.pontoon.state import (
    Coup,
    PontoonState,
    hand_kind,
    hand_total,
    hard_total,
    is_five_card_trick,
    is_pontoon,
)
from tables.engine.scenario import check_one
from tables.engine.settlement import results_of
from tables.engine.table import Actor, Seating
from tables.engine.words import words
from tests.engine.test_levy import LEVY_DEFAULTS

CORPUS = Path(__file__).resolve().parents[1] / "scenarios" / "pontoon"
BASE: dict[str, Any] = {"chip_unit": 1, "min_stake": 5, "max_stake": 50, "cagnotte_rate_bp": 500}

Step = tuple[str, Actor, dict[str, Any]]


# -- helpers -------------------------------------------------------------------------------------


def seating(
    players: Mapping[int, str], seat_count: int = 8, standing: Sequence[str] = ()
) -> Seating:
    return Seating(seat_count, tuple(sorted(players.items())), tuple(standing))


def new_state(
    players: Mapping[int, str] | None = None,
    settings: Mapping[str, Any] | None = None,
    seat_count: int = 8,
    standing: Sequence[str] = (),
) -> PontoonState:
    table = seating(players or {1: "S1", 2: "S2", 3: "S3"}, seat_count, standing)
    valid = GAME.settings_validate(BASE if settings is None else settings, seat_count)
    return GAME.start(valid, table)


def act(state: PontoonState, type_: str, actor: Actor | None, **params: Any) -> PontoonState:
    result = step(GAME, state, Action(type_, actor, params))
    assert isinstance(result, PontoonState)
    return result


def code_of(state: PontoonState, type_: str, actor: Actor, **params: Any) -> str:
    before = repr(state)
    with pytest.raises(RuleError) as raised:
        step(GAME, state, Action(type_, actor, params))
    assert repr(state) == before  # COM-10.2 a rejected action changes nothing
    return raised.value.code


def play(state: PontoonState, steps: Sequence[Step]) -> PontoonState:
    for type_, actor, params in steps:
        state = act(state, type_, actor, **params)
    return state


def deal(*pairs: tuple[int, str]) -> list[Step]:
    return [("deal_card", "croupier", {"to": to, "rank": rank}) for to, rank in pairs]


def stakes(*pairs: tuple[int, int]) -> list[Step]:
    return [("stake", seat, {"amount": amount}) for seat, amount in pairs]


def opening(
    first: Sequence[tuple[int, str]],
    staked: Sequence[tuple[int, int]],
    second: Sequence[tuple[int, str]],
    banker_seat: int = 1,
) -> list[Step]:
    return [
        ("set_first_banker", "croupier", {"seat": banker_seat}),
        ("start_coup", "croupier", {}),
        *deal(*first),
        *stakes(*staked),
        *deal(*second),
    ]


def coup_of(state: PontoonState) -> Coup:
    assert state.coup is not None
    return state.coup


# -- PT-3 hand values ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "hard", "total"),
    [
        (("A", "4"), 5, 15),
        (("A", "A"), 2, 12),
        (("A", "A", "3"), 5, 15),
        (("A", "5", "K"), 16, 16),
        (("K", "Q", "2"), 22, 22),
        (("A", "J"), 11, 21),
        (("2", "3", "A", "2", "3"), 11, 21),
    ],
)
def test_pt_3_2_hard_total_and_total(cards: tuple[str, ...], hard: int, total: int) -> None:
    assert hard_total(cards) == hard
    assert hand_total(cards) == total


def test_pt_3_3_pontoon_is_an_ace_and_a_ten_valued_card_in_two_cards() -> None:
    for ten in ("10", "J", "Q", "K"):
        assert is_pontoon(("A", ten)) and is_pontoon((ten, "A"))
    assert not is_pontoon(("A", "A"))  # total 12
    assert not is_pontoon(("A", "5", "5"))  # 21 in three cards
    assert not is_pontoon(("10", "K"))


def test_pt_3_4_five_card_trick_needs_hard_total_21_or_less() -> None:
    assert is_five_card_trick(("2", "3", "2", "4", "3"))
    assert is_five_card_trick(("A", "5", "5", "3", "7"))  # hard 21
    assert not is_five_card_trick(("2", "3", "4", "5", "9"))  # 23: bust
    assert hand_kind(("2", "3", "4", "5", "9")) == "bust"
    assert not is_five_card_trick(("2", "3", "4", "5"))


@pytest.mark.parametrize(
    ("player", "banker", "wins"),
    [
        (("A", "K"), ("K", "6", "9"), True),  # pontoon v banker bust
        (("A", "K"), ("A", "Q"), False),  # PT-5.1 pontoon v pontoon: the banker
        (("A", "K"), ("2", "3", "2", "4", "3"), True),  # pontoon v five-card trick
        (("A", "K"), ("10", "9"), True),
        (("2", "3", "2", "4", "3"), ("K", "6", "9"), True),
        (("2", "3", "2", "4", "3"), ("A", "Q"), False),
        (("2", "3", "2", "4", "3"), ("2", "3", "A", "2", "3"), False),  # PT-5.1 trick v trick
        (("2", "3", "2", "4", "3"), ("10", "5", "6"), True),  # trick beats a 3-card 21
        (("10", "8"), ("K", "6", "9"), True),
        (("10", "8"), ("A", "J"), False),
        (("10", "8"), ("2", "3", "A", "2", "3"), False),
        (("10", "8"), ("9", "8"), True),
        (("10", "8"), ("9", "9"), False),  # PT-5.1 a tie goes to the banker
        (("10", "5", "6"), ("9", "5", "7"), False),
    ],
)
def test_pt_5_settlement_table(
    player: tuple[str, ...], banker: tuple[str, ...], wins: bool
) -> None:
    assert player_wins(player, banker) is wins


# -- PT-1 settings -------------------------------------------------------------------------------


def test_pt_1_settings_defaults() -> None:
    valid = GAME.settings_validate({}, 8)
    assert valid == {
        "decks": 1,
        "min_players": 2,
        "max_players": 8,
        "chip_unit": 1,
        "min_stake": 1,
        "max_stake": None,
        "buy_max_multiple": 1,
        "banker_special_collects_double": False,
        "cagnotte_rate_bp": 500,
        "cagnotte_step": 1,
        "cagnotte_rounding": "down",
        **LEVY_DEFAULTS,
    }
    assert GAME.settings_validate({"chip_unit": 5}, 4)["min_stake"] == 5


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        ({"decks": 2}, "decks"),
        ({"min_players": 3}, "min_players"),
        ({"max_players": 7}, "max_players"),
        ({"chip_unit": 0}, "chip_unit"),
        ({"chip_unit": 2.5}, "chip_unit"),
        ({"chip_unit": True}, "chip_unit"),
        ({"chip_unit": 5, "min_stake": 7}, "min_stake"),
        ({"min_stake": 0}, "min_stake"),
        ({"min_stake": 10, "max_stake": 5}, "max_stake"),
        ({"buy_max_multiple": 0}, "buy_max_multiple"),
        ({"buy_max_multiple": True}, "buy_max_multiple"),
        ({"banker_special_collects_double": "yes"}, "banker_special_collects_double"),
        ({"banker_special_collects_double": 1}, "banker_special_collects_double"),
        ({"cagnotte_rate_bp": -1}, "cagnotte_rate_bp"),
        ({"cagnotte_rate_bp": 10001}, "cagnotte_rate_bp"),
        ({"chip_unit": 10, "cagnotte_step": 15}, "cagnotte_step"),
        ({"cagnotte_rounding": "up"}, "cagnotte_rounding"),
        ({"croupier_tip": 5}, "croupier_tip"),
    ],
)
def test_pt_1_1_settings_validate_refuses_each_out_of_range_setting(
    raw: dict[str, Any], name: str
) -> None:
    with pytest.raises(RuleError) as raised:
        GAME.settings_validate(raw, 8)
    assert raised.value.code == "E_SETTING"
    assert name in words(raised.value.code, raised.value.params)


def test_pt_1_2_seat_count_caps_the_players_and_must_be_two_or_more() -> None:
    # max_players is fixed at 8 and capped by a smaller table (not an E_SETTING).
    assert GAME.settings_validate({}, 4)["max_players"] == 8
    with pytest.raises(RuleError) as raised:
        GAME.settings_validate({}, 1)
    assert raised.value.code == "E_SETTING"


# -- PT-2 rotation and table size ----------------------------------------------------------------


def test_pt_2_2_deal_in_rotation_order_from_the_banker_banker_last() -> None:
    state = new_state({1: "S1", 2: "S2", 3: "S3", 5: "S5", 7: "S7"})
    state = play(state, [("set_first_banker", "croupier", {"seat": 3})])
    state = act(state, "start_coup", "croupier")
    assert [hand.seat for hand in coup_of(state).hands] == [5, 7, 1, 2]
    assert code_of(state, "deal_card", "croupier", to=1, rank="2") == "E_OUT_OF_TURN"
    state = play(state, deal((5, "2"), (7, "3"), (1, "4"), (2, "5")))
    assert coup_of(state).next_recipient("first_round") == 3
    state = play(state, deal((3, "6")))
    assert state.phase == "staking"


def test_pt_2_1_table_size_checked_with_the_state_before_the_actor() -> None:
    state = act(new_state({1: "S1"}), "set_first_banker", "croupier", seat=1)
    assert code_of(state, "start_coup", 1) == "E_TABLE_SIZE"
    nine = {seat: f"S{seat}" for seat in range(1, 10)}
    state = act(new_state(nine, seat_count=10), "set_first_banker", "croupier", seat=1)
    assert code_of(state, "start_coup", "croupier") == "E_TABLE_SIZE"
    assert "start_coup" not in legal_action_types(GAME, state)
    assert code_of(state, "sit", "croupier", player="X", seat=10) == "E_TABLE_SIZE"


# -- PT-4 the coup -------------------------------------------------------------------------------


def test_pt_4_2_2_bust_loses_at_once_even_if_the_banker_busts() -> None:
    state = new_state()
    state = play(
        state,
        opening(
            [(2, "K"), (3, "10"), (1, "10")], [(2, 10), (3, 20)], [(2, "6"), (3, "9"), (1, "6")]
        ),
    )
    state = act(state, "twist", 2, rank="9")  # K 6 9 = 25
    assert [(t.source, t.target, t.amount) for t in coup_of(state).busts] == [("S2", "S1", 10)]
    state = act(state, "stick", 3)
    state = act(state, "banker_draw", 1, rank="K")  # 10 6 K = 26
    record = state.coups[-1]
    assert record.outcome == "banker_bust"
    assert record.results == {"S1": -10, "S2": -10, "S3": 20}


def test_pt_4_2_4_all_bust_settles_without_the_banker() -> None:
    state = new_state()
    state = play(
        state,
        opening([(2, "K"), (3, "Q"), (1, "5")], [(2, 20), (3, 30)], [(2, "6"), (3, "4"), (1, "5")]),
    )
    state = act(state, "twist", 2, rank="9")
    state = act(state, "twist", 3, rank="K")
    assert state.phase == "coup_start"
    assert state.coups[-1].outcome == "all_bust"
    assert state.coups[-1].results == {"S1": 48, "S2": -20, "S3": -30, "cagnotte": 2}


def test_pt_4_1_3_everyone_sits_out_no_coup_is_listed() -> None:
    state = new_state()
    state = play(state, opening([(2, "5"), (3, "6"), (1, "7")], [], []))
    state = act(state, "sit_out", 2)
    assert code_of(state, "stake", 2, amount=10) == "E_NOT_ELIGIBLE"
    state = act(state, "sit_out", 3)
    assert state.phase == "coup_start"
    assert state.coups == ()
    assert state.banker == "S1"


def test_pt_4_2_3_buy_limit_and_no_buy_after_twist() -> None:
    state = new_state(settings={**BASE, "buy_max_multiple": 2})
    state = play(
        state,
        opening([(2, "2"), (3, "9"), (1, "9")], [(2, 10), (3, 10)], [(2, "2"), (3, "9"), (1, "8")]),
    )
    assert code_of(state, "buy", 2, rank="5", amount=25) == "E_ABOVE_LIMIT"
    assert code_of(state, "buy", 2, rank="5", amount=4) == "E_BELOW_MINIMUM"
    state = act(state, "buy", 2, rank="5", amount=20)
    hand = coup_of(state).hands[0]
    assert (hand.initial, hand.stake, hand.cards) == (10, 30, ("2", "2", "5"))
    state = act(state, "twist", 2, rank="3")
    # COM-10.2 the amount (step 8) is checked before the buy-after-twist condition (step 9).
    assert code_of(state, "buy", 2, rank="5", amount=100) == "E_ABOVE_LIMIT"
    assert code_of(state, "buy", 2, rank="5", amount=10) == "PT_E_BUY_AFTER_TWIST"
    assert "buy" not in legal_action_types(GAME, state)


def test_pt_i3_stick_at_soft_15_and_not_under() -> None:
    state = new_state()
    state = play(
        state,
        opening([(2, "A"), (3, "A"), (1, "9")], [(2, 10), (3, 10)], [(2, "4"), (3, "A"), (1, "6")]),
    )
    state = act(state, "stick", 2)  # A 4 = 15
    assert code_of(state, "stick", 3) == "PT_E_STICK_UNDER_15"  # A A = 12
    assert "stick" not in legal_action_types(GAME, state)


# -- PT-7.1 validation order and PT-7.2 finished players ------------------------------------------


def test_pt_7_1_validation_order_of_deal_card() -> None:
    state = play(new_state(), [("set_first_banker", "croupier", {"seat": 1})])
    state = act(state, "start_coup", "croupier")
    assert code_of(state, "deal_card", 2, to=9, rank="Z") == "E_NOT_ELIGIBLE"
    assert code_of(state, "deal_card", "croupier", to=9, rank="Z") == "E_NO_SUCH_SEAT"
    assert code_of(state, "deal_card", "croupier", to=5, rank="Z") == "E_NOT_PRESENT"
    assert code_of(state, "deal_card", "croupier", to=3, rank="Z") == "E_OUT_OF_TURN"
    assert code_of(state, "deal_card", "croupier", to=2, rank="Z") == "E_BAD_RANK"
    assert code_of(state, "deal_card", "croupier", to=2) == "E_BAD_ACTION"
    assert code_of(state, "banco", 2) == "E_UNKNOWN_ACTION"
    assert code_of(state, "stake", 2, amount=10) == "E_WRONG_STATE"


def test_pt_7_2_finished_players_get_their_reason_until_the_next_coup() -> None:
    state = new_state({1: "S1", 2: "S2", 3: "S3", 4: "S4"})
    state = play(
        state,
        opening(
            [(2, "A"), (3, "10"), (4, "2"), (1, "2")],
            [(2, 10), (3, 10), (4, 10)],
            [(2, "K")],
        ),
    )
    # From his second card, before the round is complete.
    assert code_of(state, "stick", 2) == "PT_E_PONTOON_NO_DECISION"
    assert code_of(state, "stick", 3) == "E_WRONG_STATE"
    state = play(state, deal((3, "9"), (4, "3"), (1, "3")))
    state = act(state, "stick", 3)
    assert code_of(state, "twist", 3, rank="2") == "E_WRONG_STATE"  # not E_OUT_OF_TURN
    state = play(state, [("twist", 4, {"rank": r}) for r in ("2", "4", "5")])
    assert state.phase == "banker_turn"
    assert code_of(state, "twist", 4, rank="A") == "PT_E_FIVE_CARDS"
    state = play(state, [("banker_draw", 1, {"rank": r}) for r in ("6", "2", "K")])
    assert state.coups[-1].outcome == "banker_bust"
    assert state.phase == "bank_transfer"
    assert code_of(state, "banker_draw", 1, rank="A") == "PT_E_FIVE_CARDS"
    assert code_of(state, "stick", "S2") == "PT_E_PONTOON_NO_DECISION"
    state = act(state, "accept_bank", 2)
    state = act(state, "start_coup", "croupier")
    assert code_of(state, "stick", 2) == "E_WRONG_STATE"
    assert code_of(state, "banker_draw", 1, rank="A") == "E_WRONG_STATE"


# -- PT-5 settlement -----------------------------------------------------------------------------


def test_pt_5_3_house_rule_doubles_what_the_banker_collects_with_his_special_hand() -> None:
    steps = opening(
        [(2, "A"), (3, "2"), (4, "10"), (1, "A")],
        [(2, 10), (3, 10), (4, 20)],
        [(2, "Q"), (3, "3"), (4, "8"), (1, "K")],
    )
    players = {1: "S1", 2: "S2", 3: "S3", 4: "S4"}
    for double, expected in ((False, 38), (True, 76)):
        state = new_state(players, {**BASE, "banker_special_collects_double": double})
        state = play(state, steps)
        state = act(state, "twist", 3, rank="K")  # 2 3 K = 15
        state = act(state, "stick", 3)
        state = act(state, "stick", 4)
        state = act(state, "banker_stand", 1)
        record = state.coups[-1]
        assert record.outcome == "banker_pontoon"
        # G = 40 (or 80): cagnotte 2 (or 4)
        assert record.results["S1"] == expected


def test_pt_5_5_cagnotte_due_on_a_losing_coup_and_nearest_rounding() -> None:
    state = new_state(
        settings={
            "chip_unit": 10,
            "min_stake": 10,
            "max_stake": 1000,
            "cagnotte_step": 10,
            "cagnotte_rounding": "nearest",
        }
    )
    state = play(
        state,
        opening(
            [(2, "10"), (3, "A"), (1, "10")], [(2, 700), (3, 100)], [(2, "6"), (3, "K"), (1, "8")]
        ),
    )
    state = act(state, "stick", 2)
    state = act(state, "banker_stand", 1)
    record = state.coups[-1]
    # S2 16 < 18 pays 700; S3's pontoon is paid 200; G = 700, nearest 5 % = 35 → 40.
    assert [(t.source, t.target, t.amount, t.reason) for t in record.transfers] == [
        ("S2", "S1", 700, "stake_lost"),
        ("S1", "S3", 200, "stake_won"),
        ("S1", "cagnotte", 40, "cagnotte"),
    ]
    assert record.results == {"S1": 460, "S2": -700, "S3": 200, "cagnotte": 40}


def test_pt_6_1_banker_dealt_pontoon_keeps_the_bank_even_after_drawing() -> None:
    state = new_state()
    state = play(
        state,
        opening([(2, "A"), (3, "9"), (1, "A")], [(2, 10), (3, 10)], [(2, "K"), (3, "9"), (1, "J")]),
    )
    state = act(state, "stick", 3)
    state = act(state, "banker_draw", 1, rank="5")
    state = act(state, "banker_stand", 1)
    assert state.coups[-1].outcome == "banker_total"
    assert state.coups[-1].results == {"S1": -30, "S2": 20, "S3": 10}
    assert (state.phase, state.banker) == ("coup_start", "S1")


# -- PT-6 the bank -------------------------------------------------------------------------------


def test_pt_6_3_give_up_offers_in_rotation_order_outgoing_banker_last() -> None:
    state = new_state({1: "S1", 2: "S2", 3: "S3", 4: "S4"})
    state = act(state, "set_first_banker", "croupier", seat=2)
    state = act(state, "give_up_bank", 2)
    assert state.offer is not None
    assert [seat for seat, _ in state.offer.offerees] == [3, 4, 1, 2]
    assert state.banker == "S2"
    assert code_of(state, "accept_bank", 4) == "E_OUT_OF_TURN"
    for seat in (3, 4, 1, 2):
        state = act(state, "decline_bank", seat)
    assert (state.phase, state.banker, state.vacant) == ("coup_start", None, True)
    assert code_of(state, "decline_bank", 1) == "E_WRONG_STATE"
    state = act(state, "accept_bank", 4)  # COM-9.7 no order
    assert state.banker == "S4"


def test_pt_6_3_banker_who_leaves_is_not_offered_the_bank() -> None:
    state = new_state({1: "S1", 2: "S2"})
    state = act(state, "set_first_banker", "croupier", seat=2)
    state = act(state, "leave", "croupier", seat=2)
    assert (state.phase, state.banker) == ("successor_offer", None)
    state = act(state, "decline_bank", 1)
    assert (state.phase, state.banker, state.vacant) == ("coup_start", None, True)
    state = act(state, "leave", "croupier", player="S1")
    assert legal_action_types(GAME, state) == ["add_standing", "end_session", "sit"]


def test_pt_6_6_end_session_then_nothing_is_legal() -> None:
    state = act(new_state(), "set_first_banker", "croupier", seat=1)
    state = act(state, "end_session", "croupier")
    assert (state.phase, state.banker) == ("session_ended", None)
    assert GAME.legal_actions(state) == ()
    assert code_of(state, "add_standing", "croupier", player="W") == "E_WRONG_STATE"


# -- view ----------------------------------------------------------------------------------------


def test_view_shows_the_table_for_the_croupier() -> None:
    state = new_state()
    state = play(
        state,
        opening(
            [(2, "9"), (3, "A"), (1, "10")], [(2, 10), (3, 20)], [(2, "4"), (3, "K"), (1, "7")]
        ),
    )
    screen = GAME.view(state)
    for key in ("phase", "banker", "bank", "to_cover", "stakes", "cards", "pack", "expected"):
        assert key in screen
    assert screen["phase"] == "player_turns"
    assert screen["banker"] == "S1"
    assert screen["bank"] is None and screen["to_cover"] is None
    assert [s["amount"] for s in screen["stakes"]] == [10, 20]
    assert screen["cards"]["players"][1]["kind"] == "pontoon"
    assert screen["cards"]["banker"]["shown"] is False
    assert screen["pack"]["left"] == 52 - 6
    assert screen["pack"]["counts"]["A"] == 3
    assert screen["expected"] == {"code": "PT_X_PLAYER_TURN", "player": "S2", "total": 13}
    before = GAME.view(new_state())
    assert before["pack"] is None and before["expected"]


# -- the corpus ----------------------------------------------------------------------------------


def _corpus() -> list[Any]:
    import json

    cases = []
    for path in sorted(CORPUS.glob("**/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for item in data if isinstance(data, list) else [data]:
            cases.append(pytest.param(item, id=path.name))
    return cases


@pytest.mark.parametrize("data", _corpus())
def test_pt_corpus_scenario_passes(data: Any) -> None:
    outcome = check_one(data)
    assert outcome.passed, outcome.detail


# -- seeded random playouts ----------------------------------------------------------------------

Generator = Callable[[random.Random, PontoonState, Actor], dict[str, Any]]


def _rank_left(rng: random.Random, state: PontoonState) -> str:
    coup = coup_of(state)
    return rng.choice([rank for rank in RANKS if coup.pack.left_of(rank) > 0])


def _valid_params(
    rng: random.Random, state: PontoonState, type_: str, serial: int
) -> dict[str, Any]:
    """Parameters that the rules accept now for ``type_`` (PT-4.4 says one exists)."""
    rules = state.rules
    seating_ = state.seating
    if type_ == "deal_card":
        return {"to": coup_of(state).next_recipient(state.phase), "rank": _rank_left(rng, state)}
    if type_ == "stake":
        top = rules.max_stake if rules.max_stake is not None else 20 * rules.min_stake
        return {"amount": rng.randrange(rules.min_stake, top + 1, rules.chip_unit)}
    if type_ == "buy":
        current = coup_of(state).current
        assert current is not None
        top = rules.buy_max_multiple * current.initial
        amount = rng.randrange(rules.min_stake, top + 1, rules.chip_unit)
        return {"rank": _rank_left(rng, state), "amount": amount}
    if type_ in ("twist", "banker_draw"):
        return {"rank": _rank_left(rng, state)}
    if type_ == "sit":
        free = [s for s in range(1, seating_.seat_count + 1) if seating_.player_at(s) is None]
        return {"player": f"P{serial}", "seat": rng.choice(free)}
    if type_ == "leave":
        if seating_.standing and (not seating_.occupied or rng.random() < 0.5):
            return {"player": rng.choice(seating_.standing)}
        return {"seat": rng.choice(seating_.occupied)}
    if type_ == "set_first_banker":
        return {"seat": rng.choice(seating_.occupied)}
    if type_ == "add_standing":
        return {"player": f"W{serial}"}
    return {}


RARE = {"end_session": 0.002, "leave": 0.05, "give_up_bank": 0.1, "add_standing": 0.02, "sit": 0.2}


def _noise(rng: random.Random) -> Action:
    """A random, often invalid, action to check that rejections change nothing."""
    type_ = rng.choice(sorted(set(GAME.actions) - {"end_session"}))
    actors: list[Actor] = ["croupier", 0, 1, 2, 3, 5, 9, "S2", "W0", "nobody"]
    actor = rng.choice(actors)
    params: dict[str, Any] = {}
    for name in ("to", "seat", "rank", "amount", "player"):
        if rng.random() < 0.4:
            params[name] = {
                "to": rng.randint(0, 9),
                "seat": rng.randint(0, 9),
                "rank": rng.choice([*RANKS, "Z"]),
                "amount": rng.choice([0, 3, 5, 10, 55, 1000]),
                "player": rng.choice(["S1", "S2", "Q9", "cagnotte"]),
            }[name]
    return Action(type_, actor, params)


def _check_invariants(state: PontoonState) -> None:
    unit = state.rules.chip_unit
    for number, record in enumerate(state.coups, start=1):
        assert record.number == number
        assert sum(results_of(record.transfers).values()) == 0  # COM-5.5 INV-1
        assert record.faults == ()  # PT-5.8
        for transfer in record.transfers:
            assert transfer.amount > 0 and transfer.amount % unit == 0  # COM-5.6 INV-3
            assert transfer.source != "cagnotte"  # COM-5.6 INV-2 the cagnotte never decreases
    assert state.session_transfers == ()  # PT-5.8
    if state.phase != "session_ended":
        assert "add_standing" in legal_action_types(GAME, state)


def _playout(seed: int, settings: Mapping[str, Any], players: int) -> None:
    rng = random.Random(seed)
    table = {seat: f"S{seat}" for seat in range(1, players + 1)}
    start = new_state(table, settings)
    state = start
    accepted: list[Action] = []
    for serial in range(600):
        if rng.random() < 0.15:
            noise = _noise(rng)
            before = repr(state)
            try:
                state = act(state, noise.type, noise.actor, **dict(noise.params))
                accepted.append(noise)
            except RuleError:
                assert repr(state) == before
            continue
        legal = GAME.legal_actions(state)
        if not legal:
            break
        choice = rng.choice(legal)
        if choice.type in RARE and rng.random() > RARE[choice.type]:
            others = [item for item in legal if item.type not in RARE]
            if others:
                choice = rng.choice(others)
        actor = rng.choice(choice.actors)
        params = _valid_params(rng, state, choice.type, serial)
        action = Action(choice.type, actor, params)
        # PT-4.4 legal_actions lists what would be accepted: with valid parameters it is.
        state = act(state, action.type, action.actor, **params)
        accepted.append(action)
        _check_invariants(state)
    replayed = start
    for action in accepted:
        replayed = act(replayed, action.type, action.actor, **dict(action.params))
    assert replayed == state  # COM-10.1 a session is a deterministic fold


@pytest.mark.parametrize("seed", range(12))
def test_com_10_1_random_playouts_keep_the_invariants(seed: int) -> None:
    settings = [
        BASE,
        {**BASE, "buy_max_multiple": 3, "banker_special_collects_double": True},
        {"chip_unit": 5, "min_stake": 10, "cagnotte_rounding": "nearest", "cagnotte_step": 10},
    ][seed % 3]
    _playout(seed, settings, players=2 + seed % 7)
