"""The history of a Halali! match in the reader's language: each event's line, and the result's.

Every event is public (a face-down tile is secret from both players), so a line differs between
readers only in who is "you". Each sentence is one message with the tile's whole phrase inside
(``names.py``), so a translator can inflect and reorder it.
"""

from __future__ import annotations

from typing import Any

from games.base import Event
from games.halali import tiles
from games.halali.names import aim, the_moved, the_object, through_exit, tile_name
from games.i18n import catalog_of

_ = catalog_of(__name__)


def describe_event(event: Event, players: list[str], viewer: int | None) -> str:
    """Return one line describing ``event`` as ``viewer`` (None: a spectator) should read it."""
    d = event.data
    kind = event.kind
    line = _LINES.get(kind)
    return line(d, players, viewer) if line else kind.replace("_", " ").capitalize() + "."


def _resigned(d: dict[str, Any], players: list[str], viewer: int | None) -> str:
    seat, winner = d["seat"], d["winners"][0]
    if seat == viewer:
        return _("You resigned: {winner} wins the match.").format(winner=players[winner])
    if winner == viewer:
        return _("{player} resigned: You win the match.").format(player=players[seat])
    return _("{player} resigned: {winner} wins the match.").format(player=players[seat], winner=players[winner])


def _flipped(d: dict[str, Any], players: list[str], viewer: int | None) -> str:
    if d["kind"] == tiles.HUNTER:
        tile = _("Hunter aiming {direction}").format(direction=aim(d["dir"]))
    else:
        tile = tile_name(d["kind"])
    if d["seat"] == viewer:
        text = _("You turned over {square}: {tile}.").format(square=d["square"], tile=tile)
    else:
        text = _("{player} turned over {square}: {tile}.").format(player=players[d["seat"]], square=d["square"], tile=tile)
    if d["locked"]:
        text += " " + _("It is locked for the opponent's next turn.")
    count = d["face_down"]
    return text + " " + _.ngettext("{count} face down.", "{count} face down.", count).format(count=count)


def _moved(d: dict[str, Any], players: list[str], viewer: int | None) -> str:
    you = d["seat"] == viewer
    words = {"player": players[d["seat"]], "tile": the_moved(d["kind"]), "start": d["from"], "end": d["to"]}
    if not d.get("captured"):
        text = _("You moved {tile} {start}–{end}.") if you else _("{player} moved {tile} {start}–{end}.")
        return text.format(**words)
    count = d["points"]
    if you:
        text = _.ngettext(
            "You moved {tile} {start}–{end}, capturing {prey} ({count} point).",
            "You moved {tile} {start}–{end}, capturing {prey} ({count} points).",
            count,
        )
    else:
        text = _.ngettext(
            "{player} moved {tile} {start}–{end}, capturing {prey} ({count} point).",
            "{player} moved {tile} {start}–{end}, capturing {prey} ({count} points).",
            count,
        )
    return text.format(prey=the_object(d["captured"]), count=count, **words)


def _exited(d: dict[str, Any], players: list[str], viewer: int | None) -> str:
    count = d["points"]
    if d["seat"] == viewer:
        text = _.ngettext(
            "You brought {tile} out from {start} through {exit} ({count} point).",
            "You brought {tile} out from {start} through {exit} ({count} points).",
            count,
        )
    else:
        text = _.ngettext(
            "{player} brought {tile} out from {start} through {exit} ({count} point).",
            "{player} brought {tile} out from {start} through {exit} ({count} points).",
            count,
        )
    return text.format(
        player=players[d["seat"]], tile=the_object(d["kind"]), start=d["from"], exit=through_exit(d["exit"]), count=count
    )


def _passed(d: dict[str, Any], players: list[str], viewer: int | None) -> str:
    you, left = d["seat"] == viewer, d["final_left"]
    if left is None:
        text = _("You had no legal move and pass.") if you else _("{player} had no legal move and passes.")
    elif you:
        text = _.ngettext(
            "You had no legal move and pass ({count} final turn left).",
            "You had no legal move and pass ({count} final turns left).",
            left,
        )
    else:
        text = _.ngettext(
            "{player} had no legal move and passes ({count} final turn left).",
            "{player} had no legal move and passes ({count} final turns left).",
            left,
        )
    return text.format(player=players[d["seat"]], count=left)


def _final_phase_started(d: dict[str, Any], players: list[str], viewer: int | None) -> str:
    count = d["turns"]
    if d["first"] == viewer:
        text = _.ngettext(
            "The last tile is face up: final phase, {count} turn each; You move first. Exits are open.",
            "The last tile is face up: final phase, {count} turns each; You move first. Exits are open.",
            count,
        )
    else:
        text = _.ngettext(
            "The last tile is face up: final phase, {count} turn each; {player} moves first. Exits are open.",
            "The last tile is face up: final phase, {count} turns each; {player} moves first. Exits are open.",
            count,
        )
    return text.format(player=players[d["first"]], count=count)


