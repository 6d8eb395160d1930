"""The curves of a Carcassonne: Hunters and Gatherers tile's drawing, in its 100 × 100 box (y down, north up).

Rivers are fixed quadratic curves from edge middles to each other, to a lake or to a spring
(``river_courses``); the outlines ``art.py`` traces from its raster are simplified (``simplify``)
and smoothed into an SVG path (``smooth_path``) or the same curve as a polygon for Pillow
(``smooth_points``). Numbers in paths are written with one decimal at most, so the stored drawings
stay small.
"""

from __future__ import annotations

import math
from typing import Any

from games.carcassonne_hg.tiles import LAKE, RIVER, Tile

SIZE = 100.0
MIDDLE = {"N": (50.0, 0.0), "E": (100.0, 50.0), "S": (50.0, 100.0), "W": (0.0, 50.0)}
CENTRE = (50.0, 50.0)

Point = tuple[float, float]

# -- rivers -------------------------------------------------------------------------------


def _river_edges(region) -> list[str]:
    return [d for d, i in region.segments if i == 1]


def lake_centre(tile: Tile, lake) -> Point:
    """Return where a lake is drawn: between the tile's centre and the edge middles of its rivers."""
    ends = [MIDDLE[d] for river in lake.rivers for d in _river_edges(tile.region(river))]
    x = (2 * CENTRE[0] + sum(p[0] for p in ends)) / (2 + len(ends))
    y = (2 * CENTRE[1] + sum(p[1] for p in ends)) / (2 + len(ends))
    return x, y


def quad(a: Point, c: Point, b: Point, steps: int = 24) -> list[Point]:
    """Return ``steps + 1`` points along the quadratic curve from ``a`` to ``b`` with control point ``c``."""
    return [
        (
            (1 - t) ** 2 * a[0] + 2 * (1 - t) * t * c[0] + t * t * b[0],
            (1 - t) ** 2 * a[1] + 2 * (1 - t) * t * c[1] + t * t * b[1],
        )
        for t in (k / steps for k in range(steps + 1))
    ]


def toward(a: Point, b: Point, share: float) -> Point:
    """Return the point ``share`` of the way from ``a`` to ``b``."""
    return a[0] + (b[0] - a[0]) * share, a[1] + (b[1] - a[1]) * share


def river_courses(tile: Tile, lakes: dict[str, Point]) -> dict[str, dict[str, Any]]:
    """Return each river's course: its SVG path, points along it, and where it ends (lake or spring)."""
    lake_of = {river: lake.id for lake in tile.regions if lake.kind == LAKE for river in lake.rivers}
    result = {}
    for region in tile.regions:
        if region.kind != RIVER:
            continue
        ends = _river_edges(region)
        start = MIDDLE[ends[0]]
        spring = None
        if len(ends) >= 2:
            stop = MIDDLE[ends[1]]
            control = CENTRE
        elif region.lake or region.id in lake_of:
            stop = lakes[region.lake or lake_of[region.id]]
            control = toward(start, stop, 0.5)
        else:
            stop = toward(start, CENTRE, 0.48)
            control = toward(start, stop, 0.5)
            spring = stop
        points = quad(start, control, stop)
        d = f"M{_n(start[0])} {_n(start[1])}Q{_n(control[0])} {_n(control[1])} {_n(stop[0])} {_n(stop[1])}"
        result[region.id] = {"d": d, "points": points, "spring": spring}
    return result


# -- outlines ---------------------------------------------------------------------------


def simplify(points: list[Point], tolerance: float) -> list[Point]:
    """Douglas–Peucker on a closed loop."""
    if len(points) < 4:
        return points

    def dp(seq: list[Point]) -> list[Point]:
        a, b = seq[0], seq[-1]
        best, index = 0.0, 0
        length = math.dist(a, b) or 1e-9
        for k in range(1, len(seq) - 1):
            p = seq[k]
            d = abs((b[0] - a[0]) * (a[1] - p[1]) - (a[0] - p[0]) * (b[1] - a[1])) / length
            if d > best:
                best, index = d, k
        if best <= tolerance:
            return [a, b]
        return dp(seq[: index + 1])[:-1] + dp(seq[index:])

    far = max(range(len(points)), key=lambda k: math.dist(points[0], points[k]))
    first = dp(points[: far + 1])
    second = dp(points[far:] + [points[0]])
    return first[:-1] + second[:-1]


def _on_border(p: Point) -> bool:
    return p[0] <= 0.01 or p[0] >= SIZE - 0.01 or p[1] <= 0.01 or p[1] >= SIZE - 0.01


def smooth_path(points: list[Point]) -> str:
    """Return an SVG path through a closed loop: corners on the tile border stay, inner ones round off."""
    n = len(points)
    mids = [((points[k][0] + points[(k + 1) % n][0]) / 2, (points[k][1] + points[(k + 1) % n][1]) / 2) for k in range(n)]
    parts = [f"M{_n(mids[-1][0])} {_n(mids[-1][1])}"]
    for k in range(n):
        p, m = points[k], mids[k]
        if _on_border(p):
            parts.append(f"L{_n(p[0])} {_n(p[1])}L{_n(m[0])} {_n(m[1])}")
        else:
            parts.append(f"Q{_n(p[0])} {_n(p[1])} {_n(m[0])} {_n(m[1])}")
    return "".join(parts) + "Z"


def smooth_points(points: list[Point], steps: int = 4) -> list[Point]:
    """Return the same curve as ``smooth_path`` as a polygon (for Pillow)."""
    n = len(points)
    mids = [((points[k][0] + points[(k + 1) % n][0]) / 2, (points[k][1] + points[(k + 1) % n][1]) / 2) for k in range(n)]
    out = [mids[-1]]
    for k in range(n):
        p, m = points[k], mids[k]
        if _on_border(p):
            out.extend([p, m])
        else:
            out.extend(quad(out[-1], p, m, steps)[1:])
    return out


def _n(value: float) -> str:
    """Return a coordinate as SVG paths write it: one decimal, none when whole."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text
