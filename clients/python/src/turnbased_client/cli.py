"""turnbased-cli: play turnbased games from a shell.

    turnbased-cli login                      # ask for a token, keep it in the config file
    turnbased-cli games                      # my games and the open tables
    turnbased-cli turns                      # the games waiting for my move
    turnbased-cli show 12                    # the position as I may see it, and my moves
    turnbased-cli play 12 "guard bob priest" # a move in the game's text notation
    turnbased-cli watch                      # the games waiting for me, then my events as they come

The server and token come from TURNBASED_URL and TURNBASED_TOKEN, else from the config file
``login`` writes (see turnbased_client.config); the event stream's server from TURNBASED_STREAM_URL
(``make run`` serves it on port 8001), else the server's.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import socket
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from turnbased_client import config, render, watching
from turnbased_client.client import Client
from turnbased_client.errors import ApiError, ConnectionFailed

HISTORY_SHOWN = 5
EXIT_REFUSED, EXIT_USAGE = 1, 2
# The reader of the output went away (``turnbased-cli moves 12 | head -1``): the status of a command killed by
# SIGPIPE, as the shell reports it.
EXIT_PIPE_CLOSED = 128 + 13


class NotLoggedIn(Exception):
    """A command needs a token and none is configured."""


@dataclass
class Run:
    """One command's run: its client, arguments and settings, and where it prints."""

    api: Client
    args: argparse.Namespace
    settings: config.Settings
    stdout: TextIO
    stderr: TextIO

    def out(self, *shown: str) -> None:
        for line in shown or ("",):
            print(line, file=self.stdout, flush=True)

    def note(self, text: str) -> None:
        print(text, file=self.stderr, flush=True)


# -- commands --------------------------------------------------------------------------------------
def cmd_login(run: Run) -> None:
    args = run.args
    username = args.username or input("Username or email: ").strip()
    password = sys.stdin.readline().rstrip("\r\n") if args.password_stdin else getpass.getpass("Password: ")
    name = args.token_name or f"turnbased-cli on {socket.gethostname()}"[:100]
    token = run.api.obtain_token(username, password, name=name)
    stream_url = run.api.stream_url if run.api.stream_url != run.api.base_url else None
    config.save(run.settings.path, url=run.api.base_url, token=token["token"], stream_url=stream_url)
    run.out(f"Logged in to {run.api.base_url} as {username}; "
            f"the token \"{token['name']}\" is saved in {run.settings.path}.")


def cmd_logout(run: Run) -> None:
    current = next((token for token in run.api.tokens() if token["current"]), None)
    if current is not None:
        run.api.revoke_token(current["id"])
    if run.settings.path.is_file():
        config.save(run.settings.path, url=run.api.base_url, token=None, stream_url=run.settings.stream_url)
    run.out("Logged out: the token is revoked.")


def cmd_games(run: Run) -> None:
    mine, open_tables = run.api.games(), run.api.open_games()
    if run.args.json:
        return run.out(json.dumps({"mine": mine, "open": open_tables}, indent=2))
    run.out(*render.game_list(mine, open_tables))


def cmd_turns(run: Run) -> None:
    turns = run.api.turns()
    if run.args.json:
        return run.out(json.dumps(turns, indent=2))
    run.out(*[render.turn_line(turn) for turn in turns] or ["No game is waiting for your move."])


def cmd_types(run: Run) -> None:
    for kind in run.api.game_types():
        run.out(f"{kind['game']:<18} {kind['name']} ({kind['min_players']}-{kind['max_players']} players; "
                f"bots: {', '.join(kind['bots'])})")


def cmd_show(run: Run) -> None:
    game_id, count = run.args.game, run.args.history
    game = run.api.game(game_id)
    text = run.api.position_text(game_id)
    latest = run.api.history(game_id, since=max(0, game["seq"] - count))["results"][-count:] if count > 0 else []
    run.out(*render.show(game, text, latest))


def cmd_moves(run: Run) -> None:
    game = run.api.game(run.args.game)
    legal = run.api.legal_moves(run.args.game)
    if not legal["moves"]:
        run.out(f"No move for you now in #{game['id']}: {render.standing(game)}.")
    run.out(*[choice["text"] for choice in legal["moves"]])
    kind = next((kind for kind in run.api.game_types() if kind["game"] == game["game"]), None)
    run.out(*render.notation(kind))


