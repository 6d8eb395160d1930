"""turnbased-cli against the live test server: log in, list, show, play every game, talk, watch."""

from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
import threading
import time

import httpx
import pytest

from tests.clients.conftest import CLIENT_SOURCE, PASSWORD
from turnbased.play import services
from turnbased_client import cli
from turnbased_client.client import Client

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = ["love-letter", "halali", "carcassonne-hg", "savernake-forest"]


class Shell:
    """Run turnbased-cli commands in this process with an environment of their own; return what they print."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env

    def __call__(self, *argv: str, status: int = 0) -> str:
        out, err = io.StringIO(), io.StringIO()
        code = cli.main(list(argv), env=self.env, stdout=out, stderr=err)
        assert code == status, (argv, code, out.getvalue(), err.getvalue())
        return out.getvalue() if status == 0 else err.getvalue()


@pytest.fixture
def shell_for(live_server, make_account, connect, tmp_path):
    """Return a function giving a user's shell: TURNBASED_URL and TURNBASED_TOKEN set, a config file of its own."""

    def shell(username: str) -> Shell:
        make_account(username)
        token = connect().obtain_token(username, PASSWORD, name="cli tests")["token"]
        return Shell({"TURNBASED_URL": live_server.url, "TURNBASED_TOKEN": token,
                              "TURNBASED_CONFIG": str(tmp_path / username / "config.json")})

    return shell


def created_id(output: str) -> int:
    return int(output.split("#", 1)[1].split(" ", 1)[0])


def waiting(shell: Shell) -> list[int]:
    """Return the ids of the games waiting for the shell's user, from ``turns --json``."""
    return [turn["game"] for turn in json.loads(shell("turns", "--json"))]


def test_login_keeps_a_token_in_a_private_config_file_and_logout_revokes_it(live_server, make_account, tmp_path,
                                                                            monkeypatch):
    make_account("ann")
    config = tmp_path / "turnbased" / "config.json"
    shell = Shell({"XDG_CONFIG_HOME": str(tmp_path)})
    monkeypatch.setattr(sys, "stdin", io.StringIO(PASSWORD + "\n"))
    said = shell("--url", live_server.url, "login", "--username", "ann", "--password-stdin")
    assert "Logged in" in said and str(config) in said
    saved = json.loads(config.read_text())
    assert saved["url"] == live_server.url and saved["token"]
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
    assert "Your games:" in shell("games")  # the URL and token come from the file now
    assert "Logged out" in shell("logout")
    assert json.loads(config.read_text())["token"] is None
    assert "Not logged in" in shell("games", status=2)
    stale = Shell({"TURNBASED_URL": live_server.url, "TURNBASED_TOKEN": saved["token"]})
    assert "401" in stale("games", status=1)  # the revoked token no longer works


def test_a_whole_exchange_new_join_show_play_history_and_talk(shell_for):
    ann, bob = shell_for("ann"), shell_for("bob")
    game = created_id(ann("new", "love-letter", "--players", "2"))
    assert "open, 1 of 2 seated" in ann("games")
    assert f"#{game} Love Letter: 1 of 2 seated (ann)" in bob("games").split("Open tables you may join:")[1]
    assert f"Joined #{game}" in bob("join", str(game))
    mover, other = (ann, bob) if game in waiting(ann) else (bob, ann)
    mover_name = "ann" if mover is ann else "bob"
    assert "No game is waiting" in other("turns")

    shown = mover("show", str(game))
    assert "Love Letter" in shown and "Your hand:" in shown and "(you, to move)" in shown
    assert f'play one with: turnbased-cli play {game} "..."' in shown
    watched = other("show", str(game))
    assert "Your move" not in watched and f"waiting for {mover_name}" in watched

    listed, notation = mover("moves", str(game)).split("\n\nHow to write a move", 1)
    first = listed.splitlines()[0]
    assert "guard" in notation  # the game's notation follows the list
    played = mover("play", str(game), *first.split())  # the words of a move need no quotes
    assert f"Played: {first}" in played and "now at seq 1" in played
    assert "1: " in mover("history", str(game))
    assert "Latest:" not in mover("show", str(game), "--history", "0")

    next_mover = mover if game in waiting(mover) else other
    refused = next_mover("play", str(game), "xyzzy", "plugh", status=1)  # names no move: 422
    assert "error: 422" in refused and f"turnbased-cli moves {game}" in refused
    assert "error: 409" in next_mover("play", str(game), "--seq", "0", "handmaid", status=1)
    assert "error: 404" in ann("show", "999999", status=1)

    assert "Said in" in ann("say", str(game), "good", "luck")
    assert "ann: good luck" in bob("chat", str(game))


