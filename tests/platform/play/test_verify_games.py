"""``verify_games`` replays each game with the engine version it pinned, and checks record files too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from turnbased.play import services
from turnbased.play.models import Game

RECORDS = Path(__file__).resolve().parents[2] / "records"


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
