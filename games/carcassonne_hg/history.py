"""The history of a Carcassonne: Hunters and Gatherers game in the reader's language: one line per event, and the result.

Each line is one message of the catalog, worded for its reader: "You" for the player it concerns,
names for everyone else (spectators included). Every event is public, so every reader sees every
line. The English lines tell the game in the present tense as they always did; Hungarian and German
tell it in the past tense, as those languages tell what happened.

A line about scoring is a head (what scored: "A forest is completed (3 tiles)") and an outcome (who
scored: "Ann scores 6 points"), joined by a message of its own; the outcome agrees with its scorers
(you alone, a group with you, one other player, several, nobody).
"""

from __future__ import annotations

from typing import Any

from games.base import Event
from games.carcassonne_hg import terms
from games.carcassonne_hg.terms import capfirst, counted, is_named, list_of, points, tile_name, tile_object
from games.i18n import catalog_of

_ = catalog_of(__name__)


class _Reader:
    """Names players for one reader: "you" for the reader's own seat."""

    def __init__(self, players: list[str], viewer: int | None):
        self.players, self.viewer = players, viewer

    def group(self, seats: list[int]) -> str:
        """Name several players: "Ann and you" ("You and Ann" when the reader comes first)."""
        you = _.pgettext("a player among others", "you")
        named = [you if seat == self.viewer else self.players[seat] for seat in seats]
        if named and seats[0] == self.viewer:
            named[0] = capfirst(you)
        return list_of(named)

    def outcome(self, seats: list[int], scored: int) -> str:
        """Say who scored ``scored`` points: the reader alone, a group with the reader, others, or nobody."""
        amount = points(scored)
        if not seats:
            return _("nobody scores")
        if seats == [self.viewer]:
            return _("You score {points}").format(points=amount)
        if self.viewer in seats:
            return _.pgettext("a group with you", "{players} score {points}").format(players=self.group(seats),
                                                                                    points=amount)
        return _.ngettext("{players} scores {points}", "{players} score {points}", len(seats)).format(
            players=self.group(seats), points=amount)


def _scoring_line(head: str, outcome: str, returned: int = 0) -> str:
    if returned:
        went = _.ngettext("{count} tribe member goes home", "{count} tribe members go home", returned).format(
            count=returned)
        return _("{what}: {outcome}; {returned}.").format(what=head, outcome=outcome, returned=went)
    return _("{what}: {outcome}.").format(what=head, outcome=outcome)


def describe_event(event: Event, players: list[str], viewer: int | None) -> str:
    """Return one line describing ``event`` as ``viewer`` (None: a spectator) should read it."""
    d = event.data
    reader = _Reader(players, viewer)
    wording = _WORDING.get(event.kind)
    if wording is None:
        return event.kind.replace("_", " ").capitalize() + "."
    return wording(d, reader)


def _tile_drawn(d: dict[str, Any], reader: _Reader) -> str:
    you = d["seat"] == reader.viewer
    tile, left = tile_object(d["tile"]), d["left"]
    if d["bonus"] and is_named(d["tile"]):
        # A bonus tile called by its power's name is a definite object (Hungarian "húztad a Sámán bónuszlapkát").
        message = (_.npgettext("a named tile", "You draw {tile} ({count} bonus tile left).",
                               "You draw {tile} ({count} bonus tiles left).", left) if you else
                   _.npgettext("a named tile", "{player} draws {tile} ({count} bonus tile left).",
                               "{player} draws {tile} ({count} bonus tiles left).", left))
    elif d["bonus"]:
        message = (_.ngettext("You draw {tile} ({count} bonus tile left).", "You draw {tile} ({count} bonus tiles left).",
                              left) if you else
                   _.ngettext("{player} draws {tile} ({count} bonus tile left).",
                              "{player} draws {tile} ({count} bonus tiles left).", left))
    else:
        message = (_.ngettext("You draw {tile} ({count} tile left).", "You draw {tile} ({count} tiles left).", left)
                   if you else
                   _.ngettext("{player} draws {tile} ({count} tile left).", "{player} draws {tile} ({count} tiles left).",
                              left))
    return message.format(player=reader.players[d["seat"]], tile=tile, count=left)


