"""The door's search on PostgreSQL: `player_search` over 100,000 players, `exclusion_search`
over 100,000 entries of the exclusion list, and the list's CSV import of those 100,000 lines.

    .venv/bin/python bench/player_search.py [--server postgres://postgres@127.0.0.1:5432]
        [--players 100000] [--exclusions 100000] [--queries 400] [--seed 7] [--keep]

Creates a scratch database (`bench_search_<pid>`), migrates it (the trigram indexes of
establishment/migrations/0005_search_trigrams.postgresql.sql with it), then:

1. imports `--exclusions` generated entries through the service the reception uses
   (`exclusion_import`; with no broker the Celery task runs eagerly after the commit: every
   line checked, then batches of 2,000 with the progress updated): the time it takes;
2. loads `--players` players with their identity (bulk, as a migration of an older register
   would; registration one by one is not what is measured here), `ANALYZE`;
   Surnames: half from a list of 150 common French surnames, half from 20,000 rarer ones made
   of syllables (a register's long tail); 30 % double-barrelled, 40 % two first names.
3. times `--queries` searches as a receptionist types them (a seeded mix: a surname, a prefix of
   three to five letters, surname and first name, a surname with one typo — a letter replaced,
   dropped, doubled or two swapped —, a first name with the surname's typo, a member number, a
   document number), each one `player_search(query=…, limit=20)` through the ORM as the screen
   calls it, after a warm-up; then the same for `exclusion_search`. Prints p50, p95, p99 and
   max; target p95 ≤ 50 ms (issue 13).

Drops the scratch database at the end unless `--keep`.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.scratch import scratch_database  # noqa: E402

SURNAMES = [
    "Martin",
    "Bernard",
    "Dubois",
    "Thomas",
    "Robert",
    "Richard",
    "Petit",
    "Durand",
    "Leroy",
    "Moreau",
    "Simon",
    "Laurent",
    "Lefebvre",
    "Michel",
    "Garcia",
    "David",
    "Bertrand",
    "Roux",
    "Vincent",
    "Fournier",
    "Morel",
    "Girard",
    "André",
    "Lefèvre",
    "Mercier",
    "Dupont",
    "Lambert",
    "Bonnet",
    "François",
    "Martinez",
    "Legrand",
    "Garnier",
    "Faure",
    "Rousseau",
    "Blanc",
    "Guérin",
    "Muller",
    "Henry",
    "Roussel",
    "Nicolas",
    "Perrin",
    "Morin",
    "Mathieu",
    "Clément",
    "Gauthier",
    "Dumont",
    "Lopez",
    "Fontaine",
    "Chevalier",
    "Robin",
    "Masson",
    "Sanchez",
    "Gérard",
    "Nguyen",
    "Boyer",
    "Denis",
    "Lemaire",
    "Duval",
    "Joly",
    "Gautier",
    "Roger",
    "Roche",
    "Roy",
    "Noël",
    "Meyer",
    "Lucas",
    "Meunier",
    "Jean",
    "Pérez",
    "Marchand",
    "Dufour",
    "Blanchard",
    "Marie",
    "Barbier",
    "Brun",
    "Dumas",
    "Brunet",
    "Schmitt",
    "Leroux",
    "Colin",
    "Fernandez",
    "Pierre",
    "Renard",
    "Arnaud",
    "Rolland",
    "Caron",
    "Aubert",
    "Giraud",
    "Leclerc",
    "Vidal",
    "Bourgeois",
    "Renaud",
    "Lemoine",
    "Picard",
    "Gaillard",
    "Philippe",
    "Leclercq",
    "Lacroix",
    "Fabre",
    "Dupuis",
    "Olivier",
    "Rodriguez",
    "Da",
    "Silva",
    "Hubert",
    "Louis",
    "Charles",
    "Guillot",
    "Rivière",
    "Le",
    "Gall",
    "Guillaume",
    "Adam",
    "Rey",
    "Moulin",
    "Gonzalez",
    "Berger",
    "Lecomte",
    "Menard",
    "Fleury",
    "Deschamps",
    "Carpentier",
    "Julien",
    "Benoit",
    "Paris",
    "Maillard",
    "Marchal",
    "Aubry",
    "Vasseur",
    "Le",
    "Roux",
    "Renault",
    "Jacquet",
    "Collet",
    "Prévost",
    "Poirier",
    "Charpentier",
    "Royer",
    "Huet",
    "Baron",
    "Dupuy",
    "Pons",
    "Paul",
    "Laine",
    "Carré",
    "Breton",
    "Rémy",
    "Schneider",
    "Perrot",
    "Guyot",
    "Barré",
    "Marty",
    "Cousin",
    "O'Brien",
    "Kowalski",
    "Haddad",
    "Benali",
    "Ferreira",
    "Rossi",
    "Yilmaz",
    "Diallo",
    "Traoré",
    "Cohen",
]
FIRST_NAMES = [
    "Jean",
    "Marie",
    "Pierre",
    "Michel",
    "Philippe",
    "Alain",
    "Nathalie",
    "Isabelle",
    "Sylvie",
    "Catherine",
    "Françoise",
    "Nicolas",
    "Christophe",
    "Stéphane",
    "Sébastien",
    "Julien",
    "Céline",
    "Sandrine",
    "Valérie",
    "Laurent",
    "Éric",
    "David",
    "Thomas",
    "Camille",
    "Léa",
    "Manon",
    "Chloé",
    "Emma",
    "Hugo",
    "Lucas",
    "Louis",
    "Gabriel",
    "Arthur",
    "Jules",
    "Inès",
    "Sarah",
    "Hélène",
    "Anne",
    "Claire",
    "Paul",
    "Jacques",
    "André",
    "Bernard",
    "Daniel",
    "Frédéric",
    "Olivier",
    "Patrick",
    "Thierry",
    "Antoine",
    "Mathieu",
    "Romain",
    "Élodie",
    "Aurélie",
    "Émilie",
    "Julie",
    "Laura",
    "Pauline",
    "Marine",
    "Zoé",
    "Noé",
    "Joël",
]
DOCUMENTS = ("identity_card", "passport", "residence_permit", "driving_licence")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


# Registers have a long tail of rare surnames beside the common ones (INSEE: the most common,
# Martin, is about 0.4 % of the population): half the people get a common surname of the list
# above, half one of 20,000 made of syllables.
SYLLABLES = (
    "ba",
    "be",
    "bi",
    "bo",
    "bu",
    "ca",
    "ce",
    "ci",
    "co",
    "da",
    "de",
    "di",
    "do",
    "du",
    "fa",
    "fe",
    "fi",
    "fo",
    "ga",
    "ge",
    "gi",
    "go",
    "la",
    "le",
    "li",
    "lo",
    "lu",
    "ma",
    "me",
    "mi",
    "mo",
    "na",
    "ne",
    "ni",
    "no",
    "pa",
    "pe",
    "pi",
    "po",
    "ra",
    "re",
    "ri",
    "ro",
    "sa",
    "se",
    "si",
    "so",
    "ta",
    "te",
    "ti",
    "to",
    "va",
    "ve",
    "vi",
    "vo",
)


def rare_surnames(count: int) -> list[str]:
    """`count` distinct made-up surnames, the same ones every run."""
    rng = random.Random(2026)
    made: set[str] = set()
    while len(made) < count:
        word = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))
        made.add(word.capitalize() + rng.choice(("", "t", "n", "r", "s", "ux", "ier", "and")))
    return sorted(made)


RARE = rare_surnames(20_000)


def person(rng: random.Random) -> tuple[str, str, date]:
    surname = rng.choice(SURNAMES) if rng.random() < 0.5 else rng.choice(RARE)
    if rng.random() < 0.3:  # a double-barrelled name now and then: more distinct names
        surname = f"{surname}-{rng.choice(SURNAMES)}"
    first = rng.choice(FIRST_NAMES)
    if rng.random() < 0.4:
        first = f"{first} {rng.choice(FIRST_NAMES)}"
    born = date(1935, 1, 1) + timedelta(days=rng.randrange(365 * 70))
    return surname, first, born


def typo(word: str, rng: random.Random) -> str:
    """One slip of the fingers: a letter replaced, dropped, doubled, or two swapped."""
    if len(word) < 4:
        return word
    at = rng.randrange(1, len(word) - 1)
    kind = rng.randrange(4)
    if kind == 0:
        return word[:at] + rng.choice("aeioursnt") + word[at + 1 :]
    if kind == 1:
        return word[:at] + word[at + 1 :]
    if kind == 2:
        return word[:at] + word[at] + word[at:]
    return word[: at - 1] + word[at] + word[at - 1] + word[at + 1 :]


def players_load(count: int, rng: random.Random, user: Any) -> list[tuple[str, str, str]]:
    """`count` players with their identity; (surname, first names, document) of each."""
    from establishment.identity import display_name
    from establishment.models import Player

    made: list[tuple[str, str, str]] = []
    batch: list[Player] = []
    for n in range(1, count + 1):
        surname, first, born = person(rng)
        document = f"{rng.choice('ABCDEFGHJK')}{rng.randrange(10**7, 10**8)}"
        made.append((surname, first, document))
        batch.append(
            Player(
                name=display_name(surname, first),
                member_number=f"M-{n:06d}",
                surname=surname,
                first_names=first,
                birth_date=born,
                birth_place="Paris",
                address=f"{n} rue de la Paix, Paris",
                document_type=rng.choice(DOCUMENTS),
                document_number=document,
                document_expiry=date(2030, 1, 1),
                registered_by=user,
            )
        )
        if len(batch) == 5000:
            Player.objects.bulk_create(batch)
            batch = []
    Player.objects.bulk_create(batch)
    return made


def exclusions_import(count: int, rng: random.Random, user: Any) -> float:
    """`count` entries through the reception's import; the seconds it took."""
    from establishment.exclusions import exclusion_import
    from establishment.models import ExclusionImport

    lines = ["surname,first_names,birth_date,birth_place,source,reference,effective_from,until"]
    for n in range(count):
        surname, first, born = person(rng)
        source = rng.choice(("ministry", "ministry", "ministry", "self_exclusion", "house"))
        lines.append(f"{surname},{first},{born.isoformat()},,{source},REF-{n},2026-01-01,")
    content = ("\n".join(lines) + "\n").encode()
    began = time.perf_counter()
    # No broker: the task runs eagerly once the upload commits, inside this call, as the
    # embedded default runs it.
    job = exclusion_import(file_name="bench.csv", content=content, imported_by=user)
    done = time.perf_counter()
    job.refresh_from_db()
    assert job.status == ExclusionImport.Status.DONE, job.errors[:3]
    assert job.lines_done == count
    print(
        f"exclusion list import: {count:,} lines checked and imported in {done - began:.1f} s "
        f"({count / (done - began):,.0f} lines/s)",
        flush=True,
    )
    return done - began


