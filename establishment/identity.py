"""Who a person is, as the door compares it: names folded for matching, age on a day.

Pure functions over the standard library, shared by the services (registration, the admission
check, the exclusion list and its import) and the selectors (search). The exclusion list of the
arrêté du 14 mai 2007, art. 22, is matched on the surname, the first names and the date of
birth; names are compared folded (`name_key`), so "Hélène DE LA TOUR-D'AUVERGNE" and
"helene de la tour d auvergne" are the same person.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date

# The age of majority: nobody younger enters the gaming rooms (art. 22).
ADULT_AGE = 18

_SEPARATORS = re.compile(r"[\s\-‐‑‒–—'’`´.,]+")
# Letters NFKD does not decompose into a base letter and a mark.
_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae", "ß": "ss", "ø": "o", "đ": "d", "ł": "l"})


def name_key(text: str) -> str:
    """`text` folded for matching: no accents, lower case, hyphens and apostrophes as spaces,
    one space between words ("Jean-Édouard  d'Ormesson" → "jean edouard d ormesson")."""
    folded = unicodedata.normalize("NFKD", text.casefold().translate(_LIGATURES))
    bare = "".join(c for c in folded if not unicodedata.combining(c))
    return _SEPARATORS.sub(" ", bare).strip()


def first_names_match(one: str, other: str) -> bool:
    """Whether two folded lists of first names name the same person: equal, or one the
    beginning of the other ("jean" and "jean pierre": a person often gives only his first
    first name). Erring towards a match is the safe side for a bar."""
    a, b = one.split(), other.split()
    if not a or not b:
        return False
    shorter, longer = (a, b) if len(a) <= len(b) else (b, a)
    return longer[: len(shorter)] == shorter


def age_on(birth_date: date, day: date) -> int:
    """Whole years from `birth_date` to `day`: a person is 18 on his 18th birthday (born on
    29 February: on 1 March of a year without one)."""
    years = day.year - birth_date.year
    if (day.month, day.day) < (birth_date.month, birth_date.day):
        years -= 1
    return years


def display_name(surname: str, first_names: str) -> str:
    """The name the screens show: the surname in capitals, then the first names ("DUPONT
    Jean"), as on the registers."""
    return f"{' '.join(surname.split()).upper()} {' '.join(first_names.split())}".strip()


@dataclass(frozen=True)
class Identity:
    """Who a person says he is at the door: what the exclusion list is matched on."""

    surname: str
    first_names: str
    birth_date: date

    @property
    def surname_key(self) -> str:
        return name_key(self.surname)

    @property
    def first_names_key(self) -> str:
        return name_key(self.first_names)