def _tile_discarded(d: dict[str, Any], reader: _Reader) -> str:
    if d["then"] == "end_turn":  # the tile is the subject: its name as a label words it
        message = _("{tile} fits nowhere and leaves the game; the turn ends.")
    else:
        message = _("{tile} fits nowhere and leaves the game; another tile is drawn.")
    return capfirst(message.format(tile=tile_name(d["tile"])))


def _tile_placed(d: dict[str, Any], reader: _Reader) -> str:
    you = d["seat"] == reader.viewer
    if is_named(d["tile"]):  # a definite object (Hungarian "rakta a Sámán bónuszlapkát")
        message = (_.pgettext("a named tile", "You place {tile} on {x},{y} turned {rot}°.") if you else
                   _.pgettext("a named tile", "{player} places {tile} on {x},{y} turned {rot}°."))
    else:
        message = (_("You place {tile} on {x},{y} turned {rot}°.") if you else
                   _("{player} places {tile} on {x},{y} turned {rot}°."))
    return message.format(player=reader.players[d["seat"]], tile=tile_object(d["tile"]), x=d["x"], y=d["y"],
                          rot=d["rot"])


def _piece_placed(d: dict[str, Any], reader: _Reader) -> str:
    # The stored ``feature`` is the region's notation name ("meadow NE"): the kind and the side it lies by.
    kind, _space, side = d["feature"].partition(" ")
    you = d["seat"] == reader.viewer
    message = _PIECE_PLACED[d["kind"], kind, bool(side), you]()
    # The side as a sentence says it: English "the meadow NE", German "im Nordosten", Hungarian "az északkeleti".
    return message.format(player=reader.players[d["seat"]], side=terms.side_in_sentence(side), x=d["x"], y=d["y"])


_PIECE_PLACED = {
    ("gatherer", "forest", False, False): lambda: _("{player} puts a gatherer on the forest at {x},{y}."),
    ("gatherer", "forest", False, True): lambda: _("You put a gatherer on the forest at {x},{y}."),
    ("gatherer", "forest", True, False): lambda: _("{player} puts a gatherer on the forest {side} at {x},{y}."),
    ("gatherer", "forest", True, True): lambda: _("You put a gatherer on the forest {side} at {x},{y}."),
    ("fisherman", "river", False, False): lambda: _("{player} puts a fisherman on the river at {x},{y}."),
    ("fisherman", "river", False, True): lambda: _("You put a fisherman on the river at {x},{y}."),
    ("fisherman", "river", True, False): lambda: _("{player} puts a fisherman on the river {side} at {x},{y}."),
    ("fisherman", "river", True, True): lambda: _("You put a fisherman on the river {side} at {x},{y}."),
    ("hunter", "meadow", False, False): lambda: _("{player} puts a hunter on the meadow at {x},{y}."),
    ("hunter", "meadow", False, True): lambda: _("You put a hunter on the meadow at {x},{y}."),
    ("hunter", "meadow", True, False): lambda: _("{player} puts a hunter on the meadow {side} at {x},{y}."),
    ("hunter", "meadow", True, True): lambda: _("You put a hunter on the meadow {side} at {x},{y}."),
    ("hut", "lake", False, False): lambda: _("{player} puts a hut on the lake at {x},{y}."),
    ("hut", "lake", False, True): lambda: _("You put a hut on the lake at {x},{y}."),
    ("hut", "lake", True, False): lambda: _("{player} puts a hut on the lake {side} at {x},{y}."),
    ("hut", "lake", True, True): lambda: _("You put a hut on the lake {side} at {x},{y}."),
    ("hut", "river", False, False): lambda: _("{player} puts a hut on the river at {x},{y}."),
    ("hut", "river", False, True): lambda: _("You put a hut on the river at {x},{y}."),
    ("hut", "river", True, False): lambda: _("{player} puts a hut on the river {side} at {x},{y}."),
    ("hut", "river", True, True): lambda: _("You put a hut on the river {side} at {x},{y}."),
}


