"""Bring every stored game snapshot to the shape its engine writes now (issue 11).

Love Letter 2 keeps no round log in its state and Carcassonne: Hunters and
Gatherers 2 labels each board entry with its features; both still read the
version-1 shape, but ``verify_games`` compares each snapshot with a replay by
the current engine, so the snapshots are rewritten here. Each engine's own
``upcast`` does it (it equals the replay of the game's moves, which the
engines' tests check on states written by version 1) and the game's
``engine_version`` becomes 2. Games of other engines are left as they are.
Reversing changes nothing.
"""

from django.db import migrations

from games import engine_at

# The versions this migration brings games to: each changed only the stored shape. A later version may change the
# rules (Savernake Forest 2 did), and a game started before it must keep the version it started with.
VERSIONS = {"love-letter": 2, "carcassonne-hg": 2}


def upcast_states(apps, schema_editor):
    Game = apps.get_model("play", "Game")
    for game in Game.objects.exclude(state=None).iterator():
        if game.engine not in VERSIONS:
            continue
        try:
            engine = engine_at(game.engine, VERSIONS[game.engine])
        except LookupError:  # an engine no longer installed: nothing can read its games either way
            continue
        state = engine.upcast(game.state)
        if state is not game.state or game.engine_version != engine.version:
            game.state = state
            game.engine_version = engine.version
            game.save(update_fields=["state", "engine_version"])


class Migration(migrations.Migration):

    dependencies = [
        ("play", "0003_bot_seats"),
    ]

    operations = [
        migrations.RunPython(upcast_states, migrations.RunPython.noop),
    ]
