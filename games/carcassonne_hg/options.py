"""The table options of Carcassonne: Hunters and Gatherers and their validation (rules file §11).

Every §11 flag is an option whose default is the rules file's "bga" column (revised) or "classic"
column (classic). Labels, choices and help are English marked for the catalog (``N_``): the
platform words them through ``Engine.worded_option_specs``. ``validate_options`` words its refusals
in the reader's language.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.base import InvalidOptions, OptionSpec
from games.carcassonne_hg import tiles
from games.carcassonne_hg.tiles import BONUS, CLASSIC, LAND, REVISED
from games.i18n import catalog_of
from games.option_checks import first_player, options_object

_ = catalog_of(__name__)
N_ = _.noop

# The game's name in English (the record's), worded for the reader with ``_(NAME)``.
NAME = N_("Carcassonne: Hunters and Gatherers")

EDITION_DEFAULT = "edition"
END_TURN, REDRAW = "end_turn", "redraw"
UNPLACEABLE_DEFAULT = {REVISED: END_TURN, CLASSIC: REDRAW}
PARTS_DEFAULT = {REVISED: True, CLASSIC: False}
RIVER_AND_LAKES, LAKES_ONLY = "river_and_lakes", "lakes_only"
PLACER, HUNTERS = "placer", "hunters"

INTERNAL_OPTIONS = ("tiles", "bonus_tiles", "first_player")

OPTION_SPECS = (
    OptionSpec(
        name="edition",
        label=N_("Edition"),
        choices=(
            (REVISED, N_("Revised (2020, as on Board Game Arena)")),
            (CLASSIC, N_("Classic (2002 rules, reconstructed tile set)")),
        ),
        default=REVISED,
        help=N_("The classic edition plays the 2002 rules on an approximate tile set (no source lists the 2002 tiles)."),
    ),
    OptionSpec(
        name="menhir_needs_occupied_forest",
        label=N_("Menhir bonus needs a tribe member in the forest (revised)"),
        choices=(
            (True, N_("Yes: the closed menhir forest must hold a gatherer (Board Game Arena)")),
            (False, N_("No: closing any menhir forest gives the bonus tile (course reading)")),
        ),
        default=True,
        help=N_("Whether a closed forest with a menhir gives a bonus tile only when a gatherer stands in it."),
        advanced=True,
    ),
    OptionSpec(
        name="unplaceable_tile",
        label=N_("A drawn tile that fits nowhere"),
        choices=(
            (EDITION_DEFAULT, N_("As the edition says (revised: the turn ends; classic: draw again)")),
            (END_TURN, N_("It leaves the game and the turn ends (Board Game Arena)")),
            (REDRAW, N_("It leaves the game and the same player draws again")),
        ),
        default=EDITION_DEFAULT,
        help=N_("What happens to a land tile that cannot be placed anywhere."),
        advanced=True,
    ),
    OptionSpec(
        name="hunting_trap_scorer",
        label=N_("Who scores the hunting trap (revised)"),
        choices=(
            (PLACER, N_("The player who places it (rules file)")),
            (HUNTERS, N_("The hunter majority of its meadow")),
        ),
        default=PLACER,
        help=N_("Who scores the animals next to the hunting trap when it is placed."),
        advanced=True,
    ),
    OptionSpec(
        name="fire_affects_hunting_trap",
        label=N_("Wildfire protects deer from tigers at the hunting trap (revised)"),
        choices=((False, N_("No: fire acts only at final scoring (rules file)")), (True, N_("Yes"))),
        default=False,
        help=N_("Whether tigers skip the deer in the hunting trap's scoring when the wildfire is in that meadow."),
        advanced=True,
    ),
    OptionSpec(
        name="wildfire_tile_tiger_counts",
        label=N_("The tiger drawn on the wildfire tile counts (revised)"),
        choices=((False, N_("No: it is only a picture (rules file)")), (True, N_("Yes: it is a tiger of that meadow"))),
        default=False,
        help=N_("Whether the fleeing tiger drawn on the wildfire tile is an animal of its meadow."),
        advanced=True,
    ),
    OptionSpec(
        name="shrine_requires_free_meadow",
        label=N_("A hunter reaches the shrine only on a free meadow (classic)"),
        choices=((True, N_("Yes: normal deployment rules (rules file)")), (False, N_("No: even if the meadow is taken"))),
        default=True,
        help=N_("Whether a hunter may stand on the shrine tile when its meadow already holds a tribe member."),
        advanced=True,
    ),
    OptionSpec(
        name="river_fish_for_fishermen",
        label=N_("Fish a completed river scores (revised)"),
        choices=(
            (RIVER_AND_LAKES, N_("Fish in the river and in its end lakes (rules file)")),
            (LAKES_ONLY, N_("Fish in its end lakes only")),
        ),
        default=RIVER_AND_LAKES,
        help=N_("Which fish the fishermen of a completed river count."),
        advanced=True,
    ),
    OptionSpec(
        name="forest_parts_count_separately",
        label=N_("Separate forest parts on one tile score separately"),
        choices=(
            (EDITION_DEFAULT, N_("As the edition says (revised: yes, as Board Game Arena; classic: no)")),
            (True, N_("Yes: 2 points per forest part")),
            (False, N_("No: 2 points per tile")),
        ),
        default=EDITION_DEFAULT,
        help=N_("Whether a forest counts its parts or its tiles when it is completed."),
        advanced=True,
    ),
)
DEFAULTS = {spec.name: spec.default for spec in OPTION_SPECS}
CHOICES = {spec.name: tuple(value for value, _ in spec.choices) for spec in OPTION_SPECS}


def validate_options(players: int, options: dict[str, Any] | None) -> dict[str, Any]:
    """Return the complete options (edition defaults resolved) or raise ``InvalidOptions``."""
    options = options_object(options)
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 5:
        raise InvalidOptions(_("{game} is for 2 to 5 players, not {players}").format(game=_(NAME), players=players))
    unknown = sorted(str(key) for key in options if key not in DEFAULTS and key not in INTERNAL_OPTIONS)
    if unknown:
        raise InvalidOptions(_.ngettext("Unknown option for {game}: {names}", "Unknown options for {game}: {names}",
                                        len(unknown)).format(game=_(NAME), names=", ".join(unknown)))
    result = dict(DEFAULTS)
    for key, value in options.items():
        if key not in DEFAULTS:
            continue
        if key == "unplaceable_tile" and value == "discard_and_redraw":
            value = REDRAW  # the rules file's name for the same effect (the tile leaves the game)
        if not any(value == choice and type(value) is type(choice) for choice in CHOICES[key]):
            allowed = ", ".join(repr(choice) for choice in CHOICES[key])
            raise InvalidOptions(_("{option} must be one of {allowed}, not {value}").format(
                option=key, allowed=allowed, value=repr(value)))
        result[key] = value
    edition = result["edition"]
    if result["unplaceable_tile"] == EDITION_DEFAULT:
        result["unplaceable_tile"] = UNPLACEABLE_DEFAULT[edition]
    if result["forest_parts_count_separately"] == EDITION_DEFAULT:
        result["forest_parts_count_separately"] = PARTS_DEFAULT[edition]
    if options.get("tiles") is not None:
        result["tiles"] = _validated_stack(edition, options["tiles"], LAND, "tiles")
        if not result["tiles"]:
            raise InvalidOptions(_("tiles must list at least one land tile"))
    if options.get("bonus_tiles") is not None:
        result["bonus_tiles"] = _validated_stack(edition, options["bonus_tiles"], BONUS, "bonus_tiles")
    if (first := first_player(options, players)) is not None:
        result["first_player"] = first
    return result


# Why a tile id may not stand in a scripted stack: (its deck, the stack's deck) -> the reason.
WRONG_DECK = {
    (tiles.START, LAND): N_("{tile} is the start tile, not a land tile"),
    (BONUS, LAND): N_("{tile} is the bonus tile, not a land tile"),
    (tiles.START, BONUS): N_("{tile} is the start tile, not a bonus tile"),
    (LAND, BONUS): N_("{tile} is the land tile, not a bonus tile"),
}
NOT_IN_EDITION = {REVISED: N_("{tile} is not a revised tile"), CLASSIC: N_("{tile} is not a classic tile")}
TOO_OFTEN = {
    REVISED: N_("{option} uses tiles more often than the revised set has them: {detail}"),
    CLASSIC: N_("{option} uses tiles more often than the classic set has them: {detail}"),
}


def _validated_stack(edition: str, ids: Any, deck: str, key: str) -> list[str]:
    """Return a scripted draw order (top first), or raise ``InvalidOptions``.

    It may be any part of the edition's ``deck``: each tile id at most as
    often as the catalogue has it; the game then uses only those tiles.
    """
    if not isinstance(ids, list) or not all(isinstance(tile_id, str) for tile_id in ids):
        raise InvalidOptions(_("{option} must be a list of tile ids in draw order").format(option=key))
    available = Counter(tiles.deck(edition, deck))
    wrong = [tile_id for tile_id in ids if tile_id not in available]
    if wrong:
        known = tiles.catalogue(edition)
        reasons = [
            _(WRONG_DECK[known[t][0].deck, deck] if t in known else NOT_IN_EDITION[edition]).format(tile=t)
            for t in dict.fromkeys(wrong)
        ]
        raise InvalidOptions(_("{option}: {reasons}").format(option=key, reasons="; ".join(reasons)))
    too_many = {t: n for t, n in Counter(ids).items() if n > available[t]}
    if too_many:
        detail = ", ".join(_("{tile} ×{count} (the set has {available})").format(tile=t, count=n, available=available[t])
                           for t, n in sorted(too_many.items()))
        raise InvalidOptions(_(TOO_OFTEN[edition]).format(option=key, detail=detail))
    return list(ids)
