"""Drawing data for the Savernake Forest board (templates/games/savernake-forest/board.html).

The platform passes ``board_data(view, moves)`` to the board template as ``board``.

Everything comes from the seat's view and its legal moves: card pictures from
``view["cards"]`` (the printed facts of visible cards, turned here), forests
from ``view["seats"]``, and the score each move would leave from
``games.savernake_forest.preview`` (the engine's own scoring on public data).
Geometry is easier here than in a template: a card is a 120×120 square, path
ends meet the middle of its sides, a curve is a quarter circle around the
corner between its two sides, and food icons sit along the path.

Every word the board shows is here too, in the reader's language: the fixed
ones in ``words`` and ``script_words`` (``board_words.py``), the ones that
name a card, a forest or a slot beside it (its label, title and aria-label).
"""

from __future__ import annotations

import json
import math
from typing import Any

from games.i18n import catalog_of
from games.savernake_forest import cards as catalogue
from games.savernake_forest.board_words import in_attribute, marked, page_words, script_words, strong
from games.savernake_forest.preview import move_previews
from games.savernake_forest.words import (
    animal_label,
    animal_name,
    food_items,
    food_kinds,
    food_letters,
    shape_names,
    side_names,
    slot_bonus,
    slot_names,
)

_ = catalog_of(__name__)


S = 120  # a card's side in SVG units
PAD = 6  # space around a forest
HALF = S // 2
MID = {0: (HALF, 0), 1: (S, HALF), 2: (HALF, S), 3: (0, HALF)}  # N, E, S, W
FOODS = catalogue.FOODS
# Food corners of an animal card (they stay upright when the card turns: only the den's exits turn).
CHIP = {"B": (3, 23), "W": (87, 23), "E": (3, 75), "N": (87, 75)}
CHIP_W, CHIP_H = 30, 22


def capfirst(text: str) -> str:
    """Return ``text`` with its first letter a capital (Hungarian names are lower case in a sentence)."""
    return text[:1].upper() + text[1:]


def _drop_x(food: str) -> int:
    """Return where a water drop sits: beside its food corner, on the inner side (12 wide)."""
    x = CHIP[food][0]
    return x + CHIP_W + 1 if x < HALF else x - 13


