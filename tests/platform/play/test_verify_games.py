"""``verify_games`` catches every field of a game row that disagrees with its log, and nothing on a live system."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from turnbased.play import services
from turnbased.play.models import Game, GameStatus

RECORDS = Path(__file__).resolve().parents[2] / "records"


def _verify(*ids: int) -> None:
    call_command("verify_games", *[f"--game={game_id}" for game_id in ids])


@pytest.fixture
def played(started_game, alice):
    """The scripted two-player game after alice's Handmaid (seq 1, bob to move)."""
    services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    started_game.refresh_from_db()
    return started_game


@pytest.mark.django_db
@pytest.mark.parametrize("tamper, message", [
    ({"to_move": [0]}, "to_move is [0] but the replay says [1]"),
    ({"seq": 5}, "seq is 5 but the log holds 1"),
    ({"status": GameStatus.FINISHED}, "the game is finished but the replay"),
    ({"result": {"winners": [0]}}, "has a result"),
])
def test_a_tampered_field_of_the_game_row_is_reported(played, capsys, tamper, message):
    _verify(played.pk)
    assert "0 differ" in capsys.readouterr().out
    Game.objects.filter(pk=played.pk).update(**tamper)
    with pytest.raises(CommandError, match="1 game"):
        _verify(played.pk)
    assert message in capsys.readouterr().err


@pytest.mark.django_db
def test_a_finished_game_set_back_to_active_is_reported(started_game, alice, bob, capsys):
    services.resign_game(game_id=started_game.pk, user=bob)
    started_game.refresh_from_db()
    assert started_game.status == GameStatus.FINISHED
    _verify(started_game.pk)
    Game.objects.filter(pk=started_game.pk).update(status=GameStatus.ACTIVE)
    with pytest.raises(CommandError):
        _verify(started_game.pk)
    assert "the replay ends the game but its status is active" in capsys.readouterr().err


@pytest.mark.django_db
def test_a_changed_result_is_reported(started_game, bob, capsys):
    services.resign_game(game_id=started_game.pk, user=bob)
    started_game.refresh_from_db()
    Game.objects.filter(pk=started_game.pk).update(result={**started_game.result, "winners": [1]})
    with pytest.raises(CommandError):
        _verify(started_game.pk)
    assert "the result differs from the replay's in winners" in capsys.readouterr().err


@pytest.mark.django_db(transaction=True)
def test_a_move_committed_while_the_command_reads_is_no_false_difference(make_user, start_scripted_game, capsys):
    """The game row is read, then a move commits, then the log is read: one snapshot must serve both reads."""
    alice, bob = make_user("alice"), make_user("bob")
    game = start_scripted_game(alice, bob)
    moved = []

    def move_from_another_connection():
        try:
            services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
            moved.append(True)
        finally:
            connection.close()

    def between_the_reads(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if '"play_game"' in sql and not moved:
            thread = threading.Thread(target=move_from_another_connection)
            thread.start()
            thread.join(30)
        return result

    with connection.execute_wrapper(between_the_reads):
        _verify(game.pk)
    assert moved == [True]
    assert "checked 1 game(s), 0 differ" in capsys.readouterr().out
    _verify(game.pk)  # and the move itself replays


@pytest.mark.django_db
def test_a_game_is_replayed_with_its_pinned_version(started_game, alice, capsys):
    services.submit_move(game_id=started_game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
    Game.objects.filter(pk=started_game.pk).update(engine_version=1)  # version 1 plays as version 2 does
    call_command("verify_games", str(started_game.pk))
    assert "0 differ" in capsys.readouterr().out

    Game.objects.filter(pk=started_game.pk).update(engine_version=99)
    with pytest.raises(CommandError, match="1 game"):
        call_command("verify_games", str(started_game.pk))
    assert f"game {started_game.pk}: replay failed: " in (err := capsys.readouterr().err)
    assert "engine version 99" in err


def test_every_golden_record_verifies_through_the_command(capsys):
    paths = sorted(str(path) for path in RECORDS.glob("*.json"))
    call_command("verify_games", "--records", *paths)
    assert f"checked {len(paths)} record(s), 0 differ" in capsys.readouterr().out


def test_a_tampered_record_fails_the_command(tmp_path, capsys):
    record = json.loads((RECORDS / "halali-2.json").read_text(encoding="utf-8"))
    record["seed"] = "another"
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(CommandError, match="1 record"):
        call_command("verify_games", "--records", str(path), str(RECORDS / "halali-2.json"))
    assert "commitment:" in capsys.readouterr().err
