"""Savernake Forest's table options and their checking (rules file §8.2, §14, Q9; the README's options table).

``OPTION_SPECS`` are the options a player chooses (labels in English, marked for the catalog and
worded by the platform through ``Engine.worded_option_specs``); ``deck`` and ``first_player`` are
engine-internal (tests and bug reports script a deal with them). Every reason is worded in the
reader's language.
"""

from __future__ import annotations

from typing import Any

from games.base import InvalidOptions, OptionSpec
from games.i18n import catalog_of
from games.option_checks import first_player, options_object
from games.savernake_forest import cards

_ = catalog_of(__name__)
N_ = _.noop

IMMEDIATE = "immediate"
END_OF_GAME = "end_of_game"
DISCARD = "discard"
PERSISTENT = "persistent"
INTERNAL_OPTIONS = ("deck", "first_player")

OPTION_SPECS = (
    OptionSpec(
        name="shared_path_resolution",
        label=N_("When two animals share a path"),
        choices=(
            (IMMEDIATE, N_("At once: the mover keeps one and turns the others face down (rules file)")),
            (END_OF_GAME, N_("At the end: shared paths are allowed, the best animal is kept at final scoring")),
        ),
        default=IMMEDIATE,
        help=N_("When the one-animal-per-path rule is enforced (rules file §8.2, Q9)."),
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
DEFAULTS = {spec.name: spec.default for spec in OPTION_SPECS}


def validate_options(players: int, options: dict[str, Any] | None) -> dict[str, Any]:
    """Return the complete options for ``players`` seats or raise ``InvalidOptions``."""
    options = options_object(options)
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise InvalidOptions(_("Savernake Forest is for 2 to 4 players, not {players}").format(players=players))
    known = set(DEFAULTS) | set(INTERNAL_OPTIONS)
    unknown = sorted(str(key) for key in options if key not in known)
    if unknown:
        raise InvalidOptions(_("Unknown option(s) for Savernake Forest: {names}").format(names=", ".join(unknown)))
    result = dict(DEFAULTS)
    for spec in OPTION_SPECS:
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
