"""Tile artwork for Carcassonne: Hunters and Gatherers, computed from the catalogue (no images).

Each tile type is drawn in a 100 × 100 box in its printed orientation, y down, north at the top
(callers rotate the whole drawing by the placement's ``rot``). Rivers are fixed curves from edge
middles to each other, to a lake or to a spring; lakes are blobs where their rivers meet. The land
between them is shared out on a 40 × 40 raster by growing every forest and meadow from its edge
segments (forests grow slower, so they stay near their edges). Two different meadows (or forests)
must never touch, as on a real tile, so where they meet the neighbouring forest, lake or meadow
fills the gap. Forest and lake outlines are traced from the raster and smoothed. The curves
(river courses, smoothing) are in ``art_curves.py``; this module is the raster and what is read
from it.

``tile_art`` returns plain data (shapes, icon spots, one anchor per region where a piece stands)
used by the web board (its SVG part, stored and served as a static asset: ``web_art.py``) and the
e-mail picture (``picture.py``, Pillow).
"""

from __future__ import annotations

import heapq
import math
from functools import cache
from typing import Any

from games.carcassonne_hg import tiles
from games.carcassonne_hg.art_curves import (
    CENTRE,
    SIZE,
    Point,
    lake_centre,
    river_courses,
    simplify,
    smooth_path,
    smooth_points,
    toward,
)
from games.carcassonne_hg.tiles import FOREST, LAKE, MEADOW, RIVER, Tile

GRID = 40
CELL = SIZE / GRID
RIVER_HALF_WIDTH = 4.5
GROWTH_COST = {FOREST: 1.55, MEADOW: 1.0}


def edge_point(direction: str, t: float) -> Point:
    """Return the point at ``t`` (0..100) along an edge, walking clockwise round the tile (§2 segments)."""
    return {
        "N": (t, 0.0),
        "E": (100.0, t),
        "S": (100.0 - t, 100.0),
        "W": (0.0, 100.0 - t),
    }[direction]


def segment_span(tile: Tile, direction: str, index: int) -> tuple[float, float]:
    """Return where segment ``index`` of an edge lies along it: thirds, or a narrow middle on river edges."""
    edge = tile.edges[tiles.DIRECTIONS.index(direction)]
    cuts = (0.0, 40.0, 60.0, 100.0) if edge == "R" else (0.0, 100 / 3, 200 / 3, 100.0)
    return cuts[index], cuts[index + 1]


# -- the raster partition ------------------------------------------------------------------


def _cells_near(points: list[Point], radius: float) -> set[tuple[int, int]]:
    found = set()
    for px, py in points:
        lo_i, hi_i = int((px - radius) / CELL) - 1, int((px + radius) / CELL) + 1
        lo_j, hi_j = int((py - radius) / CELL) - 1, int((py + radius) / CELL) + 1
        for i in range(max(lo_i, 0), min(hi_i, GRID - 1) + 1):
            for j in range(max(lo_j, 0), min(hi_j, GRID - 1) + 1):
                cx, cy = (i + 0.5) * CELL, (j + 0.5) * CELL
                if (cx - px) ** 2 + (cy - py) ** 2 <= radius * radius:
                    found.add((i, j))
    return found


def _dense(points: list[Point], step: float = 1.0) -> list[Point]:
    out = [points[0]]
    for a, b in zip(points, points[1:]):
        n = max(1, int(math.dist(a, b) / step))
        out.extend(toward(a, b, k / n) for k in range(1, n + 1))
    return out


def _edge_cells(tile: Tile, direction: str, index: int) -> list[tuple[int, int]]:
    lo, hi = segment_span(tile, direction, index)
    cells = []
    for k in range(GRID):
        t = (k + 0.5) * CELL
        if not lo <= t <= hi:
            continue
        x, y = edge_point(direction, t)
        cells.append((min(int(x / CELL), GRID - 1), min(int(y / CELL), GRID - 1)))
    return cells


NEIGHBOURS4 = ((1, 0), (-1, 0), (0, 1), (0, -1))
NEIGHBOURS8 = NEIGHBOURS4 + ((1, 1), (1, -1), (-1, 1), (-1, -1))


