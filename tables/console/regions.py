"""What each region of the table screen is drawn from, so that a region drawn before is not
drawn again (docs/conventions.md, P1: the console under load).

An action changes a few regions of the table screen; the others (the seats, the claims table,
the sabot's counts, the last coups) come out the same. Each region's markup is a function of
the inputs listed here and of the language: the rendered markup is kept by a digest of those
inputs. `tests/console/test_regions.py` draws every region of every worked example with and
without this cache and compares them, so a template that starts reading something not listed
here fails there first.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.utils import translation
from django.utils.safestring import SafeString

from tables.memo import Memo
from tables.words import LEVY_SETTINGS

# Off in the test that checks the inputs below against a fresh rendering.
ENABLED = True


def _pack(screen: Any, *names: str) -> tuple[Any, ...]:
    pack = screen.pack or {}
    return tuple(pack.get(name) for name in names)


def _view(screen: Any, *names: str) -> tuple[Any, ...]:
    view = screen.state.view
    return tuple(view.get(name) for name in names)


def _levy(screen: Any) -> tuple[Any, ...]:
    """What the levy's words read of the séance's settings (`tables.words.levy_text`)."""
    settings = screen.state.table_session.settings
    return tuple(settings.get(name) for name in LEVY_SETTINGS)


# Region -> what its partial in templates/console/table.html reads (None: always drawn).
INPUTS: dict[str, Callable[[dict[str, Any]], object] | None] = {
    "state": lambda c: (
        c["screen"].phase,
        c["screen"].expected,
        c["screen"].state.interrupted,
        c["screen"].state.is_open,
    ),
    "facts": lambda c: (
        c["screen"].banker,
        c["screen"].bank,
        c["screen"].to_cover,
        c["screen"].reliquat,
        _view(c["screen"], "bank_rule", "holding", "reserve_fund"),
        c["screen"].state.cagnotte_chips,
        _levy(c["screen"]),
    ),
    "cards": lambda c: (c["screen"].hands, _view(c["screen"], "faults")),
    "sabot": lambda c: (bool(c["screen"].pack), _pack(c["screen"], "left", "before_stop_card")),
    "counts": lambda c: (bool(c["screen"].pack), _pack(c["screen"], "counts")),
    "actions": lambda c: (
        c["notice"],
        c["problem"],
        c["screen"].state.legal_types,
        c["screen"].controls,
    ),
    "claims": lambda c: c["screen"].claimants,
    "seats": lambda c: (c["screen"].seats, c["screen"].standing),
    "stakes": lambda c: c["screen"].stakes,
    "voids": None,  # links and the inspector's buttons: few, drawn each time
}


def row_inputs(row: Any) -> object:
    """What a coup's row reads: the coup's own figures, its void status and, in a house that
    tears tickets, the tickets to detach."""
    coup = row.coup
    return (
        coup.pk,
        coup.number,
        coup.settled_seq,
        bool(getattr(coup, "is_voided", False)),
        bool(getattr(coup, "void_pending", False)),
        tuple(coup.faults or ()),
        row.outcome,
        row.banker,
        row.results,
        getattr(row, "tickets", None),
    )


class _Rendered:
    """Rendered regions by (name, language, digest of their inputs)."""

    def __init__(self, size: int = 4096) -> None:
        self._memo: Memo[SafeString] = Memo(size)

    def get_or_render(
        self, name: str, inputs: object, render: Callable[[], SafeString]
    ) -> SafeString:
        if not ENABLED:
            return render()
        digest = hashlib.blake2b(repr(inputs).encode(), digest_size=16).digest()
        return self._memo.get_or_compute((name, translation.get_language() or "", digest), render)

    def clear(self) -> None:
        self._memo.clear()


rendered = _Rendered()
