"""The levy models of a table (LV-1 to LV-4): settings, the coup's levy, zero sum."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tables.engine.errors import RuleError
from tables.engine.levy import coup_levy
from tables.engine.money import LEVY_MODELS, table_levy
from tables.engine.registry import game_get
from tables.engine.settings import CagnotteRules
from tables.engine.settlement import CAGNOTTE, RESERVE_FUND, results_of
from tables.engine.simulate.runner import GAME_RUNS, Table, settled_coups, table_settings
from tables.engine.simulate.strategies import strategy_get
from tables.engine.words import words

# The levy settings a table has when it sets none of them: today's levy (LV-1).
LEVY_DEFAULTS: dict[str, Any] = {
    "levy_model": "banker_win",
    "fee_maximum": None,
    "fee_amount": None,
    "fee_payer": "pontes",
    "fee_period_minutes": 30,
    "fee_day_start_hour": 12,
}

GAMES = ("chemin_de_fer", "lansquenet_moderne", "lansquenet_classique", "landsknecht", "pontoon")


def rules(**given: Any) -> CagnotteRules:
    levy: dict[str, Any] = {"cagnotte_rate_bp": 500, "cagnotte_step": 1}
    return CagnotteRules(**{"cagnotte_rounding": "down", **LEVY_DEFAULTS, **levy, **given})


def validated(game: str, **given: Any) -> dict[str, Any]:
    """The table's settings as the simulator's tables have them (what each game requires)."""
    return table_settings(game, given, game_get(game).default_seat_count)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_defaults_to_todays_levy(game: str) -> None:
    settings = validated(game)
    assert {name: settings[name] for name in LEVY_DEFAULTS} == LEVY_DEFAULTS


@pytest.mark.parametrize("model", ["coup_fee", "time_fee", "participation_fee"])
def test_a_fee_model_must_set_its_amount(model: str) -> None:
    with pytest.raises(RuleError) as refused:
        validated("pontoon", levy_model=model)
    assert refused.value.code == "E_SETTING"
    assert refused.value.params["name"] == "fee_amount"
    assert refused.value.params["allowed"] == "S_FEE_REQUIRED"
    said = words(refused.value.code, refused.value.params)
    assert "fee_amount" in said and model in said
    french = words(refused.value.code, refused.value.params, language="fr")
    assert "fee_amount" in french and french != said


def test_a_uk_participation_fee_is_refused_above_its_statutory_maximum() -> None:
    """LV-4, LV-6: £3 a person a day (in pence), from midday; 301 pence is refused."""
    uk = {"levy_model": "participation_fee", "cagnotte_rate_bp": 0, "fee_maximum": 300}
    settings = validated("pontoon", **uk, fee_amount=300)
    assert (settings["fee_amount"], settings["fee_day_start_hour"]) == (300, 12)
    with pytest.raises(RuleError) as refused:
        validated("pontoon", **uk, fee_amount=301)
    assert refused.value.params["name"] == "fee_amount"
    assert refused.value.params["allowed"] == "S_FEE_AT_MOST"
    assert "300" in words(refused.value.code, refused.value.params)


@pytest.mark.parametrize(
    ("given", "named"),
    [
        ({"levy_model": "tip_jar"}, "levy_model"),
        ({"fee_payer": "croupier"}, "fee_payer"),
        ({"fee_period_minutes": 0}, "fee_period_minutes"),
        ({"fee_day_start_hour": 24}, "fee_day_start_hour"),
        ({"levy_model": "coup_fee", "fee_amount": 0}, "fee_amount"),
        ({"levy_model": "coup_fee", "fee_amount": True}, "fee_amount"),
    ],
)
def test_bad_levy_settings_are_refused_by_name(given: dict[str, Any], named: str) -> None:
    with pytest.raises(RuleError) as refused:
        validated("chemin_de_fer", **given)
    assert refused.value.code == "E_SETTING"
    assert refused.value.params["name"] == named


@pytest.mark.parametrize("gross", [0, 40, 250, 700, 1000, 1300])
def test_banker_win_is_the_levy_of_com_6_3(gross: int) -> None:
    table = rules(cagnotte_step=10, cagnotte_rounding="nearest")
    levy = coup_levy(table, "B", gross=gross, stakes=[("P1", gross)])
    assert sum(t.amount for t in levy) == table_levy(gross, table)
    assert all((t.source, t.target, t.reason) == ("B", CAGNOTTE, "cagnotte") for t in levy)


def test_stakes_is_the_rate_on_every_stake_whoever_wins() -> None:
    """LV-1.1 1.25 % of the pontes' stakes (banque ouverte), from the banker, on a coup he
    lost too (gross 0)."""
    table = rules(levy_model="stakes", cagnotte_rate_bp=125)
    stakes = [("P1", 400), ("P2", 400), (RESERVE_FUND, 800)]
    levy = coup_levy(table, "B", gross=0, stakes=stakes)
    assert [(t.source, t.amount, t.reason) for t in levy] == [("B", 20, "cagnotte")]


def test_a_coup_fee_is_paid_once_by_each_ponte_or_once_by_the_banker() -> None:
    """LV-2 a ponte with two stakes pays once; the reserve fund and the banker pay nothing;
    LV-5 the reason is ``coup_fee``."""
    table = rules(levy_model="coup_fee", fee_amount=5)
    stakes = [("P1", 100), ("P2", 50), ("P1", 20), (RESERVE_FUND, 30)]
    levy = coup_levy(table, "B", gross=170, stakes=stakes)
    assert [(t.source, t.amount, t.reason) for t in levy] == [
        ("P1", 5, "coup_fee"),
        ("P2", 5, "coup_fee"),
    ]
    by_banker = coup_levy(rules(levy_model="coup_fee", fee_amount=5, fee_payer="banker"), "B",
                          gross=0, stakes=stakes)  # fmt: skip
    assert [(t.source, t.amount) for t in by_banker] == [("B", 5)]
    assert coup_levy(table, "B", gross=0, stakes=[]) == ()


@pytest.mark.parametrize("model", ["time_fee", "participation_fee"])
def test_the_fees_of_the_seating_record_are_no_coups(model: str) -> None:
    """LV-3 a time fee or a participation fee is charged by the house, not in a coup."""
    table = rules(levy_model=model, fee_amount=300)
    assert coup_levy(table, "B", gross=1000, stakes=[("P1", 1000)]) == ()


LEVIES: dict[str, dict[str, Any]] = {
    "banker_win": {},
    "stakes": {"cagnotte_rate_bp": 125},
    "coup_fee": {"fee_amount": 2},
    "coup_fee_banker": {"fee_amount": 3, "fee_payer": "banker"},
    "time_fee": {"fee_amount": 50, "cagnotte_rate_bp": 0},
    "participation_fee": {"fee_amount": 300, "fee_maximum": 300, "cagnotte_rate_bp": 0},
}


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("levy", list(LEVIES))
def test_every_coup_sums_to_zero_and_levies_by_its_model(game: str, levy: str) -> None:
    """COM-5.5 INV-1 under every model, 300 coups of the simulator's strategies; the house
    takes what the model says, from whom it says (LV-1, LV-2)."""
    model = levy.removesuffix("_banker")
    assert model in LEVY_MODELS
    strategy = strategy_get(game, None, None, fresh=False)
    given = {"levy_model": model, **LEVIES[levy]}
    settings = table_settings(game, given, strategy.params["players"])
    table = Table(game_get(game), GAME_RUNS[game], strategy, settings, seed=7)
    taken = Counter[str]()
    for before, _after, record, _seen in settled_coups(table, 300, fresh=False):
        assert sum(results_of(record.transfers).values()) == 0
        to_house = [t for t in record.transfers if t.target == CAGNOTTE]
        taken.update(t.reason for t in to_house)
        banker = _banker_of(before)
        if model in ("time_fee", "participation_fee"):
            assert to_house == []
        elif model == "coup_fee":
            assert {t.reason for t in to_house} <= {"coup_fee"}
            payers = [t.source for t in to_house]
            assert len(payers) == len(set(payers))  # once each
            assert all(t.amount == settings["fee_amount"] for t in to_house)
            if settings["fee_payer"] == "banker":
                assert payers in ([], [banker])
            else:
                assert banker not in payers
        else:
            assert {(t.source, t.reason) for t in to_house} <= {(banker, "cagnotte")}
    table.end()
    if model == "coup_fee":
        assert sum(taken.values()) >= 300  # every coup, won or lost
    if model == "stakes":
        assert sum(taken.values()) > 0


def _banker_of(state: Any) -> str:
    """The banker of the coup about to be settled, whatever the game's state calls him."""
    for holder in (state, getattr(state, "coup", None)):
        for name in ("banker", "banker_player"):
            found = getattr(holder, name, None)
            if isinstance(found, str):
                return found
    raise AssertionError(f"no banker in {type(state).__name__}")


def test_every_levy_rule_is_cited_by_a_scenario_or_a_test() -> None:
    """COM-0.1 for the project's own rules (docs/rules/levy.md): each LV id is cited."""
    root = Path(__file__).resolve().parents[2]
    rule_ids = set(re.findall(r"\bLV-\d+(?:\.\d+)*\b", (root / "docs/rules/levy.md").read_text()))
    # This file, the tests of the house's charges that name the rule file, and the scenarios.
    cited = "\n".join(
        path.read_text(encoding="utf-8")
        for path in sorted((root / "tests").rglob("*.py"))
        if path == Path(__file__) or "docs/rules/levy.md" in path.read_text(encoding="utf-8")
    )
    for path in sorted((root / "tests/scenarios").glob("*/LV-*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        cited += f"\n{data['name']}\n{data.get('why', '')}"
    missing = sorted(rule for rule in rule_ids if not re.search(rf"\b{re.escape(rule)}\b", cited))
    assert len(rule_ids) >= 8 and missing == []