def _piece_recalled(d: dict[str, Any], reader: _Reader) -> str:
    yours = d["seat"] == reader.viewer
    message = {
        ("gatherer", True): lambda: _("The shaman sends your gatherer on {x},{y} home."),
        ("gatherer", False): lambda: _("The shaman sends {player}'s gatherer on {x},{y} home."),
        ("fisherman", True): lambda: _("The shaman sends your fisherman on {x},{y} home."),
        ("fisherman", False): lambda: _("The shaman sends {player}'s fisherman on {x},{y} home."),
        ("hunter", True): lambda: _("The shaman sends your hunter on {x},{y} home."),
        ("hunter", False): lambda: _("The shaman sends {player}'s hunter on {x},{y} home."),
    }[d["kind"], yours]()
    return message.format(player=reader.players[d["seat"]], x=d["x"], y=d["y"])


def _logboat_scored(d: dict[str, Any], reader: _Reader) -> str:
    if d["seat"] == reader.viewer:
        message = _.ngettext("Logboat: You score {points} for {count} lake.",
                             "Logboat: You score {points} for {count} lakes.", d["lakes"])
    else:
        message = _.ngettext("Logboat: {player} scores {points} for {count} lake.",
                             "Logboat: {player} scores {points} for {count} lakes.", d["lakes"])
    return message.format(player=reader.players[d["seat"]], points=points(d["points"]), count=d["lakes"])


def _hunting_trap_scored(d: dict[str, Any], reader: _Reader) -> str:
    details = [counted(animal, count) for animal, count in d["animals"].items() if count]
    if d["eaten"]:
        details.append(_.ngettext("{count} deer eaten", "{count} deer eaten", d["eaten"]).format(count=d["eaten"]))
    if details:
        head = _("Hunting trap ({details})").format(details=", ".join(details))
    else:
        head = _("Hunting trap (no animals)")
    outcome = reader.outcome(d["scorers"], d["points"])
    return _("{what}: {outcome}; those animals are covered.").format(what=head, outcome=outcome)


def _feature_completed(d: dict[str, Any], reader: _Reader) -> str:
    details = [counted("tile", d["tiles"])]
    if d["feature"] == "forest":
        if d.get("mushrooms"):
            details.append(counted("mushrooms", d["mushrooms"]))
        head = _("A forest is completed ({details})").format(details=", ".join(details))
    else:
        details.append(counted("fish", d["fish"]))
        head = _("A river is completed ({details})").format(details=", ".join(details))
    return _scoring_line(head, reader.outcome(d["scorers"], d["points"]), len(d["returned"]))


def _bonus_earned(d: dict[str, Any], reader: _Reader) -> str:
    you = d["seat"] == reader.viewer
    if d["available"]:
        message = _("You earn a bonus tile.") if you else _("{player} earns a bonus tile.")
    else:
        message = (_("You would earn a bonus tile, but none is left.") if you else
                   _("{player} would earn a bonus tile, but none is left."))
    return message.format(player=reader.players[d["seat"]])


def _meadow_scored(d: dict[str, Any], reader: _Reader) -> str:
    details = [counted("deer", d["deer"])]
    if d["eaten"]:
        details.append(_.ngettext("{count} eaten by tigers", "{count} eaten by tigers", d["eaten"]).format(
            count=d["eaten"]))
    details += [counted("aurochs", d["aurochs"]), counted("mammoth", d["mammoth"])]
    if d["fire"]:
        details.append(_("fire keeps the tigers away"))
    if d.get("pit_trap"):
        details.append(_("pit trap +{points}").format(points=d["pit_trap"]))
    if d.get("shrine"):
        details.append(_("a hunter on the shrine"))
    head = _("Meadow at {x},{y} ({details})").format(x=d["x"], y=d["y"], details=", ".join(details))
    return _scoring_line(head, reader.outcome(d["scorers"], d["points"]))


