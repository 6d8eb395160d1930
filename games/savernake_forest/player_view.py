"""Per-seat projection of a Savernake Forest game and event wording.

Forests, market, discards, supplies and the rooster are public (rules file
§12); only the order of the two decks is hidden, from everyone. Every seat and
spectator therefore gets the same picture, except ``you``. Deck contents
appear only as counts; an undealt card is never named.
"""

from __future__ import annotations

from typing import Any

from games.base import Event
from games.savernake_forest import cards, scoring
from games.savernake_forest.cards import FOOD_NAMES, HELPER_BONUS, ROUNDS, SLOTS, title

PUBLIC_OPTIONS = ("shared_path_resolution", "two_player_market")


def view(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """Return what ``seat`` (None: a spectator) may know about ``state``, and nothing more."""
    n = len(state["players"])
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
        raise ValueError(f"no seat {seat!r}")
    over = state["result"] is not None
    visible: set[str] = set(state["discard"])
    visible.update(card for card in state["market"].values() if card is not None)
    seats = []
    for other, forest in enumerate(state["forests"]):
        visible.update(entry["card"] for entry in forest)
        live = scoring.live_scores(forest)
        xs, ys = [e["x"] for e in forest], [e["y"] for e in forest]
        seats.append(
            {
                "seat": other,
                "name": state["players"][other],
                "forest": [_entry(entry) for entry in forest],
                "cards": len(forest),
                "box": {"min_x": min(xs), "max_x": max(xs), "min_y": min(ys), "max_y": max(ys)},
                "open_cells": [] if over else [list(cell) for cell in scoring.open_cells(forest)],
                "paths": scoring.components(forest),
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
        "options": {key: state["options"][key] for key in PUBLIC_OPTIONS},
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
        "result": None if not over else _result_copy(state["result"]),
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


def _result_copy(result: dict[str, Any]) -> dict[str, Any]:
    return {
        **result,
        "winners": list(result["winners"]),
        "scores": list(result["scores"]),
        "ranking": list(result["ranking"]),
        "stored": list(result["stored"]),
        "animals": [[dict(item) for item in sheet] for sheet in result["animals"]],
        "resigned": list(result.get("resigned", [])),
    }


# -- event wording ---------------------------------------------------------------


def describe_event(event: Event, players: list[str], viewer: int | None) -> str:
    """Return one English line describing ``event`` as ``viewer`` should read it."""
    d = event.data

    def who(seat: int) -> str:
        return "You" if seat == viewer else players[seat]

    def whose(seat: int) -> str:
        return "your" if seat == viewer else f"{players[seat]}'s"

    def verb(seat: int, plain: str, third: str) -> str:
        return plain if seat == viewer else third

    kind = event.kind
    if kind == "player_left":
        takes = verb(d["seat"], "take", "takes")
        return f"{who(d['seat'])} left the game in round {d['round']} and {takes} no more turns."
    if kind == "card_taken":
        turn = f", turned {d['rot'] * 90}°" if d["rot"] else ""
        return (
            f"{who(d['seat'])} {verb(d['seat'], 'take', 'takes')} the {title(d['card'])} from the {d['slot']} "
            f"and {verb(d['seat'], 'place', 'places')} it at {d['x']},{d['y']}{turn}."
        )
    if kind == "animal_turned_down":
        tokens = []
        if d["drops"]:
            tokens.append(f"{d['drops']} drop{'s' if d['drops'] != 1 else ''}")
        if d["burrows"]:
            tokens.append(f"{d['burrows']} burrow{'s' if d['burrows'] != 1 else ''}")
        where = "lost" if d["final"] else "back to the supply"
        tail = f"; {' and '.join(tokens)} {where}" if tokens else ""
        when = "At final scoring, " if d["final"] else ""
        subject = f"{whose(d['seat'])} {title(d['card'])}"
        subject = subject[0].upper() + subject[1:] if not when else subject
        return f"{when}{subject} shares a path with the {title(d['survivor'])} and is turned face down{tail}."
    if kind == "water_drop_placed":
        return (
            f"{who(d['seat'])} {verb(d['seat'], 'put', 'puts')} a water drop on the {FOOD_NAMES[d['food']]} "
            f"corner of {whose(d['seat'])} {title(d['animal'])}."
        )
    if kind == "water_drop_unplaced":
        return f"Every corner of {whose(d['seat'])} animals holds a drop: the goat's drop stays in the supply."
    if kind == "burrow_placed":
        return f"{who(d['seat'])} {verb(d['seat'], 'give', 'gives')} {whose(d['seat'])} {title(d['animal'])} a burrow."
    if kind == "rooster_taken":
        keep = " (and keeps the rooster)" if d["previous"] == d["seat"] and d["seat"] != viewer else ""
        if d["previous"] == d["seat"] and d["seat"] == viewer:
            keep = " (and keep the rooster)"
        return f"{who(d['seat'])} will go first next round{keep}."
    if kind == "market_discarded":
        return "Left in the market and discarded: " + ", ".join(title(card) for card in d["cards"]) + "."
    if kind == "market_dealt":
        row = "; ".join(f"{slot}: {title(d['market'][slot])}" for slot in SLOTS if d["market"][slot])
        return f"Market for round {d['round']}: {row}."
    if kind == "round_started":
        return f"Round {d['round']} of {ROUNDS}: {who(d['first'])} {verb(d['first'], 'go', 'goes')} first."
    if kind == "game_scored":
        parts = ", ".join(f"{players[s]} {d['scores'][s]}" for s in d["ranking"])
        if len(d["winners"]) > 1:
            outcome = " and ".join(who(s) for s in d["winners"]) + " share the victory"
        else:
            outcome = f"{who(d['winners'][0])} {verb(d['winners'][0], 'win', 'wins')}"
        return f"Final scores: {parts}. {outcome}."
    return kind.replace("_", " ").capitalize() + "."



# -- plain text for email -----------------------------------------------------------

_FOOD_WORDS = {"B": "berry", "W": "worm", "E": "egg", "N": "nut"}


def _cell_lines(entry: dict[str, Any] | None, open_cell: bool) -> list[str]:
    """Return one card as three 9-character lines: path ends drawn on its sides, its id in the middle."""
    if entry is None:
        return [" " * 9, "    .    " if open_cell else " " * 9, " " * 9]
    if entry["type"] == "animal":
        ends = set(entry["exits"])
        label = entry["card"] if entry["up"] else "#down#"
    else:
        ends = {side for segment in entry["segments"] for side in segment["sides"]}
        label = entry["card"]
    north = "    |    " if 0 in ends else " " * 9
    south = "    |    " if 2 in ends else " " * 9
    middle = ("-" if 3 in ends else " ") + f"{label:^7}" + ("-" if 1 in ends else " ")
    return [north, middle, south]


def _describe_card(info: dict[str, Any], entry: dict[str, Any] | None = None) -> str:
    """Return "ST07 straight: N–S worm worm" (sides after rotation when placed) or an animal's card."""
    if info["type"] == "animal":
        values = " ".join(f"{food}{info['values'][food]}" for food in cards.FOODS)
        exits = entry["exits"] if entry is not None else info["exits"]
        text = f"{info['id']} {info['name']}: base {info['base']}, capacity {info['capacity']}, {values}"
        text += ", den exits " + "".join(cards.SIDES[side] for side in exits)
        if entry is not None and not entry["up"]:
            return f"{info['id']} {info['name']}: face down (blank)"
        if entry is not None and (entry["drops"] or entry["burrows"]):
            text += f"; drops on {' '.join(entry['drops']) or '-'}, burrows {entry['burrows']}"
        return text
    segments = entry["segments"] if entry is not None else info["segments"]
    parts = [
        "–".join(cards.SIDES[side] for side in segment["sides"])
        + (" " + " ".join(_FOOD_WORDS[food] for food in segment["foods"]) if segment["foods"] else " no food")
        for segment in segments
    ]
    return f"{info['id']} {cards.SHAPE_NAMES[info['shape']]}: {'; '.join(parts)}"


def view_text(view: dict[str, Any]) -> str:
    """Render a view as plain text for an email: the market, then every forest as a grid, then scores."""
    lines = [f"Savernake Forest, round {view['round']} of {view['rounds_total']}."]
    if view["result"] is not None:
        lines.append(view["result"]["summary"] + ".")
    elif view["current"] is not None:
        mover = view["seats"][view["current"]]["name"]
        lines.append(f"To move: {'you' if view['current'] == view['you'] else mover}.")
    lines.append("")
    lines.append("Market:")
    for item in view["market"]:
        card = item["card"]
        shown = _describe_card(view["cards"][card]) if card else "(empty)"
        lines.append(f"  {item['slot']:<9} {shown}  [{item['bonus']}]")
    lines.append(
        f"Decks: {view['decks']['paths']} path, {view['decks']['animals']} animal cards. "
        f"Supply: {view['supply']['drops']} drops, {view['supply']['burrows']} burrows."
    )
    for seat in view["seats"]:
        lines.append("")
        you = " (you)" if seat["seat"] == view["you"] else ""
        extra = ", holds the rooster" if seat["rooster"] else ""
        extra += ", left the game" if seat.get("left") else ""
        lines.append(f"{seat['name']}{you}: {seat['score']} points if the game ended now{extra} (. = open cell)")
        box = seat["box"]
        at = {(entry["x"], entry["y"]): entry for entry in seat["forest"]}
        free = {tuple(cell) for cell in seat["open_cells"]}
        xs = range(box["min_x"] - 1, box["max_x"] + 2)
        lines.append("      " + "".join(f"{'x=' + str(x):^9}" for x in xs))
        for y in range(box["min_y"] - 1, box["max_y"] + 2):
            rows = [_cell_lines(at.get((x, y)), (x, y) in free) for x in xs]
            for part in range(3):
                prefix = f"y={y:<3} " if part == 1 else "      "
                lines.append((prefix + "".join(row[part] for row in rows)).rstrip())
        for entry in seat["forest"]:
            lines.append(f"  {entry['x']},{entry['y']} {_describe_card(view['cards'][entry['card']], entry)}")
        for animal in seat["animals"]:
            stored = " ".join(animal["stored"]) or "nothing"
            lines.append(f"  {animal['card']} scores {animal['score']} (base {animal['base']}, stores {stored})")
    return "\n".join(lines)
