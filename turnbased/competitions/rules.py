"""A competition's settings, read and checked as an organiser (or a client) asks for them, and what follows from them
before anyone enters: each stage's format fitted to the game, the points per place, the round's deadline.

Everything refused here is refused before the competition exists, in words that say what to change: an organiser finds
out that a 2-player game cannot be played in 4-player pools on the form, not when the first round fails to open.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from datetime import datetime

from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext, ngettext

from games import engines, get_engine
from games.base import InvalidOptions
from turnbased.clocks.models import ClockKind
from turnbased.clocks.services import time_control_read
from turnbased.competitions import scoring
from turnbased.competitions.models import AGREEMENT_KINDS, ByePolicy, DeadlinePolicy, EntryKind, Format, TakebackPolicy
from turnbased.entry import requirements
from turnbased.kit.errors import InvalidRequest, Unprocessable
from turnbased.play.services import user_options

NAME_MIN, NAME_MAX = 3, 80
DESCRIPTION_MAX = 4000
MAX_STAGES = 4
MAX_SWISS_ROUNDS = 20
MAX_CYCLES = 4
MAX_ENTRANTS = 2000
MAX_ROUND_DAYS = 180
# A round lasts at least a week whatever the estimate: a slow player's weekend away must not end their game.
MIN_ROUND_DAYS = 7
# A game's length when nothing is known of it yet: turns each player takes (the estimate reads finished games).
TYPICAL_TURNS = 25
# With no clock, a round lasts this long unless the organiser says otherwise.
NO_CLOCK_ROUND_DAYS = 28
# A league's two-player divisions: from three players (two would be a match, not a division) to a round robin of
# 64; the days between seasons, in which the next one takes newcomers.
MIN_DIVISION, MAX_DIVISION = 3, 64
DEFAULT_BREAK_DAYS, MAX_BREAK_DAYS = 7, 60
# A ladder: challenges reach at most this many places up, this many open at once; the days before the same two
# meet again; how long it runs (at least a round's week, at most a year).
MAX_REACH, MAX_OPEN_CHALLENGES, MAX_COOLDOWN_DAYS = 20, 10, 90
MIN_LADDER_DAYS, MAX_LADDER_DAYS = 7, 365


def _text(value, field: str, *, most: int, least: int = 0) -> str:
    if not isinstance(value, str):
        raise InvalidRequest(gettext("%(field)s must be text.") % {"field": field})
    if "\x00" in value or any(unicodedata.category(char) in ("Cc", "Cs") and char not in "\n\r\t" for char in value):
        raise Unprocessable(gettext("%(field)s may hold only letters, digits, spaces and punctuation.")
                            % {"field": field})
    text = unicodedata.normalize("NFC", value).strip()
    if not least <= len(text) <= most:
        raise Unprocessable(gettext("%(field)s is %(least)s to %(most)s characters long.")
                            % {"field": field, "least": least, "most": most})
    return text


def _whole(raw: dict, name: str, default, least: int, most: int, *, none_ok: bool = False):
    value = raw.get(name, default)
    if value is None and none_ok:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= most:
        raise Unprocessable(gettext("%(name)s must be a whole number from %(least)s to %(most)s.")
                            % {"name": name, "least": least, "most": most})
    return value


def _flag(raw: dict, name: str, default: bool) -> bool:
    value = raw.get(name, default)
    if not isinstance(value, bool):
        raise InvalidRequest(gettext("%(name)s must be true or false.") % {"name": name})
    return value


def _choice(raw: dict, name: str, choices, default: str) -> str:
    value = raw.get(name, default)
    if value not in choices.values:
        raise InvalidRequest(gettext("%(name)s must be one of %(values)s.")
                             % {"name": name, "values": ", ".join(choices.values)})
    return value


def _agreements(raw: dict) -> list[str]:
    """The agreements by vote the competition's tables allow: a list of ``AGREEMENT_KINDS`` (all, when not said)."""
    value = raw.get("agreements", list(AGREEMENT_KINDS))
    if not isinstance(value, list) or any(kind not in AGREEMENT_KINDS for kind in value):
        raise InvalidRequest(gettext("agreements must be a list of %(kinds)s (a competition's game is never "
                                     "cancelled).") % {"kinds": ", ".join(AGREEMENT_KINDS)})
    return [kind for kind in AGREEMENT_KINDS if kind in value]


