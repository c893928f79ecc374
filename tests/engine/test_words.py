"""The engine's words: every code any game may say has its words in English and in French.

The engine answers in codes (COM-10.3: ``RuleError.code`` and ``.params``; what is expected
next, ``view()["expected"]``); ``tables/engine/words.py`` turns them into words from the one
catalogue, ``locale/{en,fr}/LC_MESSAGES/engine.po``. Here: the catalogue is whole and
consistent (same keys, same placeholders in both languages, compiled), every code of the rules
files and every code each game declares has its words, what the scenario corpus and seeded
random playouts produce is declared and can be said in both languages, every word the console
needs is there, and no module outside the catalogue's loader builds or parses the sentences.
"""

from __future__ import annotations

import ast
import json
import random
import re
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bench.engine import SETUPS, _candidates
from tables.engine import GAMES, Action, RuleError, Seating, game_get, step
from tables.engine.errors import COMMON_ERROR_CODES
from tables.engine.game import Game
from tables.engine.scenario import InvalidScenario, scenario_load
from tables.engine.words import (
    CODE_PARAMS,
    LANGUAGES,
    PERSON_PARAMS,
    MissingWords,
    lookup,
    placeholders,
    words,
)

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules"
SCENARIOS = ROOT / "tests" / "scenarios"
LOCALE = ROOT / "locale"
PREFIXES = {
    "chemin_de_fer": "CF",
    "lansquenet_moderne": "LM",
    "lansquenet_classique": "LC",
    "landsknecht": "LR",
    "pontoon": "PT",
}
GAME_FILES = {
    "chemin_de_fer": "chemin-de-fer.md",
    "lansquenet_moderne": "lansquenet-moderne.md",
    "lansquenet_classique": "lansquenet-classique.md",
    "landsknecht": "landsknecht-russe.md",
    "pontoon": "pontoon.md",
}
PLAYOUT_SEEDS = range(3)
PLAYOUT_STEPS = 600

Values = Mapping[str, Any]


# -- the catalogue as written ------------------------------------------------------------------


def _unquote(line: str) -> str:
    return str(ast.literal_eval(line))


@cache
def catalogue(language: str) -> dict[str, str]:
    """msgid -> msgstr of ``locale/<language>/LC_MESSAGES/engine.po`` (the header left out)."""
    entries: dict[str, str] = {}
    msgid: str | None = None
    current: list[str] = []
    field = ""

    def close() -> None:
        if msgid:
            entries[msgid] = "".join(current)

    text = (LOCALE / language / "LC_MESSAGES" / "engine.po").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.startswith("msgid "):
            if field == "msgstr":
                close()
            field, current = "msgid", [_unquote(line[6:])]
        elif line.startswith("msgstr "):
            msgid = "".join(current)
            field, current = "msgstr", [_unquote(line[7:])]
        elif line.startswith('"'):
            current.append(_unquote(line))
    if field == "msgstr":
        close()
    return entries


def test_both_languages_have_the_same_keys_and_placeholders() -> None:
    english, french = catalogue("en"), catalogue("fr")
    assert len(english) > 300
    assert sorted(english.keys() - french.keys()) == []
    assert sorted(french.keys() - english.keys()) == []
    differ = [k for k in english if placeholders(english[k]) != placeholders(french[k])]
    assert differ == []
    assert [k for k, v in {**english, **french}.items() if not v.strip()] == []


def test_the_compiled_catalogues_are_the_written_ones() -> None:
    """The .mo files are committed: each must say what its .po says (``msgfmt`` after an
    edit: ``.venv/bin/python manage.py compilemessages``)."""
    for language in LANGUAGES:
        stale = [k for k, v in catalogue(language).items() if lookup(k, language) != v]
        assert stale == [], language


def test_every_message_fills_from_its_parameters() -> None:
    """A ``%`` that is not a placeholder is written ``%%``; every message renders."""
    for language in LANGUAGES:
        for key, template in catalogue(language).items():
            bare = re.sub(r"%\(\w+\)s|%%", "", template)
            assert "%" not in bare, (language, key, template)


def test_a_missing_code_fails_in_tests_and_is_the_code_at_run_time() -> None:
    with pytest.raises(MissingWords):
        words("E_NO_SUCH_CODE", {})
    assert words("E_NO_SUCH_CODE", {}, strict=False) == "E_NO_SUCH_CODE"
    with pytest.raises(MissingWords):
        words("E_BAD_RANK", {})  # a parameter the words need is missing
    # French a game has no words for yet falls back to the English at run time.
    assert words("E_BAD_RANK", {"rank": "Z"}, "xx", strict=False).startswith("'Z' is not")


# -- the codes of the rules files and of each game -----------------------------------------------

_CODE = re.compile(r"`((?:[A-Z]{2}_)?E_[A-Z0-9_]+)`")


