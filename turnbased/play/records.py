"""Reads for fairness and the game record: the seed commitment, its reveal, and a viewer's record of a game.

A game's commitment is a pure function of its row (``games.record.seed_commitment``), so it is
computed, never stored, and costs no query. The seed is revealed once the game is over (finished, or
ended any other way after it started): until then no read here returns it.

The record (docs/record-format.md, format version 1) is complete (seed, raw moves, every event) only
after the end. While the game is on, a player's record holds only what their seat may see (their own
moves' notation, the events shown to them, the lines worded for them) and a spectator's only what is
public. Building one reads the log in one query, whatever the game's length.
"""

from __future__ import annotations

from datetime import datetime
from datetime import timezone as dt_timezone

from django.utils import timezone

from games import get_engine
from games.base import Event
from games.record import (
    COMMITMENT_ALGORITHM,
    COMMITMENT_SCHEME,
    RECORD_FORMAT,
    RECORD_FORMAT_VERSION,
    record_lines,
    seed_commitment,
)
from games.takebacks import describe
from turnbased.accounts.models import is_bot_account
from turnbased.play import store
from turnbased.play.models import Game, GameStatus, Move, MoveSource, SeatChange
from turnbased.play.selectors import Viewer


def is_over(game: Game) -> bool:
    """Tell whether the game ended after it started (finished, or aborted in play) and no feature holds it
    (``Game.held``): its seed may be shown."""
    if game.held:
        return False
    return game.status == GameStatus.FINISHED or (game.status == GameStatus.ABORTED and game.started_at is not None)


def original_id(game: Game) -> int:
    """Return the id the game's commitment binds: this row's, or for an imported game the original game's."""
    return int(game.imported_from["id"]) if game.imported_from else game.pk


def commitment_of(game: Game) -> dict | None:
    """Return the published commitment to the game's seed (None before it starts)."""
    if game.started_at is None:
        return None
    value = seed_commitment(seed=game.seed, game_id=original_id(game), engine=game.engine,
                            engine_version=game.engine_version)
    return {"scheme": COMMITMENT_SCHEME, "algorithm": COMMITMENT_ALGORITHM, "value": value}


def revealed_seed(game: Game) -> str | None:
    """Return the game's seed once it is over; None while it may still be played (or never started)."""
    return game.seed if is_over(game) else None


def fairness(game: Game) -> dict:
    """Return what the pages and emails show of a game's fairness: commitment, seed once over, where it came from."""
    return {
        "commitment": commitment_of(game),
        "seed": revealed_seed(game),
        "over": is_over(game),
        "imported_from": game.imported_from,
    }


def record_filename(game: Game) -> str:
    """Return the name a downloaded record is saved under, e.g. ``love-letter-12.json``."""
    return f"{game.engine}-{game.pk}.json"


def _iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    return moment.astimezone(dt_timezone.utc).isoformat().replace("+00:00", "Z")


def _public_options(game: Game) -> dict:
    """Return the options players chose (``presenters.public_options``, which imports this module)."""
    names = {spec.name for spec in get_engine(game.engine).option_specs}
    return {name: value for name, value in game.options.items() if name in names}


def _players(game: Game) -> list[dict]:
    """Return the seats in order with the names the engine got (the seats' names before the start)."""
    if game.imported_from and game.imported_from.get("players"):
        return [dict(player) for player in game.imported_from["players"]]
    seats = {seat.index: seat for seat in game.seats.all()}
    names = list(game.player_names) or [seats[index].display_name for index in sorted(seats)]
    return [
        # A person whose seat a bot took over (time ran out) is still a person.
        {"seat": index, "name": name, "bot": seats[index].bot if index in seats and seats[index].user_id is None else ""}
        for index, name in enumerate(names)
    ]


# The doors a person (or a bot account's program) plays through.
PEOPLES_DOORS = (MoveSource.WEB, MoveSource.API, MoveSource.EMAIL)


