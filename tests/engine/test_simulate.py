"""The simulator and the exact values (docs/odds.md): determinism, the JSON, legal play, and
the simulator's agreement with every exact value the project computes.

No database and no Django: the simulator is pure Python like the rest of the engine. The runs
here are small (a few thousand coups each) and seeded, so each test takes a few seconds at
most and gives the same answer every time; the larger runs are marked ``slow``.
"""

from __future__ import annotations

import json
import math
import statistics
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tables.engine.__main__ import main
from tables.engine.actions import Action
from tables.engine.errors import RuleError
from tables.engine.simulate import GAME_PLAY, StrategyError, runner, simulate, strategy_get
from tables.engine.simulate.exact import (
    chemin_de_fer_first_coup,
    doublet_closed_form,
    exact_values,
    lansquenet_classique_values,
    lansquenet_first_coup,
    lansquenet_first_coup_enumerated,
    stored_simulation,
    table_levy_of,
)
from tables.engine.simulate.measures import Tally
from tables.engine.simulate.players import CheminDeFerPlayer, tableau_draws
from tables.engine.simulate.runner import GAME_RUNS, table_settings

ROOT = Path(__file__).resolve().parents[2]
GAMES = tuple(GAME_PLAY)
# The measures the issue names, per game (docs/odds.md, "The measures").
REQUIRED = {
    "chemin_de_fer": {"banker_wins", "pontes_win", "ties", "natural"},
    "lansquenet_moderne": {"banker_wins", "pontes_win", "doublet"},
    "lansquenet_classique": {"banker_wins", "pontes_win"},
    "landsknecht": {"banker_wins", "pontes_win", "plie"},
    "pontoon": {"banker_wins", "pontes_win", "pontoon", "five_card_trick"},
}
COMMON = {"cards_per_coup", "banker_result_per_unit_staked", "cagnotte_per_unit_staked"}


def _json(game: str, *args: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["simulate", game, *args, "--json"]) == 0
    found: dict[str, Any] = json.loads(capsys.readouterr().out)
    return found


# The measures that are the frequency of an event in a coup (docs/odds.md).
PROPORTIONS = {
    "banker_wins",
    "pontes_win",
    "ties",
    "natural",
    "doublet",
    "plie",
    "banker_quadruple",
    "coupeur_quadruple",
}


def _agrees(measures: dict[str, Any], values: dict[str, Any], *, stored: bool = False) -> None:
    """Every exact value is within 3 standard errors of the simulated mean.

    The standard error is the simulation's; for the frequency of an event in a coup it is at
    least the binomial one at the exact value, ``sqrt(p(1 − p)/n)``, so that an event too rare
    to be seen in a short run (a quadruple) is not held to an observed error of 0. Against a
    stored simulation it is the error of the difference of the two runs."""
    assert values, "no exact value to compare"
    for name, value in values.items():
        simulated = measures[name]
        se = simulated["se"]
        if stored:
            se = math.hypot(se, value["se"])
        elif name in PROPORTIONS:
            p = value["value"]
            se = max(se, math.sqrt(p * (1 - p) / simulated["n"]))
        gap = abs(simulated["mean"] - value["value"])
        assert gap <= 3 * se, f"{name}: {simulated['mean']} ± {se} against {value['value']}"


def _exact(
    game: str, settings: dict[str, Any], strategy: str | None = None, **params: str
) -> dict[str, Any]:
    chosen = strategy_get(game, strategy, params)
    full = table_settings(game, settings, chosen.params["players"])
    values: dict[str, Any] = exact_values(game, full, chosen).as_json()["values"]
    return values


# -- the statistics ------------------------------------------------------------------------------


def test_a_mean_of_coups_has_the_standard_error_sd_over_root_n() -> None:
    values = [3, 5, 4, 4, 6, 2, 5, 4]
    tally = Tally()
    for value in values:
        tally.add(value)
    found = tally.estimate()
    assert found.mean == statistics.mean(values)
    assert found.se == pytest.approx(statistics.stdev(values) / math.sqrt(len(values)))
    assert found.n == len(values)


def test_a_ratio_has_the_standard_error_of_a_ratio_estimator() -> None:
    pairs = [(10, 20), (-20, 20), (0, 40), (60, 40), (-40, 20)]
    tally = Tally()
    for x, y in pairs:
        tally.add(x, y)
    ratio = sum(x for x, _ in pairs) / sum(y for _, y in pairs)
    n, mean_y = len(pairs), statistics.mean(y for _, y in pairs)
    spread = sum((x - ratio * y) ** 2 for x, y in pairs)
    found = tally.estimate()
    assert found.mean == pytest.approx(ratio)
    assert found.se == pytest.approx(math.sqrt(spread / (n * (n - 1))) / mean_y)