def _rules_codes(name: str) -> set[str]:
    return set(_CODE.findall((RULES / name).read_text(encoding="utf-8")))


def _games() -> list[Game]:
    return [game_get(code) for code in GAMES]


def test_every_code_of_the_rules_files_has_its_words() -> None:
    codes = _rules_codes("README.md")
    for name in GAME_FILES.values():
        codes |= _rules_codes(name)
    assert set(COMMON_ERROR_CODES) <= codes
    for language in LANGUAGES:
        assert sorted(c for c in codes if lookup(c, language) is None) == [], language


@pytest.mark.parametrize("code", GAMES)
def test_each_game_declares_the_codes_of_its_rules_file(code: str) -> None:
    game = game_get(code)
    declared = set(game.error_codes)
    prefix = PREFIXES[code]
    own = {c for c in _rules_codes(GAME_FILES[code]) if c.startswith(f"{prefix}_E_")}
    assert sorted(own - declared) == []
    assert set(COMMON_ERROR_CODES) <= declared
    assert all(c in COMMON_ERROR_CODES or c.startswith(f"{prefix}_E_") for c in declared)


@pytest.mark.parametrize("code", GAMES)
def test_every_declared_code_has_its_words_in_both_languages(code: str) -> None:
    game = game_get(code)
    declared = (*game.error_codes, *game.reason_codes, *game.expected_codes, f"{code}.title")
    assert game.expected_codes and game.reason_codes
    for language in LANGUAGES:
        assert sorted(c for c in declared if lookup(c, language) is None) == [], language


# -- what the engine says over the corpus and random playouts -----------------------------------


def _said_codes(code: str, params: Values) -> Iterator[str]:
    """The code and every code its parameters name (as the loader will look them up)."""
    yield code
    for name, value in params.items():
        if name not in CODE_PARAMS:
            continue
        for item in value if isinstance(value, list) else [value]:
            for part in re.split(r"[|+]", str(item).lstrip("?")):
                yield CODE_PARAMS[name].format(part.rpartition(":")[2])


