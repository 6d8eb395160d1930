"""The web board's tile drawings: the SVG part of ``art.tile_art`` for every tile of an edition.

They depend on no game, so the engine hands them to the platform once as static assets
(``Engine.assets``: ``art-revised``, ``art-classic``), served at a content-hashed URL that browsers
keep, instead of repeating them in every view. Drawing a whole tile set takes seconds, so the
drawings are stored in ``hg-art.json``; after changing ``art.py`` or ``art_curves.py`` write it
again with ``python -m games.carcassonne_hg.web_art`` (``tests/games/carcassonne_hg/test_web_art.py``
fails until the stored drawings are what ``art.py`` draws).
"""

from __future__ import annotations

import json
import sys
from functools import cache
from importlib import resources
from typing import Any

from games.carcassonne_hg import art, tiles

STORED = "hg-art.json"


def asset_name(edition: str) -> str:
    """Return the name of the asset holding an edition's drawings (see ``assets``)."""
    return f"art-{edition}"


def drawing(edition: str, tile_id: str) -> dict[str, Any]:
    """Return a tile's drawing for the web board, computed: ``art.tile_art`` without the polygon copies.

    ``shapes``: ``[{kind: forest|lake, region, d}]`` (``d`` an SVG path); ``rivers``: ``[{region, d,
    spring}]`` (``spring``: ``[x, y]`` or null); ``icons``: ``[{icon, x, y, region}]``; ``anchors``:
    ``{region id: [x, y]}`` where a piece stands. Coordinates are in the tile's 100 × 100 box as
    printed (y down); the board turns the whole drawing by the placement's ``rot``.
    """
    found = art.tile_art(edition, tile_id)
    return {
        "shapes": [{"kind": s["kind"], "region": s["region"], "d": s["d"]} for s in found["shapes"]],
        "rivers": [{"region": r["region"], "d": r["d"], "spring": r["spring"]} for r in found["rivers"]],
        "icons": [dict(icon) for icon in found["icons"]],
        "anchors": {region: list(point) for region, point in found["anchors"].items()},
    }


@cache
def _stored_text() -> str:
    return resources.files(__package__).joinpath(STORED).read_text(encoding="utf-8")


@cache
def _stored() -> dict[str, dict[str, Any]]:
    return json.loads(_stored_text())


def drawings(edition: str) -> dict[str, dict[str, Any]]:
    """Return ``{tile id: drawing}`` for every tile of an edition, as stored in ``hg-art.json`` (shared: read only)."""
    return _stored()[edition]


def assets() -> dict[str, dict[str, Any]]:
    """Return the engine's static assets, each edition's drawings by asset name, as a copy of its own."""
    stored = json.loads(_stored_text())
    return {asset_name(edition): stored[edition] for edition in tiles.EDITIONS}


def board_data(view: dict[str, Any], moves: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Return the board for the template: the compact picture the board script draws, and how many tiles.

    ``picture`` is embedded in the page as JSON and drawn by ``static/js/carcassonne-board.js``, so a
    late board costs a few bytes per tile instead of its SVG markup: ``tiles``, the view's ``board``
    (``[x, y, tile id, rot, placed by]`` in placement order; placed by None: the start tile);
    ``pieces`` ``[x, y, seat, kind, ax, ay]`` and ``covered`` ``[x, y, ax, ay]`` (the meadows whose
    animals the hunting trap covered), where ``ax, ay`` is the region's spot in the tile's box as
    printed; ``last`` ``[x, y]`` of the latest placement (framed), or None; ``names``: the seats'
    names, by seat. The legal placements are not repeated here: the script reads them from the moves
    the page embeds. ``count``: the tiles on the board. The drawings themselves are not here: the
    board fetches them once.
    """
    drawn = drawings(view["edition"])
    spots = {(x, y): drawn[tile_id]["anchors"] for x, y, tile_id, *_ in view["board"]}  # by square
    last = view["last"]
    return {
        "picture": {
            "tiles": view["board"],
            "pieces": [
                [p["x"], p["y"], p["seat"], p["kind"], *spots[p["x"], p["y"]][p["region"]]]
                for p in view["pieces"]
            ],
            "covered": [[x, y, *spots[x, y][region]] for x, y, region in view["cancelled"]],
            "last": None if last is None else [last["x"], last["y"]],
            "names": [seat["name"] for seat in view["seats"]],
        },
        "count": len(view["board"]),
    }


def stored_text() -> str:
    """Return ``hg-art.json`` as ``art.py`` draws it now: one tile per line, so a change reads as a diff."""
    lines = ["{"]
    for e, edition in enumerate(tiles.EDITIONS):
        lines.append(f"{json.dumps(edition)}: {{")
        ids = sorted(tiles.catalogue(edition))
        for i, tile_id in enumerate(ids):
            comma = "," if i < len(ids) - 1 else ""
            lines.append(f"{json.dumps(tile_id)}: {json.dumps(drawing(edition, tile_id), sort_keys=True)}{comma}")
        lines.append("}," if e < len(tiles.EDITIONS) - 1 else "}")
    lines.append("}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    with resources.as_file(resources.files(__package__).joinpath(STORED)) as target:
        target.write_text(stored_text(), encoding="utf-8")
    sys.stdout.write(f"wrote {target}\n")
