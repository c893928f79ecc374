"""``python -m tables.engine replay|check FILE...`` (SCENARIOS.md "The command"), and
``simulate`` and ``exact`` (docs/odds.md, "Running the simulator")::

    python -m tables.engine simulate GAME --coups N --seed S [--set name=value ...]
        [--strategy NAME] [--param name=value ...] [--fresh] [--json]
    python -m tables.engine exact GAME [--set name=value ...] [--strategy NAME]
        [--param name=value ...] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tables.engine.errors import RuleError
from tables.engine.scenario import InvalidScenario, check_one, replay, result_of, scenario_load
from tables.engine.words import words

USAGE = (
    "usage: python -m tables.engine replay|check FILE.json [FILE.json ...]\n"
    "       python -m tables.engine simulate|exact GAME [options] (--help for the options)"
)


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


# -- simulate and exact (docs/odds.md) ---------------------------------------------------------


def _pairs(items: Sequence[str] | None, what: str) -> dict[str, str]:
    """``name=value`` items as a mapping of texts; a malformed one is a usage error."""
    found: dict[str, str] = {}
    for item in items or ():
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise ValueError(f"{what} {item!r}: expected name=value")
        found[name] = value
    return found


def _setting(text: str) -> Any:
    """A table setting from the command line: JSON (``3``, ``true``, ``null``), ``none`` for
    no value, or else the text itself (``nearest``)."""
    if text.lower() == "none":
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text


def _parser(command: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=f"python -m tables.engine {command}")
    parser.add_argument("game", help="the game's code (chemin_de_fer, lansquenet_moderne, …)")
    if command == "simulate":
        parser.add_argument("--coups", type=int, required=True, help="coups to play")
        parser.add_argument("--seed", type=int, required=True, help="the run's seed")
        parser.add_argument(
            "--fresh", action="store_true", help="every coup from a new pack (docs/odds.md)"
        )
    parser.add_argument("--set", action="append", metavar="NAME=VALUE", help="a table setting")
    parser.add_argument("--strategy", help="a named strategy of the game (docs/odds.md)")
    parser.add_argument("--param", action="append", metavar="NAME=VALUE", help="its parameter")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def _statistic(value: float) -> str:
    return f"{value:.6f}" if value == value else "–"  # NaN: not enough observations


def _print_measures(found: Mapping[str, Mapping[str, Any]]) -> None:
    print(f"{'measure':<32}{'mean':>12}{'se':>12}{'n':>12}")
    for name, measure in found.items():
        mean, se = _statistic(measure["mean"]), _statistic(measure["se"])
        print(f"{name:<32}{mean:>12}{se:>12}{measure['n']:>12}")


def _described(data: Mapping[str, Any]) -> str:
    params = ", ".join(f"{k}={v}" for k, v in data["params"].items())
    settings = ", ".join(f"{k}={v}" for k, v in data["settings"].items())
    return f"strategy {data['strategy']} ({params})\nsettings: {settings}"


def _simulate(args: argparse.Namespace) -> int:
    from tables.engine.simulate import simulate

    began = time.perf_counter()
    found = simulate(
        args.game,
        coups=args.coups,
        seed=args.seed,
        settings={k: _setting(v) for k, v in _pairs(args.set, "--set").items()},
        strategy=args.strategy,
        params=_pairs(args.param, "--param"),
        fresh=args.fresh,
    )
    seconds = time.perf_counter() - began
    data = found.as_json()
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
        return 0
    fresh = ", every coup from a new pack" if args.fresh else ""
    print(f"{args.game}: {args.coups} coups, seed {args.seed}{fresh}")
    print(_described(data))
    _print_measures(data["measures"])
    rate = args.coups / seconds if seconds > 0 else float("inf")
    print(f"{args.coups} coups in {seconds:.2f} s: {rate:,.0f} coups/s")
    return 0


def _exact(args: argparse.Namespace) -> int:
    from tables.engine.simulate import strategy_get
    from tables.engine.simulate.exact import exact_values
    from tables.engine.simulate.runner import table_settings

    strategy = strategy_get(args.game, args.strategy, _pairs(args.param, "--param"))
    raw = {k: _setting(v) for k, v in _pairs(args.set, "--set").items()}
    settings = table_settings(args.game, raw, strategy.params["players"])
    data = exact_values(args.game, settings, strategy).as_json()
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
        return 0
    print(f"{args.game}: {data['applies_to']}")
    print(_described(data))
    if not data["values"]:
        print("no value is known for these settings and this strategy")
    print(f"{'measure':<32}{'value':>14}  method")
    for name, value in data["values"].items():
        se = f" (se {value['se']:.6f}, {value['coups']} observations)" if "se" in value else ""
        print(f"{name:<32}{value['value']:>14.8f}  {value['method']}{se}")
    return 0


def _run(command: str, argv: Sequence[str]) -> int:
    """``simulate`` or ``exact``: 2 for what cannot be run as asked (a usage error, a setting
    or a strategy that does not exist), 1 if the engine refused an action of the strategy."""
    from tables.engine.simulate import StrategyError

    args = _parser(command).parse_args(argv)
    try:
        return _simulate(args) if command == "simulate" else _exact(args)
    except (ValueError, StrategyError) as error:
        print(f"{command}: {error}", file=sys.stderr)
        return 2
    except RuleError as error:
        message = f"{error.code}: {words(error.code, error.params)}"
        if error.code == "E_SETTING":
            print(f"{command}: {message}", file=sys.stderr)
            return 2
        print(f"{command}: the engine refused the strategy's action: {message}", file=sys.stderr)
        return 1


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in ("simulate", "exact"):
        return _run(args[0], args[1:])
    if len(args) < 2 or args[0] not in ("replay", "check"):
        print(USAGE, file=sys.stderr)
        return 2
    command, paths = args[0], args[1:]
    return _replay(paths) if command == "replay" else _check(paths)


if __name__ == "__main__":
    sys.exit(main())
