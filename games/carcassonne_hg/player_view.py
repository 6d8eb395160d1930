"""Per-seat projection of a Carcassonne: Hunters and Gatherers game (both editions).

Only the order of the two stacks is secret, from everyone alike: a view
gives their sizes. The tile being placed is public (as at the table), and so
is every tile already drawn, placed or discarded. Every seat and spectator
therefore gets the same picture apart from ``you``.

A view is machine data, the same in every language: codes and numbers, no words (the history is
worded in ``history.py``, the email text in ``email_text.py``, the board in ``board_words.py``).
A held feature's ``name`` is its region's notation name ("meadow NE"), a code like the events'.
"""

from __future__ import annotations

from typing import Any

from games.carcassonne_hg import scoring, tiles, web_art
from games.carcassonne_hg import features as feats
from games.carcassonne_hg.board import region_names
from games.carcassonne_hg.terms import tile_name  # noqa: F401  (named here before terms.py existed)

PUBLIC_OPTIONS = (
    "edition",
    "menhir_needs_occupied_forest",
    "unplaceable_tile",
    "hunting_trap_scorer",
    "fire_affects_hunting_trap",
    "wildfire_tile_tiger_counts",
    "shrine_requires_free_meadow",
    "river_fish_for_fishermen",
    "forest_parts_count_separately",
)


def tile_set(edition: str) -> str:
    """Return the name of the tile set an edition plays (the classic one is a reconstruction, §12.3)."""
    return "revised" if edition == tiles.REVISED else "classic-approx"


