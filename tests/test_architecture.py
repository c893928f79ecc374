"""What adding a game touches, held against every registered game (docs/architecture.md).

The list is read from the "Adding a game" section of docs/architecture.md: each item names one
place, and each place has its check here. A registered game that lacks one of them fails; so does
an item of the list that nothing here checks, so the page and the test cannot drift apart.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tables.engine.game import Game
from tables.engine.registry import GAME_LIST
from tables.engine.words import LANGUAGES, lookup

ROOT = Path(__file__).resolve().parents[1]
ARCHITECTURE = ROOT / "docs" / "architecture.md"
GAME_MODULES = {"__init__", "settings", "state", "coup", "handlers", "legal"}


def _places() -> list[str]:
    """The first backquoted path of each item of the section "Adding a game"."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("## Adding a game", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^- `([^`]+)`", section, re.MULTILINE)


def _rules_file(game: Game) -> None:
    path = ROOT / "docs" / "rules" / game.rules_file
    assert path.is_file(), f"{game.code}: no rules file {path}"
    index = (ROOT / "docs" / "rules" / "README.md").read_text(encoding="utf-8")
    assert f"`{game.rules_file}`" in index, f"{game.code}: docs/rules/README.md does not list it"
    # The game's own codes carry its rules' prefix (CF_E_…, CF_X_…): its rules are numbered so.
    codes = (*game.error_codes, *game.reason_codes, *game.expected_codes)
    prefixes = {code[:2] for code in codes if re.match(r"^[A-Z]{2}_[A-Z]_", code)}
    assert len(prefixes) == 1, f"{game.code}: its codes carry the prefixes {sorted(prefixes)}"
    prefix = prefixes.pop()
    text = path.read_text(encoding="utf-8")
    assert re.search(rf"\b{prefix}-\d", text), f"{game.code}: no rule {prefix}-N"


def _package(game: Game) -> None:
    folder = ROOT / "tables" / "engine" / game.code
    modules = {p.stem for p in folder.glob("*.py")}
    assert modules == GAME_MODULES, f"{game.code}: {sorted(modules)} is not the games' layout"
    assert importlib.import_module(f"tables.engine.{game.code}").GAME is game


def _registry(game: Game) -> None:
    assert [g.code for g in GAME_LIST].count(game.code) == 1


def _scenarios(game: Game) -> None:
    folder = ROOT / "tests" / "scenarios" / game.code
    assert list(folder.glob("*.json")), f"{game.code}: no scenario in {folder}"
    assert list((folder / "examples").glob("*.json")), f"{game.code}: no worked example"


def _words(game: Game) -> None:
    codes = [
        f"{game.code}.title",
        *game.error_codes,
        *game.reason_codes,
        *game.expected_codes,
    ]
    for language in LANGUAGES:
        missing = [code for code in codes if lookup(code, language) is None]
        assert not missing, f"{game.code}: no {language} words for {missing}"
        actions = [
            name
            for name in game.actions
            if lookup(f"{game.code}.action.{name}", language) is None
            and lookup(f"action.{name}", language) is None
        ]
        assert not actions, f"{game.code}: no {language} label for the actions {actions}"


CHECKS: dict[str, Callable[[Game], None]] = {
    "docs/rules/<rules file>": _rules_file,
    "tables/engine/<game>/": _package,
    "tables/engine/registry.py": _registry,
    "tests/scenarios/<game>/": _scenarios,
    "locale/<language>/LC_MESSAGES/engine.po": _words,
}


def test_the_page_lists_exactly_the_places_checked_here() -> None:
    assert sorted(_places()) == sorted(CHECKS)


@pytest.mark.parametrize("place", sorted(CHECKS))
@pytest.mark.parametrize("game", GAME_LIST, ids=lambda game: game.code)
def test_every_registered_game_has_every_place(game: Game, place: str) -> None:
    CHECKS[place](game)


def test_every_game_package_is_registered() -> None:
    packages = {p.parent.name for p in (ROOT / "tables" / "engine").glob("*/handlers.py")}
    assert packages == {game.code for game in GAME_LIST}