def _partition(tile: Tile, lakes: dict[str, Point], rivers: dict[str, dict]) -> dict[tuple[int, int], str]:
    """Return the region id of every raster cell."""
    label: dict[tuple[int, int], str] = {}
    for region_id, course in rivers.items():
        for cell in _cells_near(_dense(course["points"]), RIVER_HALF_WIDTH):
            label[cell] = region_id
    lake_count = len(lakes)
    for region_id, centre in lakes.items():
        for cell in _cells_near([centre], 17.5 if lake_count == 1 else 13.0):
            label[cell] = region_id
    kind = {r.id: r.kind for r in tile.regions}
    queue: list[tuple[float, int, tuple[int, int], str]] = []
    order = 0
    for region in tile.regions:
        if region.kind not in GROWTH_COST:
            continue
        for direction, index in region.segments:
            for cell in _edge_cells(tile, direction, index):
                if cell not in label:
                    order += 1
                    heapq.heappush(queue, (0.0, order, cell, region.id))
    settled: dict[tuple[int, int], str] = {}
    while queue:
        dist, _, cell, region_id = heapq.heappop(queue)
        if cell in settled or cell in label:
            continue
        settled[cell] = region_id
        cost = GROWTH_COST[kind[region_id]]
        for di, dj in NEIGHBOURS8:
            other = (cell[0] + di, cell[1] + dj)
            if 0 <= other[0] < GRID and 0 <= other[1] < GRID and other not in settled and other not in label:
                order += 1
                step = cost * (1.4142 if di and dj else 1.0)
                heapq.heappush(queue, (dist + step, order, other, region_id))
    label.update(settled)
    _fill_unreached(label)
    _join_parts(label, kind)
    _separate(label, kind)
    if _join_parts(label, kind):
        _separate(label, kind)
    return label


def _components(cells: set[tuple[int, int]]) -> list[set[tuple[int, int]]]:
    left, parts = set(cells), []
    while left:
        first = left.pop()
        part, stack = {first}, [first]
        while stack:
            i, j = stack.pop()
            for di, dj in NEIGHBOURS4:
                other = (i + di, j + dj)
                if other in left:
                    left.remove(other)
                    part.add(other)
                    stack.append(other)
        parts.append(part)
    return parts


def _join_parts(label: dict[tuple[int, int], str], kind: dict[str, str]) -> bool:
    """Join a forest or meadow that came out in pieces with a band of land between its closest cells."""
    changed = False
    for region_id in sorted(kind):
        if kind[region_id] not in GROWTH_COST:
            continue
        parts = sorted(_components({c for c, r in label.items() if r == region_id}), key=len, reverse=True)
        for part in parts[1:]:
            a, b = min(
                ((a, b) for a in parts[0] for b in part),
                key=lambda pair: ((pair[0][0] - pair[1][0]) ** 2 + (pair[0][1] - pair[1][1]) ** 2, pair),
            )
            line = _dense([((a[0] + 0.5) * CELL, (a[1] + 0.5) * CELL), ((b[0] + 0.5) * CELL, (b[1] + 0.5) * CELL)])
            for cell in _cells_near(line, 4.0):
                if kind[label[cell]] in GROWTH_COST:
                    label[cell] = region_id
                    changed = True
    return changed


def _fill_unreached(label: dict[tuple[int, int], str]) -> None:
    missing = [(i, j) for i in range(GRID) for j in range(GRID) if (i, j) not in label]
    while missing:
        left = []
        for cell in missing:
            near = [label[(cell[0] + di, cell[1] + dj)] for di, dj in NEIGHBOURS4 if (cell[0] + di, cell[1] + dj) in label]
            if near:
                label[cell] = near[0]
            else:
                left.append(cell)
        if len(left) == len(missing):
            break
        missing = left


FILL_PREFERENCE = {MEADOW: (FOREST, LAKE, RIVER), FOREST: (MEADOW, LAKE, RIVER)}


def _separate(label: dict[tuple[int, int], str], kind: dict[str, str]) -> None:
    """Where two different meadows (or forests) touch, let a neighbouring other feature fill the seam."""
    for _ in range(GRID):
        seam = set()
        for (i, j), region_id in label.items():
            if kind[region_id] not in FILL_PREFERENCE:
                continue
            for di, dj in ((1, 0), (0, 1)):
                other = label.get((i + di, j + dj))
                if other is not None and other != region_id and kind[other] == kind[region_id]:
                    seam.add((i, j))
                    seam.add((i + di, j + dj))
        if not seam:
            return
        changes: dict[tuple[int, int], tuple[int, str]] = {}
        for cell in sorted(seam):
            mine = kind[label[cell]]
            around = [label.get((cell[0] + di, cell[1] + dj)) for di, dj in NEIGHBOURS8]
            for rank, wanted in enumerate(FILL_PREFERENCE[mine]):
                found = next((r for r in around if r is not None and kind[r] == wanted), None)
                if found is not None:
                    changes[cell] = (rank, found)
                    break
        if not changes:
            return
        # Fill with the preferred kind first (forest between meadows), so it closes the seam before a lake does.
        best = min(rank for rank, _ in changes.values())
        label.update({cell: found for cell, (rank, found) in changes.items() if rank == best})