def test_the_sums_are_integers_and_exact_whatever_the_count() -> None:
    tally = Tally()
    for _ in range(10**5):
        tally.add(10**9 + 1)
    assert tally.sums() == [10**5, 10**14 + 10**5, 10**5, (10**9 + 1) ** 2 * 10**5] + [
        (10**9 + 1) * 10**5,
        10**5,
    ]
    assert tally.estimate().se == 0  # no cancellation error: every value is the same


# -- the simulator ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_the_same_seed_gives_the_same_json(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--coups", "300", "--seed", "11")
    first = _json(game, *args, capsys=capsys)
    assert _json(game, *args, capsys=capsys) == first
    assert _json(game, "--coups", "300", "--seed", "12", capsys=capsys) != first


@pytest.mark.parametrize("game", GAMES)
def test_the_json_has_the_issues_shape_and_every_measure(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    found = _json(game, "--coups", "200", "--seed", "1", capsys=capsys)
    assert set(found) == {
        "game",
        "coups",
        "seed",
        "settings",
        "strategy",
        "params",
        "fresh",
        "measures",
    }
    assert (found["game"], found["coups"], found["seed"]) == (game, 200, 1)
    assert found["strategy"] == GAME_PLAY[game].default
    assert set(found["measures"]) == set(GAME_RUNS[game].measures)
    assert REQUIRED[game] | COMMON <= set(found["measures"])
    for measure in found["measures"].values():
        assert set(measure) == {"mean", "se", "n"}
        assert isinstance(measure["n"], int) and measure["n"] > 0


@pytest.mark.parametrize(
    ("game", "strategy"),
    [(game, name) for game, play in GAME_PLAY.items() for name in play.strategies],
)
@pytest.mark.parametrize("fresh", [False, True], ids=["carried", "fresh"])
def test_every_strategy_plays_only_legal_actions(game: str, strategy: str, fresh: bool) -> None:
    # simulate lets every RuleError through: one refused action fails the test.
    found = simulate(game, coups=400, seed=2, strategy=strategy, fresh=fresh)
    assert found.tallies.by_name["cards_per_coup"].n == 400


@pytest.mark.parametrize(
    ("game", "settings", "strategy", "params"),
    [
        # LM-3.4 the pack runs out during coups; purchases refused, banks that stay and double.
        ("lansquenet_moderne", {"decks": 1}, None, {"reshuffle_below": "0"}),
        (
            "lansquenet_moderne",
            {"decks": 1, "max_bank": 300},
            "stay",
            {"stays": "5", "cover": "split", "players": "7"},
        ),
        ("lansquenet_moderne", {"decks": 6, "chip_unit": 5}, None, {"players": "2"}),
        # CF-3.3 many short shoes; a bank that grows to max_bank (CF-6.1).
        ("chemin_de_fer", {"decks": 1}, None, {}),
        ("chemin_de_fer", {"decks": 1, "max_bank": 500}, None, {"reliquat": "none"}),
        # LR-2.4 the fund replenished; a banker who doubles; LR-3.4 the pack runs out.
        ("landsknecht", {"reserve_contribution": 10}, "double", {"doubles": "4", "take": "0"}),
        ("landsknecht", {}, None, {"take": "1", "players": "12"}),
        ("pontoon", {}, None, {"players": "8"}),
        ("pontoon", {}, None, {"players": "2", "take_bank": "false"}),
        ("lansquenet_classique", {}, "pass", {"players": "12"}),
    ],
)
def test_unusual_tables_play_only_legal_actions(
    game: str, settings: dict[str, Any], strategy: str | None, params: dict[str, str]
) -> None:
    simulate(game, coups=800, seed=4, settings=settings, strategy=strategy, params=params)


@pytest.mark.parametrize("game", GAMES)
def test_long_runs_are_sessions_each_ended_and_opened_legally(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ended: list[str] = []
    original = runner.Table.end

    def end(table: runner.Table) -> None:
        original(table)
        ended.append(table.state.phase)

    monkeypatch.setattr(runner, "SESSION_COUPS", 40)
    monkeypatch.setattr(runner.Table, "end", end)
    simulate(game, coups=130, seed=3)
    # COM-3.8 three sessions ended after 40, 80 and 120 coups, and the last one at the end.
    assert ended == ["session_ended"] * 4


def test_a_refused_action_is_never_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    def announce_nothing(self: CheminDeFerPlayer, st: Any) -> Action:
        return Action("announce_bank", 1, {"amount": 0})  # COM-5.1: E_BAD_AMOUNT

    monkeypatch.setattr(CheminDeFerPlayer, "on_bank_pending", announce_nothing)
    with pytest.raises(RuleError):
        simulate("chemin_de_fer", coups=5, seed=1)


def test_the_cli_reports_a_refused_strategy_unknown_names_and_bad_settings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "pontoon", "--coups", "5", "--seed", "1", "--strategy", "x"]) == 2
    assert "no strategy 'x'" in capsys.readouterr().err
    assert main(["simulate", "pontoon", "--coups", "5", "--seed", "1", "--param", "x=1"]) == 2
    assert "no parameter 'x'" in capsys.readouterr().err
    assert main(["exact", "chemin_de_fer", "--set", "decks=9"]) == 2
    assert "E_SETTING" in capsys.readouterr().err
    with pytest.raises(StrategyError):
        strategy_get("pontoon", None, {"stick_at": "14"})  # PT-4.2: no stick under 15
    with pytest.raises(StrategyError):
        strategy_get("lansquenet_classique", None, {"players": "13"})  # LC-2.3: 4 to 12


