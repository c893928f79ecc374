"""Chemin de fer: the settings table (§1 of docs/rules/chemin-de-fer.md) and the typed rules."""

from __future__ import annotations

from dataclasses import dataclass

from tables.engine import settings as core
from tables.engine.settlement import is_player_id

CODE = "chemin_de_fer"
TITLE = "chemin de fer"

STOP_CARD_FROM_END = 7  # CF-3.3
MIN_PLAYERS = 4  # CF-2.2

# -- §1 settings ----------------------------------------------------------------------------


def _fixed_banker_setting() -> core.Setting:
    """CF-6.5 / CF-I27: none, or a player id (checked against the seats at ``start``)."""
    return core.Setting(
        "fixed_banker",
        None,
        lambda value, _: value is None or is_player_id(value),
        lambda _: ("CF_S_FIXED_BANKER", {}),
    )


def settings_table(seat_count: int) -> tuple[core.Setting, ...]:
    """The rows of §1 in order (chip_unit before the amounts that are multiples of it)."""
    return (
        core.int_setting("decks", 3, 1, 8),  # CF-I21
        core.fixed_setting("stop_card_from_end", STOP_CARD_FROM_END),  # CF-3.3
        core.fixed_setting("min_players", MIN_PLAYERS),  # CF-2.2
        core.int_setting("max_players", seat_count, 4, seat_count),  # CF-2.2 / CF-I22
        core.CHIP_UNIT,  # COM-5.1
        core.chips_setting("min_bank"),
        core.chips_setting("max_bank", None, nullable=True, at_least="min_bank"),
        core.chips_setting("min_stake"),
        *core.cagnotte_settings(),  # COM-6.1, COM-6.3
        core.bool_setting("fault_reimbursement", True),  # CF-I9
        _fixed_banker_setting(),  # CF-I20, CF-I27
    )


@dataclass(frozen=True)
class Rules(core.CagnotteRules):
    """The validated settings of one table."""

    decks: int
    max_players: int
    chip_unit: int
    min_bank: int
    max_bank: int | None
    min_stake: int
    fault_reimbursement: bool
    fixed_banker: str | None

    @property
    def cards_before_stop(self) -> int:
        """CF-3.3 ``L = 52·decks − 7``: the stop card comes out when card ``L + 1`` is drawn."""
        return 52 * self.decks - STOP_CARD_FROM_END
