"""The game record's pure parts: the seed commitment that makes a shuffle provably fair.

When a game starts the platform publishes ``seed_commitment(...)``; when it ends it reveals the
seed. Anyone holding the record can then recompute the commitment and replay the moves from the
seed (``python -m games.verify``). Nothing here imports Django, so a player can check a finished
game with only ``games/`` and the standard library.

The committed bytes are exactly (UTF-8, ``\\n`` line ends, no trailing newline)::

    turnbased-seed-commitment/1
    <game id in decimal>
    <engine slug>
    <engine version in decimal>
    <seed>

and the commitment is their SHA-256 in lowercase hexadecimal. Binding the game id, engine and
version into the hash means a seed cannot be reused for another table or replayed through other
rules and still match.

A finished game's record (the JSON format of docs/record-format.md) is checked by ``verify_record``:
the commitment, then every move replayed from the seed through the pinned engine version
(``games.engine_at``) with every logged event and the result compared. ``python -m games.verify``
runs it on files.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from games import engine_at
from games.base import AGREED_DRAW, DECIDED, RESIGN, Engine, EngineError, Event, InvalidOptions, UnknownEngineVersion, worded_result
from games.i18n import catalog_of, in_english
from games.takebacks import LogReplay, describe, taken_back_seq

# The checks' details are for people (the fairness page, the API's /verify/): worded in the reader's language
# (English from ``python -m games.verify``); the checks' names, and the record itself, stay English.
_ = catalog_of(__name__)
N_ = _.noop

COMMITMENT_SCHEME = "turnbased-seed-commitment/1"
COMMITMENT_ALGORITHM = "sha256"


def commitment_bytes(*, seed: str, game_id: int, engine: str, engine_version: int) -> bytes:
    """Return the exact bytes a game's seed commitment hashes (see the module's docstring)."""
    return "\n".join([COMMITMENT_SCHEME, str(int(game_id)), engine, str(int(engine_version)), seed]).encode("utf-8")


def seed_commitment(*, seed: str, game_id: int, engine: str, engine_version: int) -> str:
    """Return the published commitment to a game's secret seed: SHA-256 of ``commitment_bytes``, in hex."""
    data = commitment_bytes(seed=seed, game_id=game_id, engine=engine, engine_version=engine_version)
    return hashlib.sha256(data).hexdigest()


# -- the record, format_version 1 (docs/record-format.md) -----------------------------------------

RECORD_FORMAT = "turnbased-record"
RECORD_FORMAT_VERSION = 1
# Keys the platform adds to the engine's result: facts about the table, not about the rules.
PLATFORM_RESULT_KEYS = ("bot_played_seats", "left_seats")
# Move sources that mean a bot chose the move (``bot_played_seats`` lists their seats).
BOT_SOURCES = ("bot", "timeout")
# Move sources that mean a person chose the move (or asked for the only legal one to be played).
PERSON_SOURCES = ("web", "api", "email", "auto")
UNVERIFIABLE_PARTIAL = N_(
    "This record was exported while the game was in play: it holds no seed and only what one seat may see, "
    "so it cannot be verified until the game ends. Export it again once the game is over."
)


def canonical_json(value: Any) -> str:
    """Return ``value`` as JSON with sorted keys: equal text means equal JSON, whatever the key order.

    Stored JSON does not keep key order (PostgreSQL's jsonb sorts keys), while types do count:
    ``true`` is not ``1`` and ``1`` is not ``1.0``, as they would be for Python's ``==``.
    """
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def record_lines(engine: Engine, events: list[Event], players: list[str]) -> list[str]:
    """Return a complete record's history lines for one move's events: every event, worded after the end.

    A public event is worded for a spectator; a private one for the first seat that saw it (the only
    wording that says what the card was), which is public too once the game is over.
    """
    return [
        describe(engine, event, players, None if event.visible_to is None else event.visible_to[0])
        for event in events
    ]


