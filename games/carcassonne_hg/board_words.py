"""Every word the web board of Carcassonne: Hunters and Gatherers shows, in the reader's language (``board_data``).

The board template (``turnbased/web/templates/games/carcassonne-hg/board.html``) and its script
(``static/js/carcassonne-board.js``) hold no words of their own: the template prints ``words`` (the
labels, the same for every position of a language, built once per language and kept) and ``text``
(the sentences about this position: the line without the script, the drawn tile, the seats'
supplies, the final scoring, the held features, the stacks revealed after the end); the script reads
``script`` from the page (``cb-words``): its titles, prompts and messages as templates with
``{placeholders}``, and how many places fit the drawn tile in each rotation, already counted.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from games.base import Event
from games.carcassonne_hg import history, terms, tiles
from games.carcassonne_hg.terms import capfirst, counted, tile_name
from games.i18n import catalog_of, current_language

_ = catalog_of(__name__)

REVISED_POWERS = ("shaman", "logboat", "raft", "hunting_trap", "pit_trap", "wildfire")


@cache
def _words(language: str) -> dict[str, Any]:
    """Return the board's labels in ``language`` (the one current when called)."""
    animals = terms.names("animal")
    icons = terms.names("icon")
    powers = terms.names("power")
    letters = terms.names("power_letter")
    pieces = terms.names("piece")
    return {
        "board_view": _("Board view"),
        "zoom_in": _("Zoom in"),
        "zoom_out": _("Zoom out"),
        "fit": _("Fit"),
        "fit_title": _("Show the whole board"),
        "latest": _("Latest tile"),
        "latest_title": _("Centre on the latest tile"),
        "tip": _("Drag to move the board, wheel or +/− to zoom."),
        "anticlockwise": _("Turn anticlockwise"),
        "anticlockwise_label": _("Turn the tile anticlockwise"),
        "clockwise": _("Turn clockwise"),
        "clockwise_label": _("Turn the tile clockwise"),
        "deploy": _("Deploy a piece?"),
        "deploy_label": _("Piece to deploy"),
        "confirm": _("Confirm move"),
        "cancel": _("Cancel"),
        "you": _("(you)"),
        "to_play": _("to play"),
        "gone": _("left the game"),
        "points": _("points"),
        "final": _("Final scoring"),
        "player": _("Player"),
        "in_play": _("In play"),
        "in_play_title": _("completed forests and rivers, logboat and hunting trap"),
        "meadows": _("Meadows"),
        "river_systems": _("River systems"),
        "total": _("Total"),
        "features": _("Features held"),
        "features_over": _("Pieces left on the board"),
        "feature": _("Feature"),
        "tiles": _("Tiles"),
        "held_by": _("Held by"),
        "worth": _("Worth"),
        "worth_title": _("what it would score now"),
        "no_pieces": _("No piece stands on the board."),
        "revealed": _("Revealed after the game:"),
        "none_left": _("none left"),
        "legend": _("Legend"),
        "animals": [[animal, animals[animal]] for animal in ("deer", "aurochs", "mammoth", "tiger")],
        "fish": animals["fish"],
        "menhir": _("menhir (bonus tile)"),
        "nugget": icons["nugget"],
        "mushrooms": icons["mushrooms"],
        # The powers of each edition (rules file §4.5, §7): only the revised edition has a hunting trap.
        "letters_revised": _("Letters in gold discs: {letters}. A cross marks animals covered by the hunting trap.")
        .format(letters=", ".join(f"{letters[power]} {powers[power]}" for power in REVISED_POWERS)),
        "letters_classic": _("Letters in gold discs: {letters}.").format(
            letters=", ".join(f"{letters[power]} {powers[power]}" for power in ("fire", "shrine"))),
        "pieces": _("Pieces, in their players' colours: a figure is a tribe member, told by what it carries; a house "
                    "is a hut. The latest tile has a frame in its player's colour."),
        "piece_names": {kind: pieces[kind] for kind in ("hunter", "fisherman", "gatherer", "hut")},
        "hint_play": _("Turn the tile with the arrows, then click a lit square to place it."),
        "hint_over": _("The game is over."),
        "hint_waiting": _("Waiting for the other players."),
        "hint_buttons": _("Choose your move with the buttons below."),
        "kinds": {kind: capfirst(terms.feature(kind)) for kind in ("forest", "river", "meadow", "river_system")},
    }


