"""Competitions in words, for their page and their emails: the rules printed in the reader's language, each round
as a list of its tables, and a bracket drawn as rounds of matches. What is worded is what ``presenters`` shows:
who sits where, each game's state, and once it is over the places it gave (its public result)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.utils.translation import gettext, ngettext

from games import engines
from turnbased.clocks.models import ClockKind
from turnbased.competitions import pairing, presenters, selectors
from turnbased.competitions.models import (
    Bye, ByePolicy, Competition, DeadlinePolicy, Entrant, EventTable, Format, Placement, Round, RoundStatus,
    TableStatus, TakebackPolicy,
)
from turnbased.competitions.pairings import bracket_winners


def tiebreak_name(name: str) -> str:
    return {
        "sonneborn_berger": gettext("Sonneborn–Berger (the points of the opponents beaten, half of those drawn)"),
        "buchholz": gettext("Buchholz (the opponents' points)"),
        "head_to_head": gettext("head to head (the games among the tied players)"),
        "wins": gettext("wins"),
        "second_places": gettext("second places"),
        "third_places": gettext("third places"),
        "score_ratio": gettext("score ratio (own score ÷ the table winner's, on average)"),
    }.get(name, name)


def stage_line(stage, table_size: int) -> str:
    """Say what a stage plays, in a sentence."""
    if stage.format == Format.SWISS:
        said = ngettext("Swiss, %(rounds)s round", "Swiss, %(rounds)s rounds", stage.rounds) % {"rounds": stage.rounds}
    elif stage.format == Format.ROUND_ROBIN:
        said = (gettext("Round robin in pools of %(size)s") % {"size": stage.pool_size} if stage.pool_size
                else gettext("Round robin, one pool"))
        if stage.rounds > 1:
            said += ", " + ngettext("each table played %(count)s time", "each table played %(count)s times",
                                    stage.rounds) % {"count": stage.rounds}
        said += ", " + (gettext("round by round") if stage.sequential else gettext("every game at once"))
    elif stage.format == Format.DOUBLE_ELIMINATION:
        said = gettext("Double elimination")
    elif table_size == 2:
        said = gettext("Single elimination")
    else:
        said = ngettext("Elimination: the best %(count)s of each table go on",
                        "Elimination: the best %(count)s of each table go on", stage.advance or 1) \
            % {"count": stage.advance or 1}
    if stage.advance and stage.format in (Format.SWISS, Format.ROUND_ROBIN):
        said += "; " + (ngettext("the best %(count)s of each pool go on", "the best %(count)s of each pool go on",
                                 stage.advance) if stage.format == Format.ROUND_ROBIN else
                        ngettext("the best %(count)s go on", "the best %(count)s go on", stage.advance)) \
            % {"count": stage.advance}
    if stage.duplicate:
        said += "; " + gettext("duplicate: every table of a round is dealt the same cards, each game seen by its own "
                               "players alone until the round closes")
    return said


def ladder_lines(competition: Competition) -> list[str]:
    """Say how a ladder is played."""
    ladder = competition.ladder
    return [
        gettext("A ladder: the entrants start in the order of their seeds, a newcomer at the bottom."),
        ngettext("A player may challenge the player %(reach)s place above them; the game starts at once.",
                 "A player may challenge any of the %(reach)s places above them; the game starts at once.",
                 ladder["reach"]) % {"reach": ladder["reach"]},
        gettext("A challenger who wins takes the defender's place; everyone between moves down one. Any other "
                "result changes nothing."),
        ngettext("A player may have %(count)s challenge in play at a time.",
                 "A player may have %(count)s challenges in play at a time.", ladder["open_challenges"])
        % {"count": ladder["open_challenges"]},
        ngettext("The same two meet again %(days)s day after their last game at the earliest.",
                 "The same two meet again %(days)s days after their last game at the earliest.",
                 ladder["cooldown_days"]) % {"days": ladder["cooldown_days"]},
        ngettext("It runs %(days)s day from its start; the ladder's order then is the final standing.",
                 "It runs %(days)s days from its start; the ladder's order then is the final standing.",
                 ladder["days"]) % {"days": ladder["days"]},
    ]


def league_lines(competition: Competition) -> list[str]:
    """Say how a league's season is played and what its end does."""
    league, stage = competition.league, competition.stages.first()
    said = [gettext("Season %(season)s of a league: a round robin in each division of %(size)s players, division 1 "
                    "at the top.") % {"season": competition.season, "size": league["division_size"]}]
    if stage is not None and stage.rounds > 1:
        said.append(ngettext("Each table is played %(count)s time, the seats turned.",
                             "Each table is played %(count)s times, the seats turned.", stage.rounds)
                    % {"count": stage.rounds})
    said.append(ngettext("At the season's end the best %(count)s of each division go up one, the last %(count)s "
                         "go down one.",
                         "At the season's end the best %(count)s of each division go up one, the last %(count)s "
                         "go down one.", league["movers"]) % {"count": league["movers"]})
    said.append(ngettext("The next season starts %(days)s day later: its players are entered in it, and newcomers "
                         "start in the bottom division.",
                         "The next season starts %(days)s days later: its players are entered in it, and "
                         "newcomers start in the bottom division.", league["break_days"])
                % {"days": league["break_days"]})
    return said