@dataclass
class VerifyReport:
    """What ``verify_record`` found: each check as ``(name, passed, detail)``, in the order made.

    ``ok`` is true only when every check passed on a complete record. ``verifiable`` is false for a
    record that cannot be checked at all (exported during play, or of a game that never started):
    that is not evidence of tampering, only of nothing to check yet.
    """

    ok: bool = True
    verifiable: bool = True
    checks: list[tuple[str, bool, str]] = field(default_factory=list)

    def check(self, name: str, passed: bool, detail: str) -> bool:
        self.checks.append((name, passed, detail))
        self.ok = self.ok and passed
        return passed

    def lines(self) -> list[str]:
        """Return the report as text lines, one per check, then the verdict."""
        lines = [f"{'ok  ' if passed else 'FAIL'}  {name}: {detail}" for name, passed, detail in self.checks]
        if not self.verifiable:
            lines.append("verdict: cannot be verified")
        else:
            lines.append("verdict: verified" if self.ok else "verdict: NOT verified")
        return lines


class _Malformed(ValueError):
    """The record does not have the shape of format_version 1; the message says where."""


def _get(obj: Any, key: str, kind: type | tuple[type, ...], where: str, *, nullable: bool = False) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise _Malformed(_("{where} has no {key!r}").format(where=where, key=key))
    value = obj[key]
    if value is None and nullable:
        return None
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,))):
        raise _Malformed(_("{where}.{key} has the wrong type ({type})").format(where=where, key=key,
                                                                               type=type(value).__name__))
    return value


def _short(value: Any, limit: int = 160) -> str:
    text = canonical_json(value) if not isinstance(value, str) else value
    return text if len(text) <= limit else text[: limit - 1] + "…"


def verify_record(record: Any) -> VerifyReport:
    """Check a game record (format_version 1) offline: everything a player needs to trust the game was fair.

    The checks, in order: the format; that the record is complete (a record exported during play is
    reported as not verifiable yet, not as tampered); the engine and version; the players and options;
    the seed against the commitment published at the start; the move numbering; then a replay of every
    move from ``engine.setup(players, options, seed)`` through the pinned engine version, comparing the
    seat, every logged event (exact JSON) and, at the end, that the game is over and its result. Never
    raises for a bad record: every problem is a failed check.
    """
    report = VerifyReport()
    try:
        _verify(record, report)
    except _Malformed as problem:
        report.check("format", False, _("not a turnbased record of format_version {version}: {problem}").format(
            version=RECORD_FORMAT_VERSION, problem=problem))
    except (ValueError, TypeError, RecursionError) as problem:  # NaN, a number too large, nesting too deep
        report.check("format", False, _("the record holds values JSON cannot: {error}: {problem}").format(
            error=type(problem).__name__, problem=_short(str(problem))))
    return report


def _verify(record: Any, report: VerifyReport) -> None:
    if not isinstance(record, dict):
        raise _Malformed(_("the file does not hold a JSON object"))
    fmt = record.get("format")
    version = record.get("format_version")
    if fmt != RECORD_FORMAT or version != RECORD_FORMAT_VERSION or isinstance(version, bool):
        report.check("format", False, _("format {format!r} version {version!r}: this verifier reads {known!r} version "
                                        "{known_version}").format(format=fmt, version=version, known=RECORD_FORMAT,
                                                                  known_version=RECORD_FORMAT_VERSION))
        return
    report.check("format", True, _("{format} version {version}").format(format=RECORD_FORMAT,
                                                                         version=RECORD_FORMAT_VERSION))
    game = _get(record, "game", dict, "record")
    game_id = _get(game, "id", int, "game")
    slug = _get(game, "engine", str, "game")
    engine_version = _get(game, "engine_version", int, "game")
    status = _get(game, "status", str, "game")
    if not _get(record, "complete", bool, "record"):
        report.verifiable = False
        report.check("complete", False, _(UNVERIFIABLE_PARTIAL))
        return
    commitment = _get(record, "commitment", dict, "record", nullable=True)
    seed = _get(record, "seed", str, "record", nullable=True)
    if commitment is None and seed is None and not record.get("moves"):
        report.verifiable = False
        report.check("complete", False, _("the game never started: no seed was drawn and no move made, nothing to "
                                          "verify"))
        return
    if seed is None or commitment is None:
        report.check("complete", False, _("a complete record must reveal the seed and hold the commitment"))
        return
    report.check("complete", True, _("the seed is revealed and every move and event is present"))
    try:
        engine = engine_at(slug, engine_version)
    except UnknownEngineVersion as error:
        report.check("engine", False, error.reason)
        return
    report.check("engine", True, _("{name} ({slug}) version {version}").format(name=engine.display_name(), slug=slug,
                                                                               version=engine_version))
    players = _players(record, engine, report)
    options = _get(game, "options", dict, "game")
    if players is None or not _options(engine, players, options, report):
        return
    _commitment(commitment, seed, game_id, slug, engine_version, report)
    moves = _get(record, "moves", list, "record")
    _numbering(moves, report)
    final = _replay(engine, players, options, seed, moves, report)
    if final is not None and _bots(record, moves, report):
        _end(engine, final, status, record, moves, players, report)