# -- outlines traced from the raster -----------------------------------------------------


def _outline(cells: set[tuple[int, int]]) -> list[list[Point]]:
    """Return the closed boundary loops of a set of cells (corner points in tile units, clockwise)."""
    edges: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for i, j in cells:
        if (i, j - 1) not in cells:
            edges.setdefault((i, j), []).append((i + 1, j))
        if (i + 1, j) not in cells:
            edges.setdefault((i + 1, j), []).append((i + 1, j + 1))
        if (i, j + 1) not in cells:
            edges.setdefault((i + 1, j + 1), []).append((i, j + 1))
        if (i - 1, j) not in cells:
            edges.setdefault((i, j + 1), []).append((i, j))
    loops = []
    while edges:
        start = next(iter(edges))
        loop = [start]
        point = start
        while True:
            nexts = edges[point]
            nxt = nexts.pop()
            if not nexts:
                del edges[point]
            if nxt == start:
                break
            loop.append(nxt)
            point = nxt
        loops.append([(x * CELL, y * CELL) for x, y in loop])
    return loops


# -- spots for pieces and icons ------------------------------------------------------------


def _depth(cells: set[tuple[int, int]]) -> dict[tuple[int, int], int]:
    """Return each cell's distance (in cells) to the nearest cell outside the set or the tile border."""
    depth: dict[tuple[int, int], int] = {}
    frontier = []
    for i, j in cells:
        if any((i + di, j + dj) not in cells for di, dj in NEIGHBOURS4):
            depth[(i, j)] = 1
            frontier.append((i, j))
    while frontier:
        nxt = []
        for i, j in frontier:
            for di, dj in NEIGHBOURS8:
                other = (i + di, j + dj)
                if other in cells and other not in depth:
                    depth[other] = depth[(i, j)] + 1
                    nxt.append(other)
        frontier = nxt
    return depth


def _spots(cells: set[tuple[int, int]], count: int, avoid: list[Point], spacing: float) -> list[Point]:
    """Return ``count`` points deep inside ``cells``, kept ``spacing`` apart from each other and ``avoid``."""
    depth = _depth(cells)
    ranked = sorted(cells, key=lambda c: (-depth[c], c))
    chosen: list[Point] = []
    for gap in (spacing, spacing * 0.7, spacing * 0.45, 0.0):
        for cell in ranked:
            if len(chosen) >= count:
                return chosen
            point = ((cell[0] + 0.5) * CELL, (cell[1] + 0.5) * CELL)
            if all(math.dist(point, other) >= gap for other in chosen + avoid):
                chosen.append(point)
    return chosen


def _anchor(cells: set[tuple[int, int]]) -> Point:
    depth = _depth(cells)
    best = max(depth.values())
    deep = [c for c in cells if depth[c] >= best - (1 if best > 2 else 0)]
    mx = sum(c[0] for c in deep) / len(deep)
    my = sum(c[1] for c in deep) / len(deep)
    cell = min(deep, key=lambda c: ((c[0] - mx) ** 2 + (c[1] - my) ** 2, c))
    return (cell[0] + 0.5) * CELL, (cell[1] + 0.5) * CELL


# -- the tile's artwork ---------------------------------------------------------------------