def view(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """Return what ``seat`` (None: a spectator) may know about ``state``, and nothing more."""
    n = len(state["players"])
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
        raise ValueError(f"no seat {seat!r}")
    return {
        "game": "carcassonne-hg",
        "edition": state["edition"],
        "tile_set": tile_set(state["edition"]),
        "options": {key: state["options"][key] for key in PUBLIC_OPTIONS},
        "you": seat,
        "phase": state["phase"],
        "turn": state["turn"],
        "current": state["current"],
        "tile": state["tile"],
        "bonus_turn": state["bonus"],
        "stack_count": len(state["stack"]),
        "bonus_stack_count": len(state["bonus_stack"]),
        # [x, y, tile, rot, placed by] per tile: a late board has ~80, and a list costs a third of the bytes of a dict.
        "board": [entry[:5] for entry in state["board"]],
        "pieces": [dict(piece) for piece in state["pieces"]],
        "cancelled": [list(node) for node in state["cancelled"]],
        "discarded": list(state["discarded"]),
        "seats": [
            {
                "seat": other,
                "name": state["players"][other],
                "score": state["scores"][other],
                "members": state["supply"][other]["members"],
                "huts": state["supply"][other]["huts"],
                "left": state["left"][other],
            }
            for other in range(n)
        ],
        "last": None if state["last"] is None else dict(state["last"]),
        "final": None if state["final"] is None else [dict(entry) for entry in state["final"]],
        "winners": None if state["winners"] is None else list(state["winners"]),
        **public_extras(state),
    }


def view_after_end(state: dict[str, Any]) -> dict[str, Any]:
    """Return the spectator's view with both face-down stacks in the order they would be drawn: the replay after the end.

    The rules file, §5.1: once the game is over, the land and bonus stacks may be shown at every step.
    Each tile is ``{"tile": id}``: the board words its name for its reader (``board_words``).
    """
    shown = view(state, None)
    shown["revealed"] = {
        "stack": [{"tile": tile_id} for tile_id in state["stack"]],
        "bonus_stack": [{"tile": tile_id} for tile_id in state["bonus_stack"]],
    }
    return shown


# -- public extras for the boards: where to draw, held features, the final breakdown -------------


def public_extras(state: dict[str, Any]) -> dict[str, Any]:
    """Return what the boards draw beyond the position itself, all derived from public facts.

    ``extent``: the squares to draw (the board and an empty ring round it); ``art_asset``: the
    name of the engine's asset (``Engine.assets``) holding every tile's drawing, fetched once rather
    than repeated here; ``features``: the features holding pieces now, with their holders and what
    they would be worth if scored now; ``breakdown`` (at the end, else None): each seat's points
    from play (completed forests and rivers, powers) and from final scoring.
    """
    xs = [entry[0] for entry in state["board"]]
    ys = [entry[1] for entry in state["board"]]
    return {
        # The board's squares with one empty ring round them (where the next tile may go).
        "extent": {
            "west": min(xs) - 1,
            "north": max(ys) + 1,
            "columns": max(xs) - min(xs) + 3,
            "rows": max(ys) - min(ys) + 3,
        },
        "art_asset": web_art.asset_name(state["edition"]),
        "features": held_features(state),
        "breakdown": _breakdown(state),
    }


def held_features(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Return every feature holding a piece: kind, where, size, holders per seat, leaders, value now.

    Worked out once per position and kept with the board's analysis (``Analysis.derived``): every page,
    poll and API read of a position asks for the same list, and a meadow's value walks all its regions.
    """
    an = feats.analyse(state["edition"], state["board"])
    opts = state["options"]
    key = (
        "held_features",
        tuple((p["seat"], p["kind"], p["x"], p["y"], p["region"]) for p in state["pieces"]),
        tuple(tuple(node) for node in state["cancelled"]),
        tuple(opts[name] for name in SCORING_OPTIONS),
    )
    found = an.derived.get(key)
    if found is None:
        found = an.derived[key] = _held_features(state, an)
    return [{**feature, "holders": [dict(h) for h in feature["holders"]], "leaders": list(feature["leaders"])}
            for feature in found]


# The options a held feature's value depends on.
SCORING_OPTIONS = ("forest_parts_count_separately", "river_fish_for_fishermen", "wildfire_tile_tiger_counts")


def _held_features(state: dict[str, Any], an: feats.Analysis) -> list[dict[str, Any]]:
    """Work out ``held_features`` from the board's analysis ``an``."""
    edition = state["edition"]
    opts = state["options"]
    cancelled = {tuple(node) for node in state["cancelled"]}
    groups: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for piece in state["pieces"]:
        node = (piece["x"], piece["y"], piece["region"])
        if piece["kind"] == "hut":
            groups.setdefault(("river_system", an.system_of[node]), []).append(piece)
        else:
            groups.setdefault(("zone", an.zone_of[node]), []).append(piece)
    # Only the features holding pieces are added up, all in one pass (not every feature of a late board).
    an.ensure([root for family, root in groups if family == "zone"],
              [root for family, root in groups if family == "river_system"])
    result = []
    for (family, root), pieces in groups.items():
        at = min((p["x"], p["y"], p["region"]) for p in pieces)
        counts: dict[int, int] = {}
        for piece in pieces:
            counts[piece["seat"]] = counts.get(piece["seat"], 0) + 1
        if family == "river_system":
            system = an.systems[root]
            kind, size = "river_system", len({(x, y) for x, y, _ in system.nodes})
            value = scoring.system_points(edition, system)
            detail = {"fish": system.fish, "lakes": len(system.lakes)}
        else:
            zone = an.zones[root]
            kind, size = zone.kind, len(zone.tiles)
            if kind == tiles.FOREST:
                value = scoring.forest_points(edition, zone, opts["forest_parts_count_separately"])
                detail = {"mushrooms": zone.mushrooms, "menhirs": zone.menhirs, "open_edges": zone.open}
            elif kind == tiles.RIVER:
                fish_counts = edition == tiles.REVISED and opts["river_fish_for_fishermen"] == "river_and_lakes"
                value = scoring.river_points(an, zone, fish_counts)
                detail = {"fish": scoring.river_fish(an, zone, fish_counts), "open_edges": zone.open}
            else:
                scored = scoring.meadow_score(edition, an, zone, cancelled, opts["wildfire_tile_tiger_counts"])
                value = scored["points"]
                detail = {animal: scored[animal] for animal in ("deer", "aurochs", "mammoth", "tiger", "eaten")}
        placed = an.index[at[:2]]
        result.append(
            {
                "kind": kind,
                "x": at[0],
                "y": at[1],
                "region": at[2],
                "name": region_names(edition, placed.id, placed.rot)[at[2]],
                "tiles": size,
                "holders": [{"seat": seat, "count": counts[seat]} for seat in sorted(counts)],
                "leaders": scoring.majority(counts),
                "value": value,
                **detail,
            }
        )
    order = {"forest": 0, "river": 1, "meadow": 2, "river_system": 3}
    result.sort(key=lambda f: (order[f["kind"]], -f["value"], f["x"], f["y"], f["region"]))
    return result


def _breakdown(state: dict[str, Any]) -> list[dict[str, Any]] | None:
    """Return, at the end, each seat's points during play, from meadows, from river systems, and the total."""
    if state["final"] is None:
        return None
    rows = []
    for seat, total in enumerate(state["scores"]):
        meadows = sum(e["points"] for e in state["final"] if e["feature"] == "meadow" and seat in e["scorers"])
        systems = sum(e["points"] for e in state["final"] if e["feature"] == "river_system" and seat in e["scorers"])
        rows.append(
            {"seat": seat, "play": total - meadows - systems, "meadows": meadows, "river_systems": systems, "total": total}
        )
    return rows
