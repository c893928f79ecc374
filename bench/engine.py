"""Engine replay throughput: actions per second folded through `tables.engine.step`.

    .venv/bin/python bench/engine.py [--actions 20000] [--repeat 5] [--seed 1] [--coups 5000]
        [--cpu]

Three workloads per game, each timed `--repeat` times (the median is printed):

- corpus: every valid scenario of tests/scenarios/<game>/ replayed from its start (settings
  validated, seating, each action; refused ones included, as `record` meets them);
- long session: one random session of about `--actions` accepted actions, generated with the
  parameter generators of the engine's own playouts (tests/engine/test_<game>.py), then
  replayed as one fold — what `tables.services.journal.journal_build` does on a cold cache;
- simulate: `--coups` coups played by the game's default strategy (`python -m tables.engine
  simulate`, docs/odds.md), its coups per second (0 skips it).

No database. Prints one line per game and workload: the actions folded and the coups settled in
the folded sessions, per second (wall clock, or with `--cpu` the process's CPU time: median of
`--repeat`).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tables.engine import GAMES, Action, RuleError, Seating, game_get, step  # noqa: E402
from tables.engine.scenario import scenario_load  # noqa: E402

SETUPS: dict[str, tuple[dict[str, Any], int, int]] = {  # settings, seated, seat count
    "chemin_de_fer": ({"decks": 8, "chip_unit": 10, "min_bank": 100, "min_stake": 10}, 6, 12),
    "lansquenet_moderne": ({"decks": 2, "chip_unit": 5, "min_bank": 20, "min_stake": 5}, 5, 12),
    "landsknecht": ({"chip_unit": 1, "reserve_contribution": 10, "agreed_stake": 40}, 5, 12),
    "pontoon": ({"chip_unit": 1, "min_stake": 5, "max_stake": 50}, 5, 8),
    "lansquenet_classique": ({"base_stake": 10}, 5, 12),
}
# The table keeps its players all night: no one leaves, no one ends the session.
RARE = {"end_session": 0.0, "leave": 0.0, "sit": 0.0, "add_standing": 0.0, "give_up_bank": 0.05}


def _corpus(game: str) -> list[tuple[Any, list[Action]]]:
    import json

    runs = []
    for path in sorted((ROOT / "tests" / "scenarios" / game).glob("**/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for item in data if isinstance(data, list) else [data]:
            if "expect_invalid" in item:
                continue
            scenario = scenario_load(item)
            actions = [{k: v for k, v in a.items() if k != "expect_error"} for a in item["actions"]]
            runs.append((scenario, [Action.from_dict(a) for a in actions]))
    return runs


def _replay_corpus(runs: list[tuple[Any, list[Action]]]) -> int:
    """Replay every scenario; the coups settled in all of them."""
    coups = 0
    for scenario, actions in runs:
        engine = scenario.game
        state = engine.start(scenario.settings, scenario.seating)
        for action in actions:
            with contextlib.suppress(RuleError):  # refused actions are replayed too
                state = step(engine, state, action)
        coups += len(state.coups)
    return coups


def _candidates(game: str, state: Any, kind: str, actor: Any, rng: random.Random) -> list[Any]:
    """Parameters from the engine playouts' generators (imported from tests/engine/)."""
    serial = [rng.randrange(10**9)]
    if game == "chemin_de_fer":
        from tests.engine.test_chemin_de_fer import Driver

        return [Action(kind, actor, p) for p in Driver(rng, state).candidates(kind, actor)]
    if game == "lansquenet_moderne":
        from tests.engine.test_lansquenet_moderne import _params

        return [Action(kind, actor, _params(rng, state, kind, serial))]
    if game == "landsknecht":
        from tests.engine.test_landsknecht import _random_params

        return [Action(kind, actor, _random_params(rng, state, kind))]
    if game == "pontoon":
        from tests.engine.test_pontoon import _valid_params

        return [Action(kind, actor, _valid_params(rng, state, kind, serial[0]))]
    from tests.engine.test_lansquenet_classique import _random_action

    return [_random_action(rng, state, serial)]


def long_session(game: str, actions: int, seed: int) -> tuple[Any, list[Action]]:
    engine = game_get(game)
    settings, seated, seat_count = SETUPS[game]
    seating = Seating(seat_count, tuple((s, f"S{s}") for s in range(1, seated + 1)), ())
    start = engine.start(engine.settings_validate(settings, seat_count), seating)
    rng = random.Random(seed)
    state, accepted = start, list[Action]()
    while len(accepted) < actions:
        legal = [la for la in engine.legal_actions(state) if RARE.get(la.type, 1.0) > 0]
        if not legal:
            break
        choice = rng.choices(legal, [RARE.get(la.type, 1.0) for la in legal])[0]
        for action in _candidates(game, state, choice.type, rng.choice(choice.actors), rng):
            if RARE.get(action.type, 1.0) == 0:
                continue  # lansquenet classique's generator picks its own action
            try:
                state = step(engine, state, action)
            except RuleError:
                continue
            accepted.append(action)
            break
    return start, accepted


def _fold(game: str, start: Any, actions: list[Action]) -> int:
    engine = game_get(game)
    state = start
    for action in actions:
        state = step(engine, state, action)
    return len(state.coups)


def _simulated(game: str, coups: int, seed: int) -> int:
    from tables.engine.simulate import simulate

    return simulate(game, coups=coups, seed=seed).tallies.by_name["cards_per_coup"].n


CLOCK = time.perf_counter


def _timed(call: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        began = CLOCK()
        call()
        times.append(CLOCK() - began)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--coups", type=int, default=5_000, help="simulated coups (0: none)")
    parser.add_argument(
        "--cpu", action="store_true", help="time the process's CPU, not the wall clock"
    )
    args = parser.parse_args()
    if args.cpu:  # on a machine shared with other work, the CPU this process was given
        global CLOCK
        CLOCK = time.process_time
    print(
        f"{'game':<22}{'workload':<14}{'actions':>9}{'coups':>8}{'median s':>10}"
        f"{'actions/s':>12}{'coups/s':>10}"
    )

    def line(game: str, workload: str, actions: int | None, coups: int, seconds: float) -> None:
        rate = f"{actions / seconds:>12,.0f}" if actions is not None else f"{'':>12}"
        shown = f"{actions:>9}" if actions is not None else f"{'':>9}"
        print(
            f"{game:<22}{workload:<14}{shown}{coups:>8}{seconds:>10.3f}{rate}"
            f"{coups / seconds:>10,.0f}",
            flush=True,
        )

    for game in GAMES:
        runs = _corpus(game)
        count = sum(len(a) for _, a in runs)
        coups = _replay_corpus(runs)
        seconds = _timed(lambda r=runs: _replay_corpus(r), args.repeat)
        line(game, "corpus", count, coups, seconds)
        start, actions = long_session(game, args.actions, args.seed)
        coups = _fold(game, start, actions)
        seconds = _timed(lambda g=game, s=start, a=actions: _fold(g, s, a), args.repeat)
        line(game, "long session", len(actions), coups, seconds)
        if args.coups:
            seconds = _timed(lambda g=game: _simulated(g, args.coups, args.seed), args.repeat)
            line(game, "simulate", None, args.coups, seconds)


if __name__ == "__main__":
    main()