def _n(value: float) -> str:
    """Format a coordinate without trailing zeros."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _segment(sides: list[int], count: int) -> tuple[str, list[tuple[float, float]]]:
    """Return the SVG path of one path segment between two sides and ``count`` points along it for food."""
    a, b = sides
    (ax, ay), (bx, by) = MID[a], MID[b]
    ts = [(i + 1) / (count + 1) for i in range(count)]
    if (a - b) % 2 == 0:  # straight across the card
        points = [(ax + (bx - ax) * t, ay + (by - ay) * t) for t in ts]
        return f"M{ax} {ay} L{bx} {by}", points
    # A curve: a quarter circle around the corner the two sides share.
    cx = S if 1 in (a, b) else 0
    cy = 0 if 0 in (a, b) else S
    ta, tb = math.atan2(ay - cy, ax - cx), math.atan2(by - cy, bx - cx)
    if tb - ta > math.pi:
        tb -= 2 * math.pi
    elif ta - tb > math.pi:
        tb += 2 * math.pi
    sweep = 1 if (ax - cx) * (by - cy) - (ay - cy) * (bx - cx) > 0 else 0
    points = [(cx + HALF * math.cos(ta + (tb - ta) * t), cy + HALF * math.sin(ta + (tb - ta) * t)) for t in ts]
    return f"M{ax} {ay} A{HALF} {HALF} 0 0 {sweep} {bx} {by}", points


def card_picture(info: dict[str, Any], rot: int) -> dict[str, Any]:
    """Return what the template needs to draw ``info`` (a view's ``cards`` entry) turned ``rot`` quarter turns."""
    picture: dict[str, Any] = {"id": f"sf-c-{info['id']}-r{rot}", "card": info["id"], "type": info["type"], "rot": rot}
    if info["type"] == "path":
        roads, icons = [], []
        for segment in info["segments"]:
            sides = sorted((side + rot) % 4 for side in segment["sides"])
            d, points = _segment(sides, len(segment["foods"]))
            roads.append(d)
            icons.extend(
                {"food": food, "x": _n(x - 12), "y": _n(y - 12)} for food, (x, y) in zip(segment["foods"], points)
            )
        picture.update(roads=roads, icons=icons)
        return picture
    exits = sorted((side + rot) % 4 for side in info["exits"])
    kinds = food_kinds()
    name = capfirst(animal_name(info["id"]))
    picture.update(
        name=name,
        facts=_("base {base} · holds {capacity}").format(base=info["base"], capacity=info["capacity"]),
        stubs=[f"M{HALF} {HALF} L{MID[side][0]} {MID[side][1]}" for side in exits],
        chips=[
            {"food": food, "value": info["values"][food], "x": CHIP[food][0], "y": CHIP[food][1], "name": kinds[food]}
            for food in FOODS
        ],
        long=len(name) > 10,
    )
    return picture


def describe(info: dict[str, Any], rot: int = 0) -> str:
    """Return a short text of a card for labels: "Hedgehog (AN05): 5 points, stores 3; berries 1, worms 3, …"."""
    sides = side_names()
    if info["type"] == "animal":
        kinds = food_kinds()
        return _.ngettext("{animal} ({card}): {base} point, stores {capacity}; {values}; den open {exits}",
                          "{animal} ({card}): {base} points, stores {capacity}; {values}; den open {exits}",
                          info["base"]).format(
            animal=capfirst(animal_name(info["id"])), card=info["id"], base=info["base"], capacity=info["capacity"],
            values=", ".join(f"{kinds[f]} {info['values'][f]}" for f in FOODS),
            exits=", ".join(sides[(side + rot) % 4] for side in sorted(info["exits"])))
    items = food_items()
    parts = []
    for segment in info["segments"]:
        ends = "–".join(sides[side] for side in sorted((s + rot) % 4 for s in segment["sides"]))
        foods = " ".join(items[f] for f in segment["foods"]) or _("no food")
        parts.append(f"{ends}: {foods}")
    return _("{shape} path ({card}): {segments}").format(shape=shape_names()[info["shape"]], card=info["id"],
                                                        segments="; ".join(parts))


def _placed(entry: dict[str, Any], info: dict[str, Any], sheet: dict[str, Any] | None,
            pictures: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Return what the template draws of one placed card, with its texts (title, score, tokens, targets)."""
    kinds = food_kinds()
    cell: dict[str, Any] = {}
    where = {"x": entry["x"], "y": entry["y"]}
    if entry["type"] == "path" or entry["up"]:
        pictures.setdefault(f"{entry['card']}-{entry['rot']}", card_picture(info, entry["rot"]))
        cell.update(href=f"#sf-c-{entry['card']}-r{entry['rot']}", label=describe(info, entry["rot"]))
    if entry["type"] == "animal" and entry["up"]:
        name = capfirst(animal_name(entry["card"]))
        score = sheet["score"] if sheet else 0
        cell.update(
            up=True, name=name, burrows=entry["burrows"], score=score,
            score_title=_("{animal} scores {score} if the game ended now").format(animal=name, score=score),
            burrows_title=_.ngettext("{count} burrow: +{count} storage", "{count} burrows: +{count} storage",
                                     entry["burrows"]).format(count=entry["burrows"]),
            drops=[{"food": f, "x": _drop_x(f), "y": CHIP[f][1] + 3,
                    "title": _("Water drop on {food}: +1 each").format(food=kinds[f])} for f in entry["drops"]],
            targets=[{"food": f, "x": CHIP[f][0], "y": CHIP[f][1],
                      "label": _("water drop on the {animal}'s {food}").format(animal=name, food=kinds[f])}
                     for f in FOODS],
            burrow_label=_("burrow for the {animal}").format(animal=name),
        )
    elif entry["type"] == "animal":
        name = capfirst(animal_name(entry["card"]))
        cell.update(href="#sf-back", up=False, name=name,
                    label=_("{animal} ({card}), face down").format(animal=name, card=entry["card"]))
    if entry.get("latest"):
        cell["title"] = _("{card}, at {x},{y} (placed last)").format(card=cell["label"], **where)
    else:
        cell["title"] = _("{card}, at {x},{y}").format(card=cell["label"], **where)
    return cell


def _name_of(cell: dict[str, Any], player: str) -> str:
    """Return a placed card's name for a screen reader: what it is and where (its title), what it scores now and
    holds (an animal's burrows and water drops), and whose forest it is in."""
    parts = [cell["title"]]
    if cell.get("up") and cell["type"] == "animal":
        parts.append(cell["score_title"])
        if cell["burrows"]:
            parts.append(cell["burrows_title"])
        parts += [drop["title"] for drop in cell["drops"]]
    return _("{card}; in {player}'s forest").format(card="; ".join(parts), player=player)


def _forest(view: dict[str, Any], seat: dict[str, Any], pictures: dict[str, dict[str, Any]],
            acting: bool = False) -> dict[str, Any]:
    """Return one forest as the template draws it; ``acting``: it is the viewer's, on their turn (its cards hold
    the targets for a water drop or a burrow)."""
    cards = view["cards"]
    box = seat["box"]
    xs = [box["min_x"], box["max_x"], *(x for x, _y in seat["open_cells"])]
    ys = [box["min_y"], box["max_y"], *(y for _x, y in seat["open_cells"])]
    min_x, min_y = min(xs), min(ys)
    cols, rows = max(xs) - min_x + 1, max(ys) - min_y + 1
    sheets = {item["card"]: item for item in seat["animals"]}
    placed = []
    for number, entry in enumerate(seat["forest"]):
        latest = number == len(seat["forest"]) - 1 and number > 0
        px, py = PAD + (entry["x"] - min_x) * S, PAD + (entry["y"] - min_y) * S
        cell: dict[str, Any] = {
            "card": entry["card"], "x": entry["x"], "y": entry["y"], "rot": entry["rot"], "px": px, "py": py,
            "type": entry["type"], "latest": latest,
        }
        cell.update(_placed(dict(entry, latest=latest), cards[entry["card"]], sheets.get(entry["card"]), pictures))
        cell["acts"] = acting and bool(cell.get("up"))
        cell["aria"] = _name_of(cell, seat["name"])
        placed.append(cell)
    open_cells = [
        {"x": x, "y": y, "px": PAD + (x - min_x) * S, "py": PAD + (y - min_y) * S,
         "label": _("place on cell {x},{y}").format(x=x, y=y)} for x, y in seat["open_cells"]
    ]
    over = view.get("phase") == "over"
    winner = bool(view.get("result")) and seat["seat"] in view["result"]["winners"]
    words = page_words()
    return {
        "seat": seat["seat"], "name": seat["name"], "score": seat["score"], "stored": seat["stored"],
        "rooster": seat["rooster"], "left": seat.get("left", False), "cards": seat["cards"],
        "you": seat["seat"] == view.get("you"), "current": seat["seat"] == view.get("current"),
        "winner": winner,
        "outcome": (words["shares_victory"] if view["result"].get("shared") else words["wins"]) if winner else "",
        "label": in_attribute(_.ngettext("{player}'s forest, {count} card", "{player}'s forest, {count} cards",
                                         seat["cards"]).format(player=seat["name"], count=seat["cards"])),
        "points": _("{points} pts").format(points=seat["score"]),
        "points_title": words["final_points"] if over else words["points_now"],
        "stored_text": _.ngettext("{count} food stored", "{count} food stored", seat["stored"]).format(
            count=seat["stored"]),
        "cols": cols, "rows": rows, "width": cols * S + 2 * PAD, "height": rows * S + 2 * PAD,
        "placed": placed, "open": open_cells, "animals": _sheet_rows(seat, cards, sheets),
    }


def _sheet_rows(seat: dict[str, Any], cards: dict[str, Any], sheets: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the score sheet beside a forest: one row per animal, with its texts."""
    kinds, items = food_kinds(), food_items()
    rows = []
    for entry in seat["forest"]:
        if entry["type"] != "animal":
            continue
        info = cards[entry["card"]]
        sheet = sheets.get(entry["card"])
        capacity = sheet["capacity"] if sheet else info["capacity"]
        stored = [{"food": f, "name": items[f]} for f in sheet["stored"]] if sheet else []
        rows.append({
            "card": entry["card"], "name": capfirst(animal_name(entry["card"])), "up": entry["up"],
            "scoring": bool(sheet), "score": sheet["score"] if sheet else 0, "base": info["base"],
            "capacity": capacity, "stored": stored, "food_points": sheet["food_points"] if sheet else 0,
            "stores_title": _("stores {count} of {capacity}").format(count=len(stored), capacity=capacity),
            "drops": [{"food": f, "label": _("drop on {food}").format(food=kinds[f]),
                       "title": _("Water drop on {food}").format(food=kinds[f])} for f in entry["drops"]],
            "burrows": entry["burrows"],
            "burrows_label": _.ngettext("{count} burrow", "{count} burrows", entry["burrows"]).format(
                count=entry["burrows"]),
        })
    return rows


def _compact_sheet(sheet: dict[str, Any]) -> dict[str, Any]:
    return {
        "t": sheet["total"], "s": sheet["stored"], "d": sheet["down"],
        "a": {
            card: [item["score"], "".join(item["stored"]), item["capacity"]] for card, item in sheet["animals"].items()
        },
    }


def _data(view: dict[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Return the board script's data: the legal moves and the score each leaves (compact keys)."""
    previews = move_previews(view, [entry["move"] for entry in moves])
    if previews is None:
        return None
    cards = view["cards"]
    placements = [
        {"slot": p["slot"], "card": p["card"], "x": p["x"], "y": p["y"], "rot": p["rot"], "keep": p["keep"],
         "shared": p["shared"], **_compact_sheet(p)}
        for p in previews["placements"]
    ]
    found = []
    for entry, preview in zip(moves, previews["moves"]):
        found.append({
            "p": preview["placement"], "token": preview["token"], "json": entry["json"], "text": entry["text"],
            **_compact_sheet(preview),
        })
    names = {card: capfirst(animal_name(card)) for card, info in cards.items() if info["type"] == "animal"}
    labels = {item["card"]: animal_label(item["card"]) if cards[item["card"]]["type"] == "animal"
              else script_words()["path_card"].format(card=item["card"]) for item in view["market"] if item["card"]}
    return {
        "seat": previews["seat"], "before": _compact_sheet(previews["before"]),
        "placements": placements, "moves": found, "names": names, "labels": labels, "foods": food_kinds(),
        "letters": food_letters(),
    }


def _script_json(value: Any) -> str:
    """JSON safe inside a <script> element (escaped as Django's json_script does)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return text.replace("&", "\\u0026").replace("<", "\\u003C").replace(">", "\\u003E")


def _market(view: dict[str, Any], best: dict[str, int], pictures: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the market's slots: the helper, what it gives, its card and the best change it can bring."""
    cards = view["cards"]
    names = slot_names()
    market = []
    for item in view["market"]:
        card = item["card"]
        title, bonus = capfirst(names[item["slot"]]), slot_bonus(item["slot"])
        slot: dict[str, Any] = {"slot": item["slot"], "card": card, "title": title, "bonus": bonus,
                                "playable": item["slot"] in best, "best": best.get(item["slot"])}
        label = _("no card")
        if card is not None:
            info = cards[card]
            for rot in range(4):
                pictures.setdefault(f"{card}-{rot}", card_picture(info, rot))
            label = describe(info)
            if info["type"] == "animal":
                name = animal_name(card)
            else:
                name = _("{shape} path").format(shape=shape_names()[info["shape"]])
            slot.update(href=f"#sf-c-{card}-r0", label=label, type=info["type"], name=capfirst(name))
        if slot["best"] is not None:
            change = f"{slot['best']:+d}"
            slot["best_text"] = _("best {change}").format(change=change)
            slot["aria"] = _("{helper}: {card}; bonus: {bonus}; best score change {change}").format(
                helper=title, card=label, bonus=bonus, change=change)
        else:
            slot["aria"] = _("{helper}: {card}; bonus: {bonus}").format(helper=title, card=label, bonus=bonus)
        market.append(slot)
    return market


def _status(view: dict[str, Any], names: dict[int, str]) -> dict[str, str]:
    """Return the status line's texts (HTML where a number or a name is in bold)."""
    still = [names[seat] for seat in view["still_to_play"]]
    current = names.get(view["current"], "") if view["current"] is not None else ""
    drops, burrows = view["supply"]["drops"], view["supply"]["burrows"]
    return {
        "round": marked(_("Round {round} of {total}"), round=strong(view["round"]), total=str(view["rounds_total"])),
        "to_play": marked(_("To play: {player}"), player=strong(current)) if current else "",
        "then": _("then {players}").format(players=", ".join(still[1:])) if len(still) > 1 else "",
        "rooster": _("Rooster: {player}").format(player=names.get(view["rooster"], "")),
        "decks": _("Decks: {paths} path · {animals} animal").format(paths=view["decks"]["paths"],
                                                                    animals=view["decks"]["animals"]),
        "drops": _.ngettext("drop", "drops", drops),
        "burrows": _.ngettext("burrow", "burrows", burrows),
        "market_note": _("round {round}: one card each, not refilled until the round ends").format(round=view["round"]),
    }


def _revealed(view: dict[str, Any]) -> dict[str, Any] | None:
    """Return the replay's reveal after the end (Engine.view_after_end): both decks in dealing order, described."""
    if not view.get("revealed"):
        return None
    cards = view["cards"]
    paths, animals = view["revealed"]["paths"], view["revealed"]["animals"]
    counts = {
        "paths": _.ngettext("{count} path card", "{count} path cards", len(paths)).format(count=len(paths)),
        "animals": _.ngettext("{count} animal card", "{count} animal cards", len(animals)).format(count=len(animals)),
    }
    return {
        "title": _("Revealed after the game:"),
        "summary": _("the decks in dealing order, next first ({paths}, {animals})").format(**counts),
        "paths_heading": _("Path deck ({count}):").format(count=len(paths)),
        "animals_heading": _("Animal deck ({count}):").format(count=len(animals)),
        "paths": [{"card": card, "label": describe(cards[card])} for card in paths],
        "animals": [{"card": card, "label": describe(cards[card])} for card in animals],
    }


def board_data(view: dict[str, Any], moves: list[dict[str, Any]] | None) -> dict[str, Any]:
    """Return everything board.html draws: card pictures, the market, the forests, the move data and the words."""
    moves = moves or []
    cards = view["cards"]
    pictures: dict[str, dict[str, Any]] = {}
    data = _data(view, moves)
    best: dict[str, int] = {}
    if data:
        before = data["before"]["t"]
        for move in data["moves"]:
            slot = data["placements"][move["p"]]["slot"]
            best[slot] = max(best.get(slot, -10**6), move["t"] - before)
    market = _market(view, best, pictures)
    you = view.get("you")
    order = sorted(view["seats"], key=lambda seat: (seat["seat"] != you, seat["seat"]))
    forests = [_forest(view, seat, pictures, acting=data is not None and seat["seat"] == you) for seat in order]
    discard = [{"card": card, "label": describe(cards[card])} for card in view["discard"]]
    names = {seat["seat"]: seat["name"] for seat in view["seats"]}
    words = page_words()
    return {
        "first_name": names.get(view["first_player"], ""),
        "rooster_name": names.get(view["rooster"], ""),
        "current_name": names.get(view["current"], "") if view["current"] is not None else "",
        "still_to_play": [names[seat] for seat in view["still_to_play"]],
        "spectator": you is None,
        "pictures": [pictures[key] for key in sorted(pictures)],
        "market": market,
        "forests": forests,
        "discard": discard,
        "discard_summary": _("{key} · discarded cards ({count})").format(key=words["key"], count=len(discard)),
        "revealed": _revealed(view),
        "my_turn": data is not None,
        "json": _script_json(data) if data is not None else "",
        "cell": S,
        "pad": PAD,
        "words": words,
        "status": _status(view, names),
        "script_words": script_words() if data is not None else None,
    }
