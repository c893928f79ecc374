"""The house's levy on a settled coup, by the table's levy model (COM-6.2 to LV-2).

Pure: the transfers of the levy are part of the coup's transfers, so that a replay of the journal
gives the same levy. The time fee and the participation fee are not a coup's (LV-3).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from tables.engine.money import BANKER_WIN, COUP_FEE, STAKES, LevySettings, cagnotte_levy
from tables.engine.settlement import CAGNOTTE, Transfer, is_player_owner


class LevyRules(LevySettings, Protocol):
    """The levy settings a game's typed rules hold (``core.CagnotteRules``)."""

    @property
    def levy_model(self) -> str: ...

    @property
    def fee_amount(self) -> int | None: ...

    @property
    def fee_payer(self) -> str: ...


def coup_levy(
    rules: LevyRules,
    banker: str,
    *,
    gross: int,
    stakes: Iterable[tuple[str, int]],
) -> tuple[Transfer, ...]:
    """The levy's transfers for one settled coup, to be appended after those that make it up.

    ``gross`` is the banker's gross win from pontes (COM-6.2: 0 on a coup he lost) and
    ``stakes`` every stake settled against the bank in the coup, in the order of its payments
    (the reserve fund's cover included, LR-5.1).

    - ``banker_win`` (COM-6.3, COM-6.4): ``c`` on ``gross``, from the banker, reason ``cagnotte``;
    - ``stakes`` (LV-1.1): the same rate, step and rounding on the sum of ``stakes``, from the
      banker, on every settled coup whoever wins;
    - ``coup_fee`` (LV-2): ``fee_amount`` from each player who staked (once each, in order
      of ``stakes``; the reserve fund pays none) or once from the banker, reason ``coup_fee``;
    - a time or participation fee: nothing here (LV-3).
    """
    model = rules.levy_model
    if model in (BANKER_WIN, STAKES):
        base = gross if model == BANKER_WIN else sum(amount for _, amount in stakes)
        levy = cagnotte_levy(
            base,
            rate_bp=rules.cagnotte_rate_bp,
            step=rules.cagnotte_step,
            rounding=rules.cagnotte_rounding,
        )
        return (Transfer(banker, CAGNOTTE, levy, "cagnotte"),) if levy > 0 else ()
    if model != COUP_FEE:
        return ()
    fee = rules.fee_amount
    assert fee is not None  # LV-2 a fee model sets its amount (settings_check)
    payers = dict.fromkeys(owner for owner, _ in stakes if is_player_owner(owner))
    if not payers:
        return ()  # LV-2 a coup nobody staked in is no hand played
    if rules.fee_payer == "banker":
        return (Transfer(banker, CAGNOTTE, fee, "coup_fee"),)
    return tuple(
        Transfer(player, CAGNOTTE, fee, "coup_fee") for player in payers if player != banker
    )


def paid_by_banker(levy: Iterable[Transfer], banker: str) -> int:
    """What the banker paid the house in ``levy``: what a growing bank does not keep (COM-6.6)."""
    return sum(transfer.amount for transfer in levy if transfer.source == banker)
