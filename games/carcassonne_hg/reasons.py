"""Why a move of Carcassonne: Hunters and Gatherers is refused, in the reader's language (``IllegalMove`` reasons).

The engine decides; these functions only word its refusals, each as one whole sentence the
translators can reorder. Names of places come from ``terms`` (a region as the notation names it,
"meadow NE"), squares are written ``x,y`` in every language.
"""

from __future__ import annotations

from games.carcassonne_hg import terms
from games.i18n import catalog_of

_ = catalog_of(__name__)

EDGE_KINDS = {"F": "forest", "M": "meadow", "R": "river"}


def game_over() -> str:
    return _("The game is over")


def no_seat(seat) -> str:
    return _("There is no seat {seat}").format(seat=repr(seat))


def not_your_turn(player: str) -> str:
    return _("It is not your turn: it is {player}'s turn").format(player=player)


def already_left() -> str:
    return _("You have already left this game")


def no_take_back() -> str:
    return _("Every tile placed is followed by the next tile drawn face up, so no placement can be taken back.")


def players_not_names() -> str:
    return _("players must be a list of display names")


# -- moves as data ------------------------------------------------------------------------------------

EXAMPLE_MOVE = '{"x": 1, "y": 0, "rot": 90, "piece": "hunter", "region": "m2"}'


def not_a_whole_number(field: str, value) -> str:
    return _("{field} must be a whole number, not {value}").format(field=field, value=repr(value))


def not_an_object() -> str:
    return _("A move must be a JSON object such as {example}").format(example=EXAMPLE_MOVE)


def wrong_fields() -> str:
    return _("A move has x, y, rot and optionally piece + region and recall, such as {example}").format(
        example=EXAMPLE_MOVE)


def wrong_rotation(value) -> str:
    return _("rot must be 0, 90, 180 or 270 (clockwise degrees), not {value}").format(value=repr(value))


def piece_without_region() -> str:
    return _("A piece needs a region to stand on, and a region needs a piece")


def unknown_piece(pieces: tuple[str, ...], value) -> str:
    return _("piece must be one of {pieces}, not {value}").format(pieces=", ".join(pieces), value=repr(value))


def region_not_an_id(value) -> str:
    return _("region must be a region id of the tile such as 'm2', not {value}").format(value=repr(value))


def recall_not_a_square() -> str:
    return _("recall names the square of your tribe member: {example}").format(example='{"x": 0, "y": 1}')


# -- placement (§4.1) ---------------------------------------------------------------------------------


def square_taken(square: str) -> str:
    return _("There is already a tile on {square}").format(square=square)


def square_alone(square: str) -> str:
    return _("{square} does not touch any tile (diagonal contact is not enough)").format(square=square)


def edge_mismatch(direction: str, have: str, wanted: str, neighbour: str) -> str:
    """Say that the tile's ``direction`` edge (``F``/``M``/``R``) would meet another kind on ``neighbour``."""
    message = {
        "N": lambda: _("The north edge would be {have} against {wanted} on {square}"),
        "E": lambda: _("The east edge would be {have} against {wanted} on {square}"),
        "S": lambda: _("The south edge would be {have} against {wanted} on {square}"),
        "W": lambda: _("The west edge would be {have} against {wanted} on {square}"),
    }[direction]()
    return message.format(have=terms.feature(EDGE_KINDS[have]), wanted=terms.feature(EDGE_KINDS[wanted]),
                          square=neighbour)


# -- pieces (§4.2) and the shaman (§4.5) --------------------------------------------------------------


def no_such_region(tile_id: str, region_id: str) -> str:
    return _("The tile {tile} has no region {region}").format(tile=tile_id, region=repr(region_id))


def wrong_feature(piece: str, where: str) -> str:
    """Say that ``piece`` cannot stand on the region named ``where`` (its notation name, "meadow NE")."""
    message = {
        "gatherer": lambda: _("A gatherer goes on a forest, not on the {where}"),
        "fisherman": lambda: _("A fisherman goes on a river, not on the {where}"),
        "hunter": lambda: _("A hunter goes on a meadow, not on the {where}"),
        "hut": lambda: _("A hut goes on a lake or river, not on the {where}"),
    }[piece]()
    return message.format(where=terms.region_label(where))


def hut_on_river_into_lake(lake: str) -> str:
    return _("That river flows into the {lake} on this tile: put the hut on the lake").format(
        lake=terms.region_label(lake))


def no_huts_left() -> str:
    return _("You have no huts left")


def hut_taken(where: str) -> str:
    return _("The river system of the {where} already has a hut").format(where=terms.region_label(where))


def no_members_left() -> str:
    return _("You have no tribe members left in your supply")


def member_taken(kind: str, where: str) -> str:
    """Say that the forest, river or meadow the region ``where`` belongs to already holds a tribe member."""
    message = {
        "forest": lambda: _("The forest that the {where} belongs to already holds a tribe member"),
        "river": lambda: _("The river that the {where} belongs to already holds a tribe member"),
        "meadow": lambda: _("The meadow that the {where} belongs to already holds a tribe member"),
    }[kind]()
    return message.format(where=terms.region_label(where))


def not_a_shaman_tile() -> str:
    return _("Only the shaman tile lets you call a tribe member back")


def nothing_to_recall(square: str) -> str:
    return _("You have no tribe member on {square} to call back (huts never come back)").format(square=square)
