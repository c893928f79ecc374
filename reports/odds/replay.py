"""A table session's recorded coups, replayed, as the simulator measures them (docs/odds.md).

The journal is folded through the engine exactly as `tables.services.journal` folds it: the
opening seating, then every `ACTION` event that no undo or void has set aside (COM-10.1). Each
time an action settles a coup, the simulator's own observer for the game
(`tables.engine.simulate.runner.GAME_RUNS`) reads the state before and after, the coup's record,
the cards the coup drew and whether its first card was the first of a pack, and gives the coup's
measures as integer pairs `(x, y)`; the audit therefore computes the same measures from the
recorded coups as the simulator from its own.

The cards a coup drew are the cards its actions record (a `rank`, the four of a chemin de fer
deal, CF-3.5), since the last coup was settled, as the simulator counts the cards its shoe
deals. A coup is the first of its pack when, at its first card, the engine's card tracking
(COM-2.2) has recorded nothing since the pack was formed (COM-2.1: `new_shoe`, `shuffle_pack`,
`start_coup`); the lansquenet moderne `doublet` is measured on those only (LM-3.3).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from reports.odds.expected import Conditions, coup_conditions
from tables.engine import Action, step
from tables.engine.simulate.runner import GAME_RUNS, GameRun, Observed
from tables.models import EventKind, TableSession
from tables.services.journal import engine_start

Observation = tuple[tuple[str, int, int], ...]
# An event of the journal as the selectors read it: (seq, kind, action, sets aside, recorded at).
EventRow = tuple[int, str, Mapping[str, Any], list[int], datetime]


@dataclass(frozen=True)
class CoupSeen:
    """A settled coup of the replay: where and when, who held the bank, what it measured."""

    table_session_id: int
    number: int
    banker: str  # the engine's code of the banker (a player's member number), "" if none
    settled_at: datetime
    observed: Observation
    conditions: Conditions


def _cards_in(action: Mapping[str, Any]) -> int:
    """The cards an action records: its `rank`, or the ranks of a deal (CF-3.5)."""
    found = 1 if "rank" in action else 0
    for value in action.values():
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            found += len(value)
    return found


def _drawn(run: GameRun, state: Any) -> int:
    pack = run.pack_of(state)
    return pack.drawn if pack is not None else 0


def coups_replayed(table_session: TableSession, events: Iterable[EventRow]) -> Iterator[CoupSeen]:
    """The live coups of `table_session` from its journal `events` in order, with their
    measures (the module's docstring); a coup the simulator does not measure (CF-4.3.1 no play)
    gives no observation but is still a coup of the replay."""
    rows = list(events)
    aside = {seq for _s, kind, _a, sets, _t in rows if kind in _CORRECTIONS for seq in sets}
    opening = next((action for _s, kind, action, _a, _t in rows if kind == EventKind.OPEN), None)
    game, state = engine_start(table_session, opening)
    run = GAME_RUNS[game.code]
    formed = _drawn(run, state)  # the pack's recorded cards when it was formed
    cards = 0  # the cards drawn since the last coup was settled
    first: bool | None = None  # whether the coup in play began on its pack's first card
    for seq, kind, action, _sets, at in rows:
        if kind != EventKind.ACTION or seq in aside:
            continue
        before = state
        state = step(game, before, Action.from_dict(action))
        if action.get("type") in run.new_pack:
            formed = _drawn(run, state)
        more = _cards_in(action)
        if more:
            if first is None:
                first = _drawn(run, before) == formed
            cards += more
        for record in state.coups[len(before.coups) :]:
            seen = Observed(cards, bool(first))
            yield CoupSeen(
                table_session_id=table_session.pk,
                number=record.number,
                banker=before.banker or "",
                settled_at=at,
                observed=tuple(run.observe(before, state, record, seen)),
                conditions=coup_conditions(game.code, before, state),
            )
            cards, first = 0, None


_CORRECTIONS = frozenset({EventKind.UNDO, EventKind.VOID})
