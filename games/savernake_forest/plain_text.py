"""The plain-text position of a Savernake Forest view, for emails (``view_text``), in the reader's language.

The market, then every forest as a grid of 9×3-character cells (path ends drawn as ``|``/``-`` on the
card's sides, the card id in the middle, ``.`` on an open cell), then one line per card and each
animal's live score. Names, food letters and compass letters come from ``words.py``.
"""

from __future__ import annotations

from typing import Any

from games.i18n import catalog_of
from games.savernake_forest import cards
from games.savernake_forest.history import describe_result
from games.savernake_forest.words import (
    animal_name,
    food_items,
    food_letters,
    shape_names,
    side_letters,
    slot_bonus,
    slot_names,
)

_ = catalog_of(__name__)


def _cell_lines(entry: dict[str, Any] | None, open_cell: bool) -> list[str]:
    """Return one card as three 9-character lines: path ends drawn on its sides, its id in the middle."""
    if entry is None:
        return [" " * 9, "    .    " if open_cell else " " * 9, " " * 9]
    if entry["type"] == "animal":
        ends = set(entry["exits"])
        # Translators: marks a face-down card in the email's grid: 7 characters at most.
        label = entry["card"] if entry["up"] else _.pgettext("face-down card in the grid", "#down#")[:7]
    else:
        ends = {side for segment in entry["segments"] for side in segment["sides"]}
        label = entry["card"]
    north = "    |    " if 0 in ends else " " * 9
    south = "    |    " if 2 in ends else " " * 9
    middle = ("-" if 3 in ends else " ") + f"{label:^7}" + ("-" if 1 in ends else " ")
    return [north, middle, south]


def _describe_card(info: dict[str, Any], entry: dict[str, Any] | None = None) -> str:
    """Return "ST07 straight: N–S worm worm" (sides after rotation when placed) or an animal's card."""
    letters, sides = food_letters(), side_letters()
    if info["type"] == "animal":
        name = animal_name(info["id"])
        if entry is not None and not entry["up"]:
            return _("{card} {animal}: face down (blank)").format(card=info["id"], animal=name)
        values = {
            "card": info["id"], "animal": name, "base": info["base"], "capacity": info["capacity"],
            "values": " ".join(f"{letters[food]}{info['values'][food]}" for food in cards.FOODS),
            "exits": "".join(sides[side] for side in (entry["exits"] if entry is not None else info["exits"])),
        }
        if entry is not None and (entry["drops"] or entry["burrows"]):
            return _("{card} {animal}: base {base}, capacity {capacity}, {values}, den exits {exits}; "
                     "drops on {foods}, burrows {burrows}").format(
                foods=" ".join(letters[food] for food in entry["drops"]) or "-", burrows=entry["burrows"], **values)
        return _("{card} {animal}: base {base}, capacity {capacity}, {values}, den exits {exits}").format(**values)
    items = food_items()
    segments = entry["segments"] if entry is not None else info["segments"]
    parts = [
        "–".join(sides[side] for side in segment["sides"]) + " "
        + (" ".join(items[food] for food in segment["foods"]) if segment["foods"] else _("no food"))
        for segment in segments
    ]
    return _("{card} {shape}: {segments}").format(card=info["id"], shape=shape_names()[info["shape"]],
                                                 segments="; ".join(parts))


def view_text(view: dict[str, Any]) -> str:
    """Render a view as plain text for an email: the market, then every forest as a grid, then scores."""
    lines = [_("Savernake Forest, round {round} of {total}.").format(round=view["round"], total=view["rounds_total"])]
    names = [seat["name"] for seat in view["seats"]]
    if view["result"] is not None:
        lines.append(describe_result(view["result"], names) + ".")
    elif view["current"] is not None:
        if view["current"] == view["you"]:
            lines.append(_("To move: you."))
        else:
            lines.append(_("To move: {player}.").format(player=names[view["current"]]))
    lines.append("")
    lines.append(_("Market:"))
    slots = slot_names()
    width = max(len(name) for name in slots.values())
    for item in view["market"]:
        card = item["card"]
        shown = _describe_card(view["cards"][card]) if card else _("(empty)")
        lines.append(f"  {slots[item['slot']]:<{width}} {shown}  [{slot_bonus(item['slot'])}]")
    lines.append(_("Decks: {paths}, {animals}. Supply: {drops}, {burrows}.").format(
        paths=_.ngettext("{count} path card", "{count} path cards", view["decks"]["paths"]).format(
            count=view["decks"]["paths"]),
        animals=_.ngettext("{count} animal card", "{count} animal cards", view["decks"]["animals"]).format(
            count=view["decks"]["animals"]),
        drops=_.ngettext("{count} drop", "{count} drops", view["supply"]["drops"]).format(
            count=view["supply"]["drops"]),
        burrows=_.ngettext("{count} burrow", "{count} burrows", view["supply"]["burrows"]).format(
            count=view["supply"]["burrows"]),
    ))
    for seat in view["seats"]:
        lines.append("")
        lines.append(_seat_line(view, seat))
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
        letters = food_letters()
        for animal in seat["animals"]:
            stored = " ".join(letters[food] for food in animal["stored"]) or _("nothing")
            lines.append("  " + _("{card} scores {score} (base {base}, stores {stored})").format(
                card=animal["card"], score=animal["score"], base=animal["base"], stored=stored))
    return "\n".join(lines)


def _seat_line(view: dict[str, Any], seat: dict[str, Any]) -> str:
    """Return a forest's heading: its player, the live score, the rooster, a departure."""
    player = _("{player} (you)").format(player=seat["name"]) if seat["seat"] == view["you"] else seat["name"]
    points = _.ngettext("{count} point if the game ended now", "{count} points if the game ended now",
                        seat["score"]).format(count=seat["score"])
    notes = []
    if seat["rooster"]:
        notes.append(_("holds the rooster"))
    if seat.get("left"):
        notes.append(_("left the game"))
    if notes:
        return _("{player}: {points}, {notes} (. = open cell)").format(player=player, points=points,
                                                                       notes=", ".join(notes))
    return _("{player}: {points} (. = open cell)").format(player=player, points=points)
