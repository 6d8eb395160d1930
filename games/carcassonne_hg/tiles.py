"""Tile catalogue of Carcassonne: Hunters and Gatherers: the revised (2020) set and a classic reconstruction.

The revised set is read as it stands from ``hg-tiles.json`` (the project's
tile catalogue, described in docs/rules/carcassonne-hunters-gatherers.md §12): the start tile R-S56, 78 land tiles and 16 menhir
bonus tiles. No source lists the 2002 classic tiles, so the classic edition
plays the rules file's "classic-approx" reconstruction (§12.3): the revised
land geometry with menhirs turned into gold nuggets and river fish removed,
the classic start tile, and the four known classic bonus tiles plus eight
rich revised bonus tiles stripped of their powers.

A ``Tile`` is immutable; ``Tile.rotated`` returns a new tile. Inside the
engine a forest's ``menhir`` flag is the bonus-turn icon of the edition (the
menhir in the revised edition, the gold nugget in the classic one).

Both catalogues and every tile in each of its four rotations are built once,
when this module is imported (about 15 ms), and are constants from then on:
a worker that has just started lists a game's moves without building any of
them first.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

REVISED = "revised"
CLASSIC = "classic"
EDITIONS = (REVISED, CLASSIC)

DIRECTIONS = ("N", "E", "S", "W")  # clockwise; a quarter turn clockwise moves N to E
_TURNED = {(d, turn): DIRECTIONS[(at + turn) % 4] for at, d in enumerate(DIRECTIONS) for turn in range(4)}
FOREST, MEADOW, RIVER, LAKE = "forest", "meadow", "river", "lake"
ANIMALS = ("deer", "aurochs", "mammoth", "tiger")

START, LAND, BONUS = "start", "land", "bonus"

# Bonus-tile powers (rules file §4.5, §7) and the classic specials (§7, §12.3).
SHAMAN, LOGBOAT, HUNTING_TRAP, PIT_TRAP, WILDFIRE, RAFT = (
    "shaman",
    "logboat",
    "hunting_trap",
    "pit_trap",
    "wildfire",
    "raft",
)
SHRINE, FIRE = "shrine", "fire"

# §12.3 step 2: the eight rich revised bonus tiles that fill the classic bonus pile.
CLASSIC_FILLERS = (
    "R-B82-plain-lake-deer",
    "R-B83-plain-two-lakes",
    "R-B84-plain-mammoth",
    "R-B86-plain-lake-aurochs-tiger",
    "R-B89-plain-lake-3-fish",
    "R-B90-plain-mammoth-aurochs",
    "R-B91-raft",
    "R-B93-logboat",
)
CLASSIC_START = "C-S00-start"
REVISED_START = "R-S56"


@dataclass(frozen=True)
class Region:
    """One zone of a tile: a forest, meadow, river or lake, with its icons."""

    id: str
    kind: str
    segments: tuple[tuple[str, int], ...]  # (direction, 0|1|2) as oriented on the tile
    animals: tuple[tuple[str, int], ...] = ()
    fish: int = 0
    menhir: bool = False  # the bonus-turn icon: menhir (revised) or gold nugget (classic)
    mushrooms: bool = False
    inner_end: str | None = None  # rivers: None (runs through), "lake" or "source"
    lake: str | None = None  # rivers ending in a lake: that lake's region id
    rivers: tuple[str, ...] = ()  # lakes: the rivers flowing into them
    special: str | None = None

    def count(self, animal: str) -> int:
        """Return how many ``animal`` this region shows."""
        return dict(self.animals).get(animal, 0)

    def rotated(self, quarter_turns: int) -> "Region":
        """Return this region turned ``quarter_turns`` clockwise."""
        turn = quarter_turns % 4
        if not turn:
            return self
        # Every field but the segments is the same: copy them without the generated __init__, which sets the
        # eleven fields of a frozen dataclass one by one (the whole catalogue is rotated at import).
        turned = object.__new__(Region)
        turned.__dict__.update(self.__dict__, segments=tuple((_TURNED[d, turn], i) for d, i in self.segments))
        return turned


@dataclass(frozen=True)
class Tile:
    """A tile type in one orientation: edge kinds N, E, S, W (``F``, ``M`` or ``R``) and its regions."""

    id: str
    deck: str
    name: str
    edges: tuple[str, str, str, str]
    regions: tuple[Region, ...]
    rot: int = 0  # clockwise degrees from the catalogue orientation
    by_segment: dict[tuple[str, int], str] = field(default_factory=dict, compare=False, repr=False)
    by_id: dict[str, Region] = field(default_factory=dict, compare=False, repr=False)
    # The regions that belong to a zone (every one but lakes) and to a river system (rivers and lakes).
    zone_ids: tuple[str, ...] = field(default=(), compare=False, repr=False)
    system_ids: tuple[str, ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_segment", {seg: r.id for r in self.regions for seg in r.segments})
        object.__setattr__(self, "by_id", {r.id: r for r in self.regions})
        object.__setattr__(self, "zone_ids", tuple(r.id for r in self.regions if r.kind != LAKE))
        object.__setattr__(self, "system_ids", tuple(r.id for r in self.regions if r.kind in (RIVER, LAKE)))

    def rotated(self, quarter_turns: int) -> "Tile":
        """Return this tile turned ``quarter_turns`` clockwise (edge N goes to E)."""
        turn = quarter_turns % 4
        if not turn:
            return self
        edges = tuple(self.edges[(i - turn) % 4] for i in range(4))
        return Tile(
            id=self.id,
            deck=self.deck,
            name=self.name,
            edges=edges,  # type: ignore[arg-type]
            regions=tuple(region.rotated(turn) for region in self.regions),
            rot=(self.rot + 90 * turn) % 360,
        )

    def region(self, region_id: str) -> Region:
        return self.by_id[region_id]

    @property
    def special(self) -> str | None:
        """Return this tile's power or special icon, if any."""
        return next((r.special for r in self.regions if r.special), None)


