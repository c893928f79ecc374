"""``python -m tables.engine replay|check FILE...`` (SCENARIOS.md "The command")."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tables.engine.scenario import InvalidScenario, check_one, replay, result_of, scenario_load

USAGE = "usage: python -m tables.engine replay|check FILE.json [FILE.json ...]"


def _documents(path: str) -> list[Any]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return data if isinstance(data, list) else [data]


def _replay(paths: Sequence[str]) -> int:
    status = 0
    for path in paths:
        try:
            documents = _documents(path)
        except (OSError, ValueError) as error:
            print(f"{path}: E_BAD_ACTION: not a readable JSON file ({error})", file=sys.stderr)
            status = 2
            continue
        for data in documents:
            try:
                scenario = scenario_load(data)
            except InvalidScenario as error:
                print(f"{path}: {error.code}: {error.message}", file=sys.stderr)
                status = 2
                continue
            result = result_of(scenario.name, replay(scenario))
            print(json.dumps(result, ensure_ascii=False))
    return status


def _check(paths: Sequence[str]) -> int:
    passed = failed = 0
    for path in paths:
        try:
            documents = _documents(path)
        except (OSError, ValueError) as error:
            print(f"FAIL {path}: not a readable JSON file ({error})")
            failed += 1
            continue
        for data in documents:
            outcome = check_one(data)
            if outcome.passed:
                passed += 1
                print(f"PASS {outcome.name}")
            else:
                failed += 1
                print(f"FAIL {outcome.name}: {outcome.detail}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 2 or args[0] not in ("replay", "check"):
        print(USAGE, file=sys.stderr)
        return 2
    command, paths = args[0], args[1:]
    return _replay(paths) if command == "replay" else _check(paths)


if __name__ == "__main__":
    sys.exit(main())