@cache
def _tile_names(language: str, edition: str) -> dict[str, Any]:
    """Return every tile's name in ``language`` as ``{"names": [name...], "of": {tile id: index}}``.

    The placed tiles are named on the board by the script (each is an image with its name, its place and
    its pieces for a screen reader); the tiles share some fifty names, so each is written once, and the
    whole edition is sent whatever the position: the page does not grow with the board.
    """
    names: list[str] = []
    of: dict[str, int] = {}
    for tile_id in sorted(tiles.catalogue(edition)):
        name = tile_name(tile_id, edition)
        if name not in names:
            names.append(name)
        of[tile_id] = names.index(name)
    return {"names": names, "of": of}


@cache
def _script(language: str) -> dict[str, Any]:
    """Return the board script's words in ``language``: templates it fills with ``{placeholders}``."""
    return {
        "tile_start": _("{tile} on {x},{y} turned {rot}° (start tile)"),
        "tile_by": _("{tile} on {x},{y} turned {rot}° by {player}"),
        "piece": {
            "gatherer": _("{player}'s gatherer on {x},{y}"),
            "fisherman": _("{player}'s fisherman on {x},{y}"),
            "hunter": _("{player}'s hunter on {x},{y}"),
            "hut": _("{player}'s hut on {x},{y}"),
        },
        "pieces_here": _("{tile}; on it: {pieces}"),
        "latest": _("the latest tile"),
        "power_letters": dict(terms.names("power_letter")),
        "powers": dict(terms.names("power")),
        "covered": _("Animals covered by the hunting trap"),
        "spot": _("place the tile on {x},{y} turned {rot}°"),
        "turned": _("turned {rot}°"),
        "click": _("Click a lit square to place the tile turned {rot}° (the arrows turn it)."),
        "nowhere": _("The tile fits nowhere turned {rot}°: turn it with the arrows."),
        "no_piece": _("No piece"),
        "where": _("Tile on {x},{y} turned {rot}°. Pick a piece on the board or below, then confirm."),
        "choose": _("Choose where a piece goes (or no piece), then press Confirm move."),
        "will_play": _("You will play: {move}"),
        "sending": _("Sending your move…"),
    }


def words() -> dict[str, Any]:
    """Return the board's labels in the reader's language (shared: read only)."""
    return _words(current_language())


def script_words(moves: list[dict[str, Any]], edition: str) -> dict[str, Any]:
    """Return the script's words, with how many places fit the drawn tile in each rotation (``fits``) and the
    names of the edition's tiles (``tiles``, see ``_tile_names``)."""
    counts = {rot: 0 for rot in (0, 90, 180, 270)}
    for entry in moves:
        move = entry["move"]
        if "piece" not in move and "recall" not in move:
            counts[move["rot"]] += 1
    fits = {rot: _.ngettext("{count} place fits", "{count} places fit", n).format(count=n) for rot, n in counts.items()}
    return {**_script(current_language()), "fits": fits, "tiles": _tile_names(current_language(), edition)}


