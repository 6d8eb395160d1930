"""How a finished game ended, and its score table, as every viewer reads it."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from tests.platform.aftergame.conftest import finished, play_out
from turnbased.aftergame import selectors
from turnbased.aftergame import services as aftergame_services
from turnbased.clocks import sweep
from turnbased.play import services
from turnbased.play.models import GameStatus

pytestmark = pytest.mark.django_db


def test_a_game_ended_by_a_resignation_says_so_and_names_who(alice, bob):
    game = finished([alice, bob])
    ending = selectors.ending(game)
    assert (ending.how, ending.seats, ending.names) == ("resignation", [1], ["bob"])
    assert ending.heading == "Game over by resignation" and ending.detail == "bob resigned."


def test_a_game_played_out_ends_normally(alice, bob):
    game = finished([alice, bob], resign=False)
    assert game.status == GameStatus.FINISHED
    ending = selectors.ending(game)
    assert (ending.how, ending.seats, ending.heading) == ("played_out", [], "Game over")


def test_a_game_a_bot_played_out_for_a_player_out_of_time_ended_on_time(alice, bob):
    with time_machine.travel(timezone.now(), tick=False) as clock:
        game = services.create_game(creator=alice, engine_slug="love-letter", players=2,
                                    time_control={"kind": "per_move", "days_per_move": 1, "expiry": "remove"})
        services.join_game(game_id=game.pk, user=bob)
        game.refresh_from_db()
        late = game.to_move[0]
        clock.shift(timedelta(days=1, minutes=1))
        assert sweep.run()["timeouts"] == ["seat handed to the bot"]
    game = play_out(game, {0: alice, 1: bob})
    ending = selectors.ending(game)
    assert (ending.how, ending.seats, ending.names) == ("timeout", [late], [[alice, bob][late].username])
    assert ending.heading == "Game over on time"


def test_a_resignation_that_did_not_end_the_game_is_not_its_ending(alice, bob, carol):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=3)
    for user in (bob, carol):
        services.join_game(game_id=game.pk, user=user)
    services.resign_game(game_id=game.pk, user=carol)
    game = play_out(game, {0: alice, 1: bob})
    assert selectors.ending(game).how == "played_out"


def test_no_ending_before_the_game_is_over(started_game):
    assert selectors.ending(started_game) is None and selectors.final_score(started_game) is None


@pytest.mark.parametrize("slug", ["love-letter", "halali", "carcassonne-hg", "savernake-forest"])
def test_the_score_table_adds_up_to_the_result_and_names_bots_by_their_kind(slug, alice):
    game = services.create_game(creator=alice, engine_slug=slug, players=2, bots={1: "basic"})
    game = play_out(game, {0: alice})
    score = selectors.final_score(game)
    assert [seat.name for seat in score.seats] == ["alice", "Basic bot"]
    assert [sum(row["points"][seat] for row in score.counted_rows) for seat in (0, 1)] == score.totals
    assert score.totals == game.result["scores"] and score.winners == game.result["winners"]


def test_the_rematch_version_the_box_polls_with_follows_the_rematch_through_its_life(alice, bob, carol):
    game = finished([alice, bob, carol])
    assert selectors.rematch_version(game.pk) == "none"
    versions = []

    def check(original) -> None:
        versions.append(selectors.rematch_version(original.pk))
        assert versions[-1] == selectors.rematch_state(selectors.rematch_for(original), alice).version

    aftergame_services.rematch_propose(game_id=game.pk, user=alice)
    check(game)
    aftergame_services.rematch_accept(game_id=game.pk, user=bob)
    check(game)
    aftergame_services.rematch_accept(game_id=game.pk, user=carol)
    check(game)
    declined = finished([alice, bob])
    aftergame_services.rematch_propose(game_id=declined.pk, user=alice)
    aftergame_services.rematch_decline(game_id=declined.pk, user=bob)
    check(declined)
    assert versions[0].endswith(".waiting.1") and versions[1].endswith(".waiting.2")
    assert versions[2].endswith(".started.3") and versions[3].endswith(".declined.1")
