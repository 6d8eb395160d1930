"""The API guide's complete client session ("Writing a client or a bot") plays, as written, against a bot that moves at once.

The script is taken from docs/api-guide.md as a reader copies it (only its two addresses pointed at the test's servers),
run as a program of its own with the username and password on its input, against the live test server and the
stream process. The bot answers each move at once (the test server runs its turn in the request), so a turn the
script did not look for the right way would be missed and the script would wait for ever (issue 27: it slept,
found no turn, then opened the stream without asking what was already waiting). It must keep playing.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

import pytest
from django.conf import settings

from tests.clients.conftest import CLIENT_SOURCE
from turnbased_client import ApiError, StreamEvent
from tests.platform.conftest import PASSWORD
from tests.platform.events.streams import stream_process
from turnbased.play.models import Game, Move

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]  # the servers read what the test commits

MOVES_TO_SEE = 4


def guide_script() -> str:
    guide = (settings.BASE_DIR / "docs" / "api-guide.md").read_text()
    section = guide.split("## Writing a client or a bot", 1)[1]
    return re.search(r"cat > my_client\.py <<'PY'\n(.*?)\nPY\n", section, re.DOTALL).group(1)


def test_the_guides_client_session_keeps_playing_against_a_bot_that_moves_at_once(live_server, make_user, tmp_path,
                                                                                    settings):
    settings.RATE_LIMITS_ON = False
    alice = make_user("alice")
    with stream_process(tmp_path, STREAM_HEARTBEAT_SECONDS="1") as stream:
        script = guide_script().replace('"http://127.0.0.1:8000"', repr(live_server.url)).replace(
            '"http://127.0.0.1:8001"', repr(f"http://127.0.0.1:{stream.port}"))
        environment = {**os.environ, "PYTHONPATH": str(CLIENT_SOURCE), "PYTHONUNBUFFERED": "1"}
        output = (tmp_path / "client.log").open("w")
        client = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=output,
                                  stderr=subprocess.STDOUT, env=environment, text=True, start_new_session=True)
        try:
            client.stdin.write(f"alice\n{PASSWORD}\n")
            client.stdin.close()
            deadline = time.monotonic() + 120

            def alices_moves() -> int:
                return Move.objects.filter(user=alice).count()

            while alices_moves() < MOVES_TO_SEE and not Game.objects.filter(seats__user=alice,
                                                                              status="finished").exists():
                log = (tmp_path / "client.log").read_text()
                assert client.poll() is None, log[-3000:]
                assert time.monotonic() < deadline, f"the script stopped playing:\n{log[-3000:]}"
                time.sleep(0.1)
        finally:
            client.kill()
            client.wait(10)
    log = (tmp_path / "client.log").read_text()
    assert "Traceback" not in log, log[-3000:]
    assert "played" in log


def listening_loop() -> str:
    """Return the guide's loop that plays with one request per move (after "Writing a client or a bot")."""
    guide = (settings.BASE_DIR / "docs" / "api-guide.md").read_text()
    section = guide.split("plays with one request per move:", 1)[1]
    return re.search(r"```python\n(.*?)\n```", section, re.DOTALL).group(1)


class ChancellorTable:
    """A client's view of a game where I play the Chancellor, its two steps one request each, as the server answers.

    The stream sent the ``your_turn`` of the step between the two (with its legal moves: it was my turn when it
    was sent), and the loop reads it after the answer to the second step, when the game is past it.
    """

    def __init__(self):
        self.seq, self.sent = 4, []

    def stream_events(self, include=None):
        assert include == "actions"
        for seq, move in ((4, {"card": "chancellor"}), (5, {"keep": "guard"})):
            yield StreamEvent("your_turn", {"game": 12, "seq": seq, "data": {"legal_moves": [{"move": move}]}})

    def submit_move(self, game, *, expected_seq, move, minimal):
        if expected_seq != self.seq:
            raise ApiError(409, "The game has moved on.", body={"seq": self.seq})
        self.sent.append(move)
        self.seq += 1
        return {"game_seq": self.seq, "legal_moves": [{"move": {"keep": "guard"}}] if "card" in move else []}


def test_the_guides_listening_loop_drops_a_turn_the_game_has_moved_past():
    table = ChancellorTable()
    exec(listening_loop(), {"api": table})  # noqa: S102 (the guide's own snippet, as a reader runs it)
    assert table.sent == [{"card": "chancellor"}, {"keep": "guard"}] and table.seq == 6
