"""The replay page (/games/<id>/replay/?seq=N): the game's own board at any position, a step at a time."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from games import engines
from tests.platform.conftest import PASSWORD
from tests.platform.play.costs import measured
from tests.platform.play.test_positions import play, table
from turnbased.play import services
from turnbased.play.models import Visibility

pytestmark = pytest.mark.django_db

SLUGS = list(engines())


def web(user=None) -> Client:
    client = Client()
    if user is not None:
        client.login(username=user.username, password=PASSWORD)
    return client


def page(client, game, seq=None) -> str:
    query = "" if seq is None else f"?seq={seq}"
    response = client.get(f"/games/{game.pk}/replay/{query}")
    assert response.status_code == 200, response.content[:500]
    return response.content.decode()


@pytest.mark.parametrize("slug", SLUGS)
def test_every_position_is_drawn_with_the_games_board_the_step_highlighted_and_the_controls(slug, alice, bob):
    game = play(table(slug, alice, bob), [alice, bob], 4, random.Random(4))
    last = game.seq
    for seq in range(last + 1):
        html = page(web(alice), game, seq)
        assert 'id="board"' in html and "Your move" not in html and "Revealed after the game" not in html
        assert f'<input type="range" id="replay-seq" name="seq" min="0" max="{last}" value="{seq}"' in html
        here = f"/games/{game.pk}/replay/"
        if seq > 0:
            assert f'data-step="first" href="{here}?seq=0"' in html
            assert f'data-step="previous" href="{here}?seq={seq - 1}"' in html
            assert re.search(rf'<li id="step-{seq}" class="current" aria-current="step">', html)
        else:
            assert 'data-step="previous"' not in html
        if seq < last:
            assert f'data-step="next" href="{here}?seq={seq + 1}"' in html
            assert f'data-step="last" href="{here}?seq={last}"' in html
        else:
            assert 'data-step="next"' not in html
    client = web(alice)

    def replay_part(html: str) -> str:
        return html[html.index('<section class="card replay"'):html.index("</main>")]

    assert replay_part(page(client, game)) == replay_part(page(client, game, last)), "without ?seq: the latest"


@pytest.mark.parametrize("slug", SLUGS)
def test_after_the_end_the_board_draws_what_was_hidden(slug, alice, bob, carol):
    game = play(table(slug, alice, bob), [alice, bob], 3, random.Random(6))
    services.resign_game(game_id=game.pk, user=bob)
    for reader in (web(alice), web(carol), web()):
        html = page(reader, game, 1)
        assert "Revealed after the game" in html and "The game is over: what was hidden at this moment is shown too" in html


def test_during_play_a_love_letter_replay_shows_only_my_hand(alice, bob, start_scripted_game):
    game = start_scripted_game(alice, bob)
    html = page(web(alice), game, 0)
    assert 'data-card="guard"' in html and 'data-card="priest"' not in html  # bob holds the Priest
    html = page(web(bob), game, 0)
    assert 'data-card="priest"' in html and 'data-card="guard"' not in html
    assert "Your hand" not in page(web(), game, 0)


def test_bad_positions_are_refused(alice, bob, carol):
    game = table("love-letter", alice, bob)
    for bad in ("abc", "-1", "1.5", "²", "9" * 11):
        assert web(alice).get(f"/games/{game.pk}/replay/?seq={bad}").status_code == 400, bad
    assert web(alice).get(f"/games/{game.pk}/replay/?seq=1").status_code == 404
    waiting = services.create_game(creator=alice, engine_slug="love-letter", players=2)
    assert web(alice).get(f"/games/{waiting.pk}/replay/").status_code == 404
    private = table("love-letter", alice, bob, visibility=Visibility.PRIVATE)
    assert web(bob).get(f"/games/{private.pk}/replay/").status_code == 200
    assert web(carol).get(f"/games/{private.pk}/replay/").status_code == 404
    assert web().get(f"/games/{private.pk}/replay/").status_code == 404


def test_the_game_page_and_the_end_screen_link_to_the_replay(alice, bob):
    game = table("halali", alice, bob)
    assert f'href="/games/{game.pk}/replay/?seq=0">Replay</a>' in web(alice).get(f"/games/{game.pk}/").content.decode()
    services.resign_game(game_id=game.pk, user=bob)
    html = web(alice).get(f"/games/{game.pk}/").content.decode()
    assert "Replay the game step by step" in html and "Replay with every card shown" in html


def test_a_cached_position_costs_the_same_statements_whatever_its_seq(alice, bob, start_scripted_game):
    game = play(start_scripted_game(alice, bob), [alice, bob], 12, random.Random(8))
    client = web(alice)
    late = min(game.seq, 12)
    for seq in (1, late):
        page(client, game, seq)  # drawn once, then cached
    early_cost, _ = measured(lambda: client.get(f"/games/{game.pk}/replay/?seq=1"))
    late_cost, _ = measured(lambda: client.get(f"/games/{game.pk}/replay/?seq={late}"))
    assert early_cost.statements == late_cost.statements <= 6, (early_cost, late_cost)
    # A position not yet drawn reads the log once more, whatever its seq.
    fresh_cost, _ = measured(lambda: client.get(f"/games/{game.pk}/replay/?seq={late - 1}"))
    assert fresh_cost.statements == early_cost.statements + 1, fresh_cost.sql


def test_a_step_asked_by_the_pages_script_gets_the_position_alone(alice, bob, start_scripted_game):
    game = play(start_scripted_game(alice, bob), [alice, bob], 4, random.Random(8))
    client = web(alice)
    whole = client.get(f"/games/{game.pk}/replay/?seq=2")
    step = client.get(f"/games/{game.pk}/replay/?seq=2", headers={"HX-Request": "true"})
    assert "HX-Request" in whole["Vary"] and "HX-Request" in step["Vary"], "a cache keeps the two apart"
    html = step.content.decode()
    assert html.startswith(f"<title>Replay of Love Letter #{game.pk}, move 2 · turnbased</title>")
    assert 'id="replay" data-seq="2"' in html and 'id="history"' in html and 'id="step-2" class="current"' in html
    assert 'class="topbar"' not in html and "<html" not in html, "no site around it"
    assert 'class="topbar"' in whole.content.decode()
    assert len(step.content) < len(whole.content)
    # The position and its history exactly as the page shows them to that viewer (bob's, not alice's, hand).
    for viewer in (alice, bob):
        whole_html = page(web(viewer), game, 2)
        step_html = web(viewer).get(f"/games/{game.pk}/replay/?seq=2", headers={"HX-Request": "true"}).content.decode()
        shown = whole_html[whole_html.index('<section class="card replay"'):].split("</main>", 1)[0]
        assert shown.strip() == step_html[step_html.index('<section class="card replay"'):].strip()


def test_a_step_costs_no_more_statements_than_the_page(alice, bob, start_scripted_game):
    game = play(start_scripted_game(alice, bob), [alice, bob], 6, random.Random(8))
    client = web(alice)
    page(client, game, 3)  # drawn once, then cached
    whole, _ = measured(lambda: client.get(f"/games/{game.pk}/replay/?seq=3"))
    step, _ = measured(lambda: client.get(f"/games/{game.pk}/replay/?seq=3", headers={"HX-Request": "true"}))
    assert step.statements <= whole.statements <= 6, (step.sql, whole.sql)


def test_the_replays_history_box_is_focusable_and_named(alice, bob, start_scripted_game):
    game = play(start_scripted_game(alice, bob), [alice, bob], 4, random.Random(8))
    html = page(web(alice), game, 1)
    assert '<h2 id="history-title">History</h2>' in html
    assert '<ol tabindex="0" aria-labelledby="history-title">' in html
