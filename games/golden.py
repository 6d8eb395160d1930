"""Write the golden records: finished games of every engine, in the record format, from fixed seeds.

``python -m games.golden`` (from the repository's root) plays each game of ``GOLDEN`` with the
engines' own bots and writes ``tests/records/<slug>-<n>.json``. The test suite then replays every
file there through ``games.record.verify_record`` forever: a change to an engine that alters a
logged event or a result of an old game fails it (see ``Engine`` in games/base.py for how to change
rules without that: bump the version, keep the old behaviour selectable, add a record).

Run it again only to add records (``--only <slug>-<n>``, say, for a new game or version): a record
already written is the history of a real game and is not rewritten unless asked (``--force``).
Records hold what the platform's export of a finished game holds (docs/record-format.md); the
players' moves are chosen by bots, seats marked as bots are logged as the platform logs a bot's move.
"""

from __future__ import annotations

import argparse
import json
import os
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

from games import engine_at, get_engine
from games.base import RESIGN, Event
from games.bots import bot_move, history_window
from games.record import (
    COMMITMENT_ALGORITHM,
    COMMITMENT_SCHEME,
    RECORD_FORMAT,
    RECORD_FORMAT_VERSION,
    canonical_json,
    record_lines,
    seed_commitment,
)

NAMES = ["Ann", "Ben", "Cas", "Dee", "Eve", "Fay"]
START = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)
MOVE_CAP = 5000


@dataclass(frozen=True)
class Golden:
    """One golden game: who sits where, which bots choose, and an optional resignation."""

    slug: str
    n: int
    players: int
    seed: str
    options: dict[str, Any] = field(default_factory=dict)
    # Seats played by a bot of the platform (logged with source "bot"); the others are people.
    bot_seats: dict[int, str] = field(default_factory=dict)
    # The bot standing in for each person when choosing their moves.
    person_bot: str = "basic"
    # (move number, seat): that seat resigns instead of that move.
    resign: tuple[int, int] | None = None
    version: int | None = None  # None: the engine's newest

    @property
    def name(self) -> str:
        return f"{self.slug}-{self.n}"


GOLDEN: tuple[Golden, ...] = (
    Golden("halali", 1, 2, "golden-halali-1", version=1),
    Golden("halali", 2, 2, "golden-halali-2", bot_seats={1: "random"}, resign=(20, 0), version=1),
    Golden("halali", 3, 2, "golden-halali-3", options={"stall_limit": 20}, bot_seats={0: "basic", 1: "basic"},
           version=1),
    Golden("love-letter", 1, 2, "golden-love-letter-1"),
    Golden("love-letter", 2, 4, "golden-love-letter-2", bot_seats={3: "basic"}),
    Golden("love-letter", 3, 6, "golden-love-letter-3", options={"edition": "2019"}, person_bot="random"),
    Golden("love-letter", 4, 3, "golden-love-letter-4", resign=(6, 1), bot_seats={2: "random"}),
    Golden("love-letter", 5, 2, "golden-love-letter-5", version=1),
    Golden("savernake-forest", 1, 2, "golden-savernake-forest-1", version=1),
    Golden("savernake-forest", 2, 3, "golden-savernake-forest-2", bot_seats={1: "basic"}, version=1),
    Golden("savernake-forest", 3, 4, "golden-savernake-forest-3", resign=(10, 2), person_bot="random", version=1),
    Golden("carcassonne-hg", 1, 2, "golden-carcassonne-hg-1", bot_seats={1: "basic"}),
    Golden("carcassonne-hg", 2, 3, "golden-carcassonne-hg-2", options={"edition": "classic"}, person_bot="random"),
    Golden("carcassonne-hg", 3, 2, "golden-carcassonne-hg-3", resign=(15, 1)),
    Golden("carcassonne-hg", 4, 2, "golden-carcassonne-hg-4", bot_seats={0: "random"}, version=1),
    # Added later, so at the end: a game's id is its place in this list, and the records above keep theirs.
    Golden("halali", 4, 2, "golden-halali-4", options={"lock_on_move": False}, bot_seats={1: "basic"}),
    # Savernake Forest 2 (the original text's readings by default) and its variants, after the others so that
    # their game ids (9001 + the place here) stay as written: a shared path settled at final scoring (4), a tie
    # broken on stored food (5), a path per exit settled at the end (6) and at once (7).
    Golden("savernake-forest", 4, 3, "golden-savernake-forest-4-2", bot_seats={2: "basic"}, person_bot="random"),
    Golden("savernake-forest", 5, 2, "golden-savernake-forest-5-8", person_bot="random", options={
        "shared_path_resolution": "immediate", "tie_break": "stored_food", "two_exit_den": "path_per_exit"}),
    Golden("savernake-forest", 6, 4, "golden-savernake-forest-6-5", options={"two_exit_den": "path_per_exit"},
           resign=(12, 1), person_bot="random"),
    Golden("savernake-forest", 7, 2, "golden-savernake-forest-5", person_bot="random", options={
        "shared_path_resolution": "immediate", "two_exit_den": "path_per_exit"}),
)