def cmd_play(run: Run) -> None:
    game_id, text = run.args.game, " ".join(run.args.move).strip()
    # The position answered: the one given, else the game's now (a stale one is refused with 409).
    seq = run.args.seq if run.args.seq is not None else run.api.legal_moves(game_id)["seq"]
    try:
        played = run.api.submit_move(game_id, expected_seq=seq, text=text)
    except ApiError as refused:
        # The rules refused the move, or its text names none: 422 (a server before that contract answered 400).
        if refused.status in (400, 422):
            refused.detail += f"\nSee your legal moves with: turnbased-cli moves {game_id}"
        raise
    # The move's answer is the mover's; where the game stands, seats named, is the game's read.
    run.out(f"Played: {played['text']} (#{game_id} is now at seq {played['seq']}).",
            f"#{game_id}: {render.standing(run.api.game(game_id))}")
    if played.get("legal_moves"):  # my move goes on (the Chancellor's second step): no need to ask for them
        run.out(f"Your move again, at seq {played['seq']}:", *[choice["text"] for choice in played["legal_moves"]])


def cmd_history(run: Run) -> None:
    for entry in run.api.history(run.args.game, since=run.args.since)["results"]:
        run.out(f"{entry['seq']}: {entry['text']}")


def cmd_chat(run: Run) -> None:
    for message in run.api.messages(run.args.game, after=run.args.after):
        run.out(f"{render.when(message['created_at'])} {message['author']}: {message['text']}")


def cmd_say(run: Run) -> None:
    message = run.api.send_message(run.args.game, " ".join(run.args.text))
    run.out(f"Said in #{run.args.game}: {message['text']}")


def cmd_new(run: Run) -> None:
    args = run.args
    bots = dict(pair_of(item, "--bot SEAT=NAME") for item in args.bot)
    options = {name: json_or_text(value) for name, value in (pair_of(item, "--option NAME=VALUE")
                                                            for item in args.option)}
    extra: dict[str, Any] = {"players": args.players} if args.players else {}
    game = run.api.create_game(args.kind, bots=bots, options=options, play=not args.no_seat,
                               visibility="private" if args.private else "public", **extra)
    run.out(f"Created #{game['id']} ({game['name']}): {render.standing(game)}.")
    if game["invite_url"]:
        run.out(f"Invite link: {game['invite_url']}")


def cmd_join(run: Run) -> None:
    extra = {"invite_code": run.args.code} if run.args.code else {}
    game = run.api.join(run.args.game, **extra)
    run.out(f"Joined #{game['id']} ({game['name']}): {render.standing(game)}.")


def cmd_start(run: Run) -> None:
    game = run.api.start(run.args.game)
    run.out(f"Started #{game['id']}: {render.standing(game)}.")


def cmd_resign(run: Run) -> None:
    game = run.api.resign(run.args.game)
    run.out(f"Resigned from #{game['id']}: {render.standing(game)}.")


def cmd_watch(run: Run) -> None:
    """Print the games waiting for me now, then each event as it comes, until Ctrl-C (or ``--count`` events)."""
    args = run.args
    following = watching.follow(run.api, interval=args.interval, sleep=time.sleep, stream=not args.poll,
                                notice=run.note, include="actions" if args.actions else None)
    for shown, event in enumerate(following, 1):
        run.out(json.dumps({"id": event.id, "kind": event.kind, "data": event.data}) if args.json
                else render.event_line(event))
        if args.count and shown >= args.count:
            return


# -- arguments -------------------------------------------------------------------------------------
def pair_of(item: str, form: str) -> tuple[str, str]:
    name, equals, value = item.partition("=")
    if not equals or not name.strip():
        raise argparse.ArgumentTypeError(f"write {form}, not {item!r}")
    return name.strip(), value.strip()


def json_or_text(value: str) -> Any:
    try:
        return json.loads(value)
    except ValueError:
        return value


