"""Halali! table options (rules file §10.1, §10.2, §10.4, §10.11) and the scripted layouts tests and bug reports use.

The labels are English marked for the game's catalog (``N_``): ``Engine.worded_option_specs``
words them for the reader. Every ``InvalidOptions`` reason is worded in the reader's language.

Engine version 2 added ``lock_on_move``; it plays exactly as version 1 when the option keeps its
default. A game pinned to version 1 stored its complete options without it, so the options of an
engine version are the specs that version had (``specs_at``): version 1 still fills in, and accepts,
only its own four, and a record of it verifies as it always did.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.base import InvalidOptions, OptionSpec
from games.halali import board, tiles
from games.halali.board import name
from games.i18n import catalog_of
from games.option_checks import options_object

_ = catalog_of(__name__)
N_ = _.noop

LEGS = 2  # a match is two legs with the roles swapped (§9)
INTERNAL_OPTIONS = ("layout", "first_blue")
VERSION = 2  # the engine's newest version (see the module docstring)
SINCE = {"lock_on_move": 2}  # the engine version that added an option; the others are version 1's

OPTION_SPECS = (
    OptionSpec(
        name="lock_on_move",
        label=N_("Green lock after a move"),
        choices=(
            (True, N_("Yes: a duck or pheasant just moved is locked too (printed Kosmos rules)")),
            (False, N_("No: only a duck or pheasant just turned over is locked (Yucata rules text)")),
        ),
        default=True,
        help=N_(
            "Whether a duck or pheasant your opponent just moved is locked for your next turn, "
            "as one they just turned over always is."
        ),
        advanced=True,
    ),
    OptionSpec(
        name="no_return_neutral",
        label=N_("Back-and-forth ban for ducks and pheasants"),
        choices=(
            (False, N_("No: the ban covers only your own-coloured tiles (rules file)")),
            (True, N_("Yes: also a duck or pheasant you moved on your previous turn")),
        ),
        default=False,
        help=N_("Whether the no-return rule also stops a duck or pheasant you just moved from going straight back."),
        advanced=True,
    ),
    OptionSpec(
        name="no_return_capture",
        label=N_("Back-and-forth ban applies to captures"),
        choices=(
            (True, N_("Yes: a tile may not go straight back even to capture (rules file)")),
            (False, N_("No: going straight back is allowed when it captures")),
        ),
        default=True,
        help=N_("Whether the no-return rule still applies when the square left last turn now holds prey."),
        advanced=True,
    ),
    OptionSpec(
        name="stall_limit",
        label=N_("Flip-forcing safety valve (not part of the rules)"),
        choices=(
            (0, N_("Off (official rules)")),
            (20, N_("After 20 quiet turns")),
            (50, N_("After 50 quiet turns")),
        ),
        default=0,
        help=N_(
            "After this many turns in a row without a flip, capture or exit, the player to move must turn a tile over."
        ),
        advanced=True,
    ),
    OptionSpec(
        name="exits_anytime",
        label=N_("House rule: exits open all game"),
        choices=(
            (False, N_("No: exits only in the final phase (rules file)")),
            (True, N_("Yes (unofficial house rule)")),
        ),
        default=False,
        help=N_("Let bears, foxes, hunters and lumberjacks leave through the exits before the last tile is turned over."),
        advanced=True,
    ),
)
DEFAULTS = {spec.name: spec.default for spec in OPTION_SPECS}
BOOLEANS = ("lock_on_move", "no_return_neutral", "no_return_capture", "exits_anytime")


def specs_at(version: int) -> tuple[OptionSpec, ...]:
    """Return the table options engine version ``version`` has, in the order the newest lists them."""
    return tuple(spec for spec in OPTION_SPECS if SINCE.get(spec.name, 1) <= version)


def locks_on_move(options: dict[str, Any]) -> bool:
    """Tell whether moving a duck or pheasant locks it (§10.1); version 1's stored options have no such key."""
    return options.get("lock_on_move", True)


