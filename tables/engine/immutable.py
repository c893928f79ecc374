"""The one way the engine derives a new state from an old one (COM-10.1: a state is never
changed in place).

``replace(state, field=value, ...)`` is ``dataclasses.replace`` for the engine's frozen
dataclasses, without its per-field walk: the new object shares every field of the old one but
those named (structural sharing, nothing is copied deeply). It is the fold's hottest call, a few
times per action (bench/engine.py). It runs no ``__init__`` and so no ``__post_init__``: it is
for the states and their parts, never for a record that validates itself (``Transfer``,
``CoupRecord``, built whole). Type checkers see ``dataclasses.replace``, whose field names and
types they check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

_T = TypeVar("_T")

if TYPE_CHECKING:
    from dataclasses import replace as replace
else:
    _new = object.__new__
    _set = object.__setattr__  # a frozen dataclass refuses its own __setattr__

    def replace(obj: _T, /, **changes: Any) -> _T:
        new = _new(obj.__class__)
        fields = obj.__dict__.copy()
        fields.update(changes)
        _set(new, "__dict__", fields)
        return new
