"""Landsknecht (LR): known answers of the tricky rules and seeded random whole sessions.

No database, no Django: the engine is pure Python (docs/rules/landsknecht-russe.md).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest

from tables.engine.actions import Action
from tables.engine.cards import RANKS, Pack
from tables.engine.errors import RuleError
from tables.engine.game import legal_action_types, step
from tables.engine.landsknecht import GAME
from tables.engine.landsknecht.state import BankRule, LRState
from tables.engine.settlement import CAGNOTTE, RESERVE_FUND, Transfer, results_of
from tables.engine.table import Seating
from tables.engine.words import words

BASE: dict[str, Any] = {"chip_unit": 1, "reserve_contribution": 25, "agreed_stake": 40}


def _act(type_: str, actor: int | str = "croupier", **params: Any) -> Action:
    return Action(type_, actor, params)


def _start(
    settings: Mapping[str, Any] | None = None,
    seats: Mapping[int, str] | None = None,
    seat_count: int = 12,
) -> LRState:
    chosen = dict(BASE if settings is None else settings)
    seating = Seating(seat_count, tuple(sorted((seats or {1: "S1", 2: "S2", 3: "S3"}).items())))
    return GAME.start(GAME.settings_validate(chosen, seat_count), seating)


def _play(state: LRState, *actions: Action) -> LRState:
    for action in actions:
        new = step(GAME, state, action)
        assert isinstance(new, LRState)
        state = new
    return state


def _code(state: LRState, action: Action) -> str:
    with pytest.raises(RuleError) as caught:
        step(GAME, state, action)
    return caught.value.code


def _cards(*ranks: str) -> tuple[Action, ...]:
    return tuple(_act("turn_card", rank=rank) for rank in ranks)


def _opened(
    settings: Mapping[str, Any] | None = None, seats: Mapping[int, str] | None = None
) -> LRState:
    return _play(_start(settings, seats), _act("set_first_banker", seat=1), _act("open_reserve"))


def _as_tuples(transfers: Sequence[Transfer]) -> list[tuple[str, str, int, str]]:
    return [(t.source, t.target, t.amount, t.reason) for t in transfers]


# -- settings (§1) ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("decks", 1),
        ("min_players", 3),
        ("max_players", 13),
        ("max_players", 1),
        ("chip_unit", 0),
        ("reserve_contribution", 0),
        ("reserve_contribution", 7.5),
        ("agreed_stake", -40),
        ("free_opening", "no"),
        ("min_bank", 0),
        ("max_bank", 30),
        ("min_stake", True),
        ("cagnotte_rate_bp", 10001),
        ("cagnotte_step", 0),
        ("cagnotte_rounding", "up"),
    ],
)
def test_lr_1_settings_refuse_out_of_range_naming_it(name: str, value: object) -> None:
    with pytest.raises(RuleError) as caught:
        GAME.settings_validate({**BASE, name: value}, 12)
    assert caught.value.code == "E_SETTING"
    assert name in words(caught.value.code, caught.value.params)


@pytest.mark.parametrize("name", ["reserve_contribution", "agreed_stake"])
def test_lr_1_settings_required_must_be_set(name: str) -> None:
    raw = {key: value for key, value in BASE.items() if key != name}
    with pytest.raises(RuleError) as caught:
        GAME.settings_validate(raw, 12)
    assert caught.value.code == "E_SETTING"
    assert name in words(caught.value.code, caught.value.params)


def test_lr_1_settings_defaults() -> None:
    settings = GAME.settings_validate({**BASE, "chip_unit": 5, "reserve_contribution": 25}, 8)
    assert settings["decks"] == 2
    assert settings["max_players"] == 8
    assert settings["min_bank"] == settings["min_stake"] == settings["cagnotte_step"] == 5
    assert settings["max_bank"] is None
    assert settings["free_opening"] is False
    assert settings["cagnotte_rate_bp"] == 500
    assert settings["cagnotte_rounding"] == "down"


def test_lr_1_settings_unknown_and_max_bank_below_min_bank() -> None:
    with pytest.raises(RuleError, match="E_SETTING"):
        GAME.settings_validate({**BASE, "banco": True}, 12)
    with pytest.raises(RuleError) as caught:
        GAME.settings_validate({**BASE, "min_bank": 100, "max_bank": 60}, 12)
    assert "max_bank" in words(caught.value.code, caught.value.params)


# -- the reserve fund (LR-2) -----------------------------------------------------------------


def test_lr_2_1_contributions_in_seat_order() -> None:
    state = _play(_start(seats={7: "P7", 2: "P2", 5: "P5"}), _act("open_reserve"))
    assert _as_tuples(state.session_transfers) == [
        ("P2", RESERVE_FUND, 25, "fund_contribution"),
        ("P5", RESERVE_FUND, 25, "fund_contribution"),
        ("P7", RESERVE_FUND, 25, "fund_contribution"),
    ]
    assert state.fund == 75
    assert state.members == ("P2", "P5", "P7")


def test_lr_2_1_1_open_reserve_needs_two_seated_after_actor() -> None:
    state = _start(seats={1: "S1"})
    assert _code(state, _act("open_reserve", 1)) == "E_NOT_ELIGIBLE"
    assert _code(state, _act("open_reserve")) == "E_TABLE_SIZE"


def test_lr_2_4_replenishment_in_whole_rounds_before_the_cards() -> None:
    # C = 10, three members, fund 30; U = 100 - 10 = 90: k = ceil(60 / 30) = 2.
    state = _opened({"chip_unit": 1, "reserve_contribution": 10, "agreed_stake": 100})
    state = _play(
        state, _act("announce_bank", 1, amount=100), _act("pass", 2), _act("take", 3, amount=10)
    )
    assert state.phase == "first_card"
    assert state.fund == 90
    coup = state.coup
    assert coup is not None and coup.cover == 90
    assert _as_tuples(coup.replenishments) == [
        ("S1", RESERVE_FUND, 20, "fund_replenishment"),
        ("S2", RESERVE_FUND, 20, "fund_replenishment"),
        ("S3", RESERVE_FUND, 20, "fund_replenishment"),
    ]


def test_lr_2_4_replenishment_k_rounds_up() -> None:
    # fund 75, U = 76: k = ceil(1 / 75) = 1, each member pays 25 more.
    state = _opened({"chip_unit": 1, "reserve_contribution": 25, "agreed_stake": 76})
    state = _play(state, _act("announce_bank", 1, amount=76), _act("pass", 2), _act("pass", 3))
    assert state.fund == 150
    assert state.coup is not None and state.coup.cover == 76


def test_lr_2_5_leaving_member_takes_floor_share() -> None:
    state = _opened({"chip_unit": 5, "reserve_contribution": 25, "agreed_stake": 40})
    state = _play(
        state,
        _act("announce_bank", 1, amount=40),
        _act("pass", 2),
        _act("pass", 3),
        *_cards("4", "9", "9"),
        _act("accept_bank", 2),
        _act("leave", seat=3),
    )
    # fund 115 among 3 members, chip unit 5: floor(115 / 15) x 5 = 35; 80 stays.
    assert state.session_transfers[-1] == Transfer(RESERVE_FUND, "S3", 35, "fund_share")
    assert state.fund == 80
    assert state.members == ("S1", "S2")


def test_lr_2_6_close_by_largest_remainder_in_seat_order() -> None:
    state = replace(_opened(seats={1: "S1", 3: "S3", 4: "S4"}), fund=167)
    state = _play(state, _act("end_session"))
    assert _as_tuples(state.session_transfers[-3:]) == [
        (RESERVE_FUND, "S1", 56, "fund_share"),
        (RESERVE_FUND, "S3", 56, "fund_share"),
        (RESERVE_FUND, "S4", 55, "fund_share"),
    ]
    assert state.phase == "session_ended"
    assert state.banker is None
    assert GAME.legal_actions(state) == ()


def test_lr_2_6_last_member_leaving_ends_the_session() -> None:
    state = _play(
        _opened(seats={1: "S1", 2: "S2"}),
        _act("sit", player="S3", seat=3),
        _act("leave", seat=2),
        _act("leave", seat=1),
    )
    assert state.phase == "session_ended"
    assert state.fund == 0
    assert _code(state, _act("announce_bank", 3, amount=40)) == "LR_E_RESERVE_NOT_OPEN"
    assert _code(state, _act("add_standing", player="T")) == "E_WRONG_STATE"


def test_lr_2_8_standing_player_not_eligible() -> None:
    state = _play(_opened(), _act("add_standing", player="T1"), _act("announce_bank", 1, amount=40))
    assert _code(state, _act("take", "T1", amount=10)) == "E_NOT_ELIGIBLE"
    assert "T1" not in state.members


# -- cards (LR-3) ----------------------------------------------------------------------------


def _banker_won() -> LRState:
    return _play(
        _opened(),
        _act("announce_bank", 1, amount=40),
        _act("take", 2, amount=40),
        *_cards("9", "9"),
    )


def test_lr_3_2_lr_i7_plie_makes_a_reshuffle_due() -> None:
    state = _banker_won()
    assert state.coups[-1].outcome == "plie"
    assert state.shuffle_due


def test_lr_3_3_shuffle_due_checked_after_actor_before_rank() -> None:
    state = _play(
        _banker_won(),
        _act("double", 1),
        _act("announce_bank", 1, amount=78),
        _act("take", 2, amount=78),
    )
    assert state.phase == "first_card"
    assert _code(state, _act("turn_card", 2, rank="Z")) == "E_NOT_ELIGIBLE"
    assert _code(state, _act("turn_card", rank="Z")) == "LR_E_SHUFFLE_DUE"
    assert legal_action_types(GAME, state) == ["add_standing", "shuffle_pack"]
    state = _play(state, _act("shuffle_pack"))
    assert state.pack.left == 104
    assert _code(state, _act("shuffle_pack")) == "LR_E_SHUFFLE_NOT_DUE"


def test_lr_3_2_lr_i8_no_reshuffle_after_banker_loss() -> None:
    state = _play(
        _opened(),
        _act("announce_bank", 1, amount=40),
        _act("take", 2, amount=40),
        *_cards("Q", "J", "5", "J"),
    )
    assert not state.shuffle_due
    assert state.pack.left == 100
    assert _code(state, _act("shuffle_pack", "croupier")) == "E_WRONG_STATE"


def test_lr_3_4_pack_reformed_without_the_table_cards() -> None:
    state = _play(
        _opened(),
        _act("announce_bank", 1, amount=40),
        _act("take", 2, amount=40),
        *_cards("2", "3"),
    )
    # Two middle 5s on the table too, then pretend the pack ran out.
    assert state.coup is not None
    state = replace(state, pack=Pack(2, (8,) * 13), coup=replace(state.coup, middle=("5", "5")))
    assert _code(state, _act("turn_card", rank="A")) == "E_PACK_EMPTY"
    assert legal_action_types(GAME, state) == ["add_standing", "shuffle_pack"]
    state = _play(state, _act("shuffle_pack"))
    assert state.pack.left == 104 - 4
    counts = state.pack.counts_left()
    assert counts["2"] == counts["3"] == 7
    assert counts["5"] == 6
    assert counts["A"] == 8


def test_lr_3_4_pack_empty_between_coups_reformed_in_full() -> None:
    state = replace(_opened(), pack=Pack(2, (8,) * 13))
    assert "shuffle_pack" in legal_action_types(GAME, state)
    state = _play(state, _act("shuffle_pack"))
    assert state.pack.left == 104


def test_lr_3_1_ninth_card_of_a_rank_is_exhausted() -> None:
    state = _play(
        _opened(),
        _act("announce_bank", 1, amount=40),
        _act("take", 2, amount=40),
        *_cards("Q", "J", *(["5"] * 8)),
    )
    assert _code(state, _act("turn_card", rank="5")) == "E_RANK_EXHAUSTED"
    assert _code(state, _act("turn_card", rank="11")) == "E_BAD_RANK"


# -- validation order (COM-10.2, LR-4.1.2) ---------------------------------------------------


def test_lr_4_1_2_reserve_not_open_checked_first() -> None:
    state = _start()
    assert _code(state, _act("announce_bank", 99, amount=7)) == "LR_E_RESERVE_NOT_OPEN"
    assert _code(state, _act("announce_bank", 1, amount=40.5)) == "E_BAD_ACTION"


def test_lr_4_1_2_announce_order() -> None:
    state = _play(_start(), _act("open_reserve"))
    assert _code(state, _act("announce_bank", 1, amount=40)) == "E_WRONG_STATE"
    state = _play(state, _act("set_first_banker", seat=1))
    assert _code(state, _act("announce_bank", 2, amount=0)) == "E_NOT_ELIGIBLE"
    assert _code(state, _act("announce_bank", 1, amount=0)) == "E_BAD_AMOUNT"
    assert _code(state, _act("announce_bank", 1, amount=50)) == "LR_E_BANK_AMOUNT"


def test_com_10_2_state_before_actor_and_turn_before_amount() -> None:
    state = _play(_opened(), _act("announce_bank", 1, amount=40))
    assert _code(state, _act("turn_card", 99, rank="Z")) == "E_WRONG_STATE"
    assert _code(state, _act("take", 99, amount=0)) == "E_NO_SUCH_SEAT"
    assert _code(state, _act("take", 3, amount=0)) == "E_OUT_OF_TURN"
    assert _code(state, _act("take", 2, amount=0)) == "E_BAD_AMOUNT"
    assert _code(state, _act("take", 2, amount=41)) == "E_ABOVE_LIMIT"
    state = _play(state, _act("take", 2, amount=40))
    assert _code(state, _act("take", 99, amount=0)) == "E_BANK_COVERED"


def test_lr_4_2_minimum_is_min_of_min_stake_and_rest() -> None:
    settings = {**BASE, "min_stake": 10}
    state = _play(
        _opened(settings), _act("announce_bank", 1, amount=40), _act("take", 2, amount=35)
    )
    assert _code(state, _act("take", 3, amount=4)) == "E_BELOW_MINIMUM"
    state = _play(state, _act("take", 3, amount=5))
    assert state.phase == "first_card"


def test_lr_4_1_1_fixed_and_figure_amounts() -> None:
    state = _play(_banker_won(), _act("quit_bank", 1), _act("accept_bank", 2))
    assert state.bank_rule == BankRule("opening_or_figure", 78)
    state = _play(state, _act("shuffle_pack"))
    assert _code(state, _act("announce_bank", 2, amount=77)) == "LR_E_BANK_AMOUNT"
    assert _play(state, _act("announce_bank", 2, amount=78)).phase == "covering"
    assert _play(state, _act("announce_bank", 2, amount=40)).phase == "covering"


def test_lr_4_1_3_sit_beyond_max_players_after_seat_checks() -> None:
    state = _start({**BASE, "max_players": 3})
    assert _code(state, _act("sit", player="S4", seat=2)) == "E_SEAT_TAKEN"
    assert _code(state, _act("sit", player="S1", seat=4)) == "E_PLAYER_PRESENT"
    assert _code(state, _act("sit", player="S4", seat=4)) == "E_TABLE_SIZE"


def test_lr_4_0_4_reserved_player_ids_are_bad_actions() -> None:
    state = _start()
    for name in ("croupier", "cagnotte", "reserve_fund", "reliquat:S1"):
        assert _code(state, _act("add_standing", player=name)) == "E_BAD_ACTION"


# -- settlement (LR-5) -----------------------------------------------------------------------


def test_lr_5_3_transfer_order_and_lr_5_1_cagnotte_on_fund_part() -> None:
    state = _opened({"chip_unit": 1, "reserve_contribution": 10, "agreed_stake": 100})
    state = _play(
        state,
        _act("announce_bank", 1, amount=100),
        _act("take", 2, amount=5),
        _act("take", 3, amount=10),
        *_cards("2", "3", "4", "2"),
    )
    coup = state.coups[-1]
    # U = 85 > fund 30: k = ceil(55 / 30) = 2; G = 100, c = 5.
    assert _as_tuples(coup.transfers) == [
        ("S1", RESERVE_FUND, 20, "fund_replenishment"),
        ("S2", RESERVE_FUND, 20, "fund_replenishment"),
        ("S3", RESERVE_FUND, 20, "fund_replenishment"),
        ("S2", "S1", 5, "stake_lost"),
        ("S3", "S1", 10, "stake_lost"),
        (RESERVE_FUND, "S1", 85, "fund_cover_lost"),
        ("S1", CAGNOTTE, 5, "cagnotte"),
    ]
    assert coup.results == {
        "S1": 75,
        "S2": -25,
        "S3": -30,
        RESERVE_FUND: -25,
        CAGNOTTE: 5,
    }
    assert state.fund == 5
    assert state.figure == 195


def test_lr_5_2_banker_loses_pays_all_no_cagnotte() -> None:
    state = _play(
        _opened(),
        _act("announce_bank", 1, amount=40),
        _act("take", 2, amount=15),
        _act("pass", 3),
        *_cards("7", "8", "8"),
    )
    assert _as_tuples(state.coups[-1].transfers) == [
        ("S1", "S2", 15, "stake_won"),
        ("S1", RESERVE_FUND, 25, "fund_cover_won"),
    ]
    assert state.fund == 100


@pytest.mark.parametrize(
    ("rounding", "stake", "levy"),
    [("down", 70, 3), ("nearest", 70, 4), ("down", 40, 2), ("nearest", 30, 2)],
)
def test_com_6_3_cagnotte_rounding(rounding: str, stake: int, levy: int) -> None:
    settings = {**BASE, "agreed_stake": stake, "cagnotte_rounding": rounding}
    state = _play(
        _opened(settings),
        _act("announce_bank", 1, amount=stake),
        _act("take", 2, amount=stake),
        *_cards("9", "9"),
    )
    assert state.coups[-1].results.get(CAGNOTTE, 0) == levy
    assert state.figure == 2 * stake - levy


# -- the bank after the coup (LR-6) ----------------------------------------------------------


def test_lr_6_1_offer_order_outgoing_banker_last() -> None:
    state = _play(
        _start(seats={2: "P2", 5: "P5", 7: "P7"}),
        _act("set_first_banker", seat=5),
        _act("open_reserve"),
        _act("announce_bank", 5, amount=40),
        _act("take", 7, amount=40),
        *_cards("3", "4", "4"),
    )
    assert state.offer is not None and state.offer.order == (7, 2, 5)
    assert state.banker == "P5"
    state = _play(state, _act("decline_bank", 7), _act("decline_bank", 2), _act("decline_bank", 5))
    assert state.phase == "bank_pending" and state.vacant and state.banker is None
    assert _code(state, _act("decline_bank", 5)) == "E_WRONG_STATE"
    state = _play(state, _act("accept_bank", 2))
    assert state.banker == "P2" and state.bank_rule == BankRule("opening")


def test_lr_6_2_double_above_max_bank() -> None:
    state = _play(
        _opened({**BASE, "max_bank": 60}),
        _act("announce_bank", 1, amount=40),
        _act("take", 2, amount=40),
        *_cards("5", "5"),
    )
    assert _code(state, _act("double", 1)) == "E_ABOVE_LIMIT"
    assert "double" not in legal_action_types(GAME, state)


def test_lr_6_6_banker_leaving_offers_bank_at_opening_without_him() -> None:
    state = _play(_banker_won(), _act("double", 1), _act("leave", seat=1))
    assert state.phase == "successor_offer"
    assert state.banker is None
    assert state.offer is not None and state.offer.order == (2, 3)
    assert state.offer.rule == BankRule("opening")
    assert state.session_transfers[-1] == Transfer(RESERVE_FUND, "S1", 25, "fund_share")


def test_lr_6_7_vacant_bank_keeps_the_figure() -> None:
    state = _play(
        _banker_won(),
        _act("quit_bank", 1),
        _act("decline_bank", 2),
        _act("decline_bank", 3),
        _act("decline_bank", 1),
    )
    assert state.vacant
    assert state.bank_rule == BankRule("opening_or_figure", 78)
    state = _play(state, _act("accept_bank", 1), _act("shuffle_pack"))
    assert _play(state, _act("announce_bank", 1, amount=78)).phase == "covering"


# -- legal actions and the view --------------------------------------------------------------


def test_lr_4_0_2_legal_actions_with_actors() -> None:
    state = _play(_opened(), _act("announce_bank", 1, amount=40))
    legal = {row.type: row.actors for row in GAME.legal_actions(state)}
    assert legal == {"add_standing": ("croupier",), "take": (2,), "pass": (2,)}
    state = _start()
    assert legal_action_types(GAME, state) == [
        "add_standing",
        "end_session",
        "leave",
        "open_reserve",
        "set_first_banker",
        "sit",
    ]


def test_view_keys() -> None:
    state = _play(_opened(), _act("announce_bank", 1, amount=40), _act("take", 2, amount=10))
    view = GAME.view(state)
    for key in ("phase", "banker", "bank", "to_cover", "stakes", "cards", "pack", "expected"):
        assert key in view
    assert view["bank"] == 40 and view["to_cover"] == 30
    assert view["stakes"] == [{"player": "S2", "amount": 10}]
    assert view["pack"]["left"] == 104
    assert view["reserve_fund"]["balance"] == 75
    assert view["expected"] == {"code": "LR_X_TAKE", "player": "S3"}


# -- seeded random whole sessions ------------------------------------------------------------


def _random_params(rng: random.Random, state: LRState, type_: str) -> dict[str, Any]:
    config = state.config
    unit = config.chip_unit
    if type_ == "announce_bank":
        rule = state.bank_rule
        if rule.kind == "fixed":
            assert rule.amount is not None
            return {"amount": rule.amount}
        options = [config.agreed_stake] if not config.free_opening else []
        if config.free_opening:
            top = config.max_bank or config.min_bank * 10
            options.append(rng.randrange(config.min_bank, top + 1, unit))
        figure = rule.amount if rule.kind == "opening_or_figure" else None
        if figure is not None and config.within_max_bank(figure):
            options.append(figure)
        return {"amount": rng.choice(options)}
    if type_ == "take":
        assert state.coup is not None
        rest = state.coup.remaining
        low = min(config.min_stake, rest)
        return {"amount": rng.randrange(low, rest + 1, unit) if low % unit == 0 else rest}
    if type_ == "turn_card":
        coup = state.coup
        assert coup is not None
        available = [rank for rank in RANKS if state.pack.left_of(rank) > 0]
        favoured = [r for r in (coup.banker_card, coup.ponters_card) if r in available]
        if favoured and rng.random() < 0.3:
            return {"rank": rng.choice(favoured)}
        return {"rank": rng.choice(available)}
    if type_ == "sit":
        free = [s for s in range(1, state.seating.seat_count + 1) if not state.seating.player_at(s)]
        return {"player": f"N{rng.randrange(10**6)}", "seat": rng.choice(free)}
    if type_ == "leave":
        people = [p for _, p in state.seating.seats] + list(state.seating.standing)
        return {"player": rng.choice(people)}
    if type_ == "add_standing":
        return {"player": f"T{rng.randrange(10**6)}"}
    if type_ == "set_first_banker":
        return {"seat": rng.choice(state.seating.occupied)}
    return {}


_WEIGHTS = {"end_session": 0.02, "leave": 0.1, "sit": 0.2, "add_standing": 0.05}


def _weight(type_: str, state: LRState) -> float:
    """Play a few coups before the session may end."""
    if type_ == "end_session" and len(state.coups) < 3:
        return 0.0
    return _WEIGHTS.get(type_, 1.0)


_GARBAGE_TYPES = [*GAME.actions, "banco"]


def _garbage(rng: random.Random) -> Action:
    params: dict[str, Any] = {}
    for name in rng.sample(["amount", "rank", "seat", "player"], rng.randrange(0, 3)):
        params[name] = rng.choice([0, 5, 40, 13, -1, "Q", "Z", "S1", "croupier", True])
    actors: list[int | str] = ["croupier", 1, 2, 3, 4, 13, "S1", "T0", "ZZ"]
    actor = rng.choice(actors)
    return Action(rng.choice(_GARBAGE_TYPES), actor, params)


def _settings_for(rng: random.Random) -> dict[str, Any]:
    unit = rng.choice([1, 5])
    settings: dict[str, Any] = {
        "chip_unit": unit,
        "reserve_contribution": unit * rng.choice([2, 5, 10]),
        "agreed_stake": unit * rng.choice([8, 20]),
        "cagnotte_rounding": rng.choice(["down", "nearest"]),
        "min_stake": unit * rng.choice([1, 3]),
    }
    if rng.random() < 0.3:
        settings |= {"free_opening": True, "min_bank": unit * 4, "max_bank": unit * 200}
    elif rng.random() < 0.3:
        settings["max_bank"] = unit * 100
    return settings


def _check_invariants(state: LRState) -> None:
    unit = state.config.chip_unit
    cagnotte = 0
    for number, coup in enumerate(state.coups, start=1):
        assert coup.number == number
        assert sum(coup.results.values()) == 0  # COM-5.5 INV-1
        for transfer in coup.transfers:
            assert transfer.amount % unit == 0  # COM-5.6 INV-3
        cagnotte += coup.results.get(CAGNOTTE, 0)
        assert coup.results.get(CAGNOTTE, 0) >= 0  # COM-5.6 INV-2
    assert cagnotte >= 0
    assert sum(results_of(state.session_transfers).values()) == 0
    assert all(t.amount % unit == 0 for t in state.session_transfers)
    assert state.fund >= 0 and state.fund % unit == 0  # COM-5.6 INV-2
    moved = [t for coup in state.coups for t in coup.transfers] + list(state.session_transfers)
    if state.phase not in ("first_card", "second_card", "middle_cards"):
        # The fund's balance is its ledger result (replenishments book at the settlement).
        assert results_of(moved).get(RESERVE_FUND, 0) == state.fund


@pytest.mark.parametrize("seed", range(20))
def test_com_5_5_random_sessions_keep_the_invariants(seed: int) -> None:
    rng = random.Random(seed)
    seats = {seat: f"S{seat}" for seat in rng.sample(range(1, 9), rng.randrange(2, 7))}
    settings = _settings_for(rng)
    state = _start(settings, seats, seat_count=8)
    accepted: list[Action] = []
    for _ in range(600):
        if state.phase == "session_ended":
            break
        if rng.random() < 0.15:
            garbage = _garbage(rng)
            before = state
            try:
                new = step(GAME, state, garbage)
            except RuleError as error:
                assert error.code.startswith(("E_", "LR_E_"))
                assert state == before  # a rejected action changes nothing
                continue
        else:
            legal = GAME.legal_actions(state)
            assert legal, state.phase
            weights = [_weight(row.type, state) for row in legal]
            row = rng.choices(legal, weights)[0]
            actor = rng.choice(row.actors)
            garbage = Action(row.type, actor, _random_params(rng, state, row.type))
            new = step(GAME, state, garbage)  # every listed action is accepted (LR-4.0.2)
        assert isinstance(new, LRState)
        state = new
        accepted.append(garbage)
        _check_invariants(state)
    replayed = _play(_start(settings, seats, seat_count=8), *accepted)
    assert replayed == state  # COM-10.1 the fold is deterministic
