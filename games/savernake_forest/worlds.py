"""Whole Savernake Forest states drawn from one seat's view, for a search bot (``Engine.sample_world``).

Everything in this game lies face up (rules file §12): forests, tokens, the market, the discards,
the supplies and the rooster are in every seat's view. The only secret is the order of the two
decks, hidden from everyone. Nothing is drawn after setup (``engine.new_game`` shuffles both decks
once and keeps no seed), so a world needs no seed of later shuffles: the state is the view's public
facts plus an order of each deck.

Which cards are in each deck follows from the view: every card of the catalogue is in a forest, the
market, the discard pile or a deck, so a deck holds exactly the catalogue's cards of its kind that the
view does not show (``view["cards"]`` names each shown card). Every order of those cards is equally
likely given what the seat has seen (dealing took cards from the top of a uniform shuffle and
revealed nothing about the rest), so each deck gets a uniform shuffle by ``rng``. The event history
adds nothing, hence ``world_history_moves`` stays 0.

What the view does not give back is either hidden or never read after setup: the scripted ``deck``
and ``first_player`` options (engine-internal, read only by ``new_game``) are left out. A version-1
game's options lack ``tie_break`` and ``two_exit_den``; the view names the rules it plays
(``options.reading``), and writing them out plays and shows the same.
"""

from __future__ import annotations

import random
from typing import Any

from games.savernake_forest.cards import ANIMAL_IDS, PATH_IDS
from games.savernake_forest.player_view import result_copy


def sample_world(view: dict[str, Any], history: list[dict[str, Any]], seat: int, rng: random.Random) -> dict[str, Any]:
    """Return a state whose ``view(world, seat)`` is ``view``, with both deck orders drawn uniformly by ``rng``.

    ``history`` is not read: the view holds every public fact, and nothing seen tells one deck order from
    another. Raise ``ValueError`` if the view is not ``seat``'s or its deck counts do not fit the catalogue
    (not a view this engine made).
    """
    if view["you"] != seat:
        raise ValueError(f"the view is seat {view['you']!r}'s, not seat {seat!r}'s")
    shown = view["cards"]  # every card in a forest, the market or the discard pile, by id
    # Catalogue order first, then the shuffle: the draw depends on rng alone, not on how the view was ordered.
    paths = [card for card in PATH_IDS if card not in shown]
    animals = [card for card in ANIMAL_IDS if card not in shown]
    decks = view["decks"]
    if len(paths) != decks["paths"] or len(animals) != decks["animals"]:
        raise ValueError(f"the view shows decks of {decks['paths']} path and {decks['animals']} animal cards, but "
                         f"{len(paths)} and {len(animals)} cards are unseen")
    rng.shuffle(paths)
    rng.shuffle(animals)
    seats = view["seats"]
    return {
        "players": [entry["name"] for entry in seats],
        "options": dict(view["options"]),
        "round": view["round"],
        "turn": view["turn"],
        "first": view["first_player"],
        "rooster": view["rooster"],
        "order": list(view["still_to_play"]),
        "market": {slot["slot"]: slot["card"] for slot in view["market"]},
        "path_deck": paths,
        "animal_deck": animals,
        "discard": list(view["discard"]),
        "supply": {"drops": view["supply"]["drops"], "burrows": view["supply"]["burrows"]},
        "forests": [[_entry(placed) for placed in entry["forest"]] for entry in seats],
        "left": [entry["left"] for entry in seats],
        "result": None if view["result"] is None else result_copy(view["result"]),
    }


def _entry(placed: dict[str, Any]) -> dict[str, Any]:
    """Return the stored forest entry of a card as the view shows it (its rotated sides are derived, not stored)."""
    if placed["type"] == "animal":
        return {"card": placed["card"], "x": placed["x"], "y": placed["y"], "rot": placed["rot"], "up": placed["up"],
                "drops": list(placed["drops"]), "burrows": placed["burrows"]}
    return {"card": placed["card"], "x": placed["x"], "y": placed["y"], "rot": placed["rot"]}

