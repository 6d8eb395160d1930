"""Savernake Forest's table options and their checking (rules file §8, §11, §14, Q9, Q23, Q29; the README's options
table).

``OPTION_SPECS`` are the options a player chooses (labels in English, marked for the catalog and
worded by the platform through ``Engine.worded_option_specs``); ``deck`` and ``first_player`` are
engine-internal (tests and bug reports script a deal with them). Every reason is worded in the
reader's language.

Engine version 2 made the original Hungarian text's readings the defaults (shared paths settled at
final scoring, equal totals sharing the win). A game keeps the version it started with, so version
1's options are kept apart (``specs_at``): its default is the immediate choice, and it never had
the tie-break or the two-exit den as options. A version-1 state therefore lacks those two keys, and
``reading`` gives the rules version 1 played without naming them (``VERSION_1_READINGS``): its
states stay exactly as that version wrote them, and the same code plays both versions.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.base import InvalidOptions, OptionSpec
from games.i18n import catalog_of
from games.option_checks import first_player, options_object
from games.savernake_forest import cards

_ = catalog_of(__name__)
N_ = _.noop

VERSION = 2  # the engine's newest version (``SavernakeForestEngine.version``)

IMMEDIATE = "immediate"
END_OF_GAME = "end_of_game"
DISCARD = "discard"
PERSISTENT = "persistent"
SHARED_WIN = "shared"
STORED_FOOD = "stored_food"
ONE_PATH = "one_path"
PATH_PER_EXIT = "path_per_exit"
INTERNAL_OPTIONS = ("deck", "first_player")

OPTION_SPECS = (
    OptionSpec(
        name="shared_path_resolution",
        label=N_("When two animals share a path"),
        choices=(
            (END_OF_GAME, N_("At final scoring, as the original text says: the best animal of each shared path is "
                             "kept")),
            (IMMEDIATE, N_("At once (variant): the mover keeps one and turns the others face down")),
        ),
        default=END_OF_GAME,
        help=N_("When the one-animal-per-path rule is enforced (rules file §8.2, Q9)."),
        advanced=True,
    ),
    OptionSpec(
        name="tie_break",
        label=N_("Equal totals"),
        choices=(
            (SHARED_WIN, N_("Share the win, as the original text says")),
            (STORED_FOOD, N_("Most stored food items wins (variant), then a shared win")),
        ),
        default=SHARED_WIN,
        help=N_("What decides between players with the same total (rules file §11, Q23)."),
        advanced=True,
    ),
    OptionSpec(
        name="two_exit_den",
        label=N_("An animal with two exits"),
        choices=(
            (ONE_PATH, N_("One path through the animal: it joins its two exits")),
            (PATH_PER_EXIT, N_("A path per exit (variant): the one-animal rule holds for each exit's path")),
        ),
        default=ONE_PATH,
        help=N_("How many paths run through an animal card with two exits (rules file §8.3, Q29)."),
        advanced=True,
    ),
    OptionSpec(
        name="two_player_market",
        label=N_("Two-player market (variant)"),
        choices=(
            (DISCARD, N_("Normal: leftover cards are discarded each round")),
            (PERSISTENT, N_("Persistent (our variant, 2 players only): leftovers stay, only empty slots refill")),
        ),
        default=DISCARD,
        help=N_("The 2-player variant of rules file §14; the box's own advanced 2-player rules are unknown."),
        advanced=True,
    ),
)
# Version 1: the immediate choice by default, and no tie-break or two-exit den to choose.
_VERSION_1_SPECS = (
    replace(OPTION_SPECS[0], default=IMMEDIATE),
    next(spec for spec in OPTION_SPECS if spec.name == "two_player_market"),
)
# What version 1 played without an option to say so: the stored-food tie-break, a den joining its exits.
VERSION_1_READINGS = {"tie_break": STORED_FOOD, "two_exit_den": ONE_PATH}


def reading(options: dict[str, Any], name: str) -> Any:
    """Return the rule ``name`` (``tie_break``, ``two_exit_den``) a game's options ask for; a version-1 game,
    which had no such option, plays what version 1 did."""
    return options.get(name, VERSION_1_READINGS[name])


def per_exit(options: dict[str, Any]) -> bool:
    """Tell whether a game's dens with two exits have a path per exit (§8.3), not one path through the den."""
    return reading(options, "two_exit_den") == PATH_PER_EXIT


