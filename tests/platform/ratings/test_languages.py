"""The leaderboards, player pages and archives in the reader's language: words, plurals, ordinals and dates."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import formats, timezone, translation
from rest_framework.test import APIClient

from tests.platform.ratings.conftest import play_moves, start
from turnbased.clocks import sweep
from turnbased.ratings import selectors

pytestmark = pytest.mark.django_db



def page(path: str, language: str) -> str:
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get(path)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize(("language", "ordinals"), [
    ("en", ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "111th"]),
    ("hu", ["1.", "2.", "3.", "4.", "11.", "12.", "13.", "21.", "22.", "23.", "111."]),
    ("de", ["1.", "2.", "3.", "4.", "11.", "12.", "13.", "21.", "22.", "23.", "111."]),
])
def test_each_language_writes_its_own_ordinals(language, ordinals):
    with translation.override(language):
        assert [selectors.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 111)] == ordinals


def test_a_place_among_the_players_is_worded_in_each_languages_order():
    row = selectors.ArchivedGame(game=None, name="Halali!", finished_at=None, seats=[None] * 4, place=2, won=False,
                                 draw=False, summary="", rating_change=None)
    expected = {"en": "2nd of 4", "hu": "4 közül 2.", "de": "2. von 4"}
    for language, outcome in expected.items():
        with translation.override(language):
            assert row.outcome == outcome


def test_the_archive_speaks_hungarian_with_hungarian_dates(alice, bob, finish_game):
    won = finish_game(alice, bob)
    lost = finish_game(bob, alice)
    html = page("/players/alice/games/", "hu")
    assert "alice: befejezett játszmák" in html and "<strong>Nyert</strong>" in html
    assert "<strong>2 közül 2.</strong>" in html and "Régebbiek" not in html  # one page: no page links
    with translation.override("hu"):
        day = formats.date_format(lost.finished_at, "SHORT_DATE_FORMAT")
    assert day.endswith(".") and f"<td>{day}</td>" in html  # 2026. 12. 01.
    assert won.pk != lost.pk


def test_the_leaderboard_counts_players_in_german_and_names_the_pools(alice, bob, finish_game, settings):
    settings.RATINGS_PROVISIONAL_GAMES = 1  # both listed
    finish_game(alice, bob)
    html = page("/ratings/halali/?players=2", "de")
    assert "<h1>Halali!: 2 Spieler</h1>" in html and "<strong>Menschen</strong>" in html
    assert 'pool=bots">Bot-Pool</a>' in html and "<th>Wertung</th>" in html


def test_a_players_reliability_uses_the_plural_each_count_needs(alice, bob):
    game = start([alice, bob], time_control={"kind": "per_move", "days_per_move": 1})
    mover = game.to_move[0]
    with time_machine.travel(timezone.now() + timedelta(days=1, minutes=1), tick=False):
        assert sweep.run()["timeouts"] == ["bot played the late turn"]
    play_moves(game, [alice, bob], 4)  # after the bot's turn: two moves each, on time
    late = [alice, bob][mover]
    html = " ".join(page(f"/players/{late.get_username()}/", "de").split())
    assert "Zuverlässigkeit: <strong>66 %</strong>" in html
    assert "(2 Züge rechtzeitig, 1 Zeitüberschreitung in Partien mit Uhr)" in html
    with translation.override("de"):
        assert f"Mitglied seit {formats.date_format(late.date_joined, 'YEAR_MONTH_FORMAT')}." in html
    hungarian = " ".join(page(f"/players/{late.get_username()}/", "hu").split())
    assert "(órával játszott játszmákban: 2 időben megtett lépés, 1 időtúllépés)" in hungarian


def test_an_api_refusal_answers_in_the_language_asked(alice):
    client = APIClient(HTTP_ACCEPT_LANGUAGE="hu")
    missing = client.get("/api/players/nobody-here/")
    assert missing.status_code == 404 and missing.json()["detail"] == "Nincs ilyen játékos."
    too_many = client.get("/api/ratings/?game=halali&players=5")
    assert too_many.status_code == 422 and "players" in too_many.json()["errors"]
    assert too_many.json()["errors"]["players"] == ["Halali! 2–2 játékossal játszható."]
