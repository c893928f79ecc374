"""The engine's shared vocabulary: cards, money, seats, actions and settings (COM-*)."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from tables.engine.actions import (
    AMOUNT,
    PLAYER_ID,
    SESSION_ACTIONS,
    Action,
    empty_actor_check,
    session_actions,
    spec,
)
from tables.engine.cards import RANKS, Pack, rank_check
from tables.engine.errors import ParamValue, RuleError
from tables.engine.money import (
    amount_check,
    cagnotte_levy,
    round_down,
    split_largest_remainder,
)
from tables.engine.settings import (
    CHIP_UNIT,
    bool_setting,
    cagnotte_settings,
    chips_setting,
    int_setting,
    settings_check,
)
from tables.engine.settlement import (
    CoupRecord,
    Transfer,
    is_player_id,
    is_player_owner,
    reliquat_of,
    results_of,
)
from tables.engine.table import Seating
from tables.engine.words import words
from tests.engine.test_levy import LEVY_DEFAULTS


def _code(call: object) -> str:
    assert callable(call)
    with pytest.raises(RuleError) as raised:
        call()
    return raised.value.code


# -- COM-1 cards ---------------------------------------------------------------------------------


def test_com_1_1_thirteen_rank_codes() -> None:
    assert RANKS == ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    for rank in RANKS:
        assert rank_check(rank) == rank


@pytest.mark.parametrize("rank", ["Z", "1", "11", "a", "T", "", 7, None])
def test_com_1_4_any_other_rank_is_e_bad_rank(rank: object) -> None:
    assert _code(lambda: rank_check(rank)) == "E_BAD_RANK"


# -- COM-2 packs and card tracking ---------------------------------------------------------------


def test_com_2_1_pack_of_d_decks() -> None:
    pack = Pack(3)
    assert (pack.size, pack.per_rank, pack.left) == (156, 12, 156)
    assert pack.counts_left() == dict.fromkeys(RANKS, 12)


def test_com_2_2_rank_exhausted_after_four_per_deck() -> None:
    pack = Pack(1).draw_many(["K", "K", "K", "K"])
    assert pack.left_of("K") == 0
    assert _code(lambda: pack.draw("K")) == "E_RANK_EXHAUSTED"
    assert pack.draw("Q").left == 47


def test_com_2_2_pack_empty_after_all_cards() -> None:
    pack = Pack(1).draw_many([rank for rank in RANKS for _ in range(4)])
    assert pack.left == 0
    assert _code(lambda: pack.draw("A")) == "E_PACK_EMPTY"


def test_com_10_2_step_5_order_bad_rank_then_empty_then_exhausted() -> None:
    empty = Pack(1).draw_many([rank for rank in RANKS for _ in range(4)])
    assert _code(lambda: empty.draw("Z")) == "E_BAD_RANK"
    assert _code(lambda: empty.draw("K")) == "E_PACK_EMPTY"


def test_pack_is_immutable_a_draw_returns_a_new_pack() -> None:
    pack = Pack(2)
    drawn = pack.draw("7")
    assert pack.left == 104 and drawn.left == 103
    assert drawn.fresh() == Pack(2)


# -- COM-5 / COM-6 money -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gross", "unit", "step", "rounding", "levy"),
    [
        (1000, 10, 10, "down", 50),
        (700, 10, 10, "down", 30),
        (250, 5, 5, "down", 10),
        (40, 1, 1, "down", 2),
        (130, 25, 25, "down", 0),
        (1300, 10, 10, "nearest", 70),
        (1100, 10, 10, "nearest", 60),
        (1080, 10, 10, "nearest", 50),
        (700, 10, 10, "nearest", 40),
        (1100, 10, 10, "nearest_down", 50),
        (1300, 10, 10, "nearest_even", 60),
        (1100, 10, 10, "nearest_even", 60),
        (1080, 10, 10, "nearest_even", 50),
        (1090, 10, 10, "nearest_down", 50),  # 54.5: below the half, down whatever the tie rule
    ],
)
def test_com_6_5_known_answers(gross: int, unit: int, step: int, rounding: str, levy: int) -> None:
    # the table of COM-6.5 as printed (its G = 130 is not a multiple of the unit 25; the
    # formula still gives 0)
    assert unit <= step
    assert cagnotte_levy(gross, rate_bp=500, step=step, rounding=rounding) == levy  # type: ignore[arg-type]


def test_com_6_4_nothing_levied_on_zero_base_or_zero_rate() -> None:
    assert cagnotte_levy(0, rate_bp=500, step=1) == 0
    assert cagnotte_levy(1000, rate_bp=0, step=1) == 0


def test_com_6_3_levy_never_exceeds_its_base() -> None:
    assert cagnotte_levy(10, rate_bp=10000, step=10, rounding="nearest") == 10
    assert cagnotte_levy(15, rate_bp=10000, step=10, rounding="nearest") == 10


@given(
    units=st.integers(min_value=0, max_value=10_000),
    unit=st.sampled_from([1, 5, 10, 25]),
    step_units=st.integers(min_value=1, max_value=4),
    rate=st.integers(min_value=0, max_value=10_000),
    rounding=st.sampled_from(["down", "nearest"]),
)
def test_com_6_3_levy_is_whole_steps_and_within_base(
    units: int, unit: int, step_units: int, rate: int, rounding: str
) -> None:
    gross, step = units * unit, step_units * unit
    levy = cagnotte_levy(gross, rate_bp=rate, step=step, rounding=rounding)  # type: ignore[arg-type]
    assert 0 <= levy <= gross
    assert levy % step == 0
    exact_times_10000 = gross * rate
    if rounding == "down":
        assert levy * 10000 <= exact_times_10000 < (levy + step) * 10000 or levy == gross
    else:
        assert (
            abs(levy * 10000 - exact_times_10000) <= step * 5000 or levy == (gross // step) * step
        )


@pytest.mark.parametrize("amount", [0, -5, 7, 2.5, True, "10", None])
def test_com_5_1_amount_must_be_a_positive_multiple(amount: object) -> None:
    assert _code(lambda: amount_check(amount, 5)) == "E_BAD_AMOUNT"


def test_com_5_1_zero_allowed_only_where_a_game_says() -> None:
    assert amount_check(0, 10, allow_zero=True) == 0
    assert amount_check(30, 10) == 30
    assert round_down(37, 5) == 35


def test_com_8_2_largest_remainder_in_seat_order() -> None:
    assert split_largest_remainder(100, 3, 1) == (34, 33, 33)
    assert split_largest_remainder(105, 4, 5) == (30, 25, 25, 25)
    assert split_largest_remainder(0, 2, 1) == (0, 0)
    assert split_largest_remainder(10, 0, 1) == ()


@given(
    total_units=st.integers(min_value=0, max_value=100_000),
    members=st.integers(min_value=1, max_value=12),
    unit=st.sampled_from([1, 5, 10]),
)
def test_com_8_2_split_conserves_whole_chips(total_units: int, members: int, unit: int) -> None:
    total = total_units * unit
    shares = split_largest_remainder(total, members, unit)
    assert sum(shares) == total
    assert all(share % unit == 0 for share in shares)
    assert max(shares) - min(shares) <= unit
    assert list(shares) == sorted(shares, reverse=True)


# -- COM-5.3 to COM-5.5 transfers and results ----------------------------------------------------


def test_com_5_4_results_and_com_5_5_zero_sum() -> None:
    coup = CoupRecord(
        1,
        "banker_wins",
        (
            Transfer("S3", "S1", 1000, "stake_lost"),
            Transfer("S1", "cagnotte", 50, "cagnotte"),
            Transfer("S1", reliquat_of("S1"), 450, "reliquat_in"),
        ),
    )
    assert coup.results == {"S1": 500, "S3": -1000, "cagnotte": 50, "reliquat:S1": 450}
    assert sum(coup.results.values()) == 0
    assert coup.as_dict()["transfers"][0] == {  # type: ignore[index]
        "from": "S3",
        "to": "S1",
        "amount": 1000,
        "reason": "stake_lost",
    }


@pytest.mark.parametrize(
    ("source", "target", "amount", "reason"),
    [("A", "B", 0, "stake_lost"), ("A", "A", 5, "stake_lost"), ("A", "B", 5, "tip")],
)
def test_com_5_3_a_transfer_is_positive_between_two_owners(
    source: str, target: str, amount: int, reason: str
) -> None:
    with pytest.raises(ValueError):
        Transfer(source, target, amount, reason)


def test_results_leave_out_owners_at_zero() -> None:
    moved = [Transfer("A", "B", 10, "stake_lost"), Transfer("B", "A", 10, "stake_won")]
    assert results_of(moved) == {}


# -- COM-3 seats and rotation --------------------------------------------------------------------


def _seating() -> Seating:
    return Seating(8, ((1, "P1"), (2, "P2"), (3, "P3"), (5, "P5"), (7, "P7")), ("X",))


def test_com_3_3_rotation_order_example() -> None:
    assert _seating().rotation_from(3) == (5, 7, 1, 2)
    assert _seating().next_seat(7) == 1


def test_com_3_2_next_skips_ineligible_seats() -> None:
    assert _seating().next_seat(3, eligible=lambda seat: seat != 5) == 7
    assert _seating().rotation_from(1, eligible=lambda seat: False) == ()


def test_com_10_2_actor_resolution() -> None:
    seating = _seating()
    assert seating.resolve(3).player == "P3"
    assert seating.resolve("P5").seat == 5
    assert seating.resolve("X").kind == "standing"
    assert seating.resolve("croupier").kind == "croupier"
    assert _code(lambda: seating.resolve(9)) == "E_NO_SUCH_SEAT"
    assert _code(lambda: seating.resolve(4)) == "E_NOT_PRESENT"
    assert _code(lambda: seating.resolve("Nobody")) == "E_NOT_PRESENT"


def test_com_3_8_sit_and_leave_errors() -> None:
    seating = _seating()
    assert _code(lambda: seating.sit("N", 9)) == "E_NO_SUCH_SEAT"
    assert _code(lambda: seating.sit("N", 1)) == "E_SEAT_TAKEN"
    assert _code(lambda: seating.sit("X", 4)) == "E_PLAYER_PRESENT"
    assert _code(lambda: seating.add_standing("P1")) == "E_PLAYER_PRESENT"
    assert _code(lambda: seating.leaving(seat=4)) == "E_NOT_PRESENT"
    assert _code(lambda: seating.leaving(player="N")) == "E_NOT_PRESENT"
    seated = seating.sit("N", 4)
    assert seated.occupied == (1, 2, 3, 4, 5, 7)
    assert seated.without(seated.leaving(player="P1")).occupied == (2, 3, 4, 5, 7)
    assert seating.without(seating.leaving(player="X")).standing == ()


def test_com_3_8_sit_up_to_a_maximum_after_the_seat_errors() -> None:
    seating = _seating()  # five seated
    assert seating.sit_up_to("N", 4, 6, game="pontoon", minimum=2).occupied == (1, 2, 3, 4, 5, 7)
    # The errors of sit come first, then E_TABLE_SIZE with the count before the new player.
    assert _code(lambda: seating.sit_up_to("N", 1, 5, game="pontoon", minimum=2)) == (
        "E_SEAT_TAKEN"
    )
    with pytest.raises(RuleError) as raised:
        seating.sit_up_to("N", 4, 5, game="pontoon", minimum=2)
    assert (raised.value.code, raised.value.params) == (
        "E_TABLE_SIZE",
        {"game": "pontoon", "minimum": 2, "maximum": 5, "seated": 5},
    )
    assert (
        words(raised.value.code, raised.value.params) == "Pontoon needs 2–5 players; 5 are seated."
    )


def _refusal(call: object) -> tuple[str, dict[str, ParamValue]]:
    assert callable(call)
    with pytest.raises(RuleError) as raised:
        call()
    return raised.value.code, dict(raised.value.params)


def test_com_10_2_step_3_croupier_only() -> None:
    seating = _seating()
    croupier = seating.resolve("croupier")
    assert croupier.require_croupier("deal", "R_CROUPIER_ONLY") is croupier
    refused = _refusal(lambda: seating.resolve(3).require_croupier("deal", "R_CROUPIER_ONLY"))
    assert refused == (
        "E_NOT_ELIGIBLE",
        {"actor": "P3", "action": "deal", "reason": "R_CROUPIER_ONLY"},
    )
    assert words(*refused) == "P3 cannot deal: only the croupier records it."
    assert _code(lambda: seating.resolve("X").require_croupier("deal", "R_CROUPIER_ONLY")) == (
        "E_NOT_ELIGIBLE"
    )


def test_com_10_2_step_3_seated_player() -> None:
    seating = _seating()
    assert seating.resolve("P5").require_seated("stake", "R_SEATED_ONLY").seat == 5
    assert _refusal(lambda: seating.resolve("X").require_seated("stake", "R_SEATED_ONLY")) == (
        "E_NOT_ELIGIBLE",
        {"actor": "X", "action": "stake", "reason": "R_SEATED_ONLY"},
    )
    croupier = seating.resolve("croupier")
    refused = _refusal(lambda: croupier.require_seated("stake", "R_SEATED_ONLY"))
    assert refused == (
        "E_NOT_ELIGIBLE",
        {"actor": "croupier", "action": "stake", "reason": "R_SEATED_ONLY"},
    )
    # The croupier, named by the catalogue, begins the sentence with a capital.
    assert words(*refused) == "The croupier cannot stake: only a seated player may do it."
    assert words(*refused, "fr").startswith("Le croupier ne peut pas")
    never = _refusal(
        lambda: croupier.require_seated("stake", "R_SEATED_ONLY", croupier="R_CROUPIER_NEVER_PLAYS")
    )
    assert never[1]["reason"] == "R_CROUPIER_NEVER_PLAYS"


def test_com_10_2_step_3_the_banker() -> None:
    seating = _seating()
    reason = "R_BANKER_ONLY"
    assert seating.resolve(2).require_banker("double", "P2", reason).player == "P2"
    refused = _refusal(lambda: seating.resolve(3).require_banker("double", "P2"))
    assert refused[1] == {"actor": "P3", "action": "double", "reason": reason, "banker": "P2"}
    for actor in (3, "X", "croupier"):
        who = seating.resolve(actor)
        assert _code(lambda who=who: who.require_banker("double", "P2", reason)) == (
            "E_NOT_ELIGIBLE"
        )
    assert _code(lambda: seating.resolve(2).require_banker("double", None, reason)) == (
        "E_NOT_ELIGIBLE"
    )


# -- COM-10.2 step 1: action shapes --------------------------------------------------------------


def test_com_10_2_shape_check() -> None:
    announce = spec("announce_bank", amount=AMOUNT)
    announce.check(Action("announce_bank", 1, {"amount": 100}))
    for bad in (
        Action("announce_bank", None, {"amount": 100}),
        Action("announce_bank", 1, {}),
        Action("announce_bank", 1, {"amount": "100"}),
        Action("announce_bank", 1, {"amount": 100, "seat": 2}),
    ):
        assert _code(lambda bad=bad: announce.check(bad)) == "E_BAD_ACTION"


def test_com_3_8_leave_takes_a_seat_or_a_player() -> None:
    leave = SESSION_ACTIONS["leave"]
    leave.check(Action("leave", "croupier", {"seat": 2}))
    leave.check(Action("leave", "croupier", {"player": "P2"}))
    for params in ({}, {"seat": 2, "player": "P2"}, {"seat": "2"}):
        bad = Action("leave", "croupier", params)
        assert _code(lambda bad=bad: leave.check(bad)) == "E_BAD_ACTION"


@pytest.mark.parametrize(
    "value",
    ["", "croupier", "cagnotte", "reserve_fund", "reliquat:P1", "reliquat:", 7, None, True],
)
def test_reserved_names_and_non_texts_are_no_player_id(value: object) -> None:
    assert not is_player_id(value)
    assert not PLAYER_ID.accepts(value)


def test_a_player_id_is_any_other_text() -> None:
    for value in ("P1", "Croupier", "reliquat", "x:reliquat:"):
        assert is_player_id(value) and PLAYER_ID.accepts(value) and is_player_owner(value)
    assert not is_player_owner("cagnotte") and is_player_owner("")


def test_com_3_8_session_actions_take_the_given_player_param() -> None:
    strict = session_actions(PLAYER_ID)
    assert list(strict) == list(SESSION_ACTIONS)
    assert strict["sit"].required == {
        "player": PLAYER_ID,
        "seat": SESSION_ACTIONS["sit"].required["seat"],
    }
    SESSION_ACTIONS["add_standing"].check(
        Action("add_standing", "croupier", {"player": "cagnotte"})
    )
    refused = Action("add_standing", "croupier", {"player": "cagnotte"})
    assert _code(lambda: strict["add_standing"].check(refused)) == "E_BAD_ACTION"


def test_an_empty_actor_is_refused_only_where_a_game_asks() -> None:
    empty = Action("stake", "", {"amount": 10})
    spec("stake", amount=AMOUNT).check(empty)  # the generic shape check lets it through
    refused = _refusal(lambda: empty_actor_check(empty, ["P_ACTOR"]))
    assert refused == ("E_BAD_ACTION", {"action": "stake", "needs": ["P_ACTOR"]})
    assert words(*refused) == "'stake' needs an actor."
    empty_actor_check(Action("stake", 0, {"amount": 10}), ["P_ACTOR"])


def test_action_from_dict_drops_expect_error() -> None:
    action = Action.from_dict({"type": "banco", "actor": 2, "expect_error": "E_WRONG_STATE"})
    assert action.as_dict() == {"type": "banco", "actor": 2}


# -- settings ------------------------------------------------------------------------------------

TABLE = (
    CHIP_UNIT,
    int_setting("decks", 3, 1, 8),
    chips_setting("min_stake"),
    chips_setting("max_stake", None, nullable=True, at_least="min_stake"),
    bool_setting("fault_reimbursement", True),
    *cagnotte_settings(),
)


def test_settings_defaults_follow_chip_unit() -> None:
    full = settings_check(TABLE, {"chip_unit": 10})
    assert full == {
        "chip_unit": 10,
        "decks": 3,
        "min_stake": 10,
        "max_stake": None,
        "fault_reimbursement": True,
        "cagnotte_rate_bp": 500,
        "cagnotte_step": 10,
        "cagnotte_rounding": "down",
        **LEVY_DEFAULTS,
    }


@pytest.mark.parametrize(
    ("raw", "named"),
    [
        ({"decks": 9}, "decks"),
        ({"decks": True}, "decks"),
        ({"decks": 2.0}, "decks"),
        ({"chip_unit": 0}, "chip_unit"),
        ({"chip_unit": 10, "min_stake": 15}, "min_stake"),
        ({"min_stake": 10, "max_stake": 5}, "max_stake"),
        ({"fault_reimbursement": "yes"}, "fault_reimbursement"),
        ({"cagnotte_rate_bp": 10001}, "cagnotte_rate_bp"),
        ({"cagnotte_rounding": "up"}, "cagnotte_rounding"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_e_setting_names_the_setting_and_its_range(raw: dict[str, object], named: str) -> None:
    with pytest.raises(RuleError) as raised:
        settings_check(TABLE, raw)
    assert raised.value.code == "E_SETTING"
    assert named in words(raised.value.code, raised.value.params)
