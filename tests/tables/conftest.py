"""The fixtures the table's tests share: a floor of staff around an open gaming session, and the
commit callbacks run as a service's caller would see them (tasks sent after the commit)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from functools import partial
from typing import Any

import pytest

from tests.concurrency.kit import Floor, floor_open

Around = Callable[[], AbstractContextManager[Any]]


@pytest.fixture
def floor() -> Floor:
    return floor_open()


@pytest.fixture
def around(
    django_capture_on_commit_callbacks: Callable[..., AbstractContextManager[Any]],
) -> Around:
    return partial(django_capture_on_commit_callbacks, execute=True)
