"""The engine's words: its codes turned into sentences and labels, from one catalogue.

The engine speaks in codes (``RuleError.code`` and ``.params``, ``view()["expected"]``, phases,
action types, outcomes, faults …); every word for them lives in the gettext domain ``engine``,
``locale/<language>/LC_MESSAGES/engine.po`` (compiled to ``engine.mo``, committed), English and
French. Adding a game means adding its words there, nothing else.

Keys of the catalogue (the msgid; the msgstr is the words, with ``%(name)s`` placeholders)
-----------------------------------------------------------------------------------------
Messages, in capitals (what ``words`` renders with parameters):

- ``E_*`` the common errors (docs/rules/README.md COM-10.3); ``XX_E_*`` a game's own errors
  (``CF``, ``LM``, ``LC``, ``LR``, ``PT``: the rule prefixes of docs/rules/).
- ``R_*`` / ``XX_R_*`` reasons: the word a parameter of an error names (why a person is not
  eligible, which limit is exceeded, what to do about an empty pack …).
- ``X_*`` / ``XX_X_*`` what is expected next: ``view()["expected"]["code"]``.
- ``S_*`` the values a setting allows (``E_SETTING``'s ``allowed``); ``P_*`` the kinds of an
  action's parameters (``E_BAD_ACTION``'s ``needs``); ``SC_*`` a scenario file that is not
  valid (docs/rules/SCENARIOS.md); ``W_*`` small words the others share.

Labels, in lower case, ``[<game>.]<family>.<code>``: a game's own word first, then the word
every game shares (``chemin_de_fer.action.stake`` « Avec la table », ``action.stake``).
Families: ``title`` (``<game>.title``, the game's name), ``action`` (action types), ``phase``
(states), ``outcome`` (coup outcomes), ``transfer`` (transfer reasons, COM-10.6), ``fault``
(CF-8), ``hand`` (pontoon hand kinds), ``holding`` (how the lansquenet moderne bank is held),
``bank_rule`` (what the banker may announce), ``owner`` (the owners of money that are not
players). Game terms stay French in both languages, as at the table (docs/rules/README.md §12).

Parameters
----------
A parameter is a text, an integer or a list of texts. Its name says how it is shown:

- ``CODE_PARAMS`` hold a code of the catalogue (``reason="CF_R_BANKER_ONLY"``, ``game=
  "pontoon"`` for ``pontoon.title``): shown as that code's words, filled from the same
  parameters (a reason's own values sit in the error's flat dict).
- ``PERSON_PARAMS`` hold a player id, ``croupier`` (« the croupier ») or a seat number (« seat
  3 »); ``tables.words.say`` puts the players' names in place of their ids.
- Any other parameter is shown as it is (numbers, ranks, action types, setting names).

A list is shown joined with ", " (an empty one as ``W_NOTHING``). An item of a list held by a
code parameter is a code, ``name:CODE`` (a parameter's name and its kind: « amount (an amount
in chips) »), ``A|B`` (either item), ``A+B`` (both) or ``?ITEM`` (optionally the item). A
sentence that begins with a shown word (« the croupier », « seat 3 ») begins with a capital.

A code missing from the catalogue raises ``MissingWords`` when ``strict`` (the default under
tests: ``ENGINE_WORDS_STRICT=1`` or pytest running); otherwise the French falls back to the
English and the English to the code itself.
"""

from __future__ import annotations

import gettext
import os
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path

DOMAIN = "engine"
LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"
LANGUAGES: tuple[str, ...] = ("en", "fr")
DEFAULT_LANGUAGE = "en"

# Parameter name -> the key its value names ("{}" is the value).
CODE_PARAMS: Mapping[str, str] = {
    "reason": "{}",
    "what": "{}",
    "hint": "{}",
    "allowed": "{}",
    "needs": "{}",
    "where": "{}",
    "why": "{}",
    "opening": "{}",
    "game": "{}.title",
}

# Parameters that hold an action type or a state: shown as the table's label of it, the game's
# own first (``chemin_de_fer.action.stake`` « Avec la table »), then the one every game shares;
# as the code itself when the catalogue has no label.
LABEL_PARAMS: Mapping[str, str] = {"action": "action", "legal": "action", "state": "phase"}

PERSON_PARAMS: frozenset[str] = frozenset(
    {
        "actor",
        "banker",
        "expected",
        "holder",
        "player",
        "players",
        "successor",
        "who",
    }
)

CROUPIER = "croupier"
_PLACEHOLDER = re.compile(r"%\((?P<name>\w+)\)s")
_DEPTH = 4

Value = str | int | list[str]


class MissingWords(KeyError):
    """A code (or a placeholder's value) the catalogue has no words for."""


class _NotFound(Exception):
    pass


class _Absent(gettext.NullTranslations):
    """The last fallback of a catalogue: says the key is not there."""

    def gettext(self, message: str) -> str:
        raise _NotFound(message)


@cache
def _catalogue(language: str) -> gettext.NullTranslations | None:
    try:
        found = gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[language])
    except OSError:
        return None
    found.add_fallback(_Absent())
    return found


def strict_default() -> bool:
    """Missing words fail loudly under tests, and quietly at run time."""
    return os.environ.get("ENGINE_WORDS_STRICT") == "1" or "PYTEST_CURRENT_TEST" in os.environ


def language_of(language: str | None) -> str:
    """A language the catalogue has: the first two letters of ``language``, else English."""
    short = (language or DEFAULT_LANGUAGE)[:2].lower()
    return short if short in LANGUAGES else DEFAULT_LANGUAGE