def short_tables(engine, table_size: int) -> bool:
    """Tell whether the competition may seat a table one short (k−1 players) so that every entrant is seated: the game
    must take that many players."""
    return table_size - 1 >= max(engine.min_players, 2)


def read_stage(raw, *, table_size: int, last: bool) -> dict:
    """Return one stage's settings, checked against the table size and its place among the stages."""
    if not isinstance(raw, dict):
        raise InvalidRequest(gettext("Each stage must be an object."))
    unknown = sorted(set(raw) - {"format", "rounds", "pool_size", "sequential", "duplicate", "advance"})
    if unknown:
        raise InvalidRequest(gettext("Unknown stage settings: %(names)s.") % {"names": ", ".join(unknown)})
    stage_format = _choice(raw, "format", Format, Format.SWISS)
    stage = {"format": stage_format, "rounds": 1, "pool_size": 0, "sequential": False, "duplicate": False,
             "advance": None}
    if stage_format == Format.SWISS:
        stage["rounds"] = _whole(raw, "rounds", 5, 1, MAX_SWISS_ROUNDS)
    elif stage_format == Format.ROUND_ROBIN:
        stage["rounds"] = _whole(raw, "rounds", 1, 1, MAX_CYCLES)
        stage["pool_size"] = _whole(raw, "pool_size", 0, 0, 64)
        if stage["pool_size"] and stage["pool_size"] < table_size:
            raise Unprocessable(gettext("A pool holds at least as many players as a table (%(size)s).")
                                % {"size": table_size})
        if table_size > 2 and stage["pool_size"] > table_size + 2:
            raise Unprocessable(ngettext(
                "With %(size)s player at a table, a pool holds %(size)s to %(most)s players (each table of a pool "
                "is every way of seating them).",
                "With %(size)s players at a table, a pool holds %(size)s to %(most)s players (each table of a "
                "pool is every way of seating them).", table_size) % {"size": table_size, "most": table_size + 2})
        stage["sequential"] = _flag(raw, "sequential", False)
    elif stage_format == Format.DOUBLE_ELIMINATION and table_size != 2:
        raise Unprocessable(gettext("Double elimination is for two-player tables."))
    if stage_format == Format.LADDER:
        raise Unprocessable(gettext("A ladder is made with its own settings (ladder), not as a stage."))
    if stage_format in (Format.ELIMINATION, Format.DOUBLE_ELIMINATION):
        if not last:
            raise Unprocessable(gettext("An elimination stage plays to a winner: it comes last."))
        if table_size > 2:
            stage["advance"] = _whole(raw, "advance", max(1, table_size // 2), 1, table_size - 1)
    elif not last:
        most = 64 if stage_format == Format.ROUND_ROBIN else MAX_ENTRANTS
        stage["advance"] = _whole(raw, "advance", 1 if stage_format == Format.ROUND_ROBIN else 8, 1, most)
    elif raw.get("advance") is not None:
        raise Unprocessable(gettext("The last stage sends nobody on: leave its advance out."))
    stage["duplicate"] = _flag(raw, "duplicate", False)
    if stage["duplicate"] and stage_format == Format.ROUND_ROBIN and not stage["sequential"]:
        # Every game of a pool at once would seat a player at two tables dealt the same cards: one seat's hand
        # at one table is an opponent's at the other.
        raise Unprocessable(gettext("A duplicate round seats each player at one table: a round robin must be "
                                    "played round by round (sequential) to be duplicate."))
    return stage


def read_points(raw, table_size: int, engine) -> dict[str, list[float]]:
    """Return the points per place the organiser changed, by table size (the others keep ``scoring``'s defaults)."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise InvalidRequest(gettext("points must map table sizes to lists of points."))
    sizes = {str(table_size), *([str(table_size - 1)] if short_tables(engine, table_size) else [])}
    chosen = {}
    for size, row in raw.items():
        if size not in sizes:
            raise Unprocessable(gettext("points are given for the competition's table sizes: %(sizes)s.")
                                % {"sizes": ", ".join(sorted(sizes))})
        if (not isinstance(row, list) or len(row) != int(size)
                or any(not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= 1000
                       for value in row)):
            raise Unprocessable(gettext("points for %(size)s players are %(size)s numbers from 0 to 1000, one per "
                                        "place.") % {"size": size})
        if any(later > earlier for earlier, later in zip(row, row[1:])):
            raise Unprocessable(gettext("A place never scores more than the place above it."))
        chosen[size] = [float(value) for value in row]
    return chosen


def read_tiebreaks(raw, table_size: int) -> list[str]:
    if raw is None:
        return list(scoring.default_tiebreaks(table_size))
    names = [tiebreak.value for tiebreak in scoring.TieBreak]
    if not isinstance(raw, list) or any(name not in names for name in raw):
        raise InvalidRequest(gettext("tiebreaks must list, once each, some of: %(names)s.")
                             % {"names": ", ".join(names)})
    if len(set(raw)) < len(raw):
        raise Unprocessable(gettext("tiebreaks must list, once each, some of: %(names)s.")
                            % {"names": ", ".join(names)})
    return list(raw)


def read(raw, *, now: datetime) -> dict:
    """Return the settings of a new competition, checked; refuse what cannot be run (``InvalidRequest`` for a malformed
    value, ``Unprocessable`` for one that does not fit the rest). The group and the organiser's right to make
    its competitions are checked by the service."""
    if not isinstance(raw, dict):
        raise InvalidRequest(gettext("A competition's settings must be an object."))
    known = {"name", "description", "game", "table_size", "options", "time_control", "no_clock", "entry", "group",
             "requirements", "min_entrants", "max_entrants", "starts_at", "start_when_full", "late_entry_rounds",
             "rated", "takebacks", "agreements", "points", "bye_policy", "bye_points", "tiebreaks", "deadline_policy", "round_days", "stages",
             "league", "ladder"}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise InvalidRequest(gettext("Unknown competition settings: %(names)s.") % {"names": ", ".join(unknown)})
    chosen: dict = {
        "name": " ".join(_text(raw.get("name"), gettext("The name"), least=NAME_MIN, most=NAME_MAX).split()),
        "description": _text(raw.get("description", ""), gettext("The description"), most=DESCRIPTION_MAX),
    }
    slug = raw.get("game")
    if slug not in engines():
        raise InvalidRequest(gettext("Unknown game %(slug)r. Known games: %(known)s.")
                             % {"slug": slug, "known": ", ".join(engines())})
    engine = get_engine(slug)
    chosen["engine"] = slug
    size = _whole(raw, "table_size", engine.default_players, engine.min_players, engine.max_players)
    size = max(size, 2)
    chosen["table_size"] = size
    options = raw.get("options") or {}
    if not isinstance(options, dict):
        raise InvalidRequest(gettext("options must be a JSON object."))
    options = user_options(slug, options)
    try:
        for players in {size, *([size - 1] if short_tables(engine, size) else [])}:
            engine.validate_options(players, dict(options))
    except InvalidOptions as error:
        raise Unprocessable(error.reason) from None
    chosen["options"] = options
    clock = time_control_read(raw.get("time_control"))
    if clock.kind == ClockKind.NONE and not _flag(raw, "no_clock", False):
        raise Unprocessable(no_clock_warning())
    chosen["time_control"] = dict(raw.get("time_control") or {})
    chosen["entry"] = _choice(raw, "entry", EntryKind, EntryKind.OPEN)
    group = raw.get("group")
    if chosen["entry"] == EntryKind.GROUP:
        if not isinstance(group, int) or isinstance(group, bool):
            raise Unprocessable(gettext("A group's competition names its group (group: the group's id)."))
    elif group is not None:
        raise Unprocessable(gettext("Only a competition for a group's members names a group."))
    chosen["group"] = group
    chosen["requirements"] = requirements.read(raw.get("requirements") or {})
    least = max(2, size - 1) if short_tables(engine, size) else 2
    chosen["min_entrants"] = _whole(raw, "min_entrants", max(least, size), least, MAX_ENTRANTS)
    chosen["max_entrants"] = _whole(raw, "max_entrants", None, chosen["min_entrants"], MAX_ENTRANTS, none_ok=True)
    chosen["start_when_full"] = _flag(raw, "start_when_full", False)
    chosen["starts_at"] = _start_time(raw.get("starts_at"), now=now)
    if chosen["start_when_full"] and chosen["max_entrants"] is None:
        raise Unprocessable(gettext("A competition that starts when full needs a maximum number of entrants "
                                    "(max_entrants)."))
    if chosen["starts_at"] is None and not chosen["start_when_full"]:
        raise Unprocessable(gettext("Say when the competition starts: a date (starts_at), or when it is full "
                                    "(start_when_full)."))
    chosen["late_entry_rounds"] = _whole(raw, "late_entry_rounds", 0, 0, MAX_SWISS_ROUNDS)
    chosen["rated"] = _flag(raw, "rated", True)
    chosen["takebacks"] = _choice(raw, "takebacks", TakebackPolicy, TakebackPolicy.PEOPLE)
    chosen["agreements"] = _agreements(raw)
    chosen["points"] = read_points(raw.get("points"), size, engine)
    chosen["bye_policy"] = _choice(raw, "bye_policy", ByePolicy, ByePolicy.FIXED)
    bye = raw.get("bye_points", 1)
    if not isinstance(bye, (int, float)) or isinstance(bye, bool) or not 0 <= bye <= 1000:
        raise Unprocessable(gettext("bye_points must be a number from 0 to 1000."))
    chosen["bye_points"] = float(bye)
    chosen["tiebreaks"] = read_tiebreaks(raw.get("tiebreaks"), size)
    chosen["deadline_policy"] = _choice(raw, "deadline_policy", DeadlinePolicy, DeadlinePolicy.PLAY_OUT)
    chosen["round_days"] = _whole(raw, "round_days", None, 1, MAX_ROUND_DAYS, none_ok=True)
    chosen["league"] = read_league(raw.get("league"), table_size=size)
    chosen["ladder"] = read_ladder(raw.get("ladder"), table_size=size)
    if chosen["ladder"] is not None:
        if chosen["league"] is not None or raw.get("stages") is not None:
            raise Unprocessable(gettext("A ladder has no stages and is no league: leave stages and league out."))
        chosen["stages"] = [{"format": Format.LADDER, "rounds": 1, "pool_size": 0, "sequential": False,
                             "duplicate": False, "advance": None}]
        return chosen
    stages = raw.get("stages", [{"format": Format.SWISS}] if chosen["league"] is None
                     else [{"format": Format.ROUND_ROBIN}])
    if chosen["league"] is not None:
        stages = league_stages(stages, chosen["league"], table_size=size)
    if not isinstance(stages, list) or not 1 <= len(stages) <= MAX_STAGES:
        raise Unprocessable(gettext("A competition has 1 to %(most)s stages.") % {"most": MAX_STAGES})
    chosen["stages"] = [read_stage(stage, table_size=size, last=index == len(stages) - 1)
                        for index, stage in enumerate(stages)]
    if chosen["late_entry_rounds"] and chosen["stages"][0]["format"] != Format.SWISS:
        raise Unprocessable(gettext("Late entries are taken by a Swiss stage only (the others pair everyone at the "
                                    "start)."))
    return chosen


def read_league(raw, *, table_size: int) -> dict | None:
    """Return a league's settings (None: the competition is no league): how many play in a division, how many go
    up and down between neighbouring divisions at a season's end, and the days between two seasons (the next one
    takes entries meanwhile)."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise InvalidRequest(gettext("league must be an object."))
    unknown = sorted(set(raw) - {"division_size", "movers", "break_days"})
    if unknown:
        raise InvalidRequest(gettext("Unknown league settings: %(names)s.") % {"names": ", ".join(unknown)})
    # Two-player divisions play a round robin of any size; larger tables play every way of seating a division,
    # which stays a handful of tables only up to two more players than a table seats.
    least, most = (MIN_DIVISION, MAX_DIVISION) if table_size == 2 else (table_size, table_size + 2)
    size = _whole(raw, "division_size", 8 if table_size == 2 else table_size + 1, least, most)
    movers = _whole(raw, "movers", 2 if size >= 6 else 1, 1, size // 2)
    return {"division_size": size, "movers": movers,
            "break_days": _whole(raw, "break_days", DEFAULT_BREAK_DAYS, 1, MAX_BREAK_DAYS)}


def read_ladder(raw, *, table_size: int) -> dict | None:
    """Return a ladder's settings (None: no ladder): how many places above a player may challenge, how many
    challenges a player may have open at once, the days before the same two meet again, and how many days it runs
    from its start (its games still going then are settled by the deadline policy)."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise InvalidRequest(gettext("ladder must be an object."))
    unknown = sorted(set(raw) - {"reach", "open_challenges", "cooldown_days", "days"})
    if unknown:
        raise InvalidRequest(gettext("Unknown ladder settings: %(names)s.") % {"names": ", ".join(unknown)})
    if table_size != 2:
        raise Unprocessable(gettext("A ladder is for two-player tables."))
    return {"reach": _whole(raw, "reach", 3, 1, MAX_REACH),
            "open_challenges": _whole(raw, "open_challenges", 2, 1, MAX_OPEN_CHALLENGES),
            "cooldown_days": _whole(raw, "cooldown_days", 7, 0, MAX_COOLDOWN_DAYS),
            "days": _whole(raw, "days", 90, MIN_LADDER_DAYS, MAX_LADDER_DAYS)}


def league_stages(stages, league: dict, *, table_size: int) -> list:
    """Return a league's one stage: a round robin in each division (``pool_size`` is the division's size), by
    default played twice with two players (each pair meets with each seat) and once at larger tables (every way of
    seating a division is a table); refuse any other."""
    if (not isinstance(stages, list) or len(stages) != 1 or not isinstance(stages[0], dict)
            or stages[0].get("format", Format.ROUND_ROBIN) != Format.ROUND_ROBIN
            or stages[0].get("pool_size", league["division_size"]) != league["division_size"]):
        raise Unprocessable(gettext("A league plays one stage: a round robin in each division (its pool size is the "
                                    "division size)."))
    return [{"rounds": 2 if table_size == 2 else 1, **stages[0], "format": Format.ROUND_ROBIN,
             "pool_size": league["division_size"]}]


def _start_time(value, *, now: datetime) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = parse_datetime(value)
        except ValueError:
            value = None
    if not isinstance(value, datetime) or value.tzinfo is None:
        raise InvalidRequest(gettext("starts_at must be a date and time with its time zone (ISO 8601)."))
    if value <= now:
        raise Unprocessable(gettext("A competition starts in the future."))
    return value


def no_clock_warning() -> str:
    return gettext("Without a clock a game may never end, and its round with it: the round's deadline settles it. "
                   "Tick no_clock to run the competition without one.")


@dataclass(frozen=True)
class RoundLength:
    """How long a round lasts before its deadline, and whether the organiser set it or it was estimated."""

    days: int
    estimated: bool


def round_length(*, round_days: int | None, time_control: dict, table_size: int, turns: float | None) -> RoundLength:
    """Return how long each round lasts (the resolution we adopt, docs/players.md "Competitions"): what the
    organiser set, else half the longest a typical game can take on the clock (every player at a table using all
    of their time on each of the ``turns`` they take: the median of the game's finished games, else
    ``TYPICAL_TURNS``), at least a week; without a clock, four weeks."""
    if round_days is not None:
        return RoundLength(days=round_days, estimated=False)
    clock = time_control_read(time_control)
    turns = turns or TYPICAL_TURNS
    if clock.kind == ClockKind.PER_MOVE:
        longest = turns * table_size * clock.days_per_move
    elif clock.kind == ClockKind.BANK:
        longest = table_size * (clock.bank_days + turns * clock.increment_days)
    else:
        return RoundLength(days=NO_CLOCK_ROUND_DAYS, estimated=True)
    days = max(MIN_ROUND_DAYS, math.ceil(longest / 2))
    return RoundLength(days=min(days, MAX_ROUND_DAYS), estimated=True)


def bye_worth(competition) -> float:
    """What a bye scores: the organiser's fixed number, or the average of a full table's points."""
    table = scoring.points_table(competition.table_size, competition.points)
    return scoring.bye_points(competition.bye_policy, fixed=competition.bye_points, table=table)