def _edge_kind(segments: list[str]) -> str:
    return {"FFF": "F", "MMM": "M", "MRM": "R"}["".join(segments)]


def _region(raw: dict[str, Any]) -> Region:
    kind = raw["type"]
    animals = tuple(sorted((k, v) for k, v in (raw.get("animals") or {}).items() if v))
    return Region(
        id=raw["id"],
        kind=kind,
        segments=tuple((s[0], int(s[1])) for s in raw["segments"]),
        animals=animals,
        fish=int(raw.get("fish") or 0),
        menhir=bool(raw.get("menhir") or raw.get("gold_nugget")),
        mushrooms=bool(raw.get("mushrooms")),
        inner_end=raw.get("inner_end"),
        lake=raw.get("lake"),
        rivers=tuple(raw.get("rivers") or ()),
        special=raw.get("special"),
    )


def _tile(raw: dict[str, Any], deck: str | None = None) -> Tile:
    return Tile(
        id=raw["id"],
        deck=deck or raw["deck"],
        name=raw.get("name") or raw["id"],
        edges=tuple(_edge_kind(raw["edges"][d]) for d in DIRECTIONS),  # type: ignore[arg-type]
        regions=tuple(_region(r) for r in raw["features"]),
    )


def _classic_approx(tile: Tile, *, keep_special: bool = False) -> Tile:
    """Return a revised tile as the classic-approx reconstruction plays it (§12.3): no river fish, no powers."""
    regions = tuple(
        Region(
            **{
                **r.__dict__,
                "fish": 0 if r.kind == RIVER else r.fish,
                "special": r.special if keep_special else None,
            }
        )
        for r in tile.regions
    )
    return Tile(id=tile.id, deck=tile.deck, name=tile.name, edges=tile.edges, regions=regions)


def raw_catalogue() -> dict[str, Any]:
    """Return the parsed ``hg-tiles.json``."""
    return _RAW


def _build_catalogue(edition: str) -> dict[str, tuple[Tile, int]]:
    """Return ``{tile id: (tile, count)}`` for the edition's start, land and bonus tiles."""
    raw = raw_catalogue()
    revised = {t["id"]: (_tile(t), int(t["count"])) for t in raw["tile_types"]}
    if edition == REVISED:
        return revised
    result: dict[str, tuple[Tile, int]] = {}
    for tile_id, (tile, count) in revised.items():
        if tile.deck == LAND:
            result[tile_id] = (_classic_approx(tile), count)
    known = {t["id"]: t for t in raw["classic_edition"]["known_tiles"] if t.get("features")}
    result[CLASSIC_START] = (_tile(known[CLASSIC_START]), 1)
    for tile_id in ("C-B-shrine", "C-B-fire", "C-B-mushrooms", "C-B-aurochs"):
        result[tile_id] = (_tile(known[tile_id]), 1)
    for tile_id in CLASSIC_FILLERS:
        tile, count = revised[tile_id]
        result[tile_id] = (_classic_approx(tile), count)
    return result


_RAW: dict[str, Any] = json.loads(resources.files(__package__).joinpath("hg-tiles.json").read_text(encoding="utf-8"))
_CATALOGUES = {edition: _build_catalogue(edition) for edition in EDITIONS}
_ORIENTED = {
    (edition, tile_id, rot): printed.rotated(rot // 90)
    for edition, tiles_by_id in _CATALOGUES.items()
    for tile_id, (printed, _) in tiles_by_id.items()
    for rot in (0, 90, 180, 270)
}


def catalogue(edition: str) -> dict[str, tuple[Tile, int]]:
    """Return ``{tile id: (tile, count)}`` for the edition's start, land and bonus tiles."""
    return _CATALOGUES[edition]


def tile(edition: str, tile_id: str) -> Tile:
    """Return the catalogue tile ``tile_id`` of ``edition`` in its printed orientation."""
    return _CATALOGUES[edition][tile_id][0]


def oriented(edition: str, tile_id: str, rot: int) -> Tile:
    """Return tile ``tile_id`` turned ``rot`` degrees clockwise (0, 90, 180 or 270)."""
    return _ORIENTED[edition, tile_id, rot]


def start_tile(edition: str) -> str:
    """Return the id of the edition's start tile."""
    return REVISED_START if edition == REVISED else CLASSIC_START


def deck(edition: str, which: str) -> list[str]:
    """Return the ids of the ``which`` deck (``land`` or ``bonus``), one per physical tile, in catalogue order."""
    return [tile_id for tile_id, (t, count) in catalogue(edition).items() if t.deck == which for _ in range(count)]


def exists(edition: str, tile_id: Any) -> bool:
    return isinstance(tile_id, str) and tile_id in catalogue(edition)
