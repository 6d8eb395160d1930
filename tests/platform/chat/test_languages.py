"""Table talk in the reader's language: the panel, the words the tab-title script is given, times, refusals."""

from __future__ import annotations

import re
import zoneinfo

import pytest
from django.test import Client
from django.utils import formats, timezone, translation

from turnbased.accounts.readers import reader_settings
from turnbased.chat import services

pytestmark = pytest.mark.django_db



def client_for(user, language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def chat_panel(html: str) -> str:
    return re.search(r'<section class="card chat".*?</section>', html, re.S).group(0)


def test_the_chat_beside_the_board_speaks_hungarian_with_a_hungarian_time(started_game, alice, bob):
    message = services.message_post(game_id=started_game.pk, user=alice, text="jó játékot")
    html = client_for(bob, "hu").get(f"/games/{started_game.pk}/").content.decode()
    panel = chat_panel(html)
    assert "<h2 id=\"chat-heading\">Asztali beszélgetés</h2>" in panel
    assert 'title="a(z) 0. lépés után"' in panel and "alice némítása</button>" in panel
    assert 'placeholder="Írj valamit az asztalnak"' in panel and "Küldés</button>" in panel
    with translation.override("hu"), timezone.override(zoneinfo.ZoneInfo(reader_settings(bob).zone)):
        shown = formats.date_format(message.created_at, "SHORT_DATETIME_FORMAT")
    assert f">{shown}</time>" in panel  # 2026. 12. 01. 09:30


def test_the_tab_title_script_reads_its_words_from_the_page_in_the_pages_language(started_game, alice):
    html = client_for(alice, "de").get(f"/games/{started_game.pk}/").content.decode()
    words = re.search(r"<span hidden data-table-talk-words(.*?)></span>", html, re.S).group(1)
    assert 'data-your-turn="Du bist am Zug"' in words
    assert 'data-turn-in="Du bist am Zug: {title}"' in words  # the script puts the page's title in
    lobby = client_for(alice, "hu").get("/").content.decode()
    assert 'data-your-turn="Te következel"' in lobby and "Szólj, amikor én következem</button>" in lobby


def test_the_script_holds_no_english_words_of_its_own():
    from pathlib import Path

    script = (Path(__file__).resolve().parents[3] / "static" / "js" / "table-talk.js").read_text(encoding="utf-8")
    code = re.sub(r"/\*.*?\*/|//[^\n]*", "", script, flags=re.S)  # comments may say what it shows
    for english in ("Your turn", "It is your turn", "waiting for your move", "You will be told"):
        assert english not in code


def test_a_refused_message_answers_in_the_language_asked_with_the_same_status(started_game, carol, api_client_for):
    client = api_client_for(carol)
    url = f"/api/games/{started_game.pk}/messages/"
    english = client.post(url, {"text": "hello"}, format="json")
    german = client.post(url, {"text": "hello"}, format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert english.status_code == german.status_code == 403
    assert english.json()["detail"].startswith("Only the players at this table may write")
    assert german.json()["detail"] == "Nur die Spieler an diesem Tisch dürfen im Chat schreiben; Zuschauer lesen mit."
    bad = client.get(url + "?after=x", HTTP_ACCEPT_LANGUAGE="hu")
    assert bad.status_code == 400 and bad.json()["errors"] == {
        "after": ["A(z) after értéke 0 és 9223372036854775807 közötti egész szám lehet."]}


def test_a_mute_is_confirmed_in_the_language_of_the_page(started_game, alice, bob):
    client = client_for(bob, "de")
    answer = client.post(f"/games/{started_game.pk}/chat/mute/", {"username": "alice", "action": "mute"}, follow=True)
    assert "Du siehst nicht mehr, was alice schreibt, in keiner Partie." in answer.content.decode()
