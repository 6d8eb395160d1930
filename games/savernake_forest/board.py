"""Drawing data for the Savernake Forest board (templates/games/savernake-forest/board.html).

The platform passes ``board_data(view, moves)`` to the board template as ``board``.

Everything comes from the seat's view and its legal moves: card pictures from
``view["cards"]`` (the printed facts of visible cards, turned here), forests
from ``view["seats"]``, and the score each move would leave from
``games.savernake_forest.preview`` (the engine's own scoring on public data).
Geometry is easier here than in a template: a card is a 120×120 square, path
ends meet the middle of its sides, a curve is a quarter circle around the
corner between its two sides, and food icons sit along the path.
"""

from __future__ import annotations

import json
import math
from typing import Any

from games.savernake_forest.preview import move_previews


S = 120  # a card's side in SVG units
PAD = 6  # space around a forest
HALF = S // 2
MID = {0: (HALF, 0), 1: (S, HALF), 2: (HALF, S), 3: (0, HALF)}  # N, E, S, W
SIDE_NAMES = ("north", "east", "south", "west")
FOODS = ("B", "W", "E", "N")
FOOD_NAMES = {"B": "berries", "W": "worms", "E": "eggs", "N": "nuts"}
FOOD_ONE = {"B": "berry", "W": "worm", "E": "egg", "N": "nut"}
# Food corners of an animal card (they stay upright when the card turns: only the den's exits turn).
CHIP = {"B": (3, 23), "W": (87, 23), "E": (3, 75), "N": (87, 75)}
CHIP_W, CHIP_H = 30, 22
SLOT_TEXT = {
    "rooster": ("Rooster", "go first next round"),
    "goat": ("Goat", "a water drop: +1 per stored food of one kind"),
    "armadillo": ("Armadillo", "a burrow: +1 storage"),
    "rabbit": ("Rabbit", "a new animal"),
}


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
    picture.update(
        name=info["name"],
        base=info["base"],
        capacity=info["capacity"],
        stubs=[f"M{HALF} {HALF} L{MID[side][0]} {MID[side][1]}" for side in exits],
        chips=[
            {"food": food, "value": info["values"][food], "x": CHIP[food][0], "y": CHIP[food][1],
             "name": FOOD_NAMES[food]}
            for food in FOODS
        ],
        long=len(info["name"]) > 10,
    )
    return picture


def describe(info: dict[str, Any], rot: int = 0) -> str:
    """Return a short text of a card for labels: "Hedgehog: 5 points, stores 3; berries 1, worms 3, …"."""
    if info["type"] == "animal":
        values = ", ".join(f"{FOOD_NAMES[f]} {info['values'][f]}" for f in FOODS)
        exits = ", ".join(SIDE_NAMES[(side + rot) % 4] for side in sorted(info["exits"]))
        facts = f"{info['base']} points, stores {info['capacity']}"
        return f"{info['name']} ({info['id']}): {facts}; {values}; den open {exits}"
    shape = {"ST": "straight", "CU": "curve", "DC": "double curve"}[info["shape"]]
    parts = []
    for segment in info["segments"]:
        sides = "–".join(SIDE_NAMES[side] for side in sorted((s + rot) % 4 for s in segment["sides"]))
        foods = " ".join(FOOD_ONE[f] for f in segment["foods"]) or "no food"
        parts.append(f"{sides}: {foods}")
    return f"{shape} path ({info['id']}): " + "; ".join(parts)