def _players(record: dict, engine: Engine, report: VerifyReport) -> list[str] | None:
    rows = _get(record, "players", list, "record")
    names = []
    for index, row in enumerate(rows):
        seat = _get(row, "seat", int, f"players[{index}]")
        names.append(_get(row, "name", str, f"players[{index}]"))
        _get(row, "bot", str, f"players[{index}]")
        if seat != index:
            report.check("players", False, _("players[{index}] has seat {seat}: seats must be 0, 1, ... in order").format(
                index=index, seat=seat))
            return None
    if not engine.min_players <= len(names) <= engine.max_players:
        report.check("players", False, _.ngettext("{count} player; {name} takes {min} to {max}",
                                                  "{count} players; {name} takes {min} to {max}", len(names)).format(
            count=len(names), name=engine.display_name(), min=engine.min_players, max=engine.max_players))
        return None
    report.check("players", True, _.ngettext("{count} seat: {names}", "{count} seats: {names}", len(names)).format(
        count=len(names), names=", ".join(names)))
    return names


def _options(engine: Engine, players: list[str], options: dict, report: VerifyReport) -> bool:
    try:
        complete = engine.validate_options(len(players), dict(options))
    except InvalidOptions as error:
        return report.check("options", False, _("not playable: {reason}").format(reason=error.reason))
    except Exception as error:  # a forged value the engine cannot even read: a failed check, not a crash
        return report.check("options", False, _("not options of this game: {error}: {problem}").format(
            error=type(error).__name__, problem=_short(str(error))))
    if canonical_json(complete) != canonical_json(options):
        return report.check("options", False, _("incomplete or altered: the engine reads them as {options}").format(
            options=_short(complete)))
    # Options no player may choose (a scripted deck order, a chosen first player) decide what the seed
    # otherwise would: such a game was not dealt from its seed, so its fairness cannot be shown.
    internal = sorted(set(options) - {spec.name for spec in engine.option_specs})
    if internal:
        return report.check("options", False, _("{names} set by the server, not by the seed: this game was not dealt "
                                                "at random").format(names=", ".join(internal)))
    return report.check("options", True, _short(options) if options else _("none"))


def _commitment(commitment: dict, seed: str, game_id: int, slug: str, version: int, report: VerifyReport) -> None:
    scheme = commitment.get("scheme")
    algorithm = commitment.get("algorithm")
    value = commitment.get("value")
    if scheme != COMMITMENT_SCHEME or algorithm != COMMITMENT_ALGORITHM:
        report.check("commitment", False, _("unknown scheme {scheme!r} / algorithm {algorithm!r}").format(
            scheme=scheme, algorithm=algorithm))
        return
    expected = seed_commitment(seed=seed, game_id=game_id, engine=slug, engine_version=version)
    if value == expected:
        report.check("commitment", True, _("sha256 of the revealed seed with game {id}, {slug} version {version} is the "
                                           "commitment published at the start ({start}…)").format(
            id=game_id, slug=slug, version=version, start=expected[:16]))
    else:
        report.check("commitment", False, _("the revealed seed with game {id}, {slug} version {version} hashes to "
                                            "{expected}, not to the published commitment {published}").format(
            id=game_id, slug=slug, version=version, expected=expected, published=_short(value)))


def _numbering(moves: list, report: VerifyReport) -> None:
    for index, entry in enumerate(moves):
        seq = _get(entry, "seq", int, f"moves[{index}]")
        if seq != index + 1:
            report.check("seq", False, _("moves[{index}] has seq {seq}, expected {expected}: a move is missing, repeated "
                                         "or out of order").format(index=index, seq=seq, expected=index + 1))
            return
    report.check("seq", True, _("moves numbered 1 to {last} with no gap").format(last=len(moves)) if moves
                 else _("no moves"))