@cache
def _said() -> dict[str, list[tuple[str, dict[str, Any]]]]:
    """Per game, every (code, params) the engine said: its refusals and what it expected, over
    the whole scenario corpus and seeded random playouts."""
    said: dict[str, list[tuple[str, dict[str, Any]]]] = {code: [] for code in GAMES}

    def record(game: str, state: Any, action: Action) -> Any:
        engine = game_get(game)
        try:
            state = step(engine, state, action)
        except RuleError as error:
            said[game].append((error.code, dict(error.params)))
            return state
        expected = dict(engine.view(state)["expected"])
        said[game].append((str(expected.pop("code")), expected))
        return state

    for path in sorted(SCENARIOS.glob("*/**/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for document in data if isinstance(data, list) else [data]:
            try:
                scenario = scenario_load(document)
            except InvalidScenario as error:
                said[document["game"]].append((error.key, dict(error.params)))
                continue
            state = scenario.game.start(scenario.settings, scenario.seating)
            for raw in scenario.actions:
                state = record(scenario.game.code, state, Action.from_dict(raw))
    for game in GAMES:
        engine = game_get(game)
        settings, seated, seat_count = SETUPS[game]
        seating = Seating(seat_count, tuple((s, f"S{s}") for s in range(1, seated + 1)), ())
        for seed in PLAYOUT_SEEDS:
            rng = random.Random(seed)
            state = engine.start(engine.settings_validate(settings, seat_count), seating)
            for _ in range(PLAYOUT_STEPS):
                legal = engine.legal_actions(state)
                if not legal:
                    break
                choice = rng.choice(legal)
                actor = rng.choice(choice.actors)
                for action in _candidates(game, state, choice.type, actor, rng):
                    state = record(game, state, action)
                # A wrong one too: another actor, or an action of another state.
                other = rng.choice(list(engine.actions))
                state = record(game, state, Action(other, rng.choice([*choice.actors, 99]), {}))
    return said


@pytest.mark.parametrize("code", GAMES)
def test_the_engine_says_only_declared_codes(code: str) -> None:
    game = game_get(code)
    declared = {
        *game.error_codes,
        *game.reason_codes,
        *game.expected_codes,
        *(c for c in catalogue("en") if c.startswith(("W_", "P_", "S_", "SC_", "R_"))),
        *(f"{c}.title" for c in GAMES),
    }
    said = {c for code_, params in _said()[code] for c in _said_codes(code_, params)}
    assert len(said) > 10
    assert sorted(said - declared) == []


@pytest.mark.parametrize("code", GAMES)
def test_everything_the_engine_says_can_be_said_in_both_languages(code: str) -> None:
    seen: set[str] = set()
    for said, params in _said()[code]:
        assert all(isinstance(v, str | int | list) for v in params.values()), (said, params)
        key = json.dumps([said, params], sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        english = words(said, params, "en")  # strict under tests: a gap raises
        french = words(said, params, "fr")
        assert "%(" not in english + french, (said, params)
        named = {
            name
            for key in _said_codes(said, params)
            for name in placeholders(lookup(key, "en") or "")
        }
        for name in params.keys() & PERSON_PARAMS & named:
            value = params[name]
            if isinstance(value, str) and value != "croupier":
                assert value in english and value in french, (said, name)


# -- the words the console needs ----------------------------------------------------------------


def _label(family: str, code: str, game: str | None = None) -> bool:
    keys = [f"{family}.{code}"] + ([f"{game}.{family}.{code}"] if game else [])
    return all(any(lookup(k, language) for k in keys) for language in LANGUAGES)


@pytest.mark.parametrize("code", GAMES)
def test_every_action_type_has_its_label(code: str) -> None:
    game = game_get(code)
    assert sorted(t for t in game.actions if not _label("action", t, code)) == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("code", GAMES)
def test_a_refusal_names_the_actions_and_the_state_in_the_tables_words(
    code: str, language: str
) -> None:
    """E_WRONG_STATE and E_NOT_ELIGIBLE name action types and a state: said for a game, each is
    the game's label of it (its own first, then the shared one), never the engine's code."""
    game = game_get(code)
    for action in game.actions:
        expected = lookup(f"{code}.action.{action}", language) or lookup(
            f"action.{action}", language
        )
        assert expected is not None
        said = words(
            "E_WRONG_STATE",
            {"action": action, "where": "R_STATE", "state": "session_ended", "legal": [action]},
            language,
            game=code,
        )
        assert said.count(expected) >= 2, said
        ended = lookup("phase.session_ended", language)
        assert ended is not None and ended in said, said
    # Without a game, a game's own word is not guessed: the shared label, or the code.
    assert "stake" in words(
        "E_WRONG_STATE",
        {"action": "stake", "where": "R_STATE", "state": "x", "legal": []},
        language,
    )


@cache
def _views() -> list[dict[str, Any]]:
    views = []
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
            views.append({"settled": [coup.as_dict() for coup in state.coups]})
    return views


def test_every_phase_outcome_transfer_and_fault_has_its_word() -> None:
    views = _views()
    phases = {v["phase"] for v in views if "phase" in v}
    coups = [c for v in views for c in v.get("settled", [])]
    outcomes = {c["outcome"] for c in coups}
    reasons = {t["reason"] for c in coups for t in c["transfers"]}
    faults = {f for c in coups for f in c.get("faults") or []}
    faults |= {f for v in views for f in v.get("faults") or []}
    assert len(phases) > 20 and len(outcomes) > 5 and len(reasons) > 5
    assert sorted(p for p in phases if not _label("phase", p)) == []
    assert sorted(o for o in outcomes if not _label("outcome", o)) == []
    assert sorted(r for r in reasons if not _label("transfer", r)) == []
    assert sorted(f for f in faults if not _label("fault", f)) == []


# -- nobody else builds or parses the engine's sentences ------------------------------------------


def _modules() -> list[Path]:
    return [
        path
        for path in sorted((ROOT / "tables").rglob("*.py"))
        if path != ROOT / "tables" / "engine" / "words.py" and "migrations" not in path.parts
    ]


_GETTEXT = {"_", "gettext", "gettext_lazy", "pgettext", "ngettext"}


def _texts(source: str) -> list[str]:
    """The string literals of a module that could be shown: not its docstrings, not the
    messages of Django's own catalogue (``_("…")``)."""
    tree = ast.parse(source)
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                skipped.add(id(body[0].value))
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in _GETTEXT:
            skipped.update(id(arg) for arg in node.args)
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skipped
    ]


def test_no_module_holds_or_parses_the_engines_sentences() -> None:
    """The sentences live in the catalogue only: no module of tables/ carries the English of a
    message (a run of words of an error or a prompt), and the console no longer matches the
    engine's phrases with patterns."""
    fragments = set()
    for key, text in catalogue("en").items():
        if not re.fullmatch(r"(?:[A-Z]{2}_)?[EX]_[A-Z0-9_]+", key):
            continue
        for part in re.split(r"%\(\w+\)s", text):
            part = part.strip(" .;:,'()")
            if len(part.split()) >= 4:
                fragments.add(part)
    assert len(fragments) > 50
    found = []
    for path in _modules():
        source = path.read_text(encoding="utf-8")
        texts = _texts(source)
        found += [(path.name, f) for f in fragments for text in texts if f in text]
        assert "EXPECTED_PATTERNS" not in source and "expected_known" not in source, path
    assert found == []
    vocabulary = (ROOT / "tables" / "console" / "vocabulary.py").read_text(encoding="utf-8")
    screen = (ROOT / "tables" / "console" / "screen.py").read_text(encoding="utf-8")
    assert "EXPECTED_FIXED" not in vocabulary
    assert "re.compile" not in screen and '"Seat"' not in screen
