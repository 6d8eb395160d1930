"""Per-seat projection of a Carcassonne: Hunters and Gatherers game (both editions) and event wording.

Only the order of the two stacks is secret, from everyone alike: a view
gives their sizes. The tile being placed is public (as at the table), and so
is every tile already drawn, placed or discarded. Every seat and spectator
therefore gets the same picture apart from ``you``.
"""

from __future__ import annotations

from typing import Any

from games.base import Event
from games.carcassonne_hg import scoring, tiles, web_art
from games.carcassonne_hg import features as feats
from games.carcassonne_hg.board import region_names

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
    """
    shown = view(state, None)
    shown["revealed"] = {
        "stack": [{"tile": tile_id, "name": tile_name(tile_id, state["edition"])} for tile_id in state["stack"]],
        "bonus_stack": [
            {"tile": tile_id, "name": tile_name(tile_id, state["edition"])} for tile_id in state["bonus_stack"]
        ],
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


# -- event wording ---------------------------------------------------------------


def _catalogue_tile(tile_id: str, edition: str | None = None) -> tiles.Tile | None:
    """Return the catalogue tile ``tile_id`` of ``edition`` (or of the first edition that has it)."""
    for each in (edition,) if edition else tiles.EDITIONS:
        found = tiles.catalogue(each).get(tile_id)
        if found:
            return found[0]
    return None


ANIMAL_WORDS = {"deer": ("a deer", "deer"), "aurochs": ("an aurochs", "aurochs"),
                "mammoth": ("a mammoth", "mammoths"), "tiger": ("a tiger", "tigers")}


def _counted(count: int, one: str, many: str) -> str:
    return one if count == 1 else f"{count} {many}"


def tile_name(tile_id: str, edition: str | None = None) -> str:
    """Name a tile in words, as people tell tiles apart: "a river tile with a lake (2 fish) and a deer".

    The landscape comes from the tile's edges, the details from its regions; a bonus tile with a power
    is called by the power's name. Catalogue ids (``R-L67``) mean nothing to a player.
    """
    tile = _catalogue_tile(tile_id, edition)
    if tile is None:
        return f"the tile {tile_id}"
    edges = set(tile.edges)
    landscape = "river" if "R" in edges else {frozenset("F"): "forest", frozenset("M"): "meadow"}.get(
        frozenset(edges), "forest and meadow")
    titled = tile.name != tile.id and not tile.name.lower().startswith("plain")
    if tile.deck == tiles.START:
        noun = "the start tile"
    elif titled:
        noun = f"the {tile.name.split(' (')[0].split(' / ')[0].removeprefix('The ')} bonus tile"
    elif tile.deck == tiles.BONUS:
        noun = f"a {landscape} bonus tile"
    else:
        noun = f"a {landscape} tile"
    lakes = [r for r in tile.regions if r.kind == tiles.LAKE]
    details = []
    if lakes:
        fish = sum(r.fish for r in lakes)
        caught = f" ({fish} fish)" if fish else ""
        details.append(("a lake" if len(lakes) == 1 else f"{len(lakes)} lakes") + caught)
    if any(r.inner_end == "source" for r in tile.regions):
        details.append("a spring")
    if any(r.menhir for r in tile.regions):
        details.append("a menhir")
    if any(r.mushrooms for r in tile.regions) and "mushroom" not in noun.lower():
        details.append("mushrooms")
    animals: dict[str, int] = {}
    for region in tile.regions:
        for animal, count in region.animals:
            animals[animal] = animals.get(animal, 0) + count
    details += [_counted(count, *ANIMAL_WORDS.get(animal, (f"a {animal}", animal))) for animal, count in animals.items()]
    if not details:
        return noun
    listed = details[0] if len(details) == 1 else ", ".join(details[:-1]) + " and " + details[-1]
    return f"{noun} with {listed}"


def _points(value: int) -> str:
    return f"{value} point{'s' if value != 1 else ''}"


def describe_event(event: Event, players: list[str], viewer: int | None) -> str:
    """Return one English line describing ``event`` as ``viewer`` should read it."""
    d = event.data

    def who(seat: int) -> str:
        return "You" if seat == viewer else players[seat]

    def verb(seat: int, plain: str, third: str) -> str:
        return plain if seat == viewer else third

    def group(seats: list[int]) -> str:
        if not seats:
            return "nobody"
        return " and ".join(who(seat) if i == 0 else who(seat).replace("You", "you") for i, seat in enumerate(seats))

    kind = event.kind
    if kind == "tile_drawn":
        pile = "bonus tiles" if d["bonus"] else "tiles"
        drawn = f"{who(d['seat'])} {verb(d['seat'], 'draw', 'draws')} {tile_name(d['tile'])}"
        return f"{drawn} ({d['left']} {pile} left)."
    if kind == "tile_discarded":
        then = {
            "end_turn": "the turn ends",
            "redraw": "another tile is drawn",
        }[d["then"]]
        name = tile_name(d["tile"])
        return f"{name[0].upper()}{name[1:]} fits nowhere and leaves the game; {then}."
    if kind == "tile_placed":
        return (
            f"{who(d['seat'])} {verb(d['seat'], 'place', 'places')} {tile_name(d['tile'])} "
            f"on {d['x']},{d['y']} turned {d['rot']}°."
        )
    if kind == "piece_placed":
        puts = f"{who(d['seat'])} {verb(d['seat'], 'put', 'puts')} a {d['kind']}"
        return f"{puts} on the {d['feature']} at {d['x']},{d['y']}."
    if kind == "piece_recalled":
        whose = "your" if d["seat"] == viewer else f"{players[d['seat']]}'s"
        return f"The shaman sends {whose} {d['kind']} on {d['x']},{d['y']} home."
    if kind == "logboat_scored":
        scores = f"{who(d['seat'])} {verb(d['seat'], 'score', 'scores')} {_points(d['points'])}"
        return f"Logboat: {scores} for {d['lakes']} lake(s)."
    if kind == "hunting_trap_scored":
        animals = ", ".join(f"{count} {animal}" for animal, count in d["animals"].items() if count) or "no animals"
        eaten = f", {d['eaten']} deer eaten" if d["eaten"] else ""
        return (
            f"Hunting trap ({animals}{eaten}): {group(d['scorers'])} {_scored(d['scorers'], viewer)} "
            f"{_points(d['points'])}; those animals are covered."
        )
    if kind == "feature_completed":
        size = f"{d['tiles']} tile{'s' if d['tiles'] != 1 else ''}"
        extra = ""
        if d["feature"] == "forest" and d.get("mushrooms"):
            extra = f", {d['mushrooms']} mushroom group(s)"
        if d["feature"] == "river":
            extra = f", {d['fish']} fish"
        text = f"A {d['feature']} is completed ({size}{extra}): "
        if d["scorers"]:
            text += f"{group(d['scorers'])} {_scored(d['scorers'], viewer)} {_points(d['points'])}"
        else:
            text += "nobody scores"
        if d["returned"]:
            text += f"; {len(d['returned'])} tribe member(s) go home"
        return text + "."
    if kind == "bonus_earned":
        if d["available"]:
            return f"{who(d['seat'])} {verb(d['seat'], 'earn', 'earns')} a bonus tile."
        return f"{who(d['seat'])} would earn a bonus tile, but none is left."
    if kind == "meadow_scored":
        eaten = f", {d['eaten']} eaten by tigers" if d["eaten"] else ""
        fire = ", fire keeps the tigers away" if d["fire"] else ""
        trap = f", pit trap +{d['pit_trap']}" if d.get("pit_trap") else ""
        animals = f"{d['deer']} deer{eaten}, {d['aurochs']} aurochs, {d['mammoth']} mammoth(s){fire}{trap}"
        scored = f"{group(d['scorers'])} {_scored(d['scorers'], viewer)} {_points(d['points'])}"
        return f"Meadow at {d['x']},{d['y']} ({animals}): {scored}."
    if kind == "river_system_scored":
        raft = f" + {d['lakes']} for the raft" if d["raft"] else ""
        return (
            f"River system at {d['x']},{d['y']} ({d['fish']} fish{raft}): "
            f"{group(d['scorers'])} {_scored(d['scorers'], viewer)} {_points(d['points'])} for their huts."
        )
    if kind == "player_left":
        return f"{who(d['seat'])} {verb(d['seat'], 'leave', 'leaves')} the game."
    if kind == "tile_passed":
        return f"The drawn tile, {tile_name(d['tile'])}, passes to {who(d['seat'])}."
    if kind == "game_ended" and d.get("reason") == "resigned":
        return f"Everyone else has left: {group(d['winners'])} {verb(d['winners'][0], 'win', 'wins')}."
    if kind == "game_ended":
        scores = ", ".join(f"{players[seat]} {score}" for seat, score in enumerate(d["scores"]))
        if len(d["winners"]) == 1:
            return f"The game is over: {scores}. {who(d['winners'][0])} {verb(d['winners'][0], 'win', 'wins')}."
        return f"The game is over: {scores}. {group(d['winners'])} share the win."
    return kind.replace("_", " ").capitalize() + "."


def _scored(scorers: list[int], viewer: int | None) -> str:
    return "score" if len(scorers) != 1 or scorers[0] == viewer else "scores"



# -- text for emails -----------------------------------------------------------------

PIECE_LETTER = {"gatherer": "g", "fisherman": "f", "hunter": "h", "hut": "u"}


def view_text(view: dict[str, Any]) -> str:
    """Render a view as plain text: scores, the tile to place, a map of the board and the pieces on it."""
    edition = view["edition"]
    names = [seat["name"] for seat in view["seats"]]
    lines = [f"Carcassonne: Hunters and Gatherers ({view['tile_set']}), turn {view['turn']}"]
    for seat in view["seats"]:
        you = " (you)" if seat["seat"] == view["you"] else ""
        gone = ", left the game" if seat["left"] else ""
        lines.append(
            f"  {seat['seat']} {seat['name']}{you}: {seat['score']} points, "
            f"{seat['members']} tribe members and {seat['huts']} huts in supply{gone}"
        )
    if view["phase"] == "over":
        winners = " and ".join(names[s] for s in view["winners"] or [])
        lines.append(f"The game is over. Winner: {winners}.")
    else:
        current = view["current"]
        kind = "bonus tile" if view["bonus_turn"] else "tile"
        tile = tiles.oriented(edition, view["tile"], 0)
        edges = " ".join(f"{d}={EDGE_LETTER_WORDS[e]}" for d, e in zip(tiles.DIRECTIONS, tile.edges))
        lines.append(f"{names[current]} places the {kind}: {tile_name(view['tile'], edition)} (as printed, r0: {edges}).")
        lines.append(f"Left: {view['stack_count']} land tiles, {view['bonus_stack_count']} bonus tiles.")
    lines.append("")
    lines.extend(board_map(view))
    if view["pieces"]:
        lines.append("Pieces:")
        placed = {(x, y): (tile_id, rot) for x, y, tile_id, rot, _ in view["board"]}
        for piece in view["pieces"]:
            where = region_names(edition, *placed[piece["x"], piece["y"]])[piece["region"]]
            lines.append(f"  {names[piece['seat']]}: {piece['kind']} on {piece['x']},{piece['y']} ({where})")
    return "\n".join(lines)


EDGE_LETTER_WORDS = {"F": "forest", "M": "meadow", "R": "river"}


def board_map(view: dict[str, Any]) -> list[str]:
    """Draw the board: each tile as 3 text rows showing its edges (F, M, R) and any piece (kind letter + seat)."""
    placed = {(x, y): (tile_id, rot) for x, y, tile_id, rot, _ in view["board"]}
    pieces = {(p["x"], p["y"]): p for p in view["pieces"]}
    xs = [x for x, _ in placed]
    ys = [y for _, y in placed]
    lines = ["Map: x grows east, y north; edges F forest, M meadow, R river; h1 = hunter of seat 1 (g f h u)."]
    lines.append("      " + "".join(f"{x:^7}" for x in range(min(xs), max(xs) + 1)))
    for y in range(max(ys), min(ys) - 1, -1):
        rows = ["", "", ""]
        for x in range(min(xs), max(xs) + 1):
            found = placed.get((x, y))
            if found is None:
                rows = [row + "   .   " if i == 1 else row + " " * 7 for i, row in enumerate(rows)]
                continue
            n, e, s, w = tiles.oriented(view["edition"], *found).edges
            piece = pieces.get((x, y))
            mark = f"{PIECE_LETTER[piece['kind']]}{piece['seat']}" if piece else ""
            rows[0] += f"   {n}   "
            rows[1] += f" {w}{mark:^3}{e} "
            rows[2] += f"   {s}   "
        lines.append("      " + rows[0])
        lines.append(f"{y:>5} " + rows[1])
        lines.append("      " + rows[2])
    return lines
