"""The tickets of a levy (docs/registers.md, "Tickets"; arts. 59, 82)."""

from __future__ import annotations

import pytest

from tables.tickets import tickets_for


def test_the_example_of_the_register() -> None:
    tickets = tickets_for(1_230)
    assert tickets.by_face == ((1_000, 1), (100, 2), (10, 3))
    assert (tickets.count, tickets.left) == (6, 0)


def test_only_the_faces_in_use_at_the_table() -> None:
    tickets = tickets_for(12_340, faces=[100, 1_000])
    assert tickets.by_face == ((1_000, 12), (100, 3))
    assert tickets.left == 40  # no 0.10 € book at this table: said, not hidden
    assert tickets_for(0).by_face == ()
    with pytest.raises(ValueError, match="0 or more cents"):
        tickets_for(-10)