# 422: the rules refused the move; 400: what a server answered before it told the two apart.
@pytest.mark.parametrize("status", [422, 400])
def test_a_refused_move_points_to_the_legal_moves(monkeypatch, tmp_path, status):
    def answer(request: httpx.Request) -> httpx.Response:
        assert (request.method, request.url.path) == ("POST", "/api/games/7/moves/")
        return httpx.Response(status, json={"detail": "No card is called xyzzy."})

    monkeypatch.setattr(cli, "Client", lambda url, **options: Client(url, transport=httpx.MockTransport(answer),
                                                                      **options))
    refused = Shell({"TURNBASED_URL": "http://game.test", "TURNBASED_TOKEN": "k",
                     "TURNBASED_CONFIG": str(tmp_path / "config.json")})("play", "7", "--seq", "3", "xyzzy", status=1)
    assert refused == (f"error: {status}: No card is called xyzzy.\nSee your legal moves with: turnbased-cli moves 7"
                       "\n")


@pytest.mark.parametrize("slug", GAMES)
def test_one_move_of_every_game_from_the_shell(shell_for, slug):
    ann = shell_for("ann")
    game = created_id(ann("new", slug, "--bot", "1=random"))
    deadline = time.monotonic() + 30
    while game not in waiting(ann):  # the bot may move first
        assert time.monotonic() < deadline, ann("show", str(game))
        time.sleep(0.2)
    shown = ann("show", str(game))
    assert "Your move" in shown
    first = ann("moves", str(game)).splitlines()[0]
    before = json.loads(ann("turns", "--json"))[0]["seq"]
    played = ann("play", str(game), first)
    assert f"Played: {first}" in played and f"now at seq {before + 1}" in played


def test_watch_poll_prints_the_games_waiting_then_a_new_turn_found_by_polling(shell_for):
    """``watch --poll`` (what watch falls back to on a server without a stream; the stream itself: test_stream_live)."""
    ann, bob = shell_for("ann"), shell_for("bob")
    game = created_id(ann("new", "halali"))  # two players who take turns about, whatever is played
    bob("join", str(game))
    mover, other = (ann, bob) if game in waiting(ann) else (bob, ann)
    assert f"[your_turn] #{game} Halali! #{game} seq 0" in mover("watch", "--poll", "--count", "1")
    printed, noted = io.StringIO(), io.StringIO()

    def watch():
        cli.main(["watch", "--poll", "--count", "1", "--interval", "0.2"], env=other.env, stdout=printed,
                 stderr=noted)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    time.sleep(1)
    assert watcher.is_alive() and printed.getvalue() == ""  # nothing waits for the other player yet
    mover("play", str(game), mover("moves", str(game)).splitlines()[0])
    watcher.join(30)
    assert not watcher.is_alive()
    assert printed.getvalue().startswith(f"[your_turn] #{game} Halali! #{game} seq 1 - ")


def test_the_module_runs_as_a_command(live_server, transactional_db):
    """``python -m turnbased_client.cli`` (and ``python -m turnbased_client``) with only the environment."""
    env = {**os.environ, "PYTHONPATH": str(CLIENT_SOURCE), "TURNBASED_URL": live_server.url}
    for module in ("turnbased_client.cli", "turnbased_client"):
        listed = subprocess.run([sys.executable, "-m", module, "types"], env=env, capture_output=True, text=True,
                                timeout=60)
        assert listed.returncode == 0, listed.stderr
        assert "love-letter" in listed.stdout and "Halali!" in listed.stdout
    refused = subprocess.run([sys.executable, "-m", "turnbased_client.cli", "turns"], capture_output=True, text=True,
                             env={**env, "TURNBASED_CONFIG": os.devnull}, timeout=60)
    assert refused.returncode == 2 and "Not logged in" in refused.stderr


def test_a_reader_that_goes_away_ends_the_command_quietly(live_server, transactional_db):
    """``turnbased-cli moves 12 | head -1``: once head has its line, the rest meets a closed pipe; no traceback."""
    env = {**os.environ, "PYTHONPATH": str(CLIENT_SOURCE), "TURNBASED_URL": live_server.url}
    read_end, write_end = os.pipe()
    os.close(read_end)  # closed before the first line, so that every write meets it, whatever the timing
    try:
        listed = subprocess.run([sys.executable, "-m", "turnbased_client.cli", "types"], env=env, stdout=write_end,
                                stderr=subprocess.PIPE, text=True, timeout=60)
    finally:
        os.close(write_end)
    assert listed.stderr == "" and listed.returncode == cli.EXIT_PIPE_CLOSED, listed.stderr