def _replay(engine: Engine, players: list[str], options: dict, seed: str, moves: list,
            report: VerifyReport) -> dict | None:
    """Replay the moves from the seed; check seats and events; return the final state (None when it stopped)."""
    try:
        state = engine.setup(list(players), dict(options), seed)
    except EngineError as error:
        report.check("setup", False, _("the engine cannot set up this game: {reason}").format(reason=error.reason))
        return None
    state = json.loads(canonical_json(state))  # the platform stores every state as JSON
    replay = LogReplay(engine, state)
    for index, entry in enumerate(moves):
        number = index + 1
        seat = _get(entry, "seat", int, f"moves[{index}]")
        move = _get(entry, "move", dict, f"moves[{index}]")
        logged = _get(entry, "events", list, f"moves[{index}]")
        if not 0 <= seat < len(players):
            report.check("seats", False, _("move {number} is by seat {seat}, which does not exist").format(
                number=number, seat=seat))
            return None
        if move != RESIGN and taken_back_seq(move) is None and seat not in engine.to_move(state):
            report.check("seats", False, _("move {number} is by seat {seat} ({name}), whose turn it was not (to move: "
                                           "{to_move})").format(number=number, seat=seat, name=players[seat],
                                                                to_move=engine.to_move(state)))
            return None
        try:
            state, events = replay.play(seat, move)  # a takeback returns to the position before the move it names
        except EngineError as error:
            report.check("moves", False, _("move {number} by seat {seat} is not legal there: {reason}").format(
                number=number, seat=seat, reason=error.reason))
            return None
        except Exception as error:  # a forged move the engine cannot even read: a failed check, not a crash
            report.check("moves", False, _("move {number} by seat {seat} is not a move of this game: {error}: "
                                           "{problem}").format(number=number, seat=seat, error=type(error).__name__,
                                                               problem=_short(str(error))))
            return None
        replay.state = state = json.loads(canonical_json(state))
        replayed = json.loads(canonical_json([event.to_json() for event in events]))
        if canonical_json(replayed) != canonical_json(logged):
            report.check("events", False, _("move {number}: {difference}").format(
                number=number, difference=_event_difference(logged, replayed)))
            return None
    report.check("seats", True, _("every move was made by a seat whose turn it was (or was a resignation, or a "
                                  "takeback of the move just before it)"))
    report.check("moves", True, _.ngettext("the {count} move replays legally from the seed",
                                           "all {count} moves replay legally from the seed", len(moves)).format(
        count=len(moves)))
    report.check("events", True, _("every logged event of every move equals the replay's, exactly"))
    return state


def _event_difference(logged: list, replayed: list) -> str:
    for index, (mine, theirs) in enumerate(zip(logged, replayed)):
        if canonical_json(mine) != canonical_json(theirs):
            return _("event {number} is logged as {logged} but the replay gives {replayed}").format(
                number=index + 1, logged=_short(mine), replayed=_short(theirs))
    return _.ngettext("{logged} event logged but the replay gives {replayed}",
                      "{logged} events logged but the replay gives {replayed}", len(logged)).format(
        logged=len(logged), replayed=len(replayed))


def _bots(record: dict, moves: list, report: VerifyReport) -> bool:
    """Check ``players[].bot`` against the moves' sources: a bot's move is of a seat a bot holds from the start, or
    of a person's seat a bot took over (after a ``timeout``: a late player's seat passes to a bot then); a seat a bot
    took over makes no move through a person's door after, unless a person took it (``seat_changes``: the moves
    after a change's ``seq`` are the taker's)."""
    held = [row["bot"] for row in record["players"]]
    changes = sorted((change["seq"], change["seat"]) for change in record.get("seat_changes") or []
                     if isinstance(change, dict) and isinstance(change.get("seq"), int)
                     and isinstance(change.get("seat"), int))
    taken_at: dict[int, int] = {}
    timed_out: set[int] = set()
    for entry in moves:
        seat, source, seq = entry["seat"], entry.get("source"), entry["seq"]
        while changes and changes[0][0] < seq:  # a person took the seat at that position
            changed = changes.pop(0)[1]
            taken_at.pop(changed, None)
            timed_out.discard(changed)
        if source == "timeout":
            timed_out.add(seat)
        elif source == "bot":
            if not held[seat] and seat not in timed_out:
                report.check("bots", False, _("move {seq} was a bot's, yet no bot holds seat {seat}").format(
                    seq=seq, seat=seat))
                return False
            taken_at.setdefault(seat, seq)
        elif source in PERSON_SOURCES and seat in taken_at:
            report.check("bots", False, _("move {seq} came from a person ({source}) after a bot took seat {seat} at "
                                          "move {taken}").format(seq=seq, source=source, seat=seat, taken=taken_at[seat]))
            return False
    report.check("bots", True, _("each seat's bot agrees with the moves' sources"))
    return True