def _detail(feature: dict[str, Any]) -> str:
    """Say what a held feature holds: its menhirs and mushrooms, fish, animals, or fish and lakes."""
    kind = feature["kind"]
    if kind == "forest":
        parts = [counted("menhir", feature["menhirs"])] if feature["menhirs"] else []
        parts += [terms.names("icon")["mushrooms"]] if feature["mushrooms"] else []
    elif kind == "river":
        parts = [counted("fish", feature["fish"])]
    elif kind == "meadow":
        parts = [counted(animal, feature[animal]) for animal in ("deer", "aurochs", "mammoth")]
        parts += [counted("tiger", feature["tiger"])] if feature["tiger"] else []
    else:
        parts = [counted("fish", feature["fish"]), counted("lake", feature["lakes"])]
    return " · ".join(parts)


def text(view: dict[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the sentences about this position (see the module docstring), in the reader's language."""
    names = [seat["name"] for seat in view["seats"]]
    count = len(view["board"])
    x, y, tile_id, _rot, by = view["board"][-1]
    latest = tile_name(tile_id, view["edition"])
    if by is None:
        summary = _.ngettext("{count} tile on the board: {tile} on {x},{y}.",
                             "{count} tiles on the board: {tile} on {x},{y}.", count)
    else:
        summary = _.ngettext("{count} tile on the board; the latest: {tile} on {x},{y}, placed by {player}.",
                             "{count} tiles on the board; the latest: {tile} on {x},{y}, placed by {player}.", count)
    found: dict[str, Any] = {
        "summary": summary.format(count=count, tile=latest, x=x, y=y, player=None if by is None else names[by]),
        "board_label": _.ngettext("Board: {count} tile, x grows east, y north",
                                  "Board: {count} tiles, x grows east, y north", count).format(count=count),
        "seats": [
            {**seat, "supply": f"{counted('member', seat['members'])} · {counted('hut', seat['huts'])}"}
            for seat in view["seats"]
        ],
        "features": [
            {**feature, "kind_name": words()["kinds"][feature["kind"]], "detail": _detail(feature),
             "holders": [{**holder, "name": names[holder["seat"]]} for holder in feature["holders"]]}
            for feature in view["features"]
        ],
    }
    if view["phase"] == "over":
        found["hint"] = words()["hint_over"]
    elif moves:
        found["hint"] = words()["hint_play"]
    else:
        found["hint"] = words()["hint_waiting"] if view["you"] is not None else ""
    if view["phase"] != "over" and view.get("tile"):
        found["drawn"] = _("Bonus tile to place") if view["bonus_turn"] else _("Tile to place")
        if view["current"] is not None:
            found["drawn_by"] = _("by {player}").format(player=names[view["current"]])
        found["drawn_label"] = _("The tile to place: {tile}").format(tile=tile_name(view["tile"], view["edition"]))
        found["turned"] = _script(current_language())["turned"].format(rot=0)
        found["left"] = _("Left: {land}, {bonus}").format(land=counted("land tile", view["stack_count"]),
                                                          bonus=counted("bonus tile", view["bonus_stack_count"]))
    if view.get("final"):
        found["final"] = [
            {"text": history.describe_event(Event(entry["feature"] + "_scored", entry), names, view["you"]),
             "scorers": entry["scorers"]}
            for entry in view["final"]
        ]
    if view.get("revealed"):
        found["revealed"] = _revealed(view)
    return found


def _revealed(view: dict[str, Any]) -> dict[str, Any]:
    """Word the stacks the replay shows after the end (``view_after_end``): each tile's name, in drawing order."""
    land, bonus = view["revealed"]["stack"], view["revealed"]["bonus_stack"]
    return {
        "summary": _("the stacks in drawing order, next first ({land}, {bonus})").format(
            land=counted("land tile", len(land)), bonus=counted("bonus tile", len(bonus))),
        "land": _("Land tiles ({count}):").format(count=len(land)),
        "bonus": _("Bonus tiles ({count}):").format(count=len(bonus)),
        "stack": [{"tile": entry["tile"], "name": tile_name(entry["tile"], view["edition"])} for entry in land],
        "bonus_stack": [{"tile": entry["tile"], "name": tile_name(entry["tile"], view["edition"])} for entry in bonus],
    }

