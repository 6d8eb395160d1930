"""The e-mail picture of a Carcassonne: Hunters and Gatherers position: a PNG of the board around the latest tiles.

Drawn with Pillow from a view alone (so it shows nothing a player may not know): a window of up to
7 × 7 squares centred on the most recent placements, the tiles' terrain, rivers, lakes with fish,
animals, menhirs and powers from ``art.tile_art``, the pieces in player colours, the latest tiles
framed, coordinates on the margins, and a header with the scores and the tile to place. The
drawing is made at twice the size and scaled down, so it is smooth and byte-for-byte deterministic.

Its words are the reader's (``terms`` and this package's catalog). Pillow's default font has no
accented letters (no ő, ű, ä, ö, ü, ß: it draws boxes for them), so a text the font cannot draw is
left out of the picture, and a player's name is drawn without its accents when that is enough; the
email's text says everything the picture leaves out.
"""

from __future__ import annotations

import io
import unicodedata
from functools import cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from games.carcassonne_hg import art, terms
from games.carcassonne_hg.options import NAME
from games.i18n import catalog_of

_ = catalog_of(__name__)

SEAT_COLOURS = ["#d7263d", "#1b6ec2", "#f4c20d", "#7b3fa0", "#f5f5f5"]
WINDOW = 7  # squares across and down at most
TILE = 84  # pixels per square in the final picture
SCALE = 2  # supersampling
MARGIN = 22
HEADER = 64
FOOTER = 26

MEADOW = "#a7c96b"
MEADOW_EDGE = "#8fb158"
FOREST = "#2f6b35"
FOREST_EDGE = "#1f4a24"
WATER = "#3f86cf"
WATER_EDGE = "#245f9e"
EMPTY = "#efe9dc"
GRID = "#d8cfbb"
INK = "#222222"
ANIMALS = {
    "deer": ("#9a6233", "D"),
    "aurochs": ("#3b2a20", "A"),
    "mammoth": ("#7d7468", "M"),
    "tiger": ("#f08a1c", "T"),
}


@cache
def _font(size: int) -> ImageFont.ImageFont:
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, OSError):  # Pillow without FreeType: the fixed bitmap font
        return ImageFont.load_default()


@cache
def _box(size: int) -> bytes:
    """Return what the font draws for a letter it does not have (a box)."""
    return bytes(_font(size).getmask("\uffff"))


@cache
def _has(size: int, char: str) -> bool:
    return char.isspace() or bytes(_font(size).getmask(char)) != _box(size)


def drawable(text: str, size: int) -> bool:
    """Tell whether the default font draws every letter of ``text`` (not a box for any)."""
    return all(_has(size, char) for char in text)


def _name(text: str, size: int) -> str:
    """Return a player's name as the font can draw it: as is, without accents, or "" (left out)."""
    if drawable(text, size):
        return text
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return plain if drawable(plain, size) else ""