def _forest(view: dict[str, Any], seat: dict[str, Any], pictures: dict[str, dict[str, Any]]) -> dict[str, Any]:
    cards = view["cards"]
    box = seat["box"]
    xs = [box["min_x"], box["max_x"], *(x for x, _ in seat["open_cells"])]
    ys = [box["min_y"], box["max_y"], *(y for _, y in seat["open_cells"])]
    min_x, min_y = min(xs), min(ys)
    cols, rows = max(xs) - min_x + 1, max(ys) - min_y + 1
    sheets = {item["card"]: item for item in seat["animals"]}
    placed = []
    for number, entry in enumerate(seat["forest"]):
        info = cards[entry["card"]]
        px, py = PAD + (entry["x"] - min_x) * S, PAD + (entry["y"] - min_y) * S
        cell: dict[str, Any] = {
            "card": entry["card"], "x": entry["x"], "y": entry["y"], "rot": entry["rot"], "px": px, "py": py,
            "type": entry["type"], "latest": number == len(seat["forest"]) - 1 and number > 0,
        }
        if entry["type"] == "path":
            pictures.setdefault(f"{entry['card']}-{entry['rot']}", card_picture(info, entry["rot"]))
            cell.update(href=f"#sf-c-{entry['card']}-r{entry['rot']}", label=describe(info, entry["rot"]))
        elif entry["up"]:
            pictures.setdefault(f"{entry['card']}-{entry['rot']}", card_picture(info, entry["rot"]))
            sheet = sheets.get(entry["card"])
            cell.update(
                href=f"#sf-c-{entry['card']}-r{entry['rot']}", up=True, name=info["name"],
                drops=[
                    {"food": f, "x": _drop_x(f), "y": CHIP[f][1] + 3, "name": FOOD_NAMES[f]} for f in entry["drops"]
                ],
                burrows=entry["burrows"], score=sheet["score"] if sheet else 0,
                targets=[{"food": f, "x": CHIP[f][0], "y": CHIP[f][1], "name": FOOD_NAMES[f]} for f in FOODS],
                label=describe(info, entry["rot"]),
            )
        else:
            label = f"{info['name']} ({entry['card']}), face down"
            cell.update(href="#sf-back", up=False, name=info["name"], label=label)
        placed.append(cell)
    open_cells = [
        {"x": x, "y": y, "px": PAD + (x - min_x) * S, "py": PAD + (y - min_y) * S} for x, y in seat["open_cells"]
    ]
    animals = []
    for entry in seat["forest"]:
        if entry["type"] != "animal":
            continue
        info = cards[entry["card"]]
        sheet = sheets.get(entry["card"])
        animals.append({
            "card": entry["card"], "name": info["name"], "up": entry["up"], "scoring": bool(sheet),
            "score": sheet["score"] if sheet else 0, "base": info["base"],
            "capacity": sheet["capacity"] if sheet else info["capacity"],
            "stored": [{"food": f, "name": FOOD_ONE[f]} for f in sheet["stored"]] if sheet else [],
            "food_points": sheet["food_points"] if sheet else 0,
            "drops": [{"food": f, "name": FOOD_NAMES[f]} for f in entry["drops"]], "burrows": entry["burrows"],
        })
    return {
        "seat": seat["seat"], "name": seat["name"], "score": seat["score"], "stored": seat["stored"],
        "rooster": seat["rooster"], "left": seat.get("left", False), "cards": seat["cards"],
        "you": seat["seat"] == view.get("you"), "current": seat["seat"] == view.get("current"),
        "winner": bool(view.get("result")) and seat["seat"] in view["result"]["winners"],
        "cols": cols, "rows": rows, "width": cols * S + 2 * PAD, "height": rows * S + 2 * PAD,
        "placed": placed, "open": open_cells, "animals": animals,
    }


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
    names = {card: info["name"] for card, info in cards.items() if info["type"] == "animal"}
    return {
        "seat": previews["seat"], "before": _compact_sheet(previews["before"]),
        "placements": placements, "moves": found, "names": names, "foods": FOOD_NAMES,
    }


def _script_json(value: Any) -> str:
    """JSON safe inside a <script> element (escaped as Django's json_script does)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return text.replace("&", "\\u0026").replace("<", "\\u003C").replace(">", "\\u003E")


def board_data(view: dict[str, Any], moves: list[dict[str, Any]] | None) -> dict[str, Any]:
    """Return everything board.html draws: card pictures, the market, the forests and the move data."""
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
    market = []
    for item in view["market"]:
        card = item["card"]
        title, bonus = SLOT_TEXT[item["slot"]]
        slot: dict[str, Any] = {"slot": item["slot"], "card": card, "title": title, "bonus": bonus,
                                "playable": item["slot"] in best, "best": best.get(item["slot"])}
        if card is not None:
            info = cards[card]
            for rot in range(4):
                pictures.setdefault(f"{card}-{rot}", card_picture(info, rot))
            slot.update(href=f"#sf-c-{card}-r0", label=describe(info), type=info["type"],
                        name=info.get("name") or describe(info).split(" (")[0])
        market.append(slot)
    you = view.get("you")
    order = sorted(view["seats"], key=lambda seat: (seat["seat"] != you, seat["seat"]))
    forests = [_forest(view, seat, pictures) for seat in order]
    discard = [{"card": card, "label": describe(cards[card])} for card in view["discard"]]
    names = {seat["seat"]: seat["name"] for seat in view["seats"]}
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
        # The replay after the end (Engine.view_after_end): both decks in dealing order, described.
        "revealed": {
            deck: [{"card": card, "label": describe(cards[card])} for card in view["revealed"][deck]]
            for deck in ("paths", "animals")
        } if view.get("revealed") else None,
        "my_turn": data is not None,
        "json": _script_json(data) if data is not None else "",
        "cell": S,
        "pad": PAD,
    }