def _river_system_scored(d: dict[str, Any], reader: _Reader) -> str:
    details = [counted("fish", d["fish"])]
    if d["raft"]:
        details.append(_.ngettext("+{count} for the raft", "+{count} for the raft", d["lakes"]).format(count=d["lakes"]))
    head = _("Huts on the river system at {x},{y} ({details})").format(x=d["x"], y=d["y"], details=", ".join(details))
    return _scoring_line(head, reader.outcome(d["scorers"], d["points"]))


def _player_left(d: dict[str, Any], reader: _Reader) -> str:
    if d["seat"] == reader.viewer:
        return _("You leave the game.")
    return _("{player} leaves the game.").format(player=reader.players[d["seat"]])


def _tile_passed(d: dict[str, Any], reader: _Reader) -> str:
    if d["seat"] == reader.viewer:
        message = _("The drawn tile, {tile}, passes to you.")
    else:
        message = _("The drawn tile, {tile}, passes to {player}.")
    return message.format(tile=tile_name(d["tile"]), player=reader.players[d["seat"]])


def _game_ended(d: dict[str, Any], reader: _Reader) -> str:
    winners = d["winners"]
    if d.get("reason") == "resigned":
        if winners == [reader.viewer]:
            return _("Everyone else has left: You win.")
        return _("Everyone else has left: {player} wins.").format(player=reader.group(winners))
    scores = ", ".join(f"{reader.players[seat]} {score}" for seat, score in enumerate(d["scores"]))
    if winners == [reader.viewer]:
        message = _("The game is over: {scores}. You win.")
    elif len(winners) == 1:
        message = _("The game is over: {scores}. {player} wins.")
    elif reader.viewer in winners:
        message = _.pgettext("a group with you", "The game is over: {scores}. {players} share the win.")
    else:
        message = _("The game is over: {scores}. {players} share the win.")
    return message.format(scores=scores, player=reader.group(winners), players=reader.group(winners))


_WORDING = {
    "tile_drawn": _tile_drawn,
    "tile_discarded": _tile_discarded,
    "tile_placed": _tile_placed,
    "piece_placed": _piece_placed,
    "piece_recalled": _piece_recalled,
    "logboat_scored": _logboat_scored,
    "hunting_trap_scored": _hunting_trap_scored,
    "feature_completed": _feature_completed,
    "bonus_earned": _bonus_earned,
    "meadow_scored": _meadow_scored,
    "river_system_scored": _river_system_scored,
    "player_left": _player_left,
    "tile_passed": _tile_passed,
    "game_ended": _game_ended,
}


# -- the result ---------------------------------------------------------------------------------------


def describe_result(result: dict[str, Any], players: list[str]) -> str:
    """Return who won and by how much, in the reader's language, from the stored result and the names.

    The scores are listed in the result's ranking (players who left the game last). A winner with fewer
    points than someone else won because the players ahead left the game (only players still in can win).
    """
    scores = result.get("scores", [])
    ranking = result.get("ranking") or list(range(len(scores)))
    table = ", ".join(f"{players[seat]} {scores[seat]}" for seat in ranking if seat < len(players))
    seats = [seat for seat in result.get("winners", []) if 0 <= seat < len(players) and seat < len(scores)]
    winners = [players[seat] for seat in seats]
    if not winners:
        return _("Nobody wins ({scores})").format(scores=table)
    if len(winners) == 1 and scores[seats[0]] < max(scores):
        return _("{player} wins: the players ahead left the game ({scores})").format(player=winners[0], scores=table)
    return _.ngettext("{players} wins with the most points ({scores})",
                      "{players} share the win with the most points ({scores})", len(winners)).format(
        players=list_of(winners), scores=table)