def _agreements_rule(allowed: set[str]) -> str:
    """What its players may agree to by vote, as one sentence (each choice of the organiser worded whole)."""
    pause, extra, draw = "pause" in allowed, "extra_time" in allowed, "draw" in allowed
    sentences = {
        (True, True, True): gettext("Its players may agree to pause their table's clocks, to give a player extra "
                                    "time, or to end their game as a draw (where the game knows a shared result)."),
        (True, True, False): gettext("Its players may agree to pause their table's clocks or to give a player extra "
                                     "time; no draw may be agreed."),
        (True, False, True): gettext("Its players may agree to pause their table's clocks or to end their game as a "
                                     "draw; no extra time may be given."),
        (False, True, True): gettext("Its players may agree to give a player extra time or to end their game as a "
                                     "draw; no table may be paused."),
        (True, False, False): gettext("Its players may agree to pause their table's clocks, and to nothing else."),
        (False, True, False): gettext("Its players may agree to give a player extra time, and to nothing else."),
        (False, False, True): gettext("Its players may agree to end their game as a draw, and to nothing else."),
        (False, False, False): gettext("Its players may not pause their tables, give extra time or agree a draw."),
    }
    return sentences[(pause, extra, draw)] + " " + gettext("A competition's game is never cancelled.")


def rules(competition: Competition, shown: dict) -> list[str]:
    """Print the competition's rules, a sentence each, as they will be applied."""
    engine = engines().get(competition.engine)
    said = [ngettext("%(game)s, %(size)s player at a table", "%(game)s, %(size)s players at a table",
                     competition.table_size)
            % {"game": engine.display_name() if engine else competition.engine, "size": competition.table_size}]
    if len(shown["points"]) > 1:
        said.append(gettext("Tables of one seat fewer seat everyone whatever the count."))
    clock = competition.time_control or {}
    if clock.get("kind", ClockKind.NONE) == ClockKind.NONE:
        said.append(gettext("No clock: a game ends at its round's deadline if not before."))
    elif clock.get("kind") == ClockKind.PER_MOVE:
        said.append(ngettext("%(days)s day a move", "%(days)s days a move", clock.get("days_per_move", 0))
                    % {"days": clock.get("days_per_move", 0)})
    else:
        said.append(gettext("A time bank of %(bank)s days, %(increment)s more a move")
                    % {"bank": clock.get("bank_days", 0), "increment": clock.get("increment_days", 0)})
    if clock.get("allow_absence") is False:
        said.append(gettext("Absences do not stop the clock."))
    if competition.league:
        said.extend(league_lines(competition))
    elif competition.ladder:
        said.extend(ladder_lines(competition))
    else:
        for number, stage in enumerate(competition.stages.all(), start=1):
            said.append(gettext("Stage %(number)s: %(what)s.") % {"number": number,
                                                                  "what": stage_line(stage, competition.table_size)})
    for size, points in shown["points"].items():
        said.append(ngettext("Points per place at a table of %(size)s: %(points)s.",
                             "Points per place at a table of %(size)s: %(points)s.", int(size))
                    % {"size": size, "points": " / ".join(_number(value) for value in points)})
    said.append(gettext("A tie for a place shares its points."))
    said.append(gettext("A bye scores %(points)s.") % {"points": _number(shown["bye_points"])}
                + (" " + gettext("(the average of a full table)") if competition.bye_policy == ByePolicy.AVERAGE
                   else ""))
    said.append(gettext("Ties are broken by: %(order)s.")
                % {"order": "; ".join(tiebreak_name(name) for name in competition.tiebreaks)})
    length = ngettext("%(days)s day", "%(days)s days", shown["round_days"]) % {"days": shown["round_days"]}
    estimated = shown["round_days_estimated"]
    said.append((gettext("A round lasts at most %(length)s (estimated from the clock).") if estimated
                 else gettext("A round lasts at most %(length)s.")) % {"length": length})
    if competition.deadline_policy == DeadlinePolicy.PLAY_OUT:
        said.append(gettext("At a round's deadline, each game still going is played out at once by its seats' "
                            "bots."))
    elif competition.deadline_policy == DeadlinePolicy.ADJUDICATE:
        said.append(gettext("At a round's deadline, each game still going is stopped and adjudicated on the count "
                            "so far that every player can see (tokens, points on the track): the most wins. An "
                            "adjudicated game counts in the standings, marked as such, and not for ratings."))
    else:
        said.append(gettext("At a round's deadline, each game still going is stopped and every player at it loses "
                            "(the last place's points each)."))
    said.append(gettext("Running out of time hands the seat to a bot for the rest of the game and withdraws the "
                        "player from the rounds to come."))
    said.append(gettext("Its games count for ratings.") if competition.rated and competition.entry == "open"
                else gettext("Its games do not count for ratings."))
    said.append({
        TakebackPolicy.PEOPLE: gettext("At its tables a move may be taken back when every player agrees (where the "
                                       "game allows it); bots never agree."),
        TakebackPolicy.EVERYONE: gettext("At its tables a move may be taken back when every player agrees (where the "
                                         "game allows it); bots agree too."),
        TakebackPolicy.FORBIDDEN: gettext("At its tables no move may be taken back."),
    }[competition.takebacks])
    said.append(_agreements_rule(set(competition.agreements)))
    return said


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


