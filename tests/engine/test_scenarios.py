"""Every scenario of the corpus passes ``check``, and the corpus covers every rule.

The worked examples of ``docs/rules/examples/`` are copied into ``tests/scenarios/<game>/examples/``
so that a fresh clone tests itself; when the team's shared folder (``../shared/``) is present, the
copies must be identical to it (SCENARIOS.md, the rules issue).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tables.engine.scenario import check_one

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"
RULES = ROOT / "docs" / "rules"
SHARED_RULES = ROOT.parent / "shared" / "rules"
# The rule files of the project's own, beside the shared ones: the levy models.
OWN_RULES = {Path("levy.md")}

GAME_FILES = {
    "chemin_de_fer": ("chemin-de-fer.md", "CF"),
    "lansquenet_moderne": ("lansquenet-moderne.md", "LM"),
    "lansquenet_classique": ("lansquenet-classique.md", "LC"),
    "landsknecht": ("landsknecht-russe.md", "LR"),
    "pontoon": ("pontoon.md", "PT"),
}


def _documents(path: Path) -> list[Any]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return data if isinstance(data, list) else [data]


def _scenario_files() -> list[Path]:
    return sorted(SCENARIOS.glob("*/**/*.json"))


def _cases() -> list[Any]:
    cases = []
    for path in _scenario_files():
        for index, data in enumerate(_documents(path)):
            label = f"{path.relative_to(SCENARIOS)}#{index}"
            cases.append(pytest.param(data, id=label))
    return cases


@pytest.mark.parametrize("data", _cases())
def test_scenario_passes_check(data: Any) -> None:
    outcome = check_one(data)
    assert outcome.passed, outcome.detail


def test_every_game_has_its_examples_and_a_corpus() -> None:
    for game in GAME_FILES:
        folder = SCENARIOS / game
        examples = sorted((folder / "examples").glob("*.json"))
        assert examples, f"{game}: no worked examples copied"
        own = sorted(folder.glob("*.json"))
        assert len(own) >= 25, f"{game}: {len(own)} scenarios of our own, 25 at least expected"


def _corpus_text(game: str) -> str:
    texts = []
    for path in sorted((SCENARIOS / game).glob("**/*.json")):
        for data in _documents(path):
            if isinstance(data, dict):
                texts.append(str(data.get("name", "")))
                texts.append(str(data.get("why", "")))
                texts += [str(a.get("expect_error", "")) for a in data.get("actions", [])]
                texts.append(str(data.get("expect_invalid", "")))
                for rejection in data.get("expect", {}).get("rejections", []):
                    texts.append(str(rejection.get("code", "")))
    return "\n".join(texts)


@pytest.mark.parametrize("game", sorted(GAME_FILES))
def test_corpus_cites_every_rule_and_every_error_code(game: str) -> None:
    """COM-0.1: every rule has at least one test; every error code is exercised."""
    filename, prefix = GAME_FILES[game]
    text = (RULES / filename).read_text(encoding="utf-8")
    rule_ids = set(re.findall(rf"\b{prefix}-(?:I?\d+)(?:\.\d+)*\b", text))
    codes = set(re.findall(r"\bE_[A-Z_]+\b", text))
    corpus = _corpus_text(game)
    cited = set(re.findall(rf"\b{prefix}-(?:I?\d+)(?:\.\d+)*\b", corpus))
    # A rule is covered when it or one of its sub-rules is cited (LM-4 by LM-4.2).
    missing_rules = sorted(
        rule
        for rule in rule_ids
        if not any(c == rule or c.startswith(rule + ".") for c in cited)
        and not re.fullmatch(rf"{prefix}-X\d+", rule)
    )
    missing_codes = sorted(code for code in codes if code not in corpus)
    assert not missing_rules, f"rules never cited by a {game} scenario: {missing_rules}"
    assert not missing_codes, f"error codes never exercised by a {game} scenario: {missing_codes}"


def test_examples_are_copies_of_the_rules_examples() -> None:
    for game in GAME_FILES:
        for original in sorted((RULES / "examples" / game).glob("*.json")):
            copy = SCENARIOS / game / "examples" / original.name
            assert copy.read_bytes() == original.read_bytes(), f"{copy} differs from {original}"


@pytest.mark.skipif(not SHARED_RULES.is_dir(), reason="the shared rules folder is not beside us")
def test_rules_are_copies_of_the_shared_rules() -> None:
    """On a team machine, docs/rules/ must be an exact copy of ../shared/rules/, but for the
    rules the project adds of its own (``OWN_RULES``)."""
    shared = {p.relative_to(SHARED_RULES) for p in SHARED_RULES.rglob("*") if p.is_file()}
    ours = {p.relative_to(RULES) for p in RULES.rglob("*") if p.is_file()}
    assert shared == ours - OWN_RULES
    for relative in shared:
        assert (RULES / relative).read_bytes() == (SHARED_RULES / relative).read_bytes(), relative


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tables.engine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_cli_check_prints_one_line_per_scenario_and_a_summary() -> None:
    files = sorted(str(p) for p in (SCENARIOS / "pontoon" / "examples").glob("*.json"))
    done = _run("check", *files)
    lines = done.stdout.strip().splitlines()
    total = sum(len(_documents(Path(f))) for f in files)
    assert done.returncode == 0, done.stdout
    assert lines[-1] == f"{total} passed, 0 failed"
    assert all(line.startswith("PASS ") for line in lines[:-1])


def test_cli_replay_prints_json_lines(tmp_path: Path) -> None:
    example = SCENARIOS / "chemin_de_fer" / "examples" / "CF-X1.json"
    done = _run("replay", str(example))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert set(result) == {
        "name",
        "coups",
        "session_transfers",
        "totals",
        "rejections",
        "state",
        "banker",
        "legal_actions",
    }
    assert result["totals"] == {"S1": 500, "reliquat:S1": 450, "S3": -1000, "cagnotte": 50}


def test_cli_replay_exits_2_on_an_invalid_scenario(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps({"name": "bad", "game": "pontoon", "settings": {"decks": 2}, "actions": []})
    )
    done = _run("replay", str(bad))
    assert done.returncode == 2
    assert "E_SETTING" in done.stderr
    unknown = tmp_path / "unknown.json"
    unknown.write_text(json.dumps({"name": "x", "game": "poker", "actions": []}))
    assert _run("replay", str(unknown)).returncode == 2


def test_cli_check_fails_on_a_wrong_expectation(tmp_path: Path) -> None:
    data = _documents(SCENARIOS / "chemin_de_fer" / "examples" / "CF-X1.json")[0]
    data["expect"]["totals"] = {"S1": 1}
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(data))
    done = _run("check", str(wrong))
    assert done.returncode == 1
    assert done.stdout.splitlines()[-1] == "0 passed, 1 failed"
    assert done.stdout.startswith("FAIL ")


def test_cli_usage_error() -> None:
    assert _run("frobnicate").returncode == 2
