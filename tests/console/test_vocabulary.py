"""The console's words for the engine's: every phrase of what comes next is translated."""

from __future__ import annotations

import json
from pathlib import Path

from django.utils import translation

from tables.console.vocabulary import expected_known, expected_say
from tables.engine.actions import Action
from tables.engine.errors import RuleError
from tables.engine.game import step
from tables.engine.scenario import InvalidScenario, scenario_load

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def _phrases() -> set[str]:
    """Every `view()["expected"]` the engine says over the whole scenario corpus."""
    said: set[str] = set()
    for path in sorted(SCENARIOS.glob("*/**/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for document in data if isinstance(data, list) else [data]:
            try:
                scenario = scenario_load(document)
            except InvalidScenario:
                continue
            game = scenario.game
            state = game.start(scenario.settings, scenario.seating)
            said.add(game.view(state)["expected"])
            for raw in scenario.actions:
                try:
                    state = step(game, state, Action.from_dict(raw))
                except RuleError:
                    continue
                said.add(game.view(state)["expected"])
    return said


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
