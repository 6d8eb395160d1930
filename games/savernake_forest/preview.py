"""What each legal move would score: the "if the game ended now" score after the move (public data only).

Boards use this to show, before a player takes a card, what it would be worth
where they put it. Everything comes from a seat's view (its forest and the
market) and the listed legal moves; the helpers are those of ``scoring``, so
the numbers are the engine's own live score of the forest the move leaves.

``move_previews(view, moves)`` returns, for the seat ``view["you"]``:

* ``before``: the live score now (``total``, ``stored``, ``animals``).
* ``placements``: one entry per placement (slot, cell, rotation and, when the
  placement makes shared paths, the survivors kept), before any token:
  ``{slot, card, x, y, rot, keep, shared, down, total, stored, animals}``.
  ``shared`` lists the face-up animals of each path the placement joins (the
  choice to make); ``down`` the animals that are face down afterwards (turned
  down by ``keep``, or at the end in ``end_of_game`` mode).
* ``moves``: one entry per legal move, in the given order:
  ``{placement, token, total, stored, animals, down}`` (``placement`` indexes
  ``placements``).

``animals`` maps each face-up animal that scores to ``{score, stored,
capacity, food_points}``.
"""

from __future__ import annotations

from typing import Any

from games.savernake_forest import cards, scoring
from games.savernake_forest.options import per_exit


def forest_of(view: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """Return ``seat``'s forest from the view in the form ``scoring`` works on."""
    forest = []
    for entry in view["seats"][seat]["forest"]:
        placed: dict[str, Any] = {"card": entry["card"], "x": entry["x"], "y": entry["y"], "rot": entry["rot"]}
        if entry["type"] == "animal":
            placed.update(up=entry["up"], drops=list(entry["drops"]), burrows=entry["burrows"])
        forest.append(placed)
    return forest


def _sheet(live: dict[str, Any], forest: list[dict[str, Any]]) -> dict[str, Any]:
    scored = {item["card"] for item in live["animals"]}
    return {
        "total": live["total"],
        "stored": live["stored"],
        "animals": {
            item["card"]: {
                "score": item["score"],
                "stored": item["stored"],
                "capacity": item["capacity"],
                "food_points": item["food_points"],
            }
            for item in live["animals"]
        },
        "down": sorted(e["card"] for e in forest if cards.is_animal(e["card"]) and e["card"] not in scored),
    }


def _place(forest: list[dict[str, Any]], card: str, move: dict[str, Any]) -> list[dict[str, Any]]:
    entry: dict[str, Any] = {"card": card, "x": move["x"], "y": move["y"], "rot": move["rot"]}
    if cards.is_animal(card):
        entry.update(up=True, drops=[], burrows=0)
    return [dict(e, drops=list(e["drops"])) if "drops" in e else dict(e) for e in forest] + [entry]


def _with_token(forest: list[dict[str, Any]], token: dict[str, str]) -> list[dict[str, Any]]:
    trial = [dict(e, drops=list(e["drops"])) if "drops" in e else dict(e) for e in forest]
    target = next(e for e in trial if e["card"] == token["animal"])
    if "food" in token:
        target["drops"] = sorted([*target["drops"], token["food"]], key=cards.FOODS.index)
    else:
        target["burrows"] += 1
    return trial


def move_previews(view: dict[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Return the score every move in ``moves`` leaves ``view["you"]`` with (see the module docstring)."""
    seat = view.get("you")
    if seat is None or not moves:
        return None
    forest = forest_of(view, seat)
    exits = per_exit(view["options"])
    market = {item["slot"]: item["card"] for item in view["market"]}
    before = _sheet(scoring.live_scores(forest, exits), forest)
    placements: list[dict[str, Any]] = []
    index: dict[tuple, int] = {}
    resolved: list[list[dict[str, Any]]] = []
    shared_of: dict[tuple, list[list[str]]] = {}
    found = []
    for move in moves:
        card = market[move["slot"]]
        spot = (move["slot"], move["x"], move["y"], move["rot"])
        key = (*spot, tuple(move.get("keep") or ()))
        if key not in index:
            trial = _place(forest, card, move)
            if spot not in shared_of:
                shared_of[spot] = scoring.shared(trial, exits) if "keep" in move else []
            if "keep" in move:
                flipped = {a for group in shared_of[spot] for a in group} - set(move["keep"])
                trial = scoring.turn_down(trial, flipped)
            index[key] = len(placements)
            resolved.append(trial)
            placements.append({
                "slot": move["slot"], "card": card, "x": move["x"], "y": move["y"], "rot": move["rot"],
                "keep": list(move["keep"]) if "keep" in move else None,
                "shared": shared_of[spot],
                **_sheet(scoring.live_scores(trial, exits), trial),
            })
        at = index[key]
        token = move.get("token")
        if token is None:
            sheet = {k: placements[at][k] for k in ("total", "stored", "animals", "down")}
        else:
            trial = _with_token(resolved[at], token)
            sheet = _sheet(scoring.live_scores(trial, exits), trial)
        found.append({"placement": at, "token": dict(token) if token else None, **sheet})
    return {"seat": seat, "before": before, "placements": placements, "moves": found}
