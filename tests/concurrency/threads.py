"""Run service calls from several threads at once, each on its own database connection."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection


@dataclass
class Outcome:
    value: Any = None
    error: BaseException | None = None


def together(calls: Sequence[Callable[[], Any]], timeout: float = 120) -> list[Outcome]:
    """Start every call at the same instant (a barrier); wait for all; results in order."""
    barrier = threading.Barrier(len(calls))
    outcomes = [Outcome() for _ in calls]

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            outcomes[index].value = call()
        except BaseException as error:  # reported to the test, never swallowed
            outcomes[index].error = error
        finally:
            connection.close()

    threads = [
        threading.Thread(target=run, args=(index, call), daemon=True)
        for index, call in enumerate(calls)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
        assert not thread.is_alive(), "a thread is stuck (a deadlock?)"
    return outcomes


def slowed(function: Callable[..., Any], seconds: float) -> Callable[..., Any]:
    """`function`, sleeping first: widens the window between a check and the write after it."""
    import time

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        time.sleep(seconds)
        return function(*args, **kwargs)

    return wrapper
