"""The play pages and the API's texts in the reader's language: Hungarian and German words, dates and plurals.

Machine fields (status codes, statuses, seqs, the record checks' names) stay the same whatever the language.
"""

from __future__ import annotations

from datetime import date, datetime, timezone

import pytest
import time_machine
from django.test import Client
from django.utils import translation

from games import engine_at
from games.i18n import current_language
from tests.platform.conftest import PASSWORD, SCRIPTED_CLASSIC_2P
from tests.platform.play.costs import token_client
from turnbased.accounts.services.languages import language_choose
from turnbased.clocks.services import absence_declare
from turnbased.kit.errors import Conflict
from turnbased.play import services

pytestmark = pytest.mark.django_db

WEDNESDAY = datetime(2026, 11, 25, 9, 30, tzinfo=timezone.utc)


def reader(language: str, user=None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        assert client.login(username=user.username, password=PASSWORD)
    return client


@pytest.fixture
def clocked_game(alice, bob):
    """Alice (to move) against bob, three days a move; bob is away until 3 December."""
    with time_machine.travel(WEDNESDAY, tick=False):
        absence_declare(user=bob, starts_on=date(2026, 11, 25), ends_on=date(2026, 12, 3))
        game = services.create_game(creator=alice, engine_slug="love-letter", players=2,
                                    options={"deck": SCRIPTED_CLASSIC_2P, "first_player": 0},
                                    time_control={"kind": "per_move", "days_per_move": 3})
        services.join_game(game_id=game.pk, user=bob)
        yield game


@pytest.mark.parametrize(("language", "words", "away"), [
    ("en", ["Waiting for alice.", "History", "Download the record"], "away until 3 Dec"),
    ("hu", ["Következik: alice.", "Előzmények", "A jegyzőkönyv letöltése"], "távol eddig: december 3."),
    ("de", ["Am Zug: alice.", "Verlauf", "Protokoll herunterladen"], "abwesend bis 3. Dezember"),
])
def test_the_game_page_speaks_the_readers_language_with_its_dates(clocked_game, language, words, away):
    page = reader(language).get(f"/games/{clocked_game.pk}/").content.decode()
    for word in words:
        assert word in page, (language, word)
    assert away in page, language
    assert f'<html lang="{language}">' in page


def test_an_account_language_words_the_lobby_whatever_the_browser_asks(bob, started_game):
    language_choose(user=bob, language="hu")
    page = reader("de", bob).get("/").content.decode()
    assert "Játszmáid" in page and "Nyitott asztalok" in page and "Deine Partien" not in page


@pytest.mark.parametrize(("language", "one", "five"), [
    ("en", "(1 seat free)", "(5 seats free)"),
    ("hu", "(1 szabad hely)", "(5 szabad hely)"),
    ("de", "(1 Platz frei)", "(5 Plätze frei)"),
])
def test_the_lobby_counts_free_seats_in_each_languages_plural(alice, language, one, five):
    services.create_game(creator=alice, engine_slug="love-letter", players=2)
    services.create_game(creator=alice, engine_slug="love-letter", players=6, options={"edition": "2019"})
    page = reader(language, alice).get("/").content.decode()
    assert one in page and five in page


@pytest.mark.parametrize(("cap", "expected"), [
    (1, "Du hast 1 Tisch, der auf Spieler wartet; ein Konto darf höchstens 1 haben."),
    (5, "Du hast 5 Tische, die auf Spieler warten; ein Konto darf höchstens 5 haben."),
])
def test_a_refusal_counts_in_the_readers_plural(alice, settings, cap, expected):
    settings.MAX_OPEN_TABLES_PER_ACCOUNT = cap
    for _ in range(cap):
        services.create_game(creator=alice, engine_slug="love-letter", players=3)
    with translation.override("de"), pytest.raises(Conflict) as refused:
        services.create_game(creator=alice, engine_slug="love-letter", players=3)
    assert refused.value.detail.startswith(expected)


def test_an_api_refusal_answers_in_german_with_the_same_status_and_fields(started_game, bob):
    api = token_client(bob)
    not_mine = api.post(f"/api/games/{started_game.pk}/moves/", {"move": {"card": "priest"}, "expected_seq": 0},
                        format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert not_mine.status_code == 409 and not_mine.json()["detail"] == "Du bist nicht am Zug."
    assert not_mine.json()["title"] == "Konflikt"  # a problem document (issue 42), its title in German too
    english = api.post(f"/api/games/{started_game.pk}/moves/", {"move": {"card": "priest"}, "expected_seq": 0},
                       format="json")
    assert english.status_code == 409 and english.json()["detail"] == "It is not your turn."

    stale = token_client(started_game.created_by).post(
        f"/api/games/{started_game.pk}/moves/", {"move": {"card": "handmaid"}, "expected_seq": 3}, format="json",
        HTTP_ACCEPT_LANGUAGE="hu")
    body = stale.json()
    assert stale.status_code == 409 and body["seq"] == 0 and body["game"]["status"] == "active"
    assert body["detail"].startswith("A játszma közben továbbhaladt")


def test_an_invalid_query_answers_in_hungarian_under_its_field(started_game, alice):
    answer = token_client(alice).get(f"/api/games/{started_game.pk}/history/?since=x", HTTP_ACCEPT_LANGUAGE="hu")
    assert answer.status_code == 400
    assert answer.json()["errors"] == {"since": ["A since értéke 0 és 2147483647 közötti egész szám lehet."]}


@pytest.fixture
def finished_game(alice, bob):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2, seed="worded-seed")
    services.join_game(game_id=game.pk, user=bob)
    services.resign_game(game_id=game.pk, user=bob)
    return game


def test_the_fairness_check_is_worded_for_the_reader_and_still_passes(finished_game):
    english = Client().get(f"/api/games/{finished_game.pk}/verify/").json()
    german = Client(HTTP_ACCEPT_LANGUAGE="de").get(f"/api/games/{finished_game.pk}/verify/").json()
    assert english["ok"] is german["ok"] is True
    assert [check["name"] for check in german["checks"]] == [check["name"] for check in english["checks"]]
    details = {check["name"]: check["detail"] for check in german["checks"]}
    assert details["complete"] == "der Startwert ist aufgedeckt, und alle Züge und Ereignisse sind vorhanden"

    page = Client(HTTP_ACCEPT_LANGUAGE="hu").get(f"/games/{finished_game.pk}/verify/").content.decode()
    assert "Minden ellenőrzés sikeres" in page and "Kezdőérték és lenyomat" in page
    assert "a kezdőérték nyilvános, és minden lépés és esemény megvan" in page


def test_a_result_worded_for_the_reader_is_still_checked_against_the_records_english_one(finished_game, monkeypatch):
    """The record keeps the English summary: the replay's result is compared in English, whoever reads the check."""
    engine_class = type(engine_at(finished_game.engine, finished_game.engine_version))
    english_result = engine_class.result

    def worded_result(self, state):
        result = english_result(self, state)
        return result if result is None or current_language() == "en" else {**result, "summary": "Bob gibt auf"}

    monkeypatch.setattr(engine_class, "result", worded_result)
    german = Client(HTTP_ACCEPT_LANGUAGE="de").get(f"/api/games/{finished_game.pk}/verify/").json()
    assert german["ok"] is True, german["checks"]


def test_the_replay_page_speaks_german(finished_game):
    page = Client(HTTP_ACCEPT_LANGUAGE="de").get(f"/games/{finished_game.pk}/replay/?seq=0").content.decode()
    assert "Der Beginn der Partie" in page and "Nächste" in page and "Wiederholung" in page