def _iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def play(golden: Golden, game_id: int) -> dict[str, Any]:
    """Play ``golden`` to its end with bots and return its complete record."""
    engine = engine_at(golden.slug, golden.version or get_engine(golden.slug).version)
    names = NAMES[: golden.players]
    options = engine.validate_options(golden.players, dict(golden.options))
    state = json.loads(canonical_json(engine.setup(list(names), options, golden.seed)))
    moves: list[dict[str, Any]] = []
    history: list[list[Event]] = []
    resigned: list[int] = []
    left_at_end: list[int] = []
    while engine.result(state) is None:
        if len(moves) >= MOVE_CAP:
            raise RuntimeError(f"{golden.name} did not end within {MOVE_CAP} moves")
        seq = len(moves) + 1
        if golden.resign is not None and golden.resign[0] == seq:
            seat, move, source = golden.resign[1], RESIGN, "web"
        else:
            seat = engine.to_move(state)[0]
            bot = golden.bot_seats.get(seat, golden.person_bot)
            window = history_window(engine, bot)
            recent = [event for events in history[len(history) - window:] for event in events] if window else []
            move = bot_move(engine, bot, state, seat, recent, seed=f"{golden.seed}:{seq - 1}")
            source = "bot" if seat in golden.bot_seats else "web"
        text = "resign" if move == RESIGN else engine.describe_move(state, move)
        left_at_end = sorted(resigned)  # who had left before the move that ends the game, as the platform counts
        state, events = engine.play(state, seat, move)
        state = json.loads(canonical_json(state))
        if move == RESIGN:
            resigned.append(seat)
        history.append(events)
        moves.append({
            "seq": seq,
            "seat": seat,
            "at": _iso(START + timedelta(minutes=10 + 7 * seq)),
            "source": source,
            "notation": text,
            "move": move,
            "events": [event.to_json() for event in events],
            "lines": record_lines(engine, events, list(names)),
        })
    result = json.loads(canonical_json(engine.result(state)))
    bots = sorted({entry["seat"] for entry in moves if entry["source"] == "bot"})
    result.update({"bot_played_seats": bots} if bots else {})
    result.update({"left_seats": left_at_end} if left_at_end else {})
    finished = START + timedelta(minutes=10 + 7 * len(moves))
    return {
        "format": RECORD_FORMAT,
        "format_version": RECORD_FORMAT_VERSION,
        "complete": True,
        "viewer_seat": None,
        "exported_at": _iso(finished + timedelta(hours=1)),
        "game": {
            "id": game_id,
            "engine": engine.slug,
            "engine_version": engine.version,
            "name": engine.name,
            "options": options,
            "status": "finished",
            "created_at": _iso(START),
            "started_at": _iso(START + timedelta(minutes=5)),
            "finished_at": _iso(finished),
        },
        "players": [{"seat": seat, "name": name, "bot": golden.bot_seats.get(seat, "")}
                    for seat, name in enumerate(names)],
        "commitment": {
            "scheme": COMMITMENT_SCHEME,
            "algorithm": COMMITMENT_ALGORITHM,
            "value": seed_commitment(seed=golden.seed, game_id=game_id, engine=engine.slug,
                                     engine_version=engine.version),
        },
        "seed": golden.seed,
        "moves": moves,
        "result": result,
    }


def dump_record(record: dict[str, Any]) -> str:
    """Return a record as JSON text with one line per move: small, and a diff shows which move changed."""
    head = json.dumps({key: value for key, value in record.items() if key != "moves"}, indent=1, ensure_ascii=False)
    moves = ",\n".join("  " + json.dumps(move, ensure_ascii=False, separators=(",", ":")) for move in record["moves"])
    before, _, after = head.rpartition('\n "result":')
    return f'{before}\n "moves": [\n{moves}\n ],\n "result":{after}\n'


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.golden", description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=os.path.join("tests", "records"), help="where to write (tests/records)")
    parser.add_argument("--only", action="append", default=[], help="only this record (<slug>-<n>); repeatable")
    parser.add_argument("--force", action="store_true", help="rewrite records that exist (never for a merged one)")
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    for index, golden in enumerate(GOLDEN):
        if args.only and golden.name not in args.only:
            continue
        path = os.path.join(args.out, f"{golden.name}.json")
        if os.path.exists(path) and not args.force:
            print(f"kept    {path}")
            continue
        record = play(golden, game_id=9001 + index)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(dump_record(record))
        print(f"wrote   {path}: {len(record['moves'])} moves, {record['result']['summary']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