def _end(engine: Engine, state: dict, status: str, record: dict, moves: list, players: list[str],
         report: VerifyReport) -> None:
    recorded = record.get("result")
    seats = len(players)
    with in_english():  # the record's result holds the English summary, as the platform stores it
        result = engine.result(state)
    if status == "aborted":
        report.check("end", result is None, _("aborted while in play, and the replay is not over") if result is None
                     else _("the game is marked aborted but the replay of its moves ends it"))
        report.check("result", recorded is None, _("none, as for an aborted game") if recorded is None
                     else _("an aborted game has no result, the record has {result}").format(result=_short(recorded)))
        return
    if status != "finished":
        report.check("end", False, _("a complete record is of a finished or aborted game, not of one {status!r}").format(
            status=status))
        return
    if isinstance(recorded, dict) and "decided" in recorded:
        expected = _decided(engine, state, result, recorded["decided"], players, report)
        if expected is None:
            return
    else:
        if not report.check("end", result is not None and not engine.to_move(state),
                            _("the game is over after the last move") if result is not None
                            else _("the replay is not over after the last move, yet the game is marked finished")):
            return
        if not isinstance(recorded, dict):
            report.check("result", False, _("a finished game's result must be an object, not {result}").format(
                result=_short(recorded)))
            return
        expected = json.loads(canonical_json(result))
    for key in sorted(set(expected) | set(recorded)):
        if key in PLATFORM_RESULT_KEYS and key not in expected:
            continue
        if canonical_json(expected.get(key)) != canonical_json(recorded.get(key)):
            report.check("result", False, _("{key!r} is recorded as {recorded} but the replay gives {replayed}").format(
                key=key, recorded=_short(recorded.get(key)), replayed=_short(expected.get(key))))
            return
    _platform_keys(recorded, moves, seats, engine, players, report)


def _decided(engine: Engine, state: dict, result: dict | None, how: Any, players: list[str],
             report: VerifyReport) -> dict | None:
    """Return the result of a game stopped before its own end (``Engine.decided_result``) as the replay decides it
    ``how``; None, with a failed check, when ``how`` is no way of deciding or the replay ends the game."""
    if how not in DECIDED:
        report.check("end", False, _("the result says the game was decided {how}, which no game is").format(
            how=_short(how)))
        return None
    if how == AGREED_DRAW and not report.check("end", engine.shares_results, _(
            "the result says its players agreed a draw, which this game does not allow")):
        return None
    if not report.check("end", result is None,
                        _("stopped before its end ({how}), and the replay is not over").format(how=how)
                        if result is None else _("the result says the game was stopped before its end, yet the "
                                                 "replay of its moves ends it")):
        return None
    with in_english():
        return json.loads(canonical_json(engine.decided_result(state, how, list(players))))


def _platform_keys(recorded: dict, moves: list, seats: int, engine: Engine, players: list[str],
                   report: VerifyReport) -> None:
    bots = sorted({entry["seat"] for entry in moves if entry.get("source") in BOT_SOURCES})
    if recorded.get("bot_played_seats", []) != bots:
        report.check("result", False, _("bot_played_seats is {recorded} but bots made moves for seats {seats}").format(
            recorded=_short(recorded.get("bot_played_seats", [])), seats=bots))
        return
    left = recorded.get("left_seats", [])
    if not isinstance(left, list) or left != sorted(set(left)) or any(
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats for seat in left):
        report.check("result", False, _("left_seats {seats} is not a sorted list of seats").format(seats=_short(left)))
        return
    # The result as the reader's language words it (the record keeps the English line).
    report.check("result", True, worded_result(engine, recorded, list(players)))
