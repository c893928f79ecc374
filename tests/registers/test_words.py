"""Amounts in words for the registre de contrôle (docs/registers.md, model 12, art. 72)."""

from __future__ import annotations

import pytest

from reports.registers.words import LARGEST, amount_in_words, number_in_words


@pytest.mark.parametrize(
    ("number", "words"),
    [
        (0, "zéro"),
        (1, "un"),
        (16, "seize"),
        (17, "dix-sept"),
        (21, "vingt et un"),
        (22, "vingt-deux"),
        (61, "soixante et un"),
        (70, "soixante-dix"),
        (71, "soixante et onze"),
        (77, "soixante-dix-sept"),
        (80, "quatre-vingts"),
        (81, "quatre-vingt-un"),
        (91, "quatre-vingt-onze"),
        (99, "quatre-vingt-dix-neuf"),
        (100, "cent"),
        (101, "cent un"),
        (180, "cent quatre-vingts"),
        (200, "deux cents"),
        (201, "deux cent un"),
        (1000, "mille"),
        (1001, "mille un"),
        (1230, "mille deux cent trente"),
        (2000, "deux mille"),
        (80_000, "quatre-vingt mille"),
        (200_000, "deux cent mille"),
        (1_000_000, "un million"),
        (2_000_000, "deux millions"),
        (200_000_000, "deux cents millions"),
        (80_000_000, "quatre-vingts millions"),
        (1_000_000_000, "un milliard"),
        (2_000_000_200, "deux milliards deux cents"),
        (
            987_654_321_012,
            "neuf cent quatre-vingt-sept milliards six cent cinquante-quatre millions "
            "trois cent vingt et un mille douze",
        ),
        (1_000_000_000_000, "un billion"),
    ],
)
def test_numbers_in_french_words(number: int, words: str) -> None:
    assert number_in_words(number) == words


@pytest.mark.parametrize(
    ("cents", "words"),
    [
        (123_040, "mille deux cent trente euros et quarante centimes"),
        (0, "zéro euro"),
        (1, "un centime"),
        (99, "quatre-vingt-dix-neuf centimes"),
        (100, "un euro"),
        (101, "un euro et un centime"),
        (2_100, "vingt et un euros"),
        (7_150, "soixante et onze euros et cinquante centimes"),
        (8_000, "quatre-vingts euros"),
        (100_000_000, "un million d’euros"),
        (300_000_000_000, "trois milliards d’euros"),
        (100_000_100, "un million un euros"),
        (
            123_456_789_012,
            "un milliard deux cent trente-quatre millions cinq cent soixante-sept mille huit "
            "cent quatre-vingt-dix euros et douze centimes",
        ),
    ],
)
def test_amounts_in_euros_in_french_words(cents: int, words: str) -> None:
    assert amount_in_words(cents) == words


def test_a_pound_is_feminine_and_a_round_million_takes_de() -> None:
    assert amount_in_words(2_100, "GBP") == "vingt et une livres sterling"
    assert amount_in_words(100, "GBP") == "une livre sterling"
    assert amount_in_words(100_000_000, "GBP") == "un million de livres sterling"
    assert amount_in_words(101, "GBP") == "une livre sterling et un penny"


def test_the_english_rendering() -> None:
    assert amount_in_words(123_040, "EUR", "en") == (
        "one thousand two hundred and thirty euros and forty cents"
    )
    assert amount_in_words(100_000_105, "EUR", "en") == "one million and one euros and five cents"
    assert amount_in_words(250, "GBP", "en") == "two pounds and fifty pence"
    assert amount_in_words(0, "EUR", "en") == "zero euros"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: amount_in_words(-1), "non-negative"),
        (lambda: amount_in_words(1.5), "whole"),  # type: ignore[arg-type]
        (lambda: amount_in_words(True), "whole"),
        (lambda: amount_in_words(100, "USD"), "currency among EUR, GBP"),
        (lambda: amount_in_words(100, "EUR", "de"), "language 'fr' or 'en'"),
        (lambda: amount_in_words((LARGEST + 1) * 100), "at most"),
        (lambda: number_in_words(LARGEST + 1), "from 0 to"),
    ],
)
def test_what_cannot_be_said_is_refused_with_what_is_expected(call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match=message):
        call()