def placements(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the view's board (``[x, y, tile, rot, placed by]`` per tile) as ``{x, y, tile, rot, placed_by}`` dicts."""
    return [dict(zip(("x", "y", "tile", "rot", "placed_by"), entry)) for entry in view["board"]]


def window(view: dict[str, Any]) -> tuple[int, int, int, int]:
    """Return the squares shown (west, east, south, north), at most ``WINDOW`` wide and high.

    Centred on the mean of the latest placements (one per player), moved to keep the very latest tile
    inside, and to stay on the board.
    """
    board = placements(view)
    recent = board[-max(1, len(view["seats"])):]
    xs = [b["x"] for b in board]
    ys = [b["y"] for b in board]
    cx = round(sum(b["x"] for b in recent) / len(recent))
    cy = round(sum(b["y"] for b in recent) / len(recent))

    def span(lo: int, hi: int, centre: int, latest: int) -> tuple[int, int]:
        lo, hi = lo - 1, hi + 1  # one empty ring round the board, where the next tile may go
        if hi - lo + 1 <= WINDOW:
            return lo, hi
        start = centre - WINDOW // 2
        start = min(max(start, latest - WINDOW + 2), latest - 1)  # the latest tile and a square beyond it
        start = min(max(start, lo), hi - WINDOW + 1)
        return start, start + WINDOW - 1

    west, east = span(min(xs), max(xs), cx, board[-1]["x"])
    south, north = span(min(ys), max(ys), cy, board[-1]["y"])
    return west, east, south, north


def view_picture(view: dict[str, Any]) -> bytes:
    """Return the PNG picture of ``view`` (see the module docstring)."""
    west, east, south, north = window(view)
    cols, rows = east - west + 1, north - south + 1
    tile = TILE * SCALE
    margin = MARGIN * SCALE
    header = HEADER * SCALE
    width = max(cols * tile + 2 * margin, 600 * SCALE)
    height = header + rows * tile + 2 * margin + FOOTER * SCALE
    image = Image.new("RGB", (width, height), "#fbf8f1")
    draw = ImageDraw.Draw(image)
    left = (width - cols * tile) // 2
    top = header + margin
    small = _font(11 * SCALE)

    def origin(x: int, y: int) -> tuple[int, int]:
        return left + (x - west) * tile, top + (north - y) * tile

    draw.rectangle([left, top, left + cols * tile, top + rows * tile], fill=EMPTY)
    for i in range(cols + 1):
        draw.line([left + i * tile, top, left + i * tile, top + rows * tile], fill=GRID, width=SCALE)
    for j in range(rows + 1):
        draw.line([left, top + j * tile, left + cols * tile, top + j * tile], fill=GRID, width=SCALE)
    for x in range(west, east + 1):
        ox, _ = origin(x, north)
        _centred(draw, (ox + tile // 2, top - margin // 2), str(x), small, "#7a705e")
        _centred(draw, (ox + tile // 2, top + rows * tile + margin // 2), str(x), small, "#7a705e")
    for y in range(south, north + 1):
        _, oy = origin(west, y)
        _centred(draw, (left - margin // 2, oy + tile // 2), str(y), small, "#7a705e")
        _centred(draw, (left + cols * tile + margin // 2, oy + tile // 2), str(y), small, "#7a705e")

    edition = view["edition"]
    board = placements(view)
    shown = [b for b in board if west <= b["x"] <= east and south <= b["y"] <= north]
    for placed in shown:
        draw_tile(draw, edition, placed["tile"], placed["rot"], origin(placed["x"], placed["y"]), tile)
    cancelled = {(x, y, region) for x, y, region in view["cancelled"]}
    for placed in shown:
        found = art.tile_art(edition, placed["tile"])
        ox, oy = origin(placed["x"], placed["y"])
        for x, y, region in cancelled:
            if (x, y) == (placed["x"], placed["y"]):
                ax, ay = art.rotate_point(found["anchors"][region], placed["rot"])
                _cross(draw, (ox + ax * tile / 100, oy + ay * tile / 100), tile * 0.16, "#7a2020", 3 * SCALE)
    for piece in view["pieces"]:
        placed = next((b for b in shown if (b["x"], b["y"]) == (piece["x"], piece["y"])), None)
        if placed is None:
            continue
        found = art.tile_art(edition, placed["tile"])
        ax, ay = art.rotate_point(found["anchors"][piece["region"]], placed["rot"])
        ox, oy = origin(placed["x"], placed["y"])
        draw_piece(draw, piece["kind"], SEAT_COLOURS[piece["seat"] % 5], (ox + ax * tile / 100, oy + ay * tile / 100), tile)
    recent = board[-max(1, len(view["seats"])):]
    for age, placed in enumerate(reversed(recent)):
        if placed not in shown or placed["placed_by"] is None:
            continue
        ox, oy = origin(placed["x"], placed["y"])
        colour = SEAT_COLOURS[placed["placed_by"] % 5]
        inset = 2 * SCALE
        thick = (4 if age == 0 else 2) * SCALE
        draw.rectangle([ox + inset, oy + inset, ox + tile - inset, oy + tile - inset], outline=INK, width=thick + 2 * SCALE)
        draw.rectangle([ox + inset, oy + inset, ox + tile - inset, oy + tile - inset], outline=colour, width=thick)

    _header(draw, view, width, header)
    _legend(draw, (12 * SCALE, height - FOOTER * SCALE + 4 * SCALE))
    image = image.resize((width // SCALE, height // SCALE), Image.LANCZOS)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any], width: int, header: int) -> None:
    title = _font(15 * SCALE)
    text = _font(13 * SCALE)
    state = _("game over") if view["phase"] == "over" else _("turn {turn}").format(turn=view["turn"])
    heading = _("{game} · {state}").format(game=_(NAME), state=state)
    heading = heading if drawable(heading, 15 * SCALE) else state if drawable(state, 15 * SCALE) else ""
    draw.text((12 * SCALE, 8 * SCALE), heading, font=title, fill=INK)
    x = 12 * SCALE
    y = 34 * SCALE
    to_play = _("(to play)")
    for seat in view["seats"]:
        colour = SEAT_COLOURS[seat["seat"] % 5]
        draw.rectangle([x, y, x + 14 * SCALE, y + 14 * SCALE], fill=colour, outline=INK, width=SCALE)
        mark = f" {to_play}" if seat["seat"] == view["current"] and drawable(to_play, 13 * SCALE) else ""
        label = " ".join(filter(None, [_name(seat["name"], 13 * SCALE), str(seat["score"])])) + mark
        draw.text((x + 19 * SCALE, y - SCALE), label, font=text, fill=INK)
        x += int(draw.textlength(label, font=text)) + 36 * SCALE
    if view["phase"] != "over" and view["tile"]:
        size = 52 * SCALE
        ox = width - size - 8 * SCALE
        oy = 6 * SCALE
        draw_tile(draw, view["edition"], view["tile"], 0, (ox, oy), size)
        draw.rectangle([ox, oy, ox + size, oy + size], outline=INK, width=SCALE)
        to_place = _("to place:")
        if drawable(to_place, 13 * SCALE):
            draw.text((ox - 8 * SCALE, oy + size // 2), to_place, font=text, fill=INK, anchor="rm")


def _legend(draw: ImageDraw.ImageDraw, at: tuple[int, int]) -> None:
    """Say what the icons mean along the bottom."""
    text = _font(12 * SCALE)
    x, y = at
    k = 1.6 * SCALE
    animals, icons = terms.names("animal"), terms.names("icon")
    entries = [(icon, animals[icon]) for icon in ANIMALS] + [("fish", animals["fish"]), ("menhir", icons["menhir"]),
                                                             ("mushrooms", icons["mushrooms"])]
    for icon, label in entries:
        if not drawable(label, 12 * SCALE):
            continue  # an icon without its word would explain nothing
        draw_icon(draw, icon, (x + 8 * SCALE, y + 8 * SCALE), k)
        draw.text((x + 19 * SCALE, y + 8 * SCALE), label, font=text, fill=INK, anchor="lm")
        x += int(draw.textlength(label, font=text)) + 34 * SCALE
    letters = terms.names("piece_letter")
    pieces = _("{letters} = pieces").format(letters=" ".join(letters[kind] for kind in ("gatherer", "fisherman", "hunter")))
    if drawable(pieces, 12 * SCALE):
        draw.text((x, y + 8 * SCALE), pieces, font=text, fill=INK, anchor="lm")


def draw_tile(draw: ImageDraw.ImageDraw, edition: str, tile_id: str, rot: int, at: tuple[int, int], size: int) -> None:
    """Draw a tile turned ``rot`` degrees clockwise with its top-left corner at ``at``, ``size`` pixels wide."""
    found = art.tile_art(edition, tile_id)
    ox, oy = at
    k = size / 100

    def point(p) -> tuple[float, float]:
        x, y = art.rotate_point(p, rot)
        return ox + x * k, oy + y * k

    draw.rectangle([ox, oy, ox + size, oy + size], fill=MEADOW)
    for river in found["rivers"]:
        points = [point(p) for p in river["points"]]
        draw.line(points, fill=WATER_EDGE, width=int(11 * k), joint="curve")
        draw.line(points, fill=WATER, width=int(8 * k), joint="curve")
        if river["spring"]:
            cx, cy = point(river["spring"])
            r = 5 * k
            draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill="#bfe3ff", outline=WATER_EDGE, width=max(1, int(k)))
    for shape in found["shapes"]:
        fill, edge = (FOREST, FOREST_EDGE) if shape["kind"] == "forest" else (WATER, WATER_EDGE)
        draw.polygon([point(p) for p in shape["points"]], fill=fill, outline=edge, width=max(1, int(size / 60)))
    draw.rectangle([ox, oy, ox + size, oy + size], outline=MEADOW_EDGE, width=max(1, int(size / 90)))
    for icon in found["icons"]:
        draw_icon(draw, icon["icon"], point((icon["x"], icon["y"])), k)


def draw_icon(draw: ImageDraw.ImageDraw, icon: str, at: tuple[float, float], k: float) -> None:
    """Draw one icon (animal, fish, menhir, nugget, mushrooms, power) centred on ``at``; ``k`` pixels per tile unit."""
    x, y = at
    if icon == "fish":
        w, h = 6 * k, 3 * k
        draw.ellipse([x - w, y - h, x + w * 0.4, y + h], fill="#f7fbff", outline="#1c3f66", width=max(1, int(k * 0.8)))
        draw.polygon([(x + w * 0.3, y), (x + w, y - h), (x + w, y + h)], fill="#f7fbff", outline="#1c3f66")
        return
    if icon in ANIMALS:
        colour, letter = ANIMALS[icon]
        r = 6.5 * k
        draw.ellipse([x - r, y - r, x + r, y + r], fill=colour, outline="#fdf6e3", width=max(1, int(1.4 * k)))
        if icon == "tiger":
            for dx in (-0.45, 0.0, 0.45):
                draw.line([(x + dx * r, y - r * 0.8), (x + dx * r, y + r * 0.8)], fill="#2a1a0a", width=max(1, int(k)))
        return
    if icon in ("menhir", "nugget"):
        colour = "#c9c4b8" if icon == "menhir" else "#f2c230"
        draw.polygon([(x - 4 * k, y + 7 * k), (x - 2.5 * k, y - 7 * k), (x + 2.5 * k, y - 8 * k), (x + 4 * k, y + 7 * k)],
                     fill=colour, outline=INK, width=max(1, int(k)))
        return
    if icon == "mushrooms":
        for dx in (-3.5, 3.5):
            draw.rectangle([x + dx * k - k, y, x + dx * k + k, y + 5 * k], fill="#f4ead2")
            draw.pieslice([x + dx * k - 4 * k, y - 4 * k, x + dx * k + 4 * k, y + 4 * k], 180, 360, fill="#d33a2c",
                          outline=INK)
        return
    letter = terms.names("power_letter").get(icon, "?")
    r = 7 * k
    draw.ellipse([x - r, y - r, x + r, y + r], fill="#fff4cf", outline="#8a5a00", width=max(1, int(1.2 * k)))
    size = max(8, int(10 * k))
    if drawable(letter, size):
        _centred(draw, (x, y), letter, _font(size), "#5a3a00")


def draw_piece(draw: ImageDraw.ImageDraw, kind: str, colour: str, at: tuple[float, float], tile: int) -> None:
    """Draw a tribe member (a little figure) or a hut in the seat's colour, centred on ``at``."""
    x, y = at
    s = tile / 100
    line = max(1, int(1.6 * s))
    if kind == "hut":
        body = [(x - 9 * s, y + 8 * s), (x - 9 * s, y - 1 * s), (x, y - 10 * s), (x + 9 * s, y - 1 * s), (x + 9 * s, y + 8 * s)]
        draw.polygon(body, fill=colour, outline=INK, width=line)
        draw.rectangle([x - 2.5 * s, y + 1 * s, x + 2.5 * s, y + 8 * s], fill=INK)
        return
    body = [
        (x - 9 * s, y + 9 * s), (x - 7 * s, y + 1 * s), (x - 11 * s, y - 2 * s), (x - 9 * s, y - 5 * s),
        (x + 9 * s, y - 5 * s), (x + 11 * s, y - 2 * s), (x + 7 * s, y + 1 * s), (x + 9 * s, y + 9 * s),
    ]
    draw.polygon(body, fill=colour, outline=INK, width=line)
    r = 4.6 * s
    draw.ellipse([x - r, y - 5 * s - 2 * r + s, x + r, y - 5 * s + s], fill=colour, outline=INK, width=line)
    mark = terms.names("piece_letter")[kind]
    size = max(8, int(9 * s))
    if drawable(mark, size):
        _centred(draw, (x, y + 3 * s), mark, _font(size), "#ffffff" if colour not in ("#f4c20d", "#f5f5f5") else INK)


def _cross(draw: ImageDraw.ImageDraw, at: tuple[float, float], r: float, colour: str, width: int) -> None:
    x, y = at
    draw.line([(x - r, y - r), (x + r, y + r)], fill=colour, width=width)
    draw.line([(x - r, y + r), (x + r, y - r)], fill=colour, width=width)


def _centred(draw: ImageDraw.ImageDraw, at: tuple[float, float], text: str, font, fill: str) -> None:
    draw.text(at, text, font=font, fill=fill, anchor="mm")
