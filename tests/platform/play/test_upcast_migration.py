"""Games stored by version-1 engines are rewritten by migration 0004 and then verify and play on (issue 11).

Each game is played through the services on the seed and moves of a state that engine version 1
wrote (the engines' ``v1_states.json``); its snapshot is then put back to that version-1 state, as a
database from before the change holds it. ``verify_games`` must fail on it before the migration and
pass after, and the game must accept its next move.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError

from turnbased.play import selectors, services
from turnbased.play.models import Game, GameStatus

GAMES_DIR = Path(__file__).resolve().parents[2] / "games"
migration = importlib.import_module("turnbased.play.migrations.0004_upcast_engine_states")


def version_1_game(path: str, seed: str) -> tuple[dict, str]:
    """Return the captured game with this seed and the key of its last stored state."""
    game = next(g for g in json.loads((GAMES_DIR / path).read_text())["games"] if g["seed"] == seed)
    return game, max(game["states"], key=int)


@pytest.mark.parametrize(
    ("slug", "path", "seed"),
    [
        ("love-letter", "love_letter/v1_states.json", "v1-ll-c"),
        ("carcassonne-hg", "carcassonne_hg/v1_states.json", "v1-cc-b"),
    ],
)
def test_a_game_stored_by_version_1_verifies_and_plays_on_after_the_migration(make_user, slug, path, seed, capsys):
    captured, key = version_1_game(path, seed)
    users = [make_user(name) for name in captured["players"]]
    game = services.create_game(creator=users[0], engine_slug=slug, players=len(users),
                                options=captured["options"], seed=seed)
    for user in users[1:]:
        services.join_game(game_id=game.pk, user=user)
    game.refresh_from_db()
    assert game.player_names == captured["players"]
    for expected_seq, (seat, move) in enumerate(captured["moves"][: int(key)]):
        if move == {"resign": True}:
            services.resign_game(game_id=game.pk, user=users[seat])
        else:
            services.submit_move(game_id=game.pk, user=users[seat], expected_seq=expected_seq, move=move)
    Game.objects.filter(pk=game.pk).update(state=captured["states"][key], engine_version=1)
    with pytest.raises(CommandError):
        call_command("verify_games", str(game.pk))

    migration.upcast_states(apps, None)

    game.refresh_from_db()
    assert game.engine_version == 2
    call_command("verify_games", str(game.pk))
    assert "0 differ" in capsys.readouterr().out
    assert game.status == GameStatus.ACTIVE
    seat = game.to_move[0]
    viewer = selectors.Viewer(game=game, seat=seat)
    move = selectors.legal_moves_for(viewer)[0]["move"]
    services.submit_move(game_id=game.pk, user=users[seat], expected_seq=game.seq, move=move)
    call_command("verify_games", str(game.pk))


def test_the_migration_leaves_current_games_as_they_are(started_game):
    before = Game.objects.get(pk=started_game.pk)
    migration.upcast_states(apps, None)
    after = Game.objects.get(pk=started_game.pk)
    assert (after.state, after.engine_version) == (before.state, before.engine_version)


def test_the_migration_never_moves_a_game_to_a_version_with_other_rules(alice, bob):
    """Savernake Forest 2 changed the rules: a game pinned to version 1 stays there, whenever the migration runs."""
    game = services.create_game(creator=alice, engine_slug="savernake-forest", players=2, seed="pinned")
    Game.objects.filter(pk=game.pk).update(engine_version=1, options={"shared_path_resolution": "immediate",
                                                                      "two_player_market": "discard"})
    services.join_game(game_id=game.pk, user=bob)
    before = Game.objects.get(pk=game.pk)
    migration.upcast_states(apps, None)
    after = Game.objects.get(pk=game.pk)
    assert (after.state, after.engine_version) == (before.state, 1)
