"""The game page as it follows a game: the latest history with older pages on demand, polls that bring
only what changed, a header that follows the table, and bots that read a bounded part of the log."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from turnbased.play import selectors, services, store
from turnbased.play.models import Game, GameStatus
from turnbased.play.services import moves as move_services

pytestmark = pytest.mark.django_db

PAGE = selectors.HISTORY_PAGE_MOVES


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def seqs(html: str) -> list[int]:
    """Return the move numbers of the history entries in the HTML, in order (a move's events share one)."""
    found = [int(seq) for seq in re.findall(r'<span class="seq">(\d+)</span>', html)]
    return [seq for index, seq in enumerate(found) if index == 0 or found[index - 1] != seq]


def play_to(game: Game, seq: int, users: list, seed: int = 3) -> Game:
    rng = random.Random(seed)
    engine = store.engine_of(game)
    while game.seq < seq:
        assert game.status == GameStatus.ACTIVE, f"the game ended before seq {seq}"
        seat = game.to_move[0]
        services.submit_move(game_id=game.pk, user=users[seat], expected_seq=game.seq,
                             move=rng.choice(engine.legal_moves(game.state, seat)))
        game.refresh_from_db()
    return game


@pytest.fixture
def long_game(alice, bob) -> Game:
    """A Love Letter game between alice and bob, 2 pages of history and 5 moves in."""
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2, seed="long")
    services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    return play_to(game, 2 * PAGE + 5, [alice, bob])


def test_the_page_shows_the_latest_moves_and_links_to_older_ones(long_game, alice):
    page = logged_in(alice).get(f"/games/{long_game.pk}/").content.decode()
    latest = long_game.seq
    assert set(seqs(page)) == set(range(latest - PAGE + 1, latest + 1))
    assert seqs(page) == sorted(seqs(page), reverse=True)
    assert f'hx-get="/games/{long_game.pk}/history/?before={latest - PAGE + 1}"' in page


def test_show_older_appends_the_page_before_and_moves_the_link_on(long_game, alice):
    client = logged_in(alice)
    before = long_game.seq - PAGE + 1
    older = client.get(f"/games/{long_game.pk}/history/?before={before}", HTTP_HX_REQUEST="true").content.decode()
    assert set(seqs(older)) == set(range(before - PAGE, before))
    assert "<html" not in older and 'id="history-older" hx-swap-oob="true"' in older
    assert f"?before={before - PAGE}" in older
    # The first page has nothing older: no link.
    first = client.get(f"/games/{long_game.pk}/history/?before={before - PAGE}", HTTP_HX_REQUEST="true").content.decode()
    assert set(seqs(first)) == set(range(1, before - PAGE)) and "Show older" not in first


def test_the_history_page_works_without_htmx(long_game, bob):
    page = logged_in(bob).get(f"/games/{long_game.pk}/history/?before=6").content.decode()
    assert "<html" in page and set(seqs(page)) == set(range(1, 6))
    assert set(seqs(logged_in(bob).get(f"/games/{long_game.pk}/history/").content.decode())) == set(
        range(long_game.seq - PAGE + 1, long_game.seq + 1))


@pytest.mark.parametrize("before", ["x", "-1", "1.5", "9" * 30])
def test_a_malformed_history_position_is_a_400(long_game, alice, before):
    assert logged_in(alice).get(f"/games/{long_game.pk}/history/?before={before}").status_code == 400


def test_a_poll_brings_only_the_entries_since_the_seq_the_page_shows(long_game, alice, bob):
    shown = long_game.seq
    game = play_to(long_game, shown + 2, [alice, bob])
    answer = logged_in(alice).get(f"/games/{game.pk}/panel/?seq={shown}&status=active&seated=2").content.decode()
    assert seqs(answer) == [shown + 2, shown + 1]
    assert 'hx-swap-oob="afterbegin:#history-entries"' in answer


def test_a_poll_from_too_far_behind_gets_the_latest_page_whole(long_game, alice):
    answer = logged_in(alice).get(f"/games/{long_game.pk}/panel/?seq=1&status=active&seated=2").content.decode()
    assert set(seqs(answer)) == set(range(long_game.seq - PAGE + 1, long_game.seq + 1))
    assert 'id="history" hx-swap-oob="true"' in answer


def test_the_header_follows_the_table_filling_up_and_the_game_ending(alice, bob):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2)
    watcher = logged_in(alice)
    page = watcher.get(f"/games/{game.pk}/").content.decode()
    assert "Abort table" in page and "Resign" not in page
    waiting = f"/games/{game.pk}/panel/?seq=0&status=open&seated=1"
    assert waiting.replace("&", "&amp;") in page
    assert watcher.get(waiting).status_code == 204
    services.join_game(game_id=game.pk, user=bob)
    started = watcher.get(waiting).content.decode()
    header = started[started.index('id="game-header"'):]
    assert 'hx-swap-oob="true"' in header[:60]
    assert "status-active" in header and "Resign" in header and "Abort table" not in header
    assert "bob" in header
    services.resign_game(game_id=game.pk, user=bob)
    ended = watcher.get(f"/games/{game.pk}/panel/?seq=0&status=active&seated=2").content.decode()
    header = ended[ended.index('id="game-header"'):]
    assert "status-finished" in header and "Resign" not in header


def test_a_bot_reads_only_the_moves_its_window_covers(alice, monkeypatch):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2, bots={1: "basic"}, seed="b")
    engine = store.engine_of(game)
    handed: list[list] = []
    real = move_services.bot_move

    def spy(engine_, bot_name, state, seat, history, *, seed):
        handed.append((int(seed.rsplit(":", 1)[1]), [event.to_json() for event in history]))  # the seed ends with the position's seq
        return real(engine_, bot_name, state, seat, history, seed=seed)

    monkeypatch.setattr(move_services, "bot_move", spy)
    monkeypatch.setattr(move_services, "schedule_bot_turns", lambda game: None)
    window = move_services.history_window(engine, "basic")
    rng = random.Random(5)
    game.refresh_from_db()
    while game.seq < window + 20 and game.status == GameStatus.ACTIVE:
        if 1 in game.to_move:
            move_services.play_bot_turn(game_id=game.pk, seq=game.seq)
        else:
            services.submit_move(game_id=game.pk, user=alice, expected_seq=game.seq,
                                 move=rng.choice(engine.legal_moves(game.state, 0)))
        game.refresh_from_db()
    at, history = handed[-1]
    assert at > window, "the bot moved late in the game"
    # The events of the window's moves (bot_move keeps those the seat may see), not the whole log.
    read = [logged.event.to_json() for logged in store.events_since(game, at - window) if logged.seq <= at]
    assert history == read
