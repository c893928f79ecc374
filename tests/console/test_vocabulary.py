"""The console's words for the engine's codes: looked up in the engine's catalogue, the same
words as the table says them, what comes next in the croupier's language."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from django.utils import translation

from tables.console.vocabulary import (
    action_label,
    bank_rule_label,
    chips_text,
    expected_say,
    fault_label,
    hand_kind_label,
    holding_label,
    outcome_label,
    owner_label,
    phase_label,
    reason_label,
)
from tables.engine.actions import Action
from tables.engine.errors import RuleError
from tables.engine.game import step
from tables.engine.scenario import InvalidScenario, scenario_load
from tables.words import say

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


@cache
def _views() -> tuple[dict[str, Any], ...]:
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
    return tuple(views)


def test_what_comes_next_is_a_code_with_its_parameters() -> None:
    """The engine says no sentence: `expected` is a code and its parameters, flat."""
    views = _views()
    assert len(views) > 1000
    for view in views:
        expected = view["expected"]
        assert isinstance(expected, dict) and isinstance(expected["code"], str), expected
        assert all(isinstance(v, str | int | list) for v in expected.values()), expected


def test_what_comes_next_is_said_in_both_languages() -> None:
    seen = {json.dumps(view["expected"], sort_keys=True) for view in _views()}
    untranslated = []
    for text in sorted(seen):
        expected = json.loads(text)
        with translation.override("en"):
            english = expected_say(expected, {})
        with translation.override("fr"):
            french = expected_say(expected, {})
        assert english and "%(" not in english and "%(" not in french, expected
        if english == french:
            untranslated.append(expected["code"])
    assert untranslated == []


def test_players_are_named_and_the_rest_translated() -> None:
    names = {"S1": "Anne Aubert", "S2": "Bruno Barre"}
    with translation.override("fr"):
        said = expected_say({"code": "X_ACCEPT_OR_DECLINE", "player": "S1"}, names)
        refused = say("E_OUT_OF_TURN", {"expected": "S1", "actor": "S2"}, names)
    assert said == "Anne Aubert prend ou refuse la banque"
    assert refused == "C'est au tour de Anne Aubert, pas de Bruno Barre."
    with translation.override("en"):
        assert expected_say({"code": "X_ANNOUNCE", "player": "S2"}, names) == (
            "Bruno Barre announces the bank"
        )


def test_a_refusal_is_said_in_the_language_of_the_request() -> None:
    params = {"actor": "croupier", "action": "stake", "reason": "R_CROUPIER_NEVER_PLAYS"}
    with translation.override("fr-ch"):
        assert say("E_NOT_ELIGIBLE", params) == (
            "Le croupier ne peut pas faire « stake » : le croupier ne joue jamais."
        )
    with translation.override("de"):  # a language the catalogue does not have: English
        assert say("E_NOT_ELIGIBLE", params) == (
            "The croupier cannot stake: the croupier is never a player."
        )


def test_the_tables_words_are_the_same_as_before() -> None:
    """The labels moved to the catalogue word for word (game terms French in both languages)."""
    for language in ("en", "fr"):
        with translation.override(language):
            assert action_label("chemin_de_fer", "stake") == "Avec la table"
            assert action_label("lansquenet_moderne", "stake") == "Lancer / Relancer"
            assert action_label("pontoon", "sit") == "Asseoir"
            assert action_label("pontoon", "something_new") == "something new"
            assert phase_label("bank_pending") == "Banque à annoncer"
            assert outcome_label("banker_wins") == "la banque gagne"
            assert reason_label("stake_won") == "gagne"
            assert fault_label("F_DREW_ON_6_7") == "« Carte » à 6 ou 7"
            assert hand_kind_label("five_card_trick") == "cinq cartes"
            assert hand_kind_label("total") == ""
            assert holding_label("refait_purchase") == "achetée au refait"
            assert owner_label("reserve_fund") == "fonds de réserve"
            assert owner_label("reliquat", "Anne") == "reliquat Anne"


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
    assert sorted(f for f in faults if fault_label(f) == f.replace("_", " ")) == []
    assert sorted(k for k in kinds - {"total"} if hand_kind_label(k) == k.replace("_", " ")) == [
        "pontoon"  # the word is the code's own
    ]
    assert sorted(h for h in holdings if holding_label(h) == h.replace("_", " ")) == []
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