@dataclass
class ShownTable:
    table: EventTable
    players: list[str]
    places: dict[str, int] = field(default_factory=dict)
    status: str = ""  # as anyone may know it: a duplicate round's tables are in play until the round closes
    settled: str = ""


@dataclass
class ShownRound:
    round: Round
    tables: list[ShownTable]
    byes: list[str]
    held: bool = False  # a duplicate round not yet closed: its tables' games are their seats' alone
    commitment: dict | None = None
    seed: str | None = None
    seats_compared: list[dict] | None = None


def rounds_shown(competition: Competition) -> list[ShownRound]:
    """Return every round, latest first, with its tables (players by name, places once over) and byes; a duplicate
    round with its commitment, and once closed its seed and its seats compared across tables."""
    played = list(Round.objects.filter(stage__competition=competition).select_related("stage__competition")
                  .order_by("-stage__number", "-number"))
    names = dict(Entrant.objects.filter(competition=competition).values_list("pk", "user__username"))
    tables = defaultdict(list)
    for table in EventTable.objects.filter(round__in=played).order_by("number"):
        tables[table.round_id].append(table)
    placements = defaultdict(list)
    for placement in Placement.objects.filter(table__round__in=played):
        placements[placement.table_id].append(placement)
    byes = defaultdict(list)
    for bye in Bye.objects.filter(round__in=played):
        byes[bye.round_id].append(names.get(bye.entrant_id, ""))
    shown = []
    for row in played:
        held = row.stage.duplicate and row.status != RoundStatus.CLOSED
        row_tables = [ShownTable(
            table=table, players=[names.get(entrant, "") for entrant in table.players],
            places={names.get(placement.entrant_id, ""): placement.place for placement in placements[table.pk]},
            status=TableStatus.PLAYING if held and table.game_id else table.status,
            settled="" if held else table.settled) for table in tables[row.pk]]
        compared = None
        if row.stage.duplicate and not held:
            compared = selectors.seats_compared([presenters.table_shown(table, names, placements[table.pk])
                                                 for table in tables[row.pk]])
        shown.append(ShownRound(round=row, byes=sorted(byes[row.pk]), tables=row_tables, held=held,
                                commitment=selectors.round_commitment(row), seed=selectors.round_seed_revealed(row),
                                seats_compared=compared))
    return shown


@dataclass
class BracketMatch:
    id: str
    players: list[str]
    winner: str | None


@dataclass
class BracketColumn:
    title: str
    matches: list[BracketMatch]