KINDS = (
    "surname",
    "prefix",
    "surname and first name",
    "surname with a typo",
    "surname with a typo",
    "typo and first name",
    "member number",
    "document number",
)


def queries(
    people: list[tuple[str, str, str]], count: int, rng: random.Random
) -> list[tuple[str, str, str]]:
    """What receptionists type, (kind, text, the surname meant): names whole or begun, with
    typos, numbers."""
    made = []
    for _ in range(count):
        surname, first, document = rng.choice(people)
        main = surname.split("-")[0]
        kind = rng.randrange(len(KINDS))
        if kind == 0:
            text = main
        elif kind == 1:
            text = main[: rng.randrange(3, 6)].lower()
        elif kind == 2:
            text = f"{main} {first.split()[0]}"
        elif kind in (3, 4):
            text = typo(main.lower(), rng)
        elif kind == 5:
            text = f"{typo(main, rng)} {first.split()[0].lower()}"
        elif kind == 6:
            text = f"M-{rng.randrange(1, len(people) + 1):06d}"
        else:
            text = document.lower()
        made.append((KINDS[kind], text, main))
    return made


def timed(search: Any, texts: list[tuple[str, str, str]]) -> tuple[dict[str, list[float]], int]:
    for _kind, text, _meant in texts[:20]:  # warm-up: plans, caches
        search(query=text)
    took: dict[str, list[float]] = {}
    empty = 0
    for kind, text, _meant in texts:
        began = time.perf_counter()
        found = search(query=text)
        took.setdefault(kind, []).append((time.perf_counter() - began) * 1000)
        empty += not found
    return took, empty


