"""The registers' pure parts (docs/registers.md): the count's difference and what is carried
(art. 70), the journée's total in words (art. 72), the month's from its journées (art. 75), and
the chain that shows a register altered or removed."""

from __future__ import annotations

from datetime import date

from reports.registers.builders import (
    chain_first_break,
    count_difference,
    model12_build,
    model13_build,
)


def test_a_surplus_is_carried_and_a_shortfall_is_not() -> None:
    assert count_difference(12_300, 12_500) == {
        "counted": 12_500,
        "difference": 200,
        "kind": "surplus",
        "carried": 12_500,
    }
    assert count_difference(12_300, 12_000)["carried"] == 12_300
    assert count_difference(12_300, 12_000)["kind"] == "shortfall"
    assert count_difference(12_300, 12_300)["kind"] == "exact"
    assert count_difference(12_300, None) == {
        "counted": None,
        "difference": None,
        "kind": "uncounted",
        "carried": 12_300,
    }


def _seance(table: int, carried: int, seance: int = 1) -> dict[str, object]:
    return {
        "table": table,
        "seance": seance,
        "game": "chemin_de_fer",
        "table_session": f"ts-{table}-{seance}",
        "opened_at": "2026-12-01T20:00:00+00:00",
        "closed_at": "2026-12-02T03:00:00+00:00",
        "expected": carried,
        "counted": carried,
        "kind": "exact",
        "carried": carried,
        "sha256": f"{table:064d}",
    }


def test_the_journee_totals_every_seance_in_figures_and_in_words() -> None:
    register = model12_build(
        journee=date(2026, 12, 1),
        currency="EUR",
        seances=[_seance(2, 23_040), _seance(1, 100_000), _seance(1, 0, seance=2)],
    )
    assert [(r["table"], r["seance"]) for r in register["seances"]] == [(1, 1), (1, 2), (2, 1)]
    assert register["total"] == 123_040
    assert register["total_in_words"]["fr"] == "mille deux cent trente euros et quarante centimes"
    assert register["total_in_words"]["en"] == (
        "one thousand two hundred and thirty euros and forty cents"
    )


def test_the_month_totals_its_journees() -> None:
    register = model13_build(
        month="2026-12",
        currency="EUR",
        journees=[
            {"journee": "2026-12-02", "total": 50, "sha256": "b"},
            {"journee": "2026-12-01", "total": 100, "sha256": "a"},
        ],
    )
    assert [j["journee"] for j in register["journees"]] == ["2026-12-01", "2026-12-02"]
    assert register["total"] == 150
    assert register["total_in_words"]["fr"] == "un euro et cinquante centimes"


def test_the_chain_names_the_first_register_altered_or_missing() -> None:
    rows = [
        {"key": "a", "version": 1, "sha256": "h1", "computed_sha256": "h1", "previous_sha256": ""},
        {
            "key": "b",
            "version": 1,
            "sha256": "h2",
            "computed_sha256": "h2",
            "previous_sha256": "h1",
        },
        {
            "key": "c",
            "version": 1,
            "sha256": "h3",
            "computed_sha256": "h3",
            "previous_sha256": "h2",
        },
    ]
    assert chain_first_break(rows) is None
    altered = [dict(rows[0]), {**rows[1], "computed_sha256": "other"}, rows[2]]
    assert chain_first_break(altered) == {"register": "b", "version": 1, "problem": "hash"}
    removed = [rows[0], rows[2]]
    assert chain_first_break(removed) == {"register": "c", "version": 1, "problem": "chain"}
