"""The sabot's life (CF-3): opened and cut by whom, cards drawn, the red card, the end."""

from __future__ import annotations

import pytest

from tables.models import Sabot
from tables.selectors import sabot_life_list
from tests.scenario_service import SCENARIOS, run_through_service, scenario_documents

pytestmark = pytest.mark.django_db


def test_cf_3_red_card_and_next_shoe_are_in_the_sabot_life() -> None:
    scenario = scenario_documents(SCENARIOS / "chemin_de_fer" / "examples" / "CF-X5.json")[0]
    run = run_through_service(scenario)

    lives = sabot_life_list(table_session=run.table_session)

    assert [life.sabot.number for life in lives] == [1, 2]
    first, second = lives
    # Seat 1 (S1) cut the first shoe, seat 2 (S2) the second one (CF-3.1).
    assert first.sabot.cut_by is not None and first.sabot.cut_by.member_number == "S1"
    assert second.sabot.cut_by is not None and second.sabot.cut_by.member_number == "S2"
    # 150 cards were drawn from the first shoe; the 150th brought the red card out (CF-X5).
    assert first.cards_drawn == 150
    assert first.red_card_seq is not None
    assert first.ended_seq == second.sabot.opened_seq
    assert first.red_card_seq < second.sabot.opened_seq  # type: ignore[operator]
    assert Sabot.objects.filter(table_session=run.table_session, closed_at__isnull=True).get() == (
        second.sabot
    )
