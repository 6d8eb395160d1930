"""``export_games`` backs up the complete records of games that are over; ``import_record`` replays them here."""

from __future__ import annotations

import io
import json
from pathlib import Path

import jsonschema
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from games.record import verify_record
from tests.platform.aftergame.conftest import finished
from tests.platform.play.test_records import SCHEMA
from turnbased.play import services
from turnbased.play.models import Game, GameStatus, Move

pytestmark = pytest.mark.django_db

GOLDEN = sorted((Path(__file__).resolve().parents[2] / "records").glob("*.json"))


def exported(*arguments) -> list[dict]:
    out = io.StringIO()
    call_command("export_games", *arguments, stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_export_writes_a_complete_verifiable_record_of_each_game_that_is_over(alice, bob, carol, tmp_path):
    done = finished([alice, bob], resign=False, seed="exported-seed")
    resigned = finished([bob, carol])
    services.create_game(creator=alice, engine_slug="love-letter", players=2)  # open: nothing to back up
    in_play = services.create_game(creator=carol, engine_slug="halali", players=2, bots={1: "random"})
    call_command("export_games", "--output", str(tmp_path), stdout=io.StringIO())
    files = sorted(path.name for path in tmp_path.iterdir())
    assert files == sorted(f"love-letter-{game.pk}.json" for game in (done, resigned))
    record = json.loads((tmp_path / f"love-letter-{done.pk}.json").read_text())
    jsonschema.Draft202012Validator(SCHEMA).validate(record)
    assert record["complete"] is True and record["seed"] == "exported-seed"
    report = verify_record(record)
    assert report.ok, report.lines()
    assert [record["game"]["id"] for record in exported()] == [done.pk, resigned.pk]
    assert [record["game"]["id"] for record in exported("--game", str(resigned.pk))] == [resigned.pk]
    assert exported("--since", "2999-01-01") == []
    with pytest.raises(CommandError, match=f"not over, or no such game: {in_play.pk}"):
        exported("--game", str(done.pk), str(in_play.pk))
    with pytest.raises(CommandError, match="give a date"):
        exported("--since", "last tuesday")


def imported(path: Path, *arguments) -> str:
    out = io.StringIO()
    call_command("import_record", str(path), *arguments, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_an_exported_game_imports_as_a_finished_public_game_that_replays(alice, bob, carol, tmp_path):
    original = finished([alice, bob], resign=False, seed="round-trip", visibility="private")
    call_command("export_games", "--game", str(original.pk), "--output", str(tmp_path), stdout=io.StringIO())
    path = tmp_path / f"love-letter-{original.pk}.json"
    text = imported(path, "--owner", carol.username, "--site", "https://games.example.org")
    game = Game.objects.exclude(pk=original.pk).get(imported_from__id=original.pk)
    assert f"imported game {original.pk} as game {game.pk}" in text
    assert game.status == GameStatus.FINISHED and game.visibility == "public" and game.result == original.result
    assert game.seq == original.seq and game.state == original.state and game.player_names == ["alice", "bob"]
    assert not game.seats.filter(user__isnull=False).exists()  # no local account takes a seat
    assert list(Move.objects.filter(game=game).values_list("seq", "move", "created_at")) == list(
        Move.objects.filter(game=original).values_list("seq", "move", "created_at"))
    call_command("verify_games", str(game.pk), stdout=io.StringIO())
    page = Client().get(f"/games/{game.pk}/")  # anyone may read it, though the original was private
    assert page.status_code == 200
    text = page.content.decode()
    assert f"game #{original.pk}" in text and "https://games.example.org" in text and "round-trip" in text
    assert "1. alice <small>(imported)</small>" in text and "Imported bot" not in text  # named as they played
    assert [seat["name"] for seat in Client().get(f"/api/games/{game.pk}/").json()["seats"]] == ["alice", "bob"]
    # Exported again, it is the original's record: it verifies against the commitment published for that game.
    again = Client().get(f"/api/games/{game.pk}/record/").json()
    assert again["game"]["id"] == original.pk and [p["name"] for p in again["players"]] == ["alice", "bob"]
    assert verify_record(again).ok
    assert Client().get(f"/api/games/{game.pk}/verify/").json()["ok"] is True
    assert Client().get(f"/api/games/{game.pk}/").json()["commitment"] == again["commitment"]
    with pytest.raises(CommandError, match="1 record"):
        imported(path, "--owner", carol.username)  # once is enough


@pytest.mark.parametrize("change", ["seed", "move", "event", "result", "partial"])
def test_a_record_that_does_not_verify_is_refused_and_nothing_is_written(change, alice, bob, tmp_path):
    original = finished([alice, bob], resign=False, seed="to-be-tampered")
    (record,) = exported("--game", str(original.pk))
    if change == "seed":
        record["seed"] = "another-seed"
    elif change == "move":
        record["moves"][0]["move"] = record["moves"][1]["move"] if record["moves"][1]["seat"] == 0 else {"card": "x"}
    elif change == "event":
        event = record["moves"][0]["events"][0]
        event["data"] = {**event["data"], "seat": 1 - event["data"].get("seat", 1)}  # another seat did it
    elif change == "result":
        record["result"]["winners"] = [1 - record["result"]["winners"][0]]
    else:
        record = Client().get(f"/api/games/{original.pk}/record/").json()
        record.update(complete=False, seed=None, viewer_seat=0)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    games, moves = Game.objects.count(), Move.objects.count()
    errors = io.StringIO()
    with pytest.raises(CommandError, match="not imported"):
        call_command("import_record", str(path), "--owner", alice.username, stdout=io.StringIO(), stderr=errors)
    assert "does not verify" in errors.getvalue()
    assert (Game.objects.count(), Move.objects.count()) == (games, moves)


def test_unreadable_files_and_missing_owners_are_clear_errors(alice, tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{not json\n")
    with pytest.raises(CommandError, match="broken.json:1: not JSON"):
        imported(path, "--owner", alice.username)
    with pytest.raises(CommandError, match="No such file"):
        imported(tmp_path / "absent.json", "--owner", alice.username)
    with pytest.raises(CommandError, match="no such account"):
        imported(path, "--owner", "nobody-here")
    with pytest.raises(CommandError, match="No superuser"):
        imported(path)


def test_every_golden_record_imports_and_replays(alice):
    assert GOLDEN
    for path in GOLDEN:
        imported(path, "--owner", alice.username)
    assert Game.objects.filter(imported_from__isnull=False).count() == len(GOLDEN)
    call_command("verify_games", stdout=io.StringIO())
    for game in Game.objects.filter(imported_from__isnull=False):
        assert Client().get(f"/games/{game.pk}/").status_code == 200
        assert verify_record(Client().get(f"/api/games/{game.pk}/record/").json()).ok, game.imported_from["id"]


def test_a_backup_on_stdout_imports_whole(alice, bob, carol, tmp_path):
    games = [finished([alice, bob], seed="lines-1"), finished([bob, carol], seed="lines-2")]
    out = io.StringIO()
    call_command("export_games", stdout=out)
    path = tmp_path / "backup.jsonl"
    path.write_text(out.getvalue())
    text = imported(path, "--owner", alice.username)
    for number, game in enumerate(games, start=1):
        assert f"backup.jsonl:{number}: imported game {game.pk} as game" in text
    assert Game.objects.filter(imported_from__isnull=False).count() == 2
