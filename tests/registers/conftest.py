"""A night played from the scenarios, closed and settled: what the registers are read from
(the fixture of tests/ledger/conftest.py)."""

from __future__ import annotations

from tests.ledger.conftest import settled  # noqa: F401 (the fixture)
