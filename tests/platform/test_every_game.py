"""Every installed game works on the platform through the engine contract alone.

Pages, the API, the email loop, clocks and bots are exercised for each engine
found in ``games/``; nothing here names a game, so a new game is covered the
moment its package exists.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
import time_machine
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from games import engines
from games.base import Engine
from tests.platform.conftest import PASSWORD
from tests.platform.mail.conftest import reply_bytes
from turnbased.clocks import sweep
from turnbased.clocks.models import SeatClock
from turnbased.mail import delivery
from turnbased.mail.inbound import handle_inbound
from turnbased.notifications.models import Notification, NotificationKind
from turnbased.play import positions, presenters, services
from turnbased.play.models import Game, GameStatus, Move

pytestmark = pytest.mark.django_db

SLUGS = list(engines())


def two_player_table(slug, alice, bob, **create):
    game = services.create_game(creator=alice, engine_slug=slug, players=2, seed=f"every-{slug}", **create)
    services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    return game


def users_by_seat(game, alice, bob):
    return {seat.index: (alice if seat.user_id == alice.pk else bob) for seat in game.seats.all()}


@pytest.mark.parametrize("slug", SLUGS)
def test_pages_and_api_play_the_game_by_its_notation(slug, alice, bob, api_client_for):
    game = two_player_table(slug, alice, bob)
    players = users_by_seat(game, alice, bob)
    rng = random.Random(1)
    for _ in range(6):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        api = api_client_for(players[game.to_move[0]])
        legal = api.get(f"/api/games/{game.pk}/legal-moves/").json()
        choice = rng.choice(legal["moves"])
        response = api.post(f"/api/games/{game.pk}/moves/", {"text": choice["text"], "expected_seq": legal["seq"]},
                            format="json")
        assert response.status_code == 201, response.json()
    for user in (alice, bob, None):
        client = Client()
        if user:
            client.login(username=user.username, password=PASSWORD)
        assert client.get(f"/games/{game.pk}/").status_code == 200
    call_command("verify_games", str(game.pk))


@pytest.mark.parametrize("slug", SLUGS)
def test_the_email_loop_plays_the_game(slug, alice, bob, mailoutbox):
    game = two_player_table(slug, alice, bob)
    players = users_by_seat(game, alice, bob)
    for _ in range(3):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        mover = players[game.to_move[0]]
        row = Notification.objects.get(game=game, seq=game.seq, kind=NotificationKind.YOUR_TURN, user=mover)
        assert delivery.deliver(row.pk) == "sent"
        email = mailoutbox[-1]
        lines = email.body.splitlines()
        # The email shows an example move under "for example:"; a player may copy it.
        first_listed = lines[lines.index(next(line for line in lines if line.endswith("for example:"))) + 2].strip()
        before = game.seq
        assert handle_inbound(reply_bytes(email, first_listed)).startswith("played"), first_listed
        game.refresh_from_db()
        assert game.seq == before + 1 and Move.objects.get(game=game, seq=game.seq).source == "email"


@pytest.mark.parametrize("slug", SLUGS)
def test_clocks_run_and_a_late_turn_is_played_for_the_player(slug, alice, bob):
    with time_machine.travel(timezone.now(), tick=False) as clock:
        game = two_player_table(slug, alice, bob, time_control={"kind": "per_move", "days_per_move": 1})
        assert SeatClock.objects.filter(game=game, deadline__isnull=False).count() == len(game.to_move)
        clock.shift(timedelta(days=1, minutes=1))
        outcomes = sweep.run()["timeouts"]
    assert outcomes and outcomes[0] in ("bot played the late turn", "seat handed to the bot")
    assert Move.objects.filter(game=game, source="timeout").count() == 1


@pytest.mark.parametrize("slug", SLUGS)
def test_every_bot_of_every_game_answers_a_person(slug, alice, django_capture_on_commit_callbacks):
    engine = engines()[slug]
    for bot in engine.bots():
        with django_capture_on_commit_callbacks(execute=True):
            game = services.create_game(creator=alice, engine_slug=slug, players=2, bots={1: bot}, seed=f"bot-{bot}")
        game.refresh_from_db()
        assert game.status == GameStatus.ACTIVE
        if game.to_move == [1]:  # the bot starts: its task already ran on commit
            game.refresh_from_db()
        assert Move.objects.filter(game=game, source="bot").exists() or game.to_move == [0]
    assert Game.objects.filter(engine=slug).count() == len(engine.bots())


@pytest.mark.parametrize("slug", SLUGS)
def test_the_game_page_explains_the_game_in_short(slug, alice, bob):
    how_to_play_html = presenters.how_to_play_html
    engine = engines()[slug]
    text = engine.how_to_play()
    assert 400 < len(text) < 4000, "a few paragraphs: the goal, a turn, scoring, the end"
    game = two_player_table(slug, alice, bob)
    page = Client().get(f"/games/{game.pk}/").content.decode()
    panel = page[page.index('<details class="card how-to-play">'):]
    panel = panel[:panel.index("</details>")]
    assert f"How to play {engine.name}" in panel
    assert f'<div class="rules-text">{how_to_play_html(slug)}</div>' in panel
    assert panel.count("<p>") >= 3


def test_how_to_play_is_rendered_with_raw_html_escaped_and_defaults_to_nothing(alice, bob, monkeypatch):
    slug = SLUGS[0]
    monkeypatch.setattr(type(engines()[slug]), "how_to_play", lambda self: "**Goal.** <script>alert(1)</script>")
    presenters._how_to_play_html.cache_clear()
    game = two_player_table(slug, alice, bob)
    page = Client().get(f"/games/{game.pk}/").content.decode()
    presenters._how_to_play_html.cache_clear()
    assert "<strong>Goal.</strong> &lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert" not in page

    class Unexplained(type(engines()[slug])):
        """An engine whose package has no how_to_play.md."""

    for module in ("games.unexplained", "unexplained"):  # a package without the file; no package at all
        Unexplained.__module__ = module
        assert Engine.how_to_play(Unexplained()) == ""


@pytest.mark.parametrize("slug", SLUGS)
def test_a_finished_game_breaks_its_score_down_on_the_page_and_in_the_api(slug, alice, api_client_for):
    game = services.create_game(creator=alice, engine_slug=slug, players=2, bots={1: "random"}, seed=f"end-{slug}")
    rng = random.Random(3)
    client = api_client_for(alice)  # one token: an account holds at most API_TOKENS_MAX_PER_USER
    for _ in range(3000):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        if game.to_move == [1]:
            services.play_bot_turn(game_id=game.pk, seq=game.seq)
            continue
        legal = client.get(f"/api/games/{game.pk}/legal-moves/").json()
        move = rng.choice(legal["moves"])["move"]
        services.submit_move(game_id=game.pk, user=alice, expected_seq=legal["seq"], move=move)
    body = client.get(f"/api/games/{game.pk}/").json()
    assert body["status"] == GameStatus.FINISHED and body["ending"]["how"] == "played_out"
    counted = [row for row in body["score_breakdown"] if row["counts"]]
    assert [sum(row["points"][seat] for row in counted) for seat in (0, 1)] == body["result"]["scores"]
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert "<caption>Final score</caption>" in page and all(row["label"] in page for row in body["score_breakdown"])


@pytest.mark.parametrize("slug", SLUGS)
def test_the_replay_steps_through_the_game_and_needs_no_reveal_of_its_own(slug, alice, bob, monkeypatch):
    """The replay draws every position with the game's board; an engine that keeps the default
    ``view_after_end`` replays a finished game with the spectator's view, the platform unchanged."""
    game = two_player_table(slug, alice, bob)
    players = users_by_seat(game, alice, bob)
    engine = engines()[slug]
    rng = random.Random(4)
    for _ in range(3):
        game.refresh_from_db()
        seat = game.to_move[0]
        services.submit_move(game_id=game.pk, user=players[seat], expected_seq=game.seq,
                             move=rng.choice(engine.legal_moves(game.state, seat)))
    services.resign_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    client = Client()
    for seq in range(game.seq + 1):
        assert client.get(f"/games/{game.pk}/replay/?seq={seq}").status_code == 200
        assert "revealed" in client.get(f"/api/games/{game.pk}/positions/{seq}/").json()["view"]
    monkeypatch.setattr(type(engine), "view_after_end", Engine.view_after_end)
    cache.clear()
    for seq in range(game.seq + 1):
        assert client.get(f"/games/{game.pk}/replay/?seq={seq}").status_code == 200
        view = client.get(f"/api/games/{game.pk}/positions/{seq}/").json()["view"]
        assert view == engine.view(positions.state_at(game, seq)[0], None)


@pytest.mark.parametrize("slug", SLUGS)
def test_the_api_draws_the_position_in_text_and_a_listed_move_plays(slug, alice, bob, api_client_for):
    """GET /api/games/{id}/text/ (what the terminal player shows): each viewer's own view drawn, the mover's moves."""
    game = two_player_table(slug, alice, bob)
    players = users_by_seat(game, alice, bob)
    engine = engines()[slug]
    mover = game.to_move[0]
    for seat, user in players.items():
        answer = api_client_for(user).get(f"/api/games/{game.pk}/text/").json()
        assert answer["position"] == engine.view_text(engine.view(game.state, seat)) != ""
        assert (answer["move_count"] > 0) == (seat == mover) == bool(answer["moves"])
    watched = Client().get(f"/api/games/{game.pk}/text/").json()
    assert watched["position"] == engine.view_text(engine.view(game.state, None)) and watched["moves"] == []
    api = api_client_for(players[mover])
    first = api.get(f"/api/games/{game.pk}/legal-moves/").json()["moves"][0]["text"]
    played = api.post(f"/api/games/{game.pk}/moves/", {"text": first, "expected_seq": game.seq}, format="json")
    assert played.status_code == 201, played.json()
