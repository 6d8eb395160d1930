"""Love Letter's table options: the ones players choose (``OPTION_SPECS``) and their checking.

The labels are English marked for the catalog (``N_``); the platform words them for the reader
(``Engine.worded_option_specs``). The engine-internal options (``deck``, ``first_player``) are for
tests and bug reports; their reasons are worded too, since the API answers with them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.base import InvalidOptions, OptionSpec
from games.i18n import catalog_of
from games.option_checks import first_player, options_object
from games.love_letter import cards
from games.love_letter.cards import CLASSIC

_ = catalog_of(__name__)
N_ = _.noop

FINAL_TIES = ("all_win", "nobody")
INTERNAL_OPTIONS = ("deck", "first_player")

OPTION_SPECS = (
    OptionSpec(
        name="edition",
        label=N_("Edition"),
        choices=(
            (CLASSIC, N_("Classic (16 cards, 2–4 players)")),
            (cards.EDITION_2019, N_("2019 (21 cards with Spy and Chancellor, 2–6 players)")),
        ),
        default=CLASSIC,
        help=N_("Which deck and token targets to use."),
    ),
    OptionSpec(
        name="classic_final_tie",
        label=N_("Classic showdown tie after discard totals"),
        choices=(("all_win", N_("All tied players win a token")), ("nobody", N_("Nobody scores (as on BGA)"))),
        default="all_win",
        help=N_("Classic edition only: who wins a showdown still tied after comparing discard totals."),
        advanced=True,
    ),
)


def validate_options(players: int, options: dict[str, Any] | None) -> dict[str, Any]:
    """Return the complete options for ``players`` seats or raise ``InvalidOptions``."""
    options = options_object(options)
    known = {spec.name for spec in OPTION_SPECS} | set(INTERNAL_OPTIONS)
    unknown = sorted(str(key) for key in options if key not in known)
    if unknown:
        raise InvalidOptions(_.ngettext("Unknown option for Love Letter: {names}",
                                        "Unknown options for Love Letter: {names}", len(unknown)).format(
            names=", ".join(unknown)))
    edition = options.get("edition", CLASSIC)
    if edition not in cards.EDITIONS:
        raise InvalidOptions(_("Unknown edition {edition}: choose 'classic' or '2019'").format(edition=repr(edition)))
    final_tie = options.get("classic_final_tie", "all_win")
    if final_tie not in FINAL_TIES:
        raise InvalidOptions(_("classic_final_tie must be 'all_win' or 'nobody', not {value}").format(
            value=repr(final_tie)))
    low, high = cards.player_range(edition)
    if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
        if edition == CLASSIC:
            reason = _("The classic edition is for {low} to {high} players, not {players}")
        else:
            reason = _("The 2019 edition is for {low} to {high} players, not {players}")
        raise InvalidOptions(reason.format(low=low, high=high, players=players))
    result: dict[str, Any] = {"edition": edition, "classic_final_tie": final_tie}
    if options.get("deck") is not None:
        result["deck"] = _validated_decks(edition, options["deck"])
    if (first := first_player(options, players)) is not None:
        result["first_player"] = first
    return result


def _validated_decks(edition: str, deck: Any) -> list[list[str]]:
    """Return the scripted deck orders as a list of per-round lists, or raise ``InvalidOptions``."""
    if not isinstance(deck, list) or not deck:
        raise InvalidOptions(_("deck must be a non-empty list of card names, or a list of such lists"))
    rounds = deck if all(isinstance(item, list) for item in deck) else [deck]
    wanted = Counter(cards.full_deck(edition))
    checked = []
    for number, order in enumerate(rounds, start=1):
        if not all(isinstance(card, str) for card in order):
            raise InvalidOptions(_("deck for round {number} must list card names").format(number=number))
        if Counter(order) != wanted:
            missing = sorted((wanted - Counter(order)).elements())
            extra = sorted((Counter(order) - wanted).elements())
            if edition == CLASSIC:
                reason = _("deck for round {number} must be exactly the classic deck (missing {missing}, extra {extra})")
            else:
                reason = _("deck for round {number} must be exactly the 2019 deck (missing {missing}, extra {extra})")
            raise InvalidOptions(reason.format(number=number, missing=missing, extra=extra))
        checked.append(list(order))
    return checked
