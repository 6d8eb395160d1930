"""The backup and restore procedure of deploy/README.md, done for real: pg_dump, pg_restore into a fresh
database, and verify_games against the restored copy in a process of its own, under the same secret key. The dump
and the restore are those of `make serve`'s backups (turnbased/local/backup.py): what its schedule writes restores.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import pytest
from django.conf import settings
from django.db import connection

from tests.platform.conftest import SCRIPTED_CLASSIC_2P
from tests.serving.served import database_url_for
from turnbased.accounts.services.accounts import account_create
from turnbased.local.services import BASE_DIR, scratch_database
from turnbased.local.backup import Schedule, restore_into, take_backup
from turnbased.mail.tokens import reply_address
from turnbased.play import services
from turnbased.play.models import Game, Move

pytestmark = [pytest.mark.serving, pytest.mark.django_db(transaction=True)]

# Run in the restored copy's process: what it holds, and whether a reply address from before the dump reads.
READ_BACK = """
import json
from turnbased.mail.tokens import BadToken, read_reply_address
from turnbased.play.models import Game, Move
try:
    read_reply_address({address!r})
    reads = True
except BadToken:
    reads = False
print(json.dumps({{"games": Game.objects.count(), "moves": Move.objects.count(), "reply_address_reads": reads}}))
"""


def _played_games() -> tuple[int, str]:
    """Two games through the services: one finished by a resignation, one still in play; return its reply address."""
    alice = account_create(username="alice", email="alice@example.com", password="pw-for-the-backup-test")
    bob = account_create(username="bob", email="bob@example.com", password="pw-for-the-backup-test")
    games = []
    for _ in range(2):
        game = services.create_game(creator=alice, engine_slug="love-letter", players=2,
                                    options={"deck": SCRIPTED_CLASSIC_2P, "first_player": 0})
        services.join_game(game_id=game.pk, user=bob)
        services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "handmaid"})
        games.append(game)
    services.resign_game(game_id=games[0].pk, user=bob)
    return Move.objects.count(), reply_address(user_id=bob.pk, game_id=games[1].pk, seq=1)


def _manage(database_url: str, secret_key: str, *args: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "DATABASE_URL": database_url, "DJANGO_SECRET_KEY": secret_key}
    return subprocess.run([sys.executable, str(BASE_DIR / "manage.py"), *args], env=environment,
                          capture_output=True, text=True, timeout=120)


def test_a_dump_restored_into_a_fresh_database_verifies_and_keeps_its_reply_addresses(tmp_path):
    moves, address = _played_games()
    source = database_url_for(connection.settings_dict["NAME"])
    dump = take_backup(source, Schedule(folder=tmp_path, interval=None, keep=1))  # pg_dump --format=custom
    with scratch_database(os.environ["DATABASE_URL"], f"restored_{secrets.token_hex(4)}") as restored:
        restore_into(dump, restored)  # pg_restore --no-owner

        verified = _manage(restored, settings.SECRET_KEY, "verify_games")
        assert verified.returncode == 0, verified.stderr
        assert "checked 2 game(s), 0 differ" in verified.stdout

        same_key = _manage(restored, settings.SECRET_KEY, "shell", "-c", READ_BACK.format(address=address))
        assert json.loads(same_key.stdout.strip().splitlines()[-1]) == {
            "games": 2, "moves": moves, "reply_address_reads": True}
        other_key = _manage(restored, secrets.token_urlsafe(50), "shell", "-c", READ_BACK.format(address=address))
        assert json.loads(other_key.stdout.strip().splitlines()[-1])["reply_address_reads"] is False

        # The restored copy is checked for real: a log changed behind its snapshot is reported.
        tampered = _manage(restored, settings.SECRET_KEY, "shell", "-c",
                           f"from turnbased.play.models import Game; "
                           f"Game.objects.filter(pk={Game.objects.order_by('pk').last().pk}).update(seq=9)")
        assert tampered.returncode == 0, tampered.stderr
        assert _manage(restored, settings.SECRET_KEY, "verify_games").returncode == 1