def source_shown(game: Game, source: str, *, seat: int, viewer_seat: int | None, complete: bool,
                 last_door: str | None) -> str:
    """Return how a move of ``seat`` came, as the record of ``viewer_seat`` says it.

    A move played for its seat as its only legal one (``auto``) reads to the others, while the game is on, as
    any move of that seat: the door it last played through (``last_door``), else the one its player plays
    through (a bot account's is the API). That it was the only move can tell what only the seat knows.
    """
    if source != MoveSource.AUTO or complete or seat == viewer_seat:
        return source
    if last_door:
        return last_door
    player = next((row.user for row in game.seats.all() if row.index == seat and row.user_id), None)
    return MoveSource.API if is_bot_account(player) else MoveSource.WEB


def _moves(game: Game, viewer_seat: int | None, complete: bool) -> list[dict]:
    engine = store.engine_of(game)
    names = list(game.player_names)
    rows = Move.objects.filter(game=game).order_by("seq").values_list(
        "seq", "seat", "created_at", "source", "text", "move", "events"
    )
    moves, doors = [], {}
    for seq, seat, created_at, source, text, move, raw_events in rows:
        if source in PEOPLES_DOORS:
            doors[seat] = source
        shown = source_shown(game, source, seat=seat, viewer_seat=viewer_seat, complete=complete,
                             last_door=doors.get(seat))
        entry = {"seq": seq, "seat": seat, "at": _iso(created_at), "source": shown}
        events = [Event.from_json(raw) for raw in raw_events]
        if complete:
            entry.update(notation=text, move=move, events=list(raw_events),
                         lines=record_lines(engine, events, names))
        else:
            # A move's notation can hold what only its player knows (the cards a Chancellor put back).
            visible = [event for event in events if event.visible_for(viewer_seat)]
            entry.update(
                notation=text if viewer_seat is not None and seat == viewer_seat else None,
                events=[event.to_json() for event in visible],
                lines=[describe(engine, event, names, viewer_seat) for event in visible],
            )
        moves.append(entry)
    return moves


def _seat_changes(game: Game) -> list[dict]:
    """Who took which seat at which position (``SeatChange``): the moves of a seat after its change are the taker's."""
    if not any(game.started_at and seat.joined_at > game.started_at for seat in game.seats.all()):
        return []  # nobody took a seat after the start (``services.seats``): nothing to read
    rows = SeatChange.objects.filter(game=game).order_by("pk").select_related("taken_by", "left_by")
    return [{"seat": row.seat, "seq": row.seq, "player": row.taken_by.get_username(),
             "left_player": row.left_by.get_username() if row.left_by_id else None, "reason": row.reason}
            for row in rows]


def _record(game: Game, viewer_seat: int | None) -> dict:
    complete = is_over(game)
    return {
        "format": RECORD_FORMAT,
        "format_version": RECORD_FORMAT_VERSION,
        "complete": complete,
        "viewer_seat": None if complete else viewer_seat,
        "exported_at": _iso(timezone.now()),
        "game": {
            "id": original_id(game),
            "engine": game.engine,
            "engine_version": game.engine_version,
            "name": get_engine(game.engine).display_name(),  # for the reader, as the lines are
            # Engine-internal options (a scripted deck) are secret until the end; a verifier needs them all.
            "options": dict(game.options) if complete else _public_options(game),
            "status": game.status,
            "created_at": _iso(game.created_at),
            "started_at": _iso(game.started_at),
            "finished_at": _iso(game.finished_at),
        },
        "players": _players(game),
        "commitment": commitment_of(game),
        "seed": revealed_seed(game),
        "moves": _moves(game, viewer_seat, complete) if game.started_at is not None else [],
        "seat_changes": _seat_changes(game),
        "result": game.result if complete else None,
    }


def record_for(viewer: Viewer) -> dict:
    """Return the game's record as the viewer may read it: complete once over, else only what their seat may see."""
    return _record(viewer.game, viewer.seat)


def complete_record(game: Game) -> dict:
    """Return the complete record of a game that is over (for verifying and exporting); raise ``ValueError`` before."""
    if not is_over(game):
        raise ValueError(f"game {game.pk} is not over: its record is not complete until the end")
    return _record(game, None)
