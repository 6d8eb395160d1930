"""The pieces of Carcassonne: Hunters and Gatherers and where each may be deployed (rules file §1, §4.2).

A tribe member becomes a gatherer in a forest, a fisherman on a river, a hunter in a meadow; a hut
goes on a lake or on a river that ends in no lake on that tile. A tribe member may not enter a
forest, river or meadow holding any tribe member, a hut may not enter a river system holding a
hut; huts and tribe members ignore each other. ``piece_error`` says why one deployment is refused;
``deployments`` settles, once per rotation, what legal moves need not ask on every square.
"""

from __future__ import annotations

from typing import Any

from games.base import State
from games.carcassonne_hg import reasons, tiles
from games.carcassonne_hg.analysis import Analysis, Group
from games.carcassonne_hg.board import Node, hut_spots, region_names
from games.carcassonne_hg.tiles import CLASSIC, FOREST, LAKE, MEADOW, REVISED, RIVER

GATHERER, FISHERMAN, HUNTER, HUT = "gatherer", "fisherman", "hunter", "hut"
PIECES = (GATHERER, FISHERMAN, HUNTER, HUT)
TRIBE = (GATHERER, FISHERMAN, HUNTER)
ROLE = {FOREST: GATHERER, RIVER: FISHERMAN, MEADOW: HUNTER}  # what a tribe member becomes where it stands
PLACE_FOR = {GATHERER: (FOREST,), FISHERMAN: (RIVER,), HUNTER: (MEADOW,), HUT: (LAKE, RIVER)}
MEMBERS = 5  # tribe members in play per player (§1)
HUTS = {REVISED: 3, CLASSIC: 2}


def node_of(piece: dict[str, Any]) -> Node:
    """Return the node (x, y, region id) a piece of the state stands on."""
    return (piece["x"], piece["y"], piece["region"])


def recallable(state: State, seat: int) -> list[dict[str, Any]]:
    """Return the seat's tribe members a shaman may call back, in board order (§4.5)."""
    return [p for p in state["pieces"] if p["seat"] == seat and p["kind"] in TRIBE]


class Claims:
    """Who holds which features before a piece is deployed: tribe members by zone, huts by river system."""

    def __init__(self, state: State, seat: int, an: Analysis, recalled: dict[str, Any] | None):
        pieces = [p for p in state["pieces"] if p is not recalled]
        self.tribe = {an.zone_of[node_of(p)] for p in pieces if p["kind"] in TRIBE}
        self.huts = {an.system_of[node_of(p)] for p in pieces if p["kind"] == HUT}
        supply = state["supply"][seat]
        self.members = supply["members"] + (1 if recalled is not None else 0)
        self.hut_supply = supply["huts"]


def piece_error(
    state: State,
    claims: Claims,
    tile: tiles.Tile,
    piece: str,
    region_id: str,
    zone_group: dict[str, Group],
    system_group: dict[str, Group],
) -> str | None:
    """Return why ``piece`` may not go on ``region_id`` of the tile being placed, or None if it may (§4.2)."""
    region = tile.by_id.get(region_id)
    if region is None:
        return reasons.no_such_region(tile.id, region_id)
    if region.kind not in PLACE_FOR[piece]:
        return reasons.wrong_feature(piece, _where(state, tile, region_id))
    if piece == HUT:
        if region.kind == RIVER and region.lake is not None:
            return reasons.hut_on_river_into_lake(_where(state, tile, region.lake))
        if claims.hut_supply <= 0:
            return reasons.no_huts_left()
        if system_group[region_id].roots & claims.huts:
            return reasons.hut_taken(_where(state, tile, region_id))
        return None
    if claims.members <= 0:
        return reasons.no_members_left()
    free_shrine = (
        piece == HUNTER and region.special == tiles.SHRINE and not state["options"]["shrine_requires_free_meadow"]
    )
    if zone_group[region_id].roots & claims.tribe and not free_shrine:
        return reasons.member_taken(region.kind, _where(state, tile, region_id))
    return None


def _where(state: State, tile: tiles.Tile, region_id: str) -> str:
    """Return the name of a region of the tile being placed, for a reason (only a refusal needs it)."""
    return region_names(state["edition"], tile.id, tile.rot)[region_id]


def deployments(state: State, claims: Claims, tile: tiles.Tile) -> list[tuple[str, str, str | None]]:
    """Return every (piece, region, check) the seat might deploy on ``tile`` wherever it goes, in region order.

    Everything ``piece_error`` asks that does not depend on the square is
    settled here, once per rotation; ``check`` says what is left to ask per
    square: whether the region's zone (``"zone"``) or river system
    (``"system"``) already holds a claim, or nothing (None: the shrine).
    """
    found: list[tuple[str, str, str | None]] = []
    spots = set(hut_spots(tile))
    free_shrine_allowed = not state["options"]["shrine_requires_free_meadow"]
    for region in tile.regions:
        if region.kind in ROLE and claims.members > 0:
            piece = ROLE[region.kind]
            free_shrine = piece == HUNTER and region.special == tiles.SHRINE and free_shrine_allowed
            found.append((piece, region.id, None if free_shrine else "zone"))
        if region.id in spots and claims.hut_supply > 0:
            found.append((HUT, region.id, "system"))
    return found


def by_region(groups: list[Group]) -> dict[str, Group]:
    """Return each region id of the tile being placed with the group it falls into."""
    return {region: group for group in groups for region in group.regions}
