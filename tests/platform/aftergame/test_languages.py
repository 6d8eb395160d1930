"""The end of a game in the reader's language: the end screen, the rematch box and offers, and the API's refusals."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from tests.platform.aftergame.conftest import finished
from turnbased.aftergame import selectors, services

pytestmark = pytest.mark.django_db



def page(path: str, user, language: str) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    response = client.get(path)
    assert response.status_code == 200
    return response.content.decode()


def end_screen(html: str) -> str:
    return re.search(r'<section class="card end-screen".*?</section>', html, re.S).group(0)


def test_the_end_screen_speaks_hungarian_and_german(alice, bob):
    game = finished([alice, bob])
    hungarian = end_screen(page(f"/games/{game.pk}/", alice, "hu"))
    assert "Feladással ért véget a játszma" in hungarian and "bob feladta a játszmát." in hungarian
    assert "<caption>Végeredmény</caption>" in hungarian and ">Összesen</th>" in hungarian
    assert 'aria-label="győztes"' in hungarian and "Visszavágó kérése</button>" in hungarian
    german = end_screen(page(f"/games/{game.pk}/", alice, "de"))
    assert "Partie durch Aufgabe beendet" in german and "bob hat aufgegeben." in german
    assert "Game over" not in german and "Revanche fordern</button>" in german


def test_the_rematch_box_and_the_lobby_offer_word_the_waiting_rematch(alice, bob):
    game = finished([alice, bob])
    rematch, _ = services.rematch_propose(game_id=game.pk, user=alice)
    box = page(f"/games/{game.pk}/", alice, "de")
    assert (f'Revanche vorgeschlagen von alice: <a href="/games/{rematch.game_id}/">Partie #{rematch.game_id}</a>, '
            "wartet noch auf bob.") in box
    lobby = page("/", bob, "hu")
    assert (f'alice visszavágót ajánl a(z) <a href="/games/{game.pk}/">#{game.pk} játszmához</a>.') in lobby
    assert "Visszavágó elfogadása</button>" in lobby


def test_a_timeout_of_one_and_of_several_players_is_one_sentence_with_its_plural():
    one = selectors.Ending(how=selectors.TIMEOUT, seats=[1], names=["bob"])
    three = selectors.Ending(how=selectors.TIMEOUT, seats=[0, 1, 2], names=["alice", "bob", "carol"])
    with translation.override("en"):
        assert one.detail.startswith("bob ran out of time and was replaced")
        assert three.detail.startswith("alice, bob and carol ran out of time and were replaced")
    with translation.override("hu"):
        assert one.detail.startswith("bob kifutott az időből, ezért egy bot vette át a helyét")
        assert three.detail.startswith("alice, bob és carol kifutottak az időből")
    with translation.override("de"):
        assert one.detail.startswith("bob hat die Zeit überschritten und wurde")
        assert three.detail.startswith("alice, bob und carol haben die Zeit überschritten und wurden")


def test_a_refused_rematch_answers_in_the_language_asked_with_the_same_status(alice, api_client_for, started_game):
    client = api_client_for(alice)
    english = client.post(f"/api/games/{started_game.pk}/rematch/")
    german = client.post(f"/api/games/{started_game.pk}/rematch/", HTTP_ACCEPT_LANGUAGE="de")
    assert english.status_code == german.status_code == 409
    assert english.json()["detail"] == "A rematch can only follow a finished game."
    assert german.json()["detail"] == "Eine Revanche kann nur auf eine beendete Partie folgen."


def test_the_rating_changes_and_the_lobbys_winner_in_hungarian_and_german(alice, bob):
    game = finished([alice, bob], resign=False)
    with translation.override("hu"):
        hungarian_result = game.result_line
    with translation.override("de"):
        german_result = game.result_line
    assert hungarian_result != german_result != game.result["summary"]
    assert "<h3>Értékszám-változások</h3>" in end_screen(page(f"/games/{game.pk}/", alice, "hu"))
    assert "<h3>Wertungsänderungen</h3>" in end_screen(page(f"/games/{game.pk}/", alice, "de"))
    assert f'<span class="result-line">{hungarian_result}</span>' in page("/", alice, "hu")
    assert f'<span class="result-line">{german_result}</span>' in page("/", bob, "de")
