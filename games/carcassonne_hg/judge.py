"""Carcassonne: Hunters and Gatherers: what a board is worth to a seat, the strong bot's judge (``strong.py``).

Each seat's part of the board is read as a few figures (``components``, all of them public):

* ``score``: its points so far;
* for the forests and rivers it leads (ties lead in full), each with ``p`` its chance to close before the stacks run
  out as the basic bot reckons it (``Position.closing``): ``p`` × the points now (``*_sure``), ``p`` × the open
  edges (``*_growth``), (1 − ``p``) × the points now (``*_unsure``: gatherers and fishermen in an unfinished forest or
  river score nothing at the end);
* for the meadows it leads, their points now (tigers, fire and traps counted) and their open edges; for the river
  systems it leads, their points now and their open river ends (``meadow``, ``system`` and their ``*_growth``);
* its members on the board: in forests and rivers by their chance to come home and not (``members_home``,
  ``members_stuck``), hunters (who never do); its members and huts in the supply, and having none left;
* a few of those figures again times the share of the land stack still to come (``*_t``): the same points are surer
  late, the same supply worth more early.

A seat's worth is the weighted sum of its figures less those of the best other seat, and a little more when it
moves next (``tempo``). The ``WEIGHTS`` are fitted to the final score difference of 2,000 two-player games of the
basic bot against itself (``benchmarks/carcassonne_judge.py``, which prints them): the judge is the end of such a
game foreseen. A game that is over is judged by its final scores.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.base import Engine, State
from games.carcassonne_hg import scoring, tiles
from games.carcassonne_hg.bots import LAND_TILES, MEADOW_EDGES_CAP, Position, _node
from games.carcassonne_hg.tiles import FOREST, MEADOW

# Fitted by benchmarks/carcassonne_judge.py (2,000 games, ridge 10): held-out R² 0.37, the scores alone 0.28.
WEIGHTS = {
    "score": 1.037,
    "forest_sure": 0.571,
    "forest_growth": -0.659,
    "forest_unsure": -0.107,
    "river_sure": 1.067,
    "river_growth": -4.214,
    "river_unsure": -0.156,
    "meadow": 1.272,
    "meadow_growth": 0.612,
    "system": 1.055,
    "system_growth": 3.032,
    "members_home": 2.123,
    "members_stuck": -0.063,
    "hunters": -2.648,
    "supply": 8.850,
    "huts": 7.098,
    "no_members": -36.422,
    "forest_sure_t": 1.983,
    "meadow_t": -1.308,
    "supply_t": -8.340,
    "tempo": 2.261,
}
NAMES = tuple(name for name in WEIGHTS if name != "tempo")
_AT = {name: i for i, name in enumerate(NAMES)}
_LINEAR = [WEIGHTS[name] for name in NAMES]


def components(view: dict[str, Any]) -> list[list[float]]:
    """Return each seat's figures (in the order of ``NAMES``) for the board of ``view``."""
    position = Position(view)
    an = position.an
    later = min(1.0, view["stack_count"] / LAND_TILES)
    rows = [[0.0] * len(NAMES) for _ in view["seats"]]
    at = _AT
    for seat, entry in enumerate(view["seats"]):
        row = rows[seat]
        row[at["score"]] = float(entry["score"])
        row[at["supply"]] = entry["members"] * later
        row[at["supply_t"]] = entry["members"] * later * later
        row[at["huts"]] = entry["huts"] * later
        row[at["no_members"]] = later if entry["members"] == 0 else 0.0
    for root, holders in position.zone_pieces.items():
        zone = an.zones[root]
        counts = Counter(piece["seat"] for piece in holders)
        leaders = scoring.majority(dict(counts))
        if zone.kind == MEADOW:
            shrine = sorted({p["seat"] for p in holders if an.region(_node(p)).special == tiles.SHRINE})
            points = scoring.meadow_score(position.edition, an, zone, position.cancelled,
                                          position.wildfire_tiger)["points"]
            edges = min(zone.open / 2.5, MEADOW_EDGES_CAP) * later
            for seat in shrine or leaders:
                rows[seat][at["meadow"]] += points
                rows[seat][at["meadow_growth"]] += edges
                rows[seat][at["meadow_t"]] += points * later
            for seat, count in counts.items():
                rows[seat][at["hunters"]] += count
            continue
        if zone.kind == FOREST:
            points = scoring.forest_points(position.edition, zone, position.parts)
            edges, kind = -(-zone.open // 3), "forest"
        else:
            points = scoring.river_points(an, zone, position.river_fish)
            edges, kind = zone.open, "river"
        chance = position.closing(zone)
        for seat in leaders:
            row = rows[seat]
            row[at[f"{kind}_sure"]] += chance * points
            row[at[f"{kind}_growth"]] += chance * edges
            row[at[f"{kind}_unsure"]] += (1 - chance) * points
            if kind == "forest":
                row[at["forest_sure_t"]] += chance * points * later
        for seat, count in counts.items():
            rows[seat][at["members_home"]] += chance * count
            rows[seat][at["members_stuck"]] += (1 - chance) * count
    for root, huts in position.system_pieces.items():
        system = an.systems[root]
        leaders = scoring.majority(dict(Counter(piece["seat"] for piece in huts)))
        points = scoring.system_points(position.edition, system)
        rivers = {an.zone_of[node] for node in system.nodes if node in an.zone_of}
        ends = sum(an.zones[river].open for river in rivers) * later
        for seat in leaders:
            rows[seat][at["system"]] += points
            rows[seat][at["system_growth"]] += ends
    return rows


def difference(rows: list[list[float]], seat: int) -> list[float]:
    """Return ``seat``'s figures less the best other seat's, figure by figure (two seats: the other's)."""
    others = [row for other, row in enumerate(rows) if other != seat]
    return [mine - max(row[i] for row in others) for i, mine in enumerate(rows[seat])]


def worth(rows: list[list[float]], seat: int, moves_next: bool) -> float:
    """Return the judge's figure for ``seat``: the final score difference it foresees."""
    figures = difference(rows, seat)
    return sum(w * x for w, x in zip(_LINEAR, figures)) + (WEIGHTS["tempo"] if moves_next else -WEIGHTS["tempo"])


def judged(engine: Engine, state: State, seat: int) -> float:
    """Return what ``state`` is worth to ``seat``: its final lead once the game is over, else the judge's figure."""
    following = engine.to_move(state)
    if not following:
        scores = engine.result(state)["scores"]
        return float(scores[seat] - max(score for other, score in enumerate(scores) if other != seat))
    return worth(components(engine.view(state, seat)), seat, following[0] == seat)