def parser() -> tuple[argparse.ArgumentParser, dict[str, tuple[Callable[[Run], None], bool]]]:
    """Return the argument parser, and by command its function and whether it needs a token."""
    top = argparse.ArgumentParser(prog="turnbased-cli", description="Play turnbased games from a shell.")
    top.add_argument("--url", help="the server (default: TURNBASED_URL, the config file, or the local server)")
    top.add_argument("--token", help="an API token (default: TURNBASED_TOKEN or the config file)")
    top.add_argument("--stream-url", help="the event stream's server (default: TURNBASED_STREAM_URL, the config "
                                          "file, or the server's)")
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    functions: dict[str, tuple[Callable[[Run], None], bool]] = {}

    def command(name: str, function: Callable[[Run], None], help_text: str, *,
                token: bool = True) -> argparse.ArgumentParser:
        functions[name] = (function, token)
        return commands.add_parser(name, help=help_text, description=help_text)

    def on_a_game(name: str, function: Callable[[Run], None], help_text: str, *,
                  token: bool = True) -> argparse.ArgumentParser:
        sub = command(name, function, help_text, token=token)
        sub.add_argument("game", type=int, help="the game's number")
        return sub

    login = command("login", cmd_login, "log in and keep a token in the config file", token=False)
    login.add_argument("--username")
    login.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    login.add_argument("--token-name", help="the token's name (default: turnbased-cli on this machine)")
    command("logout", cmd_logout, "revoke the token and forget it")
    command("games", cmd_games, "my games and the open tables").add_argument("--json", action="store_true")
    command("turns", cmd_turns, "the games waiting for my move").add_argument("--json", action="store_true")
    command("types", cmd_types, "the games this server offers", token=False)
    on_a_game("show", cmd_show, "a game: the position as I may see it, what just happened, my moves",
              token=False).add_argument("--history", type=int, default=HISTORY_SHOWN, metavar="N",
                                        help=f"the last N events (default {HISTORY_SHOWN}; 0: none)")
    on_a_game("moves", cmd_moves, "every legal move I have, and how to write a move")
    play = on_a_game("play", cmd_play, "play a move written in the game's notation")
    play.add_argument("move", nargs="+", help='the move, e.g. "guard bob priest" (quotes optional)')
    play.add_argument("--seq", type=int, help="the position you answer (default: the game's now)")
    on_a_game("history", cmd_history, "what happened in a game, as I may see it", token=False).add_argument(
        "--since", type=int, default=0, help="only what happened after this position")
    on_a_game("chat", cmd_chat, "the table talk of a game").add_argument(
        "--after", type=int, default=0, help="only messages after this id")
    on_a_game("say", cmd_say, "say something at a table").add_argument("text", nargs="+")
    new = command("new", cmd_new, "create a table")
    new.add_argument("kind", help="the game, e.g. love-letter (see: turnbased-cli types)")
    new.add_argument("--players", type=int)
    new.add_argument("--bot", action="append", default=[], metavar="SEAT=NAME", help="a bot in a seat, e.g. 1=random")
    new.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    new.add_argument("--private", action="store_true", help="only people with the invite link may join")
    new.add_argument("--no-seat", action="store_true", help="create the table without a seat for me")
    on_a_game("join", cmd_join, "take a seat at a table").add_argument("--code", help="a private table's invite code")
    on_a_game("start", cmd_start, "start my table with the players seated")
    on_a_game("resign", cmd_resign, "leave a game in play for good")
    watch = command("watch", cmd_watch, "print the games waiting for me, then each event as it comes")
    watch.add_argument("--count", type=int, help="stop after this many events")
    watch.add_argument("--interval", type=float, default=30.0, help="seconds between polls without a stream")
    watch.add_argument("--poll", action="store_true", help="poll my turns even if the server has a stream")
    watch.add_argument("--json", action="store_true", help="one JSON object per event")
    watch.add_argument("--actions", action="store_true",
                       help="a turn told by the stream carries my view and legal moves (with --json: for a script "
                            "that answers each with `play`)")
    return top, functions


def main(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None,
         stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run one command; return the exit status (0; 1 when the server refused or was unreachable; 2 for usage)."""
    env = os.environ if env is None else env
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    top, functions = parser()
    args = top.parse_args(argv)
    settings = config.load(env)
    function, needs_token = functions[args.command]
    token = args.token or settings.token
    try:
        if needs_token and not token:
            raise NotLoggedIn()
        try:
            api = Client(args.url or settings.url, token=token, stream_url=args.stream_url or settings.stream_url)
        except ValueError as wrong:  # not an http(s) URL
            raise argparse.ArgumentTypeError(str(wrong)) from wrong
        with api:
            function(Run(api, args, settings, stdout, stderr))
    except NotLoggedIn:
        print("Not logged in: run `turnbased-cli login`, or set TURNBASED_TOKEN.", file=stderr)
        return EXIT_USAGE
    except ApiError as refused:
        print(f"error: {refused.status}: {refused.detail}", file=stderr)
        return EXIT_REFUSED
    except ConnectionFailed as unreachable:
        print(f"error: cannot reach the server: {unreachable}", file=stderr)
        return EXIT_REFUSED
    except argparse.ArgumentTypeError as wrong:
        print(f"error: {wrong}", file=stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _quiet_closed_stdout(stdout)
        return EXIT_PIPE_CLOSED
    return 0


def _quiet_closed_stdout(stdout: TextIO) -> None:
    """Point the process's standard output, whose reader has gone, at the null device.

    Python flushes ``sys.stdout`` once more at exit: into a closed pipe that prints a traceback of its own.
    """
    if stdout is not sys.stdout:
        return
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # no file descriptor behind it
        pass


if __name__ == "__main__":
    sys.exit(main())
