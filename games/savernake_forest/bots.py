"""Savernake Forest bots: ``basic`` is greedy on the live score of its own forest.

Everything comes from the view's public card data: the bot rebuilds its forest
from ``view["seats"][you]["forest"]``, applies each legal move to a copy
(the placed card, the animals the move turns face down, the drop or burrow)
and scores the result with ``scoring.live_scores``, the same helper the
engine uses for the "if the game ended now" score. It plays the move with the
best score; among equal scores it prefers forests with more room to grow
(open path ends on a face-up animal's path that still has free capacity,
drops on foods the animal likes), then the rng decides.
"""

from __future__ import annotations

import random
from typing import Any

from games.bots import best_index
from games.savernake_forest import cards, scoring
from games.savernake_forest.options import per_exit

OPEN_END = 0.6  # an open path end next to a free cell, on a path whose animal still has room
DROP_HOPE = 0.15  # per point the animal gives for the dropped food, if it stores none yet
BURROW_HOPE = 0.5  # a burrow on an animal whose path offers more food than it can store
ROOSTER = 0.2  # playing first next round: the pick of the new row


def forest_of(view: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """Return ``seat``'s forest from the view in the form ``scoring`` works on."""
    forest = []
    for entry in view["seats"][seat]["forest"]:
        placed = {"card": entry["card"], "x": entry["x"], "y": entry["y"], "rot": entry["rot"]}
        if entry["type"] == "animal":
            placed.update(up=entry["up"], drops=list(entry["drops"]), burrows=entry["burrows"])
        forest.append(placed)
    return forest


def after(
    forest: list[dict[str, Any]], card: str, move: dict[str, Any], resolve: bool, exits: bool = False
) -> list[dict[str, Any]]:
    """Return a copy of ``forest`` after ``move`` places ``card`` (survivors, then the token); ``exits``: a path
    per exit of a den."""
    entry: dict[str, Any] = {"card": card, "x": move["x"], "y": move["y"], "rot": move["rot"]}
    if cards.is_animal(card):
        entry.update(up=True, drops=[], burrows=0)
    trial = [dict(e, drops=list(e["drops"])) if "drops" in e else dict(e) for e in forest] + [entry]
    if resolve and "keep" in move:
        flipped = {animal for group in scoring.shared(trial, exits) for animal in group} - set(move["keep"])
        trial = scoring.turn_down(trial, flipped)
    token = move.get("token")
    if token:
        target = next(e for e in trial if e["card"] == token["animal"])
        if "food" in token:
            target["drops"] = sorted([*target["drops"], token["food"]], key=cards.FOODS.index)
        else:
            target["burrows"] += 1
    return trial


def room_to_grow(forest: list[dict[str, Any]], shape: dict[str, Any], sheets: dict[str, dict[str, Any]]) -> float:
    """Return a small bonus for what the forest may still gain: open ends, useful drops and burrows."""
    bonus = 0.0
    for group, ends in zip(shape["groups"], shape["ends"]):
        if ends and any(len(sheets[a]["stored"]) < sheets[a]["capacity"] for a in group["animals"] if a in sheets):
            bonus += OPEN_END * min(ends, 2)
    for entry in forest:
        sheet = sheets.get(entry["card"])
        if sheet is None:
            continue
        values = cards.ANIMALS[entry["card"]]["values"]
        for food in entry["drops"]:
            if food not in sheet["stored"]:
                bonus += DROP_HOPE * values[food]
        if entry["burrows"] and len(sheet["stored"]) >= sheet["capacity"]:
            bonus += BURROW_HOPE
    return bonus


def shape_of(forest: list[dict[str, Any]], exits: bool = False) -> dict[str, Any]:
    """Return the forest's paths and, per path, how many of its ends face a cell a card may still go to."""
    free = set(scoring.open_cells(forest)) if len(forest) < cards.FOREST_SIZE else set()
    nodes = {(node["card"], node["part"]): node for node in scoring.nodes(forest, exits)}
    groups = scoring.components(forest, exits)
    ends = []
    for group in groups:
        count = 0
        for card, part in group["nodes"]:
            node = nodes[(card, part)]
            for side in node["sides"]:
                dx, dy = scoring.DELTA[side]
                count += (node["x"] + dx, node["y"] + dy) in free
        ends.append(count)
    return {"groups": groups, "ends": ends}


def sheets_of(forest: list[dict[str, Any]], groups: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Return each face-up animal's score sheet, given the forest's paths (as ``scoring.forest_scores``)."""
    by_card = {e["card"]: e for e in forest}
    foods: dict[str, list[str]] = {}
    for group in groups:  # with a path per exit, an animal collects from each path it lies on
        for card in group["animals"]:
            foods.setdefault(card, []).extend(group["foods"])
    return {card: scoring.animal_score(by_card[card], found) for card, found in foods.items()}


class BasicBot:
    """Take the move that scores most for our own forest now; see the module docstring."""

    def choose(self, view, moves, history, rng: random.Random):
        return moves[best_index(self.scored(view, moves), rng)]

    def scored(self, view, moves) -> list[tuple[tuple[float, int], int]]:
        """Return ``(value, index)`` for every move, in the moves' order: the value is (the forest's score after the
        move plus its room to grow, the foods stored). The strong bot ranks its root moves by it (``strong.py``)."""
        me = view["you"]
        forest = forest_of(view, me)
        market = {entry["slot"]: entry["card"] for entry in view["market"]}
        immediate = view["options"].get("shared_path_resolution", "immediate") == "immediate"
        exits = per_exit(view["options"])
        shapes: dict[tuple, dict[str, Any]] = {}  # a token never changes the paths: one shape per placement
        scored = []
        for i, move in enumerate(moves):
            trial = after(forest, market[move["slot"]], move, immediate, exits)
            if immediate:
                key = (move["slot"], move["x"], move["y"], move["rot"], tuple(move.get("keep", ())))
                if key not in shapes:
                    shapes[key] = shape_of(trial, exits)
                shape = shapes[key]
            else:  # shared paths are resolved at the end: let the engine's helper pick the survivors
                shape = shape_of(scoring.resolve_best(trial, exits)[0], exits)
            sheets = sheets_of(trial, shape["groups"])
            total = sum(sheet["score"] for sheet in sheets.values())
            stored = sum(len(sheet["stored"]) for sheet in sheets.values())
            hope = room_to_grow(trial, shape, sheets) + (ROOSTER if move["slot"] == "rooster" else 0.0)
            scored.append(((total + hope, stored), i))
        return scored