def typos_found(texts: list[tuple[str, str, str]]) -> None:
    """How often a search with a typo offers someone of the surname meant (outside the clock)."""
    from establishment.identity import name_key
    from establishment.selectors import player_search

    typed = [(text, meant) for kind, text, meant in texts if "typo" in kind]
    hits = sum(
        any(name_key(p.name).startswith(name_key(meant)) for p in player_search(query=text))
        for text, meant in typed
    )
    print(f"  typos: {hits} of {len(typed)} searches offer someone of the surname meant")


def report(what: str, took: dict[str, list[float]], empty: int) -> None:
    every = [t for times in took.values() for t in times]
    print(
        f"{what}: {len(every)} queries, p50 {statistics.median(every):.1f} ms, "
        f"p95 {percentile(every, 95):.1f} ms, p99 {percentile(every, 99):.1f} ms, "
        f"max {max(every):.1f} ms; {empty} found nothing (target p95 <= 50 ms)",
        flush=True,
    )
    for kind, times in took.items():
        print(
            f"  {kind}: {len(times)}, p50 {statistics.median(times):.1f} ms, "
            f"p95 {percentile(times, 95):.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--exclusions", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=400)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()

    with scratch_database(args.server, f"bench_search_{os.getpid()}", keep=args.keep):
        from django.contrib.auth.models import Group, User
        from django.db import connection

        from establishment.roles import Role
        from establishment.selectors import exclusion_search, player_search

        user = User.objects.create(username="bench-reception")
        user.groups.add(Group.objects.get(name=Role.RECEPTION))
        rng = random.Random(args.seed)
        exclusions_import(args.exclusions, rng, user)
        began = time.perf_counter()
        people = players_load(args.players, rng, user)
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
        print(f"{args.players:,} players loaded in {time.perf_counter() - began:.1f} s")

        texts = queries(people, args.queries, rng)
        took, empty = timed(player_search, texts)
        report("player_search", took, empty)
        typos_found(texts)
        names = [(k, t, m) for k, t, m in texts if not k.endswith("number")]
        took, empty = timed(exclusion_search, names)
        report("exclusion_search", took, empty)


if __name__ == "__main__":
    main()