def validate_options(players: int, options: dict[str, Any] | None, version: int = VERSION) -> dict[str, Any]:
    """Return the complete options of engine version ``version`` or raise ``InvalidOptions``."""
    options = options_object(options)
    if isinstance(players, bool) or players != 2:
        raise InvalidOptions(_("Halali! is for exactly 2 players, not {players}").format(players=players))
    defaults = {spec.name: spec.default for spec in specs_at(version)}
    known = set(defaults) | set(INTERNAL_OPTIONS)
    unknown = sorted(str(key) for key in options if key not in known)
    if unknown:
        raise InvalidOptions(
            _.ngettext("Unknown option for Halali!: {names}", "Unknown options for Halali!: {names}", len(unknown)).format(names=", ".join(unknown))
        )
    result = defaults
    for key in BOOLEANS:
        if key in options:
            if not isinstance(options[key], bool):
                raise InvalidOptions(_("{option} must be true or false").format(option=key))
            result[key] = options[key]
    if "stall_limit" in options:
        limit = options["stall_limit"]
        if isinstance(limit, bool) or not isinstance(limit, int) or not 0 <= limit <= 1000:
            raise InvalidOptions(_("stall_limit must be a whole number of turns from 0 (off) to 1000"))
        result["stall_limit"] = limit
    if options.get("layout") is not None:
        result["layout"] = _validated_layouts(options["layout"])
    if options.get("first_blue") is not None:
        first = options["first_blue"]
        if isinstance(first, bool) or first not in (0, 1):
            raise InvalidOptions(_("first_blue must be the seat (0 or 1) that plays Blue in leg 1"))
        result["first_blue"] = first
    return result


def _validated_layouts(layout: Any) -> list[list[str]]:
    """Return scripted layouts as per-leg lists of 48 specs in square order, or raise ``InvalidOptions``.

    One layout is a list of 48 tile specs in reading order (a7..g7, a6..g6, ...,
    a1..g1, skipping d4) or a mapping of those 48 squares to specs. A list of one
    or two layouts scripts the legs in turn.
    """
    if isinstance(layout, dict) or (isinstance(layout, list) and len(layout) == len(board.START_SQUARES)):
        legs = [layout]
    elif isinstance(layout, list) and 1 <= len(layout) <= LEGS and all(isinstance(x, (list, dict)) for x in layout):
        legs = layout
    else:
        raise InvalidOptions(
            _(
                "layout must be 48 tile specs in square order (a7..g1 without d4), a mapping square -> spec, "
                "or a list of one such layout per leg"
            )
        )
    return [_validated_layout(number, one) for number, one in enumerate(legs, start=1)]


def _validated_layout(leg: int, layout: list | dict) -> list[str]:
    """Return one leg's layout as 48 canonical specs in square order, or raise ``InvalidOptions``."""
    if isinstance(layout, dict):
        squares = {str(key).lower() for key in layout}
        wanted = {name(i) for i in board.START_SQUARES}
        if squares != wanted or len(layout) != len(wanted):
            missing, extra = sorted(wanted - squares), sorted(squares - wanted)
            raise InvalidOptions(
                _("layout for leg {leg} must name every square but d4 once (missing {missing}, extra {extra})").format(
                    leg=leg, missing=missing, extra=extra
                )
            )
        by_square = {str(key).lower(): value for key, value in layout.items()}
        layout = [by_square[name(i)] for i in board.START_SQUARES]
    if len(layout) != len(board.START_SQUARES):
        raise InvalidOptions(
            _("layout for leg {leg} must hold exactly 48 tiles, not {count}").format(leg=leg, count=len(layout))
        )
    cells = []
    for position, text in zip(board.START_SQUARES, layout):
        try:
            cells.append(tiles.parse_spec(text))
        except ValueError as error:
            raise InvalidOptions(
                _("layout for leg {leg}, square {square}: {reason}").format(leg=leg, square=name(position), reason=error)
            ) from None
    counted, wanted_kinds = Counter(cell["kind"] for cell in cells), Counter(tiles.full_set())
    if counted != wanted_kinds:
        missing, extra = wanted_kinds - counted, counted - wanted_kinds
        raise InvalidOptions(
            _("layout for leg {leg} must be exactly the 48 tiles of the game (missing {missing}, extra {extra})").format(
                leg=leg, missing=dict(sorted(missing.items())), extra=dict(sorted(extra.items()))
            )
        )
    return [tiles.spec(cell) for cell in cells]
