"""Per-seat projection of a Savernake Forest game: the view, machine data with codes and numbers only.

Forests, market, discards, supplies and the rooster are public (rules file
§12); only the order of the two decks is hidden, from everyone. Every seat and
spectator therefore gets the same picture, except ``you``. Deck contents
appear only as counts; an undealt card is never named. The view holds no
words (the API sends it as is to readers of every language): the history is
worded by ``history.py``, the email text by ``plain_text.py``, the board by
``board.py``.
"""

from __future__ import annotations

from typing import Any

from games.savernake_forest import cards, scoring
from games.savernake_forest.cards import HELPER_BONUS, ROUNDS, SLOTS
from games.savernake_forest.options import per_exit, reading

PUBLIC_OPTIONS = ("shared_path_resolution", "two_player_market", "tie_break", "two_exit_den")


def view(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """Return what ``seat`` (None: a spectator) may know about ``state``, and nothing more."""
    n = len(state["players"])
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
        raise ValueError(f"no seat {seat!r}")
    over = state["result"] is not None
    visible: set[str] = set(state["discard"])
    exits = per_exit(state["options"])
    visible.update(card for card in state["market"].values() if card is not None)
    seats = []
    for other, forest in enumerate(state["forests"]):
        visible.update(entry["card"] for entry in forest)
        live = scoring.live_scores(forest, exits)
        xs, ys = [e["x"] for e in forest], [e["y"] for e in forest]
        seats.append(
            {
                "seat": other,
                "name": state["players"][other],
                "forest": [_entry(entry) for entry in forest],
                "cards": len(forest),
                "box": {"min_x": min(xs), "max_x": max(xs), "min_y": min(ys), "max_y": max(ys)},
                "open_cells": [] if over else [list(cell) for cell in scoring.open_cells(forest)],
                "paths": scoring.components(forest, exits),
                "score": live["total"],
                "stored": live["stored"],
                "animals": live["animals"],
                "rooster": state["rooster"] == other,
                "left": bool(state.get("left", [False] * n)[other]),
            }
        )
    order = state["order"]
    return {
        "game": "savernake-forest",
        # A version-1 game has no tie-break or two-exit den option: the view names the rules it plays.
        "options": {key: state["options"][key] if key in state["options"] else reading(state["options"], key)
                    for key in PUBLIC_OPTIONS},
        "you": seat,
        "phase": "over" if over else "play",
        "round": state["round"],
        "rounds_total": ROUNDS,
        "turn": state["turn"],
        "current": order[0] if order else None,
        "first_player": state["first"],
        "rooster": state["rooster"],
        "round_order": [(state["first"] + i) % n for i in range(n)],
        "still_to_play": list(order),
        "market": [
            {"slot": slot, "card": state["market"][slot], "bonus": HELPER_BONUS[slot]} for slot in SLOTS
        ],
        "decks": {"paths": len(state["path_deck"]), "animals": len(state["animal_deck"])},
        "discard": list(state["discard"]),
        "supply": dict(state["supply"]),
        "seats": seats,
        "cards": {card: cards.card_info(card) for card in sorted(visible)},
        "result": None if not over else result_copy(state["result"]),
    }


def view_after_end(state: dict[str, Any]) -> dict[str, Any]:
    """Return the spectator's view with both decks in dealing order: the replay after the end.

    The rules file, §12: no player holds hidden cards; the order of the decks is the only secret,
    and once the game is over it may be shown at every step.
    """
    shown = view(state, None)
    paths, animals = list(state["path_deck"]), list(state["animal_deck"])
    shown["revealed"] = {"paths": paths, "animals": animals}  # top first
    shown["cards"].update({card: cards.card_info(card) for card in sorted({*paths, *animals})})
    shown["cards"] = dict(sorted(shown["cards"].items()))
    return shown


def _entry(entry: dict[str, Any]) -> dict[str, Any]:
    """Return a placed card for the view, with its sides after rotation."""
    card = entry["card"]
    shown: dict[str, Any] = {"card": card, "x": entry["x"], "y": entry["y"], "rot": entry["rot"]}
    if cards.is_animal(card):
        shown.update(
            type="animal",
            up=entry["up"],
            exits=list(cards.exits(card, entry["rot"])) if entry["up"] else [],
            drops=list(entry["drops"]),
            burrows=entry["burrows"],
        )
    else:
        shown.update(
            type="path",
            segments=[{"sides": list(sides), "foods": foods} for sides, foods in cards.segments(card, entry["rot"])],
        )
    return shown


def result_copy(result: dict[str, Any]) -> dict[str, Any]:
    """Return a copy of a stored result that shares no list with the state (the view's and ``Engine.result``'s)."""
    return {
        **result,
        "winners": list(result["winners"]),
        "scores": list(result["scores"]),
        "ranking": list(result["ranking"]),
        "stored": list(result["stored"]),
        "animals": [[dict(item) for item in sheet] for sheet in result["animals"]],
        "resigned": list(result.get("resigned", [])),
    }
