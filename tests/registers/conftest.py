"""A night played from the scenarios, closed and settled: what the registers are read from."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from reports.models import SettlementReport
from tests.ledger.test_settlement import SESSION_SCENARIOS, Night, close_night, play_night


@pytest.fixture
def settled(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> tuple[Night, SettlementReport]:
    night = play_night(SESSION_SCENARIOS[:2])
    return night, close_night(night, django_capture_on_commit_callbacks)