@cache
def tile_art(edition: str, tile_id: str) -> dict[str, Any]:
    """Return the drawing of a tile type in its printed orientation (JSON-ready, coordinates 0..100).

    ``shapes``: ``{kind: forest|lake, region, d, points}`` filled areas (``d`` an SVG path,
    ``points`` the same outline as a polygon); ``rivers``: ``{region, d, points, spring}``;
    ``icons``: ``{icon, x, y, region}`` (deer, aurochs, mammoth, tiger, fish, menhir, nugget,
    mushrooms and the bonus powers); ``anchors``: ``{region id: [x, y]}`` where a piece stands.
    """
    tile = tiles.tile(edition, tile_id)
    lakes = {r.id: lake_centre(tile, r) for r in tile.regions if r.kind == LAKE}
    rivers = river_courses(tile, lakes)
    label = _partition(tile, lakes, rivers)
    cells: dict[str, set[tuple[int, int]]] = {r.id: set() for r in tile.regions}
    for cell, region_id in label.items():
        cells[region_id].add(cell)
    shapes = []
    for region in tile.regions:
        if region.kind in (FOREST, LAKE) and cells[region.id]:
            for loop in _outline(cells[region.id]):
                simple = simplify(loop, 2.2)
                if len(simple) < 3:
                    continue
                shapes.append(
                    {
                        "kind": region.kind,
                        "region": region.id,
                        "d": smooth_path(simple),
                        "points": [[round(x, 1), round(y, 1)] for x, y in smooth_points(simple)],
                    }
                )
    anchors: dict[str, Point] = {}
    for region in tile.regions:
        if region.kind == LAKE:
            anchors[region.id] = lakes[region.id]
        elif region.kind == RIVER:
            points = rivers[region.id]["points"]
            anchors[region.id] = points[len(points) // 2]
        elif cells[region.id]:
            anchors[region.id] = _anchor(cells[region.id])
        else:
            anchors[region.id] = CENTRE
    icons: list[dict[str, Any]] = []
    taken = list(anchors.values())
    for region in tile.regions:
        wanted: list[str] = []
        if region.kind == MEADOW:
            for animal in tiles.ANIMALS:
                wanted += [animal] * region.count(animal)
        if region.kind == FOREST:
            if region.menhir:
                wanted.append("menhir" if edition == tiles.REVISED else "nugget")
            if region.mushrooms:
                wanted.append("mushrooms")
        if region.special:
            wanted.append(region.special)
        if region.kind == LAKE:
            centre = lakes[region.id]
            radius = 7.5 if region.fish > 1 else 0.0
            for k in range(region.fish):
                angle = -math.pi / 2 + 2 * math.pi * k / max(region.fish, 1) + 0.5
                icons.append(
                    {
                        "icon": "fish",
                        "x": round(centre[0] + radius * math.cos(angle), 1),
                        "y": round(centre[1] + radius * math.sin(angle) * 0.8, 1),
                        "region": region.id,
                    }
                )
        if region.kind == RIVER:
            points = rivers[region.id]["points"]
            for k in range(region.fish):
                x, y = points[min(len(points) - 1, 6 + 5 * k)]
                icons.append({"icon": "fish", "x": round(x, 1), "y": round(y, 1), "region": region.id})
        if not wanted:
            continue
        if region.kind in (LAKE, RIVER):
            base = anchors[region.id]
            spots = [(base[0] + 9 * k - 9, base[1] - 11) for k in range(len(wanted))]
        else:
            spots = _spots(cells[region.id] or {(20, 20)}, len(wanted), taken, 20.0)
        for icon, (x, y) in zip(wanted, spots):
            icons.append({"icon": icon, "x": round(x, 1), "y": round(y, 1), "region": region.id})
            taken.append((x, y))
    return {
        "id": tile_id,
        "edges": "".join(tile.edges),
        "shapes": shapes,
        "rivers": [
            {
                "region": region_id,
                "d": course["d"],
                "points": [[round(x, 1), round(y, 1)] for x, y in course["points"]],
                "spring": None if course["spring"] is None else [round(v, 1) for v in course["spring"]],
            }
            for region_id, course in rivers.items()
        ],
        "icons": icons,
        "anchors": {region_id: [round(x, 1), round(y, 1)] for region_id, (x, y) in anchors.items()},
    }


def region_cells(edition: str, tile_id: str) -> dict[str, set[tuple[int, int]]]:
    """Return the raster cells of each region (for tests of the drawing's topology)."""
    tile = tiles.tile(edition, tile_id)
    lakes = {r.id: lake_centre(tile, r) for r in tile.regions if r.kind == LAKE}
    label = _partition(tile, lakes, river_courses(tile, lakes))
    cells: dict[str, set[tuple[int, int]]] = {r.id: set() for r in tile.regions}
    for cell, region_id in label.items():
        cells[region_id].add(cell)
    return cells


def rotate_point(point: Point | list[float], rot: int) -> Point:
    """Return a point of the 0..100 box turned ``rot`` degrees clockwise about the tile centre."""
    x, y = point[0] - 50, point[1] - 50
    for _ in range((rot // 90) % 4):
        x, y = -y, x
    return x + 50, y + 50