def brackets(competition: Competition) -> list[tuple[int, list[BracketColumn]]]:
    """Return each two-player elimination stage's bracket as columns (its rounds, winners' then losers' then the
    final), each a list of matches with their players (known so far) and winner."""
    drawn = []
    names = dict(Entrant.objects.filter(competition=competition).values_list("pk", "user__username"))
    for stage in competition.stages.filter(format__in=[Format.ELIMINATION, Format.DOUBLE_ELIMINATION]):
        if not stage.bracket:
            continue
        matches = pairing.bracket_from_json(stage.bracket)
        decided = pairing.resolved(matches, stage.seeds, bracket_winners(stage))
        players = _match_players(matches, stage.seeds, decided)
        columns: dict[tuple[str, int], list[BracketMatch]] = defaultdict(list)
        for match in matches:
            winner = decided.get(match.id)
            columns[(match.bracket, match.round)].append(BracketMatch(
                id=match.id, players=[names.get(player, "") if player else "—" for player in players[match.id]],
                winner=names.get(winner) if winner else None))
        order = {"winners": 0, "losers": 1, "final": 2}
        titles = {"winners": gettext("Round %(number)s"), "losers": gettext("Losers' round %(number)s"),
                  "final": gettext("Final %(number)s")}
        drawn.append((stage.number, [BracketColumn(title=titles.get(bracket, "%(number)s") % {"number": number},
                                                   matches=found)
                                     for (bracket, number), found in sorted(columns.items(),
                                                                           key=lambda item: (order.get(item[0][0], 3),
                                                                                             item[0][1]))]))
    return drawn


def _match_players(matches, seeds, decided) -> dict[str, list[int | None]]:
    """Return each match's two players as known so far (None: not yet known, or a bye); a match's sources come
    before it in the bracket's order."""
    losers: dict[str, int | None] = {}
    players: dict[str, list[int | None]] = {}
    for match in matches:
        both = [_slot(match.a, seeds, decided, losers), _slot(match.b, seeds, decided, losers)]
        players[match.id] = both
        winner = decided.get(match.id)
        if winner is not None:
            losers[match.id] = next((player for player in both if player is not None and player != winner), None)
    return players


def _slot(slot, seeds, winners, losers) -> int | None:
    if slot.seed is not None:
        return seeds[slot.seed - 1] if slot.seed <= len(seeds) else None
    if slot.winner_of is not None:
        return winners.get(slot.winner_of)
    return losers.get(slot.loser_of)


def word_event(payload: dict, event) -> dict:
    """Word a competition's event (the stream's and webhooks'), in the reader's language when it is read."""
    competition = payload.get("competition")
    if not isinstance(competition, dict) or not isinstance(competition.get("name"), str):
        return payload
    names = {"competition": competition["name"], "round": payload.get("round"), "name": payload.get("username")}
    kind = getattr(event, "kind", "")
    if kind == "competition_invite":
        text = gettext("%(name)s invites you to enter %(competition)s.") % names
    elif kind == "competition_started":
        text = gettext("%(competition)s has started.") % names
    elif kind == "competition_table":
        count = len(payload.get("games") or [])
        text = ngettext("Round %(round)s of %(competition)s is open: your game is ready.",
                        "Round %(round)s of %(competition)s is open: your %(count)s games are ready.", count) \
            % {**names, "count": count}
    elif kind == "competition_round":
        text = gettext("Round %(round)s of %(competition)s has closed.") % names
    elif kind == "competition_ended":
        text = (gettext("%(competition)s is called off.") if competition.get("status") == "cancelled"
                else gettext("%(competition)s has ended.")) % names
    elif kind == "ladder_challenge":
        text = gettext("%(name)s challenges you on %(competition)s: your game is open.") % names
    elif kind == "competition_season":
        text = {"up": gettext("Season %(season)s of %(competition)s is open: you go up a division."),
                "down": gettext("Season %(season)s of %(competition)s is open: you go down a division."),
                }.get(payload.get("move"), gettext("Season %(season)s of %(competition)s is open: you stay in your "
                                                   "division.")) % {**names, "season": payload.get("season")}
    elif kind == "competition_removed":
        text = {"timeout": gettext("You ran out of time in a game of %(competition)s: you are withdrawn from the "
                                   "rounds to come."),
                "requirements": gettext("You no longer meet the requirements of %(competition)s: you are "
                                        "withdrawn."),
                }.get(payload.get("because"), gettext("The organiser withdrew you from %(competition)s.")) % names
    else:
        return payload
    return {**payload, "text": text}
