"""Rule errors: input the engine refuses, with the code of the rules files (COM-10.3).

A rejected action changes nothing (COM-10.2). The engine builds no sentence: an error is its
code and the parameters that the code's words need, JSON-ready values (a text, an integer, a
list of texts). A parameter that is itself a word — the reason of ``E_NOT_ELIGIBLE``, what a
limit is, a game — is given as a code of the catalogue (``reason="CF_R_BANKER_ONLY"``), and
its own parameters sit in the same flat dict. ``tables.engine.words`` turns a code and its
parameters into the croupier's words, in his language (COM-10.3: what is wrong and what is
expected now). Tests match codes and parameters, never words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

# What a parameter may hold: JSON-ready values only.
ParamValue = str | int | list[str]
Params = Mapping[str, ParamValue]


class RuleError(Exception):
    """An action or a setting the rules refuse.

    ``code`` is one of the stable codes of ``docs/rules/`` (``E_WRONG_STATE``, ``E_BAD_RANK``,
    …); ``params`` are the values its words name (``{"rank": "Z"}``).
    """

    def __init__(self, code: str, /, **params: ParamValue) -> None:
        super().__init__(code, params)
        self.code = code
        self.params: dict[str, ParamValue] = dict(params)

    def __str__(self) -> str:
        return f"{self.code} {self.params}"


# The common codes of COM-10.3, which every game may answer with.
COMMON_ERROR_CODES: tuple[str, ...] = (
    "E_UNKNOWN_ACTION",
    "E_WRONG_STATE",
    "E_NOT_ELIGIBLE",
    "E_OUT_OF_TURN",
    "E_BAD_RANK",
    "E_RANK_EXHAUSTED",
    "E_PACK_EMPTY",
    "E_BAD_AMOUNT",
    "E_BELOW_MINIMUM",
    "E_ABOVE_LIMIT",
    "E_BANK_COVERED",
    "E_TABLE_SIZE",
    "E_BAD_ACTION",
    "E_SETTING",
    "E_NO_SUCH_SEAT",
    "E_SEAT_TAKEN",
    "E_PLAYER_PRESENT",
    "E_NOT_PRESENT",
)

# The reasons of the common checks, which a game whose croupier never plays may give: a wrong
# state (COM-10.2 step 2), the croupier only (COM-3.7), never the croupier for a player's
# decision, the banker only.
SHARED_REASON_CODES: tuple[str, ...] = (
    "R_STATE",
    "R_CROUPIER_ONLY",
    "R_CROUPIER_NEVER_PLAYS",
    "R_BANKER_ONLY",
)


def with_common_errors(*own: str) -> tuple[str, ...]:
    """Every error code a game may answer with: the common ones of COM-10.3, then its own."""
    return (*COMMON_ERROR_CODES, *own)


def with_shared_reasons(*own: str) -> tuple[str, ...]:
    """The reasons a game whose croupier never plays may give: the shared ones, then its own."""
    return (*SHARED_REASON_CODES, *own)


def text_of(value: object) -> str:
    """A value the croupier recorded, as the words quote it: a text as it is, anything else as
    Python writes it (a wrong type is shown as given)."""
    return value if isinstance(value, str) else repr(value)


def _listing(items: Iterable[str]) -> list[str]:
    return sorted(set(items))


# The errors of COM-10.3, one helper each, so that every game gives the same parameters.


def unknown_action(action: str, game: str) -> RuleError:
    """``game`` is the game's code; its words are its title (``<game>.title``)."""
    return RuleError("E_UNKNOWN_ACTION", action=action, game=game)


def bad_action(action: str, needs: list[str]) -> RuleError:
    """``needs`` is what the action takes, in the list grammar of ``tables.engine.words``."""
    return RuleError("E_BAD_ACTION", action=action, needs=needs)


def wrong_state(
    action: str,
    state: str,
    legal: Iterable[str],
    where: str = "R_STATE",
    **where_params: ParamValue,
) -> RuleError:
    """``where`` is a code: the state, or the state and why not here (``PT_R_HAS_BUST``)."""
    return RuleError(
        "E_WRONG_STATE",
        action=action,
        state=state,
        legal=_listing(legal),
        where=where,
        **where_params,
    )


def not_eligible(actor: str, action: str, reason: str, **reason_params: ParamValue) -> RuleError:
    """``reason`` is a code; ``reason_params`` are the values its words name."""
    return RuleError("E_NOT_ELIGIBLE", actor=actor, action=action, reason=reason, **reason_params)


def out_of_turn(expected: str | int, actor: str | int) -> RuleError:
    """Who may act now and who tried: player ids, ``croupier``, or seat numbers."""
    return RuleError("E_OUT_OF_TURN", expected=expected, actor=actor)


def bad_rank(rank: object) -> RuleError:
    return RuleError("E_BAD_RANK", rank=rank if isinstance(rank, str) else repr(rank))


def rank_exhausted(rank: str, per_rank: int) -> RuleError:
    return RuleError("E_RANK_EXHAUSTED", rank=rank, per_rank=per_rank)


def pack_empty(hint: str, **hint_params: ParamValue) -> RuleError:
    """``hint`` is a code: what to do about it."""
    return RuleError("E_PACK_EMPTY", hint=hint, **hint_params)


def _number_or_text(value: object) -> ParamValue:
    """A number as it is; anything else (a wrong type) as the croupier gave it."""
    return value if isinstance(value, int) and not isinstance(value, bool) else text_of(value)


def bad_amount(amount: object, chip_unit: int) -> RuleError:
    shown = _number_or_text(amount)
    return RuleError("E_BAD_AMOUNT", amount=shown, chip_unit=chip_unit)


def below_minimum(amount: int, minimum: int) -> RuleError:
    return RuleError("E_BELOW_MINIMUM", amount=amount, minimum=minimum)


def above_limit(amount: int, what: str, maximum: int, **what_params: ParamValue) -> RuleError:
    """``what`` is a code: the limit exceeded (``R_MAX_BANK``, …)."""
    return RuleError("E_ABOVE_LIMIT", amount=amount, what=what, maximum=maximum, **what_params)


def bank_covered(bank: int) -> RuleError:
    return RuleError("E_BANK_COVERED", bank=bank)


def table_size(game: str, minimum: int, maximum: int, seated: int) -> RuleError:
    """``game`` is the game's code; its words are its title."""
    return RuleError("E_TABLE_SIZE", game=game, minimum=minimum, maximum=maximum, seated=seated)


def bad_setting(name: str, value: object, allowed: str, **allowed_params: ParamValue) -> RuleError:
    """``allowed`` is a code (``S_RANGE``, …) with its parameters: the values allowed."""
    return RuleError("E_SETTING", name=name, value=repr(value), allowed=allowed, **allowed_params)


def no_such_seat(seat: object, seat_count: int) -> RuleError:
    shown = _number_or_text(seat)
    return RuleError("E_NO_SUCH_SEAT", seat=shown, seat_count=seat_count)


def seat_taken(seat: int, player: str) -> RuleError:
    return RuleError("E_SEAT_TAKEN", seat=seat, player=player)


def player_present(player: str) -> RuleError:
    return RuleError("E_PLAYER_PRESENT", player=player)


def not_present(who: str | int) -> RuleError:
    """``who`` is a player id, or the number of an empty seat."""
    return RuleError("E_NOT_PRESENT", who=who)
