"""Amounts in words, as the registre de contrôle states its total (docs/registers.md, model 12:
« arrêté en toutes lettres », art. 72).

French in the traditional spelling the registers use: « vingt et un », « quatre-vingts »,
« deux cents » but « deux cent un », « mille » invariable, « million » and « milliard » nouns
(« deux millions d'euros »). English for the English rendering. Amounts are integers in the
currency's minor unit (cents, pence); nothing here is a float.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CURRENCIES", "LARGEST", "Currency", "amount_in_words", "number_in_words"]

# The largest amount in words, in major units: up to billions (French « milliards »), and the
# French billion (10^12) too.
LARGEST = 10**15 - 1


@dataclass(frozen=True, slots=True)
class Currency:
    """How one currency's major and minor units are named, in each language."""

    code: str
    minor_per_major: int
    # language -> (major singular, major plural, minor singular, minor plural, major feminine)
    names: dict[str, tuple[str, str, str, str, bool]]


CURRENCIES: dict[str, Currency] = {
    "EUR": Currency(
        "EUR",
        100,
        {
            "fr": ("euro", "euros", "centime", "centimes", False),
            "en": ("euro", "euros", "cent", "cents", False),
        },
    ),
    "GBP": Currency(
        "GBP",
        100,
        {
            "fr": ("livre sterling", "livres sterling", "penny", "pence", True),
            "en": ("pound", "pounds", "penny", "pence", False),
        },
    ),
}

_FR_UNITS = [
    "zéro",
    "un",
    "deux",
    "trois",
    "quatre",
    "cinq",
    "six",
    "sept",
    "huit",
    "neuf",
    "dix",
    "onze",
    "douze",
    "treize",
    "quatorze",
    "quinze",
    "seize",
    "dix-sept",
    "dix-huit",
    "dix-neuf",
]
_FR_TENS = ("", "", "vingt", "trente", "quarante", "cinquante", "soixante")


def _fr_below_100(n: int) -> str:
    if n < 20:
        return _FR_UNITS[n]
    if n < 70:
        tens, unit = divmod(n, 10)
        if unit == 0:
            return _FR_TENS[tens]
        return _FR_TENS[tens] + (" et un" if unit == 1 else "-" + _FR_UNITS[unit])
    if n < 80:  # soixante-dix … soixante-dix-neuf, « soixante et onze »
        return "soixante et onze" if n == 71 else "soixante-" + _FR_UNITS[n - 60]
    # quatre-vingts takes its s only when nothing follows it
    return "quatre-vingts" if n == 80 else "quatre-vingt-" + _FR_UNITS[n - 80]


def _fr_below_1000(n: int, *, final: bool) -> str:
    """`final`: nothing follows the group (or only a noun, million, milliard…): « deux cents »
    keeps its s and « quatre-vingts » too; before « mille » they do not (« deux cent mille »)."""
    hundreds, rest = divmod(n, 100)
    words: list[str] = []
    if hundreds:
        if hundreds == 1:
            words.append("cent")
        else:
            words.append(_FR_UNITS[hundreds] + (" cents" if rest == 0 and final else " cent"))
    if rest:
        text = _fr_below_100(rest)
        if not final and text == "quatre-vingts":
            text = "quatre-vingt"
        words.append(text)
    return " ".join(words)


# (value, singular, plural): the scales that are nouns, largest first
_FR_SCALES = (
    (10**12, "billion", "billions"),
    (10**9, "milliard", "milliards"),
    (10**6, "million", "millions"),
)


def _fr_number(n: int) -> str:
    if n == 0:
        return "zéro"
    words: list[str] = []
    for value, singular, plural in _FR_SCALES:
        count, n = divmod(n, value)
        if count:
            words.append(
                f"{_fr_below_1000(count, final=True)} {singular if count == 1 else plural}"
            )
    thousands, n = divmod(n, 1000)
    if thousands:
        words.append(
            "mille" if thousands == 1 else _fr_below_1000(thousands, final=False) + " mille"
        )
    if n:
        words.append(_fr_below_1000(n, final=True))
    return " ".join(words)


_EN_UNITS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_EN_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_EN_SCALES = ((10**12, "trillion"), (10**9, "billion"), (10**6, "million"), (10**3, "thousand"))


def _en_below_1000(n: int) -> str:
    hundreds, rest = divmod(n, 100)
    words: list[str] = []
    if hundreds:
        words.append(f"{_EN_UNITS[hundreds]} hundred")
    if rest:
        if hundreds:
            words.append("and")
        if rest < 20:
            words.append(_EN_UNITS[rest])
        else:
            tens, unit = divmod(rest, 10)
            words.append(_EN_TENS[tens] + (f"-{_EN_UNITS[unit]}" if unit else ""))
    return " ".join(words)


def _en_number(n: int) -> str:
    if n == 0:
        return "zero"
    words: list[str] = []
    for value, name in _EN_SCALES:
        count, n = divmod(n, value)
        if count:
            words.append(f"{_en_below_1000(count)} {name}")
    if n:
        if words and n < 100:
            words.append("and")
        words.append(_en_below_1000(n))
    return " ".join(words)


def number_in_words(n: int, language: str = "fr", *, feminine: bool = False) -> str:
    """A whole number from 0 to LARGEST in words. `feminine` (French): a final « un » agrees
    with a feminine noun (« vingt et une livres »)."""
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= LARGEST:
        raise ValueError(f"a whole number from 0 to {LARGEST} is expected, not {n!r}")
    if language == "en":
        return _en_number(n)
    if language != "fr":
        raise ValueError(f"language 'fr' or 'en' is expected, not {language!r}")
    text = _fr_number(n)
    if feminine and (text == "un" or text.endswith((" un", "-un"))):
        text += "e"
    return text


def _major(count: int, language: str, names: tuple[str, str, str, str, bool]) -> str:
    singular, plural, _, _, feminine = names
    words = number_in_words(count, language, feminine=feminine)
    noun = singular if count in (0, 1) and language == "fr" or count == 1 else plural
    # « un million d'euros », « deux milliards de livres »: a round million takes « de »
    if language == "fr" and count >= 10**6 and count % 10**6 == 0:
        return f"{words} {'d’' if noun[0] in 'aeiouyéè' else 'de '}{noun}"
    return f"{words} {noun}"


def amount_in_words(minor: int, currency: str = "EUR", language: str = "fr") -> str:
    """An amount in the currency's minor unit (cents) in words: 123040 →
    « mille deux cent trente euros et quarante centimes »."""
    if currency not in CURRENCIES:
        raise ValueError(f"a currency among {', '.join(CURRENCIES)} is expected, not {currency!r}")
    if not isinstance(minor, int) or isinstance(minor, bool) or minor < 0:
        raise ValueError(
            f"a whole, non-negative amount in the minor unit is expected, not {minor!r}"
        )
    unit = CURRENCIES[currency]
    if language not in unit.names:
        raise ValueError(f"language 'fr' or 'en' is expected, not {language!r}")
    names = unit.names[language]
    major, cents = divmod(minor, unit.minor_per_major)
    if major > LARGEST:
        raise ValueError(f"an amount of at most {LARGEST} major units is expected, not {major}")
    minor_words = ""
    if cents:
        minor_words = f"{number_in_words(cents, language)} {names[2] if cents == 1 else names[3]}"
    if major == 0 and cents:
        return minor_words
    text = _major(major, language, names)
    return f"{text} {'et' if language == 'fr' else 'and'} {minor_words}" if cents else text
