"""Rule errors: input the engine refuses, with the code of the rules files (COM-10.3).

A rejected action changes nothing (COM-10.2). Every message says, in the croupier's words,
what is wrong and what is expected now. Tests match codes, never message text.
"""

from __future__ import annotations

from collections.abc import Iterable


class RuleError(Exception):
    """An action or a setting the rules refuse.

    ``code`` is one of the stable codes of ``rules/`` (``E_WRONG_STATE``, ``E_BAD_RANK``, …);
    ``message`` is the croupier-facing sentence.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def _listing(items: Iterable[str]) -> str:
    listed = sorted(set(items))
    return ", ".join(listed) if listed else "nothing"


# The templates of COM-10.3, one helper each, so that every game words them the same way.


def unknown_action(action: str, game_title: str) -> RuleError:
    return RuleError("E_UNKNOWN_ACTION", f"'{action}' does not exist in {game_title}.")


def bad_action(action: str, params: str) -> RuleError:
    return RuleError("E_BAD_ACTION", f"'{action}' needs {params}.")


def wrong_state(action: str, state: str, legal: Iterable[str]) -> RuleError:
    return RuleError(
        "E_WRONG_STATE",
        f"'{action}' is not possible now ({state}); expected: {_listing(legal)}.",
    )


def not_eligible(actor: str, action: str, reason: str) -> RuleError:
    return RuleError("E_NOT_ELIGIBLE", f"{actor} cannot {action}: {reason}.")


def out_of_turn(expected: str, actor: str) -> RuleError:
    return RuleError("E_OUT_OF_TURN", f"It is {expected}'s turn, not {actor}'s.")


def bad_rank(rank: object) -> RuleError:
    return RuleError("E_BAD_RANK", f"'{rank}' is not a card rank; use A, 2–10, J, Q, K.")


def rank_exhausted(rank: str, per_rank: int) -> RuleError:
    return RuleError(
        "E_RANK_EXHAUSTED",
        f"No {rank} can be left: all {per_rank} have been recorded since the last shuffle.",
    )


def pack_empty(what_to_do: str) -> RuleError:
    return RuleError("E_PACK_EMPTY", f"The pack is empty; {what_to_do}.")


def bad_amount(amount: object, chip_unit: int) -> RuleError:
    return RuleError(
        "E_BAD_AMOUNT", f"{amount} is not a positive multiple of the chip unit {chip_unit}."
    )


def below_minimum(amount: int, minimum: int) -> RuleError:
    return RuleError("E_BELOW_MINIMUM", f"{amount} is below the minimum {minimum}.")


def above_limit(amount: int, what: str, maximum: int) -> RuleError:
    return RuleError("E_ABOVE_LIMIT", f"{amount} exceeds {what} ({maximum}).")


def bank_covered(bank: int) -> RuleError:
    return RuleError("E_BANK_COVERED", f"The bank of {bank} is already covered; no more stakes.")


def table_size(game_title: str, minimum: int, maximum: int, seated: int) -> RuleError:
    return RuleError(
        "E_TABLE_SIZE", f"{game_title} needs {minimum}–{maximum} players; {seated} are seated."
    )


def bad_setting(name: str, value: object, allowed: str) -> RuleError:
    return RuleError("E_SETTING", f"Setting {name}={value!r} is outside {allowed}.")


def no_such_seat(seat: object, seat_count: int) -> RuleError:
    return RuleError("E_NO_SUCH_SEAT", f"There is no seat {seat} at this table (1–{seat_count}).")


def seat_taken(seat: int, player: str) -> RuleError:
    return RuleError("E_SEAT_TAKEN", f"Seat {seat} is taken by {player}.")


def player_present(player: str) -> RuleError:
    return RuleError("E_PLAYER_PRESENT", f"{player} is already at the table.")


def not_present(who: str) -> RuleError:
    return RuleError("E_NOT_PRESENT", f"{who} is not at the table.")