def test_the_command_prints_measures_and_coups_per_second() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tables.engine", "simulate", "landsknecht"]
        + ["--coups", "200", "--seed", "3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "landsknecht: 200 coups, seed 3"
    assert any(line.startswith("plie ") for line in lines)
    assert "coups/s" in lines[-1]


# -- the exact values --------------------------------------------------------------------------


@pytest.mark.parametrize("decks", range(1, 7))
def test_the_doublet_closed_form_is_the_enumeration(decks: int) -> None:
    assert lansquenet_first_coup(decks) == lansquenet_first_coup_enumerated(decks)
    assert lansquenet_first_coup_enumerated(decks)["doublet"] == doublet_closed_form(decks)
    assert doublet_closed_form(decks) == Fraction(4 * decks - 1, 52 * decks - 1)


def test_the_landsknecht_plie_is_seven_in_one_hundred_and_three() -> None:
    assert _exact("landsknecht", {})["plie"]["exact"] == "7/103"


def test_the_chemin_de_fer_enumeration_gives_the_published_punto_banco_odds() -> None:
    # The banker's tableau with a ponte who always draws at 5 is punto banco's: with 8 decks,
    # banker 45.8597 %, player 44.6247 %, tie 9.5156 % (the published figures).
    found = chemin_de_fer_first_coup(8, Fraction(1))
    assert float(found["banker_wins"]) == pytest.approx(0.458597, abs=5e-7)
    assert float(found["pontes_win"]) == pytest.approx(0.446247, abs=5e-7)
    assert float(found["ties"]) == pytest.approx(0.095156, abs=5e-7)
    assert sum(found[k] for k in ("banker_wins", "pontes_win", "ties")) == 1


def test_the_chemin_de_fer_values_mix_linearly_in_the_chance_to_draw_at_5() -> None:
    stand, draw = chemin_de_fer_first_coup(2, Fraction(0)), chemin_de_fer_first_coup(2, Fraction(1))
    third = chemin_de_fer_first_coup(2, Fraction(1, 3))
    for name in stand:
        assert third[name] == stand[name] * Fraction(2, 3) + draw[name] * Fraction(1, 3)


def test_the_tableau_is_the_casinos_table() -> None:
    assert [b for b in range(8) if tableau_draws(b, None)] == [0, 1, 2, 3, 4, 5]
    drawing = {b: [x for x in range(10) if tableau_draws(b, x)] for b in range(3, 8)}
    assert drawing == {
        3: [0, 1, 2, 3, 4, 5, 6, 7, 9],
        4: [2, 3, 4, 5, 6, 7],
        5: [4, 5, 6, 7],
        6: [6, 7],
        7: [],
    }


def test_the_cagnotte_is_levied_with_the_tables_rounding() -> None:
    # COM-6.3: 5 % of a bank of 130 rounded down is 6, not 6.5; to the nearest 10 it is 10.
    down = _exact("chemin_de_fer", {}, bank="130")
    nearest = _exact(
        "chemin_de_fer",
        {"chip_unit": 10, "cagnotte_step": 10, "cagnotte_rounding": "nearest"},
        bank="130",
    )
    wins = Fraction(down["banker_wins"]["exact"])
    assert Fraction(down["cagnotte_per_unit_staked"]["exact"]) == wins * Fraction(6, 130)
    assert Fraction(nearest["cagnotte_per_unit_staked"]["exact"]) == wins * Fraction(10, 130)


def test_lansquenet_classique_recursion_totals_and_levy() -> None:
    levy = table_levy_of(table_settings("lansquenet_classique", {}, 5))
    found = lansquenet_classique_values(4, 20, levy)
    assert found["banker_wins"] + found["pontes_win"] == 1
    # With F = 20 and 5 %, the levy is exactly G / 20, a twentieth of the stakes collected.
    free = lansquenet_classique_values(4, 20, lambda gross: 0)
    assert free["banker_result_per_base_stake"] > found["banker_result_per_base_stake"]


def test_the_stored_pontoon_simulation_is_the_default_table_and_strategy() -> None:
    stored = stored_simulation("pontoon")
    assert stored is not None
    assert stored["coups"] >= 10**6
    values = _exact("pontoon", {})
    assert set(values) == set(GAME_RUNS["pontoon"].measures)
    assert all(value["method"] == "simulation" for value in values.values())
    assert _exact("pontoon", {"min_stake": 5}) == {}  # another table: nothing is known


# -- the simulator agrees with every exact value -------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "strategy"),
    [({"decks": 1}, "tableau"), ({"decks": 3}, "stand_at_5"), ({"decks": 8}, "draw_at_5")],
)
def test_chemin_de_fer_first_coups_agree_with_the_enumeration(
    settings: dict[str, Any], strategy: str
) -> None:
    found = simulate(
        "chemin_de_fer", coups=6000, seed=21, settings=settings, strategy=strategy, fresh=True
    )
    _agrees(found.as_json()["measures"], _exact("chemin_de_fer", settings, strategy))


