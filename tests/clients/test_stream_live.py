"""``Client.stream_events`` and ``turnbased-cli watch`` against the real stream process (uvicorn) and the live server.

The web process is the live test server; the stream process serves ``/api/stream/`` on its own port against
the same test database, as ``make run`` serves it on 8001 (the client's ``stream_url``, the CLI's
``TURNBASED_STREAM_URL``). A move played through the API reaches the other player's stream, and a client
that reconnects with the last id it saw gets exactly the events it missed.
"""

from __future__ import annotations

import io
import json
import queue
import threading
import time

import pytest

from tests.clients.conftest import PASSWORD
from tests.platform.events.streams import nothing_more_in, stream_process, take_from
from turnbased.events.models import Event
from turnbased_client import Client, StreamEvent, cli
from turnbased_client.stream import OPENED

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

FAST = {"STREAM_HEARTBEAT_SECONDS": "1"}


@pytest.fixture
def stream(tmp_path, transactional_db):
    with stream_process(tmp_path, **FAST) as process:
        yield process


class Following:
    """A client's ``stream_events`` read by a thread of its own; closing the client ends it."""

    def __init__(self, api: Client, **options) -> None:
        self.api, self.events = api, queue.Queue()
        self.thread = threading.Thread(target=self._read, args=(options,), daemon=True)
        self.thread.start()

    def _read(self, options: dict) -> None:
        try:
            for event in self.api.stream_events(**options):
                self.events.put(event)
        except Exception:  # noqa: BLE001 (the test closed the client)
            pass

    def take(self, count: int, timeout: float = 15.0) -> list[StreamEvent]:
        """Return the next ``count`` events; fail if they do not all come within ``timeout`` seconds."""
        return take_from(self.events, count, timeout)

    def nothing_more(self, seconds: float) -> None:
        nothing_more_in(self.events, seconds)

    def stop(self) -> None:
        self.api.close()
        self.thread.join(15)
        assert not self.thread.is_alive()


def table_of_two(player, connect, live_server, stream) -> tuple[int, dict[str, Client]]:
    """Ann's Halali! table with bob seated (two players who take turns about): the game, and each one's
    client, streaming from the stream process, by who moves first ("mover") and who waits ("waiter")."""
    ann, bob = player("ann"), player("bob")
    game = ann.create_game("halali")["id"]
    bob.join(game)
    mover = ann if [turn["game"] for turn in ann.turns()] == [game] else bob
    clients = {}
    for role, api in (("mover", mover), ("waiter", bob if mover is ann else ann)):
        clients[role] = connect(api.token)
        clients[role].stream_url = f"http://127.0.0.1:{stream.port}"
    return game, clients


def play_any(api: Client, game: int) -> int:
    legal = api.legal_moves(game)
    return api.submit_move(game, expected_seq=legal["seq"], move=legal["moves"][0]["move"])["seq"]


def test_a_move_reaches_the_other_players_client_and_a_reconnection_gets_exactly_what_it_missed(
        player, connect, live_server, stream):
    game, who = table_of_two(player, connect, live_server, stream)
    waiter = who["waiter"]
    events = Following(waiter, opened=True)
    (opened,) = events.take(1)  # connected: from here on nothing is missed
    assert opened.kind == OPENED
    moved_at = time.monotonic()
    seq = play_any(who["mover"], game)
    played, turn = events.take(2)
    assert time.monotonic() - moved_at < 5, "the events came by the stream, not by a later reconnection"
    assert (played.kind, turn.kind) == ("move_played", "your_turn")
    assert played.data["game"] == turn.data["game"] == game and played.data["seq"] == turn.data["seq"] == seq
    assert played.data["data"]["text"] and turn.data["data"]["name"].startswith("Halali!")
    last_seen = turn.id
    events.stop()  # the client goes away

    # Meanwhile the waiter moves by another client, and the mover answers: the waiter misses their events.
    play_any(connect(waiter.token), game)
    play_any(who["mover"], game)
    user = Event.objects.get(pk=int(last_seen)).user_id
    missed = list(Event.objects.filter(user_id=user, id__gt=int(last_seen)).order_by("id").values_list("id", "kind"))
    assert [kind for _, kind in missed] == ["move_played", "your_turn"]

    back = connect(waiter.token)
    back.stream_url = waiter.stream_url
    again = Following(back, last_event_id=last_seen)
    assert [(int(event.id), event.kind) for event in again.take(2)] == missed
    again.nothing_more(2.5)  # and no event twice
    again.stop()


def test_watch_prints_what_waits_then_the_opponents_move_and_my_turn_from_the_stream(
        player, connect, live_server, stream, tmp_path):
    game, who = table_of_two(player, connect, live_server, stream)
    env = {"TURNBASED_URL": live_server.url, "TURNBASED_STREAM_URL": f"http://127.0.0.1:{stream.port}",
           "TURNBASED_CONFIG": str(tmp_path / "config.json")}
    # The mover's game waits for it: watch lists it first (the live server's stream ends at once, then resumes).
    out = io.StringIO()
    assert cli.main(["watch", "--count", "1"], env={**env, "TURNBASED_TOKEN": who["mover"].token}, stdout=out,
                    stderr=io.StringIO()) == 0
    assert out.getvalue().startswith(f"[your_turn] #{game} Halali! #{game} seq 0")

    printed, noted = io.StringIO(), io.StringIO()
    watcher = threading.Thread(target=cli.main, daemon=True, args=(["watch", "--count", "2", "--json"],), kwargs={
        "env": {**env, "TURNBASED_TOKEN": who["waiter"].token}, "stdout": printed, "stderr": noted})
    watcher.start()
    time.sleep(1.5)  # the stream is open (nothing waits for the waiter: nothing printed)
    assert watcher.is_alive() and printed.getvalue() == ""
    seq = play_any(who["mover"], game)
    watcher.join(20)
    assert not watcher.is_alive(), (printed.getvalue(), noted.getvalue())
    shown = [json.loads(line) for line in printed.getvalue().splitlines()]
    assert [(event["kind"], event["data"]["game"], event["data"]["seq"]) for event in shown] == [
        ("move_played", game, seq), ("your_turn", game, seq)]
    assert all(event["id"] for event in shown) and noted.getvalue() == ""  # from the stream, not by polling


def test_a_client_logs_in_and_streams_with_the_token_it_got(make_account, connect, stream):
    make_account("cleo")
    token = connect().obtain_token("cleo", PASSWORD, name="stream")["token"]
    api = connect(token)
    api.stream_url = f"http://127.0.0.1:{stream.port}"
    events = Following(api, opened=True)
    assert events.take(1)[0].kind == OPENED
    events.stop()