def specs_at(version: int) -> tuple[OptionSpec, ...]:
    """Return the options a table of engine ``version`` has, with that version's defaults."""
    return _VERSION_1_SPECS if version == 1 else OPTION_SPECS


def validate_options(players: int, options: dict[str, Any] | None, version: int = VERSION) -> dict[str, Any]:
    """Return the complete options of engine ``version`` for ``players`` seats or raise ``InvalidOptions``."""
    options = options_object(options)
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise InvalidOptions(_("Savernake Forest is for 2 to 4 players, not {players}").format(players=players))
    specs = specs_at(version)
    known = {spec.name for spec in specs} | set(INTERNAL_OPTIONS)
    unknown = sorted(str(key) for key in options if key not in known)
    if unknown:
        raise InvalidOptions(_("Unknown option(s) for Savernake Forest: {names}").format(names=", ".join(unknown)))
    result = {spec.name: spec.default for spec in specs}
    for spec in specs:
        if spec.name in options:
            allowed = [value for value, _label in spec.choices]
            if options[spec.name] not in allowed:
                raise InvalidOptions(_("{name} must be one of {choices}").format(
                    name=spec.name, choices=", ".join(map(repr, allowed))))
            result[spec.name] = options[spec.name]
    if result["two_player_market"] == PERSISTENT and players != 2:
        raise InvalidOptions(_("The persistent market is a 2-player variant, not for {players} players").format(
            players=players))
    if options.get("deck") is not None:
        result["deck"] = _validated_deck(options["deck"])
    if (first := first_player(options, players)) is not None:
        result["first_player"] = first
    return result


def _validated_deck(deck: Any) -> dict[str, list[str]]:
    """Return both full deck orders from a scripted ``{"paths": [...], "animals": [...]}``.

    Each list gives the top of that deck, top card first; the unnamed cards
    follow in catalogue order. Raise ``InvalidOptions`` for anything that is
    not a card of that deck, or a card named twice.
    """
    if not isinstance(deck, dict):
        raise InvalidOptions(_('deck must be an object {"paths": [path ids, top first], "animals": [animal ids]}'))
    extra = sorted(str(key) for key in deck if key not in ("paths", "animals"))
    if extra:
        raise InvalidOptions(_("deck has unknown part(s) {parts}: only 'paths' and 'animals'").format(
            parts=", ".join(extra)))
    reasons = {
        "paths": (_("deck.paths must be a list of path card ids"),
                  _("deck.paths: {card} is an animal card, not a path card")),
        "animals": (_("deck.animals must be a list of animal card ids"),
                    _("deck.animals: {card} is a path card, not an animal card")),
    }
    result = {}
    for part, catalogue in (("paths", cards.PATH_IDS), ("animals", cards.ANIMAL_IDS)):
        not_a_list, other_deck = reasons[part]
        top = deck.get(part) or []
        if not isinstance(top, list):
            raise InvalidOptions(not_a_list)
        seen: set[str] = set()
        for card in top:
            if not isinstance(card, str):
                raise InvalidOptions(_("deck.{part} must list card ids such as {example!r}, not {card!r}").format(
                    part=part, example=catalogue[0], card=card))
            if card not in catalogue:
                if cards.exists(card):
                    raise InvalidOptions(other_deck.format(card=card))
                raise InvalidOptions(_("deck.{part}: unknown card {card!r} (not in the catalogue)").format(
                    part=part, card=card))
            if card in seen:
                raise InvalidOptions(_("deck.{part} names {card} twice: the catalogue has one of each card").format(
                    part=part, card=card))
            seen.add(card)
        result[part] = list(top) + [card for card in catalogue if card not in seen]
    return result