@pytest.mark.parametrize("decks", [1, 2])
def test_lansquenet_moderne_first_coups_agree_with_the_closed_forms(decks: int) -> None:
    found = simulate(
        "lansquenet_moderne", coups=5000, seed=22, settings={"decks": decks}, fresh=True
    )
    _agrees(found.as_json()["measures"], _exact("lansquenet_moderne", {"decks": decks}))


def test_lansquenet_moderne_doublets_of_a_carried_pack_are_its_first_coups() -> None:
    # Without --fresh only the doublet is measured on the first coups of a pack (LM-3.3).
    settings = {"decks": 1}
    found = simulate(
        "lansquenet_moderne",
        coups=6000,
        seed=23,
        settings=settings,
        params={"reshuffle_below": "40"},
    )
    doublet = _exact("lansquenet_moderne", settings)["doublet"]
    _agrees(found.as_json()["measures"], {"doublet": doublet})


def test_landsknecht_first_coups_agree_with_the_enumeration() -> None:
    found = simulate("landsknecht", coups=5000, seed=24, fresh=True)
    _agrees(found.as_json()["measures"], _exact("landsknecht", {}))


@pytest.mark.parametrize(
    ("game", "strategy"),
    [("lansquenet_moderne", "stay"), ("landsknecht", "double"), ("chemin_de_fer", "tableau")],
)
def test_other_strategies_agree_with_what_exact_gives_for_them(game: str, strategy: str) -> None:
    params = {"reliquat": "none"} if game == "chemin_de_fer" else {}
    found = simulate(game, coups=3000, seed=29, strategy=strategy, params=params, fresh=True)
    values = _exact(game, {}, strategy, **params)
    if strategy == "stay":  # LM-6.2 the bank doubles: no money value (docs/odds.md)
        assert "banker_result_per_unit_staked" not in values
    _agrees(found.as_json()["measures"], values)


@pytest.mark.parametrize("players", ["5", "9"])
def test_lansquenet_classique_coups_agree_with_the_recursion(players: str) -> None:
    found = simulate("lansquenet_classique", coups=2000, seed=25, params={"players": players})
    _agrees(found.as_json()["measures"], _exact("lansquenet_classique", {}, players=players))


def test_pontoon_coups_agree_with_the_stored_simulation() -> None:
    found = simulate("pontoon", coups=4000, seed=26)
    _agrees(found.as_json()["measures"], _exact("pontoon", {}), stored=True)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_large_runs_agree_with_every_exact_value(game: str) -> None:
    fresh = game in ("chemin_de_fer", "lansquenet_moderne", "landsknecht")
    found = simulate(game, coups=60000, seed=27, fresh=fresh)
    _agrees(found.as_json()["measures"], _exact(game, {}), stored=game == "pontoon")


@pytest.mark.slow
def test_lansquenet_classique_with_a_levy_that_rounds_agrees_with_the_recursion() -> None:
    # F = 15 and 5 %: the levy of G = 15 is 0, of 30 is 1 (COM-6.3 down): not a flat 5 %.
    settings = {"base_stake": 15}
    found = simulate("lansquenet_classique", coups=20000, seed=28, settings=settings)
    _agrees(found.as_json()["measures"], _exact("lansquenet_classique", settings))
