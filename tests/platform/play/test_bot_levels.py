"""Bot levels at the table (issue 48): a strong bot seat plays through the services, thinking before the game is
locked; a search stopped by its time limit leaves the turn to the basic bot; the bot that stands in for a late or
departed player is the level the table chose, the strong one in a competition's games unless its organiser chose."""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

import pytest
import time_machine
from celery.exceptions import SoftTimeLimitExceeded
from django.db import connection
from django.test import Client

import games
from games import search
from turnbased.clocks import sweep
from turnbased.clocks.models import TableClock
from turnbased.kit.errors import InvalidRequest
from turnbased.play import services, tasks
from turnbased.play.models import Game, GameStatus, Move, Seat

FRIDAY_NOON = datetime(2026, 11, 27, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def without_strong(monkeypatch) -> str:
    """Return a game that offers no strong bot: Halali! with its strong bot taken away, as every game offers one."""
    engine = games.get_engine("halali")
    offered = engine.bots()
    monkeypatch.setattr(type(engine), "bots", lambda self: {k: v for k, v in offered.items() if k != "strong"})
    return engine.slug


def _bot_table(alice, level: str, **options) -> Game:
    return services.create_game(creator=alice, engine_slug="love-letter", players=2, seed="levels",
                                bots={1: level}, **options)


def _play_to_the_end(game: Game, alice) -> Game:
    """Alice plays her first legal move whenever it is her turn, the bot answers through play_bot_turn."""
    from turnbased.play import selectors

    for _ in range(400):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            return game
        if game.to_move == [1]:
            services.play_bot_turn(game_id=game.pk, seq=game.seq)
            continue
        move = selectors.legal_moves_for(selectors.Viewer(game=game, seat=0))[0]["move"]
        services.submit_move(game_id=game.pk, user=alice, expected_seq=game.seq, move=move)
    raise AssertionError("the game did not end")


def test_a_strong_bot_plays_a_whole_game_through_the_services(db, alice):
    game = _play_to_the_end(_bot_table(alice, "strong"), alice)
    assert game.status == GameStatus.FINISHED
    assert Move.objects.filter(game=game, source="bot", seat=1).count() > 5


@pytest.mark.django_db(transaction=True)
def test_the_strong_bot_thinks_before_the_game_is_locked(alice, monkeypatch):
    thinking = []
    choose = search.SearchBot.choose

    def watched(self, view, moves, history, rng):
        thinking.append(connection.in_atomic_block)
        return choose(self, view, moves, history, rng)

    monkeypatch.setattr(search.SearchBot, "choose", watched)
    game = _bot_table(alice, "strong")
    _play_to_the_end(game, alice)
    assert thinking and not any(thinking), "a search ran inside the transaction that holds the game's row lock"


def test_a_stopped_search_leaves_the_turn_to_the_basic_bot(db, alice, monkeypatch):
    game = _bot_table(alice, "strong")
    from turnbased.play import selectors

    game.refresh_from_db()
    if game.to_move == [0]:  # alice first: her move makes it the bot's turn
        move = selectors.legal_moves_for(selectors.Viewer(game=game, seat=0))[0]["move"]
        services.submit_move(game_id=game.pk, user=alice, expected_seq=game.seq, move=move)
        game.refresh_from_db()
    assert game.to_move == [1]
    tries = []
    real = services.play_bot_turn

    def stopped_once(*, game_id, seq, plain=False):
        tries.append(plain)
        if not plain:
            raise SoftTimeLimitExceeded()
        return real(game_id=game_id, seq=seq, plain=plain)

    monkeypatch.setattr(services, "play_bot_turn", stopped_once)
    monkeypatch.setattr(search.SearchBot, "choose", lambda *args: pytest.fail("the stopped search ran again"))
    assert tasks.play_bot_turn(game.pk, game.seq) == 1
    assert tries == [False, True]
    assert Move.objects.get(game=game, seq=game.seq + 1).source == "bot"


def _late_seat_handed_on(alice, bob, slug: str, **stand_in) -> Seat:
    """Return the seat of a player who let a day-a-move clock run out at a table that removes the late, once the
    sweep has handed it to a bot (``stand_in``: the table's choice, if it made one)."""
    with time_machine.travel(FRIDAY_NOON, tick=False) as clock:
        game = services.create_game(creator=alice, engine_slug=slug, players=2, seed="stand-in",
                                    time_control={"kind": "per_move", "days_per_move": 1, "expiry": "remove",
                                                  **stand_in})
        services.join_game(game_id=game.pk, user=bob)
        game.refresh_from_db()
        late = game.to_move[0]
        clock.shift(timedelta(days=1, minutes=1))
        assert sweep.run()["timeouts"] == ["seat handed to the bot"]
    return Seat.objects.get(game=game, index=late)


def test_the_seat_of_a_late_player_goes_to_the_level_the_table_chose(db, alice, bob):
    assert _late_seat_handed_on(alice, bob, "love-letter", stand_in="strong").bot == "strong"


def test_a_table_stands_in_the_basic_bot_unless_it_chose(db, alice, bob):
    seat = _late_seat_handed_on(alice, bob, "love-letter")
    assert TableClock.objects.get(game=seat.game).stand_in == "basic" and seat.bot == "basic"


def test_a_game_without_the_chosen_level_stands_in_its_basic_bot(db, alice, bob, without_strong):
    assert _late_seat_handed_on(alice, bob, without_strong, stand_in="strong").bot == "basic"


def test_an_unknown_stand_in_is_refused_and_changes_nothing(db, alice):
    with pytest.raises(InvalidRequest, match="stand_in must be one of basic, strong"):
        services.create_game(creator=alice, engine_slug="love-letter", players=2,
                             time_control={"stand_in": "grandmaster"})
    assert not Game.objects.exists()


def test_the_table_says_who_stands_in_on_its_page_and_in_the_api(db, alice, bob, api_client_for, without_strong):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2,
                                time_control={"kind": "per_move", "days_per_move": 3, "stand_in": "strong"})
    client = Client()
    client.force_login(bob)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Who plays for a late or departed player" in page and "The strong bot" in page
    control = api_client_for(bob).get(f"/api/games/{game.pk}/").json()["time_control"]
    assert control["stand_in"] == "strong" and control["stand_in_description"] == "The strong bot"
    new = Client()
    new.force_login(alice)
    form = new.get("/games/new/?game=love-letter").content.decode()
    assert 'name="stand_in"' in form and 'value="strong"' in form
    other = new.get(f"/games/new/?game={without_strong}").content.decode()  # it does not offer what it lacks
    assert 'name="stand_in"' in other and '<option value="strong"' not in other


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("slug", [engine.slug for engine in games.engines().values() if "strong" in engine.bots()])
def test_every_level_plays_a_whole_game_through_the_real_workers(slug, make_user, settings):
    """Each game offering ``strong``: a table of its strong bot against its basic one, every turn queued on the bots'
    queue and played by a real worker, ends."""
    from tests.platform.embedded_worker import embedded_worker

    settings.BOT_MOVE_DELAY_SECONDS = 0
    watcher = make_user("watcher")
    with embedded_worker():
        game = services.create_game(creator=watcher, engine_slug=slug, players=2, creator_plays=False,
                                    bots={0: "strong", 1: "basic"}, seed="real-workers")
        deadline = time.monotonic() + 120
        while Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE and time.monotonic() < deadline:
            time.sleep(0.1)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert Move.objects.filter(game=game, seat=0, source="bot").count() > 3
