"""A small, thread-safe memo of computed values: the console's and the selectors' per-process
caches (table references, players' names, rendered regions, earlier cagnotte) share it."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Memo(Generic[V]):
    """The last `size` values computed, by key, least recently used out first; each kept at
    most `lifetime` seconds when one is given. The value is computed outside the lock (two
    threads may compute the same one; both answers are equal)."""

    def __init__(self, size: int, lifetime: float | None = None) -> None:
        self._size = size
        self._lifetime = lifetime
        self._items: OrderedDict[Hashable, tuple[float, V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        """The value kept for `key`, or None."""
        now = time.monotonic()
        with self._lock:
            found = self._items.get(key)
            if found is not None and (self._lifetime is None or now - found[0] < self._lifetime):
                self._items.move_to_end(key)
                return found[1]
        return None

    def put(self, key: Hashable, value: V) -> None:
        """Keep `value` for `key` (a writer's, once its transaction committed, say)."""
        with self._lock:
            self._items[key] = (time.monotonic(), value)
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def get_or_compute(self, key: Hashable, compute: Callable[[], V]) -> V:
        found = self.get(key)
        if found is not None:
            return found
        value = compute()
        self.put(key, value)
        return value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