def _flip_required(d: dict[str, Any], players: list[str], viewer: int | None) -> str:
    count = d["quiet"]
    if d["seat"] == viewer:
        text = _.ngettext(
            "No flip, capture or exit for {count} turn: You must turn a tile over.",
            "No flip, capture or exit for {count} turns: You must turn a tile over.",
            count,
        )
    else:
        text = _.ngettext(
            "No flip, capture or exit for {count} turn: {player} must turn a tile over.",
            "No flip, capture or exit for {count} turns: {player} must turn a tile over.",
            count,
        )
    return text.format(player=players[d["seat"]], count=count)


def _leg_ended(d: dict[str, Any], players: list[str], viewer: int | None) -> str:
    if d["reason"] == "side_cleared":
        if len(d["cleared"]) == 2:
            reason = _("Blue and Brown have no tiles left on the board")
        elif d["cleared"] == [tiles.BLUE]:
            reason = _("Blue has no tiles left on the board")
        else:
            reason = _("Brown has no tiles left on the board")
    else:
        reason = _("the final turns are played")
    return _("Leg {leg} ends ({reason}): {score}; {outcome}.").format(
        leg=d["leg"], reason=reason, score=_score(d["points"], players), outcome=_outcome(d, players, viewer)
    )


def _leg_started(d: dict[str, Any], players: list[str], viewer: int | None) -> str:
    if d["blue"] == viewer:
        return _("Leg {leg} begins with the roles swapped: You play Blue and move first.").format(leg=d["leg"])
    return _("Leg {leg} begins with the roles swapped: {player} plays Blue and moves first.").format(
        leg=d["leg"], player=players[d["blue"]]
    )


def _match_ended(d: dict[str, Any], players: list[str], viewer: int | None) -> str:
    return _("The match is over: {score}; {outcome}.").format(
        score=_score(d["points"], players), outcome=_outcome(d, players, viewer)
    )


def _score(points: list[int], players: list[str]) -> str:
    """Return "Alice 30, Bob 12": names and numbers, the same in every language."""
    return f"{players[0]} {points[0]}, {players[1]} {points[1]}"


def _outcome(d: dict[str, Any], players: list[str], viewer: int | None) -> str:
    """Word the winner of a leg or the match as a clause, naming the tile tie-break when it decided."""
    winners, points, counts = d["winners"], d["points"], d["tiles"]
    if not winners:
        return _("a draw (tiles {tiles})").format(tiles=f"{counts[0]}–{counts[1]}")
    winner = winners[0]
    if points[0] != points[1]:
        return _("You win") if winner == viewer else _("{player} wins").format(player=players[winner])
    tiles_score = f"{counts[winner]}–{counts[1 - winner]}"
    if winner == viewer:
        return _("You win on tiles collected ({tiles})").format(tiles=tiles_score)
    return _("{player} wins on tiles collected ({tiles})").format(player=players[winner], tiles=tiles_score)


_LINES = {
    "resigned": _resigned,
    "flipped": _flipped,
    "moved": _moved,
    "exited": _exited,
    "passed": _passed,
    "final_phase_started": _final_phase_started,
    "flip_required": _flip_required,
    "leg_ended": _leg_ended,
    "leg_started": _leg_started,
    "match_ended": _match_ended,
}


def describe_result(result: dict[str, Any], players: list[str]) -> str:
    """Return who won the match and how, in the reader's language, from the stored result.

    In English this is the record's ``summary`` line byte for byte (``engine.game_result`` builds it
    here): scores winner first, or in seat order for a draw, then each leg's points.
    """
    winners = result.get("winners") or []
    if result.get("resigned") is not None:
        loser = result["resigned"]
        return _("{winner} wins: {loser} resigned").format(winner=players[1 - loser], loser=players[loser])
    points, counts = result["scores"], result["tiles"]
    first = winners[0] if winners else 0
    legs = ", ".join(
        _("leg {leg} {score}").format(leg=r["leg"], score=f"{r['points'][first]}–{r['points'][1 - first]}")
        for r in result["legs"]
    )
    if not winners:
        return _("Draw {score}, tiles {tiles} ({legs})").format(
            score=f"{points[0]}–{points[1]}", tiles=f"{counts[0]}–{counts[1]}", legs=legs
        )
    winner = winners[0]
    score = f"{points[winner]}–{points[1 - winner]}"
    if points[0] != points[1]:
        return _("{winner} wins {score} ({legs})").format(winner=players[winner], score=score, legs=legs)
    return _("{winner} wins {score} on tiles ({tiles}) ({legs})").format(
        winner=players[winner], score=score, tiles=f"{counts[winner]}–{counts[1 - winner]}", legs=legs
    )
