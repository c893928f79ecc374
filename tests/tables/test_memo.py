"""The per-process memo the console, the selectors and the recording service's caches share
(tables/memo.py): a value kept by key, the least recently used out first past its size."""

from __future__ import annotations

from tables.memo import Memo


def test_a_value_put_is_got_and_the_least_recently_used_goes_first() -> None:
    memo: Memo[int] = Memo(size=2)
    memo.put("a", 1)
    memo.put("b", 2)
    assert memo.get("a") == 1  # "a" used: "b" is now the least recently used
    memo.put("c", 3)

    assert memo.get("b") is None
    assert (memo.get("a"), memo.get("c")) == (1, 3)
    assert memo.get_or_compute("a", lambda: 99) == 1
    assert memo.get_or_compute("d", lambda: 4) == 4 and memo.get("d") == 4