def lookup(key: str, language: str = DEFAULT_LANGUAGE) -> str | None:
    """The catalogue's words for ``key`` in ``language`` as written (placeholders unfilled),
    or None; no fallback to another language."""
    catalogue = _catalogue(language_of(language))
    if catalogue is None:
        return None
    try:
        return catalogue.gettext(key)
    except _NotFound:
        return None


def _template(key: str, language: str, strict: bool) -> str:
    found = lookup(key, language)
    if found is not None:
        return found
    if strict:
        raise MissingWords(f"{key} has no words in {language!r} (locale/*/LC_MESSAGES/engine.po)")
    if language != DEFAULT_LANGUAGE:
        return _template(key, DEFAULT_LANGUAGE, strict)
    return key


class _Renderer:
    """One rendering: the parameters, the language and how strict to be."""

    def __init__(
        self, params: Mapping[str, Value], language: str, strict: bool, game: str | None = None
    ) -> None:
        self.params = params
        self.language = language
        self.strict = strict
        self.game = game

    def key(self, key: str, depth: int) -> str:
        """The words of ``key``, filled from the parameters."""
        template = _template(key, self.language, self.strict)
        if depth > _DEPTH:
            return template
        names = _PLACEHOLDER.findall(template)
        shown: dict[str, str] = {}
        worded: set[str] = set()
        for name in names:
            if name in shown:
                continue
            if name not in self.params:
                if self.strict:
                    raise MissingWords(f"{key} needs the parameter {name!r}")
                shown[name] = f"%({name})s"
                continue
            shown[name], is_word = self.value(name, self.params[name], depth)
            if is_word:
                worded.add(name)
        try:
            text = template % shown if names else template.replace("%%", "%")
        except (KeyError, TypeError, ValueError) as error:
            if self.strict:
                raise MissingWords(f"{key}: {template!r} cannot be filled ({error})") from error
            return key
        first = _PLACEHOLDER.match(template)
        if first is not None and first["name"] in worded and text:
            text = text[0].upper() + text[1:]
        return text

    def value(self, name: str, value: Value, depth: int) -> tuple[str, bool]:
        """How one parameter is shown, and whether it was shown as a word of the catalogue."""
        if isinstance(value, list):
            if not value:
                return self.key("W_NOTHING", depth + 1), True
            items = [self.value(name, item, depth)[0] for item in value]
            return ", ".join(items), False
        if name in CODE_PARAMS and isinstance(value, str):
            return self.item(CODE_PARAMS[name], value, depth), True
        if name in LABEL_PARAMS and isinstance(value, str):
            family = LABEL_PARAMS[name]
            keys = [f"{family}.{value}"]
            if self.game is not None:
                keys.insert(0, f"{self.game}.{family}.{value}")
            for key in keys:
                found = lookup(key, self.language)
                if found is not None and not _PLACEHOLDER.search(found):
                    return found, True
        if name in PERSON_PARAMS:
            if value == CROUPIER:
                return self.key("W_CROUPIER", depth + 1), True
            if isinstance(value, int) and not isinstance(value, bool):
                return _Renderer({"seat": value}, self.language, self.strict, self.game).key(
                    "W_SEAT", depth + 1
                ), True
        return str(value), False

    def item(self, pattern: str, item: str, depth: int) -> str:
        """A code parameter's value, or an item of its list (the grammar above)."""
        if item.startswith("?"):
            inner = self.item(pattern, item[1:], depth)
            return self._with("W_OPTIONALLY", {"item": inner}, depth)
        if "|" in item:
            either = [self.item(pattern, part, depth) for part in item.split("|")]
            return self._with("W_OR", {"first": ", ".join(either[:-1]), "last": either[-1]}, depth)
        if "+" in item:
            both = [self.item(pattern, part, depth) for part in item.split("+")]
            return self._with("W_AND", {"first": ", ".join(both[:-1]), "last": both[-1]}, depth)
        if ":" in item:
            name, _, kind = item.partition(":")
            return self._with(
                "W_NAMED", {"name": name, "kind": self.item(pattern, kind, depth)}, depth
            )
        return self.key(pattern.format(item), depth + 1)

    def _with(self, key: str, values: Mapping[str, str], depth: int) -> str:
        """Small words whose placeholders are already shown."""
        template = _template(key, self.language, self.strict)
        try:
            return template % values
        except (KeyError, TypeError, ValueError) as error:
            if self.strict:
                raise MissingWords(f"{key}: {template!r} cannot be filled ({error})") from error
            return key


def words(
    code: str,
    params: Mapping[str, Value] | None = None,
    language: str = DEFAULT_LANGUAGE,
    *,
    strict: bool | None = None,
    game: str | None = None,
) -> str:
    """The words of ``code`` filled from ``params``, in ``language`` ("en" or "fr"); with
    ``game``, the action types and states it names are shown in that game's words."""
    values = params or {}
    chosen = language_of(language)
    strict = strict_default() if strict is None else strict
    return _Renderer(values, chosen, strict, game).key(code, 0)


def label(key: str, language: str = DEFAULT_LANGUAGE, **values: str | int) -> str | None:
    """A label of the catalogue (``action.sit``), its placeholders filled, or None."""
    template = lookup(key, language)
    if template is None and language_of(language) != DEFAULT_LANGUAGE and not strict_default():
        template = lookup(key, DEFAULT_LANGUAGE)
    if template is None:
        return None
    return template % values if _PLACEHOLDER.search(template) else template


def placeholders(template: str) -> frozenset[str]:
    """The parameter names a template of the catalogue names."""
    return frozenset(_PLACEHOLDER.findall(template))
