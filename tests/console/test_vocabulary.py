"""The console's words for the engine's: every phrase of what comes next is translated."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from django.utils import translation

from tables.console.vocabulary import (
    FAULT_LABELS,
    HAND_KIND_LABELS,
    HOLDING_LABELS,
    bank_rule_label,
    chips_text,
    expected_known,
    expected_say,
)
from tables.engine.actions import Action
from tables.engine.errors import RuleError
from tables.engine.game import step
from tables.engine.scenario import InvalidScenario, scenario_load

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def _views() -> list[dict[str, Any]]:
    """Every `view()` of the engine over the whole scenario corpus, each state once."""
    views: list[dict[str, Any]] = []
    for path in sorted(SCENARIOS.glob("*/**/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for document in data if isinstance(data, list) else [data]:
            try:
                scenario = scenario_load(document)
            except InvalidScenario:
                continue
            game = scenario.game
            state = game.start(scenario.settings, scenario.seating)
            views.append(game.view(state))
            for raw in scenario.actions:
                try:
                    state = step(game, state, Action.from_dict(raw))
                except RuleError:
                    continue
                views.append(game.view(state))
    return views


@cache
def _phrases() -> frozenset[str]:
    """Every `view()["expected"]` the engine says over the whole scenario corpus."""
    return frozenset(view["expected"] for view in _views())


def test_every_phrase_of_the_engine_is_known_to_the_console() -> None:
    phrases = _phrases()
    assert len(phrases) > 100
    assert sorted(p for p in phrases if not expected_known(p)) == []


def test_every_phrase_has_its_french() -> None:
    with translation.override("fr"):
        untranslated = sorted(p for p in _phrases() if expected_say(p, {}) == expected_say_en(p))
    assert untranslated == []


def expected_say_en(phrase: str) -> str:
    with translation.override("en"):
        return expected_say(phrase, {})


def test_players_are_named_and_the_rest_translated() -> None:
    names = {"S1": "Anne Aubert", "S2": "Bruno Barre"}
    with translation.override("fr"):
        said = expected_say("S1 speaks (round 2)", names)
        listed = expected_say("The players stake or sit out: S1, S2", names)
    assert said.startswith("Anne Aubert") and "2" in said and "speaks" not in said
    assert "Anne Aubert, Bruno Barre" in listed


def test_an_unknown_phrase_is_shown_as_the_engine_says_it() -> None:
    assert expected_say("S1 does something new", {"S1": "Anne"}) == "Anne does something new"


def _hand_kinds(view: dict[str, Any]) -> set[str]:
    """The pontoon hands' kinds a view shows (the players' and the banker's)."""
    kinds: set[str] = set()
    for cards in (view.get("cards"), view.get("last_coup")):
        if not isinstance(cards, dict):
            continue
        hands = [*(cards.get("players") or []), cards.get("banker")]
        kinds.update(h["kind"] for h in hands if isinstance(h, dict) and h.get("kind"))
    return kinds


def test_every_code_the_screen_shows_has_the_tables_word() -> None:
    """Faults (CF-8.1, CF-8.3), pontoon hands (PT-3.3 to PT-3.5), how the bank is held (LM-6)
    and what the banker may announce (CF-6.2, LM-6.2): the screen names them as the table does,
    never by the engine's code."""
    views = _views()
    faults = {code for view in views for code in view.get("faults") or []}
    kinds = {kind for view in views for kind in _hand_kinds(view)}
    holdings = {view["holding"] for view in views if view.get("holding")}
    rules = {str(view["bank_rule"]) for view in views if view.get("bank_rule") is not None}

    assert {"F_STOOD_UNDER_5", "F_DREW_ON_6_7"} <= faults
    assert {"bust", "five_card_trick", "pontoon"} <= kinds
    assert {"rotation", "purchase"} <= holdings
    assert sorted(faults - FAULT_LABELS.keys()) == []
    assert sorted(kinds - HAND_KIND_LABELS.keys()) == []
    assert sorted(holdings - HOLDING_LABELS.keys()) == []
    assert any(rule.startswith("fixed(") for rule in rules)
    for view in views:
        if view.get("bank_rule") is not None:
            label = bank_rule_label(view["bank_rule"])
            assert label in ("libre", "ouverture") or label.startswith(
                ("imposée · ", "ouverture ou ")
            ), (
                view["bank_rule"],
                label,
            )


def test_amounts_are_written_one_way_everywhere() -> None:
    """Bank, cagnotte, payouts, chips: thousands apart by a narrow no-break space."""
    assert chips_text(12500) == "12\u202f500"
    assert chips_text(-1000) == "-1\u202f000"
    assert chips_text(950) == "950"
    assert chips_text(0) == "0"
    assert chips_text(None) == ""
    assert bank_rule_label("fixed(1370)") == "imposée · 1\u202f370"
    assert bank_rule_label({"amount": 20000, "why": "bought"}) == "imposée · 20\u202f000"
    assert bank_rule_label("opening_or_figure(1500)") == "ouverture ou 1\u202f500"
