"""Every legal move of a Carcassonne: Hunters and Gatherers position, listed fast (rules file §4.1, §4.2, §4.5).

Issue 6: legal moves on an ~80-tile board in at most 5 ms, even with nothing memoised. What does
not depend on the square (which piece may go on which region with the seat's supply, the shrine)
is settled once per rotation (``pieces.deployments``); on each square the listing asks whether the
square touches a claimed forest, meadow, river or river system at all, and works out the tile's
region groups (``features.groups``) only if it does. ``apply_move`` checks a single move with
``pieces.piece_error``, which refuses exactly what this listing leaves out.
"""

from __future__ import annotations

from typing import Any

from games.base import State
from games.carcassonne_hg import features, pieces, tiles
from games.carcassonne_hg.effects import powers_act
from games.carcassonne_hg.features import analyse

def list_moves(state: State, seat: int) -> list[dict[str, Any]]:
    """Return every legal move of ``seat``, the player to move, with the tile drawn in ``state``.

    Placements by x, y, rotation; for each (and each shaman recall), no piece first, then pieces by region.
    """
    edition = state["edition"]
    an = analyse(edition, state["board"])
    recalls: list[dict[str, Any] | None] = [None]
    if powers_act(state) and tiles.oriented(edition, state["tile"], 0).special == tiles.SHAMAN:
        recalls += pieces.recallable(state, seat)
    claims = [(recall, pieces.Claims(state, seat, an, recall)) for recall in recalls]
    deployments: dict[int, list] = {}  # rotation -> per claim: the deployments to check on each square
    moves: list[dict[str, Any]] = []
    for square, rot in features.fitting(an, state["tile"]):
        tile = tiles.oriented(edition, state["tile"], rot)
        if rot not in deployments:
            deployments[rot] = [pieces.deployments(state, claim, tile) for _, claim in claims]
        # Which features around the square are claimed is the same for every rotation: a region can only be
        # refused if the square touches a claimed feature, and only then are the tile's groups worked out.
        zone_border, system_border = features.border(an, square)
        by_region = None
        for (recall, claim), choices in zip(claims, deployments[rot]):
            base: dict[str, Any] = {"x": square[0], "y": square[1], "rot": rot}
            if recall is not None:
                base["recall"] = {"x": recall["x"], "y": recall["y"]}
            moves.append(base)
            tribe_near = not claim.tribe.isdisjoint(zone_border)
            huts_near = not claim.huts.isdisjoint(system_border)
            for piece, region, check in choices:
                if (check == "zone" and tribe_near) or (check == "system" and huts_near):
                    if by_region is None:
                        by_region = [pieces.by_region(found) for found in features.groups(an, square, tile)]
                    claimed = claim.tribe if check == "zone" else claim.huts
                    if not claimed.isdisjoint(by_region[check == "system"][region].roots):
                        continue
                moves.append({**base, "piece": piece, "region": region})
    return moves
