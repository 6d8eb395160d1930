"""The plain-text position of Carcassonne: Hunters and Gatherers for emails (``view_text``), in the reader's language.

The scores and supplies, the tile to place with its edges, a text map of the board (each tile as
three rows of edge letters, a piece as its letter and seat) and the pieces on it. The letters are
the reader's (``terms``): F M R and g f h u in English, E R F and g h v k in Hungarian, W G F and
s f j h in German.
"""

from __future__ import annotations

from typing import Any

from games.carcassonne_hg import lexicon, terms, tiles
from games.carcassonne_hg.board import region_names
from games.carcassonne_hg.options import NAME
from games.carcassonne_hg.terms import counted, list_of, tile_name
from games.i18n import catalog_of

_ = catalog_of(__name__)

EDGE_KINDS = {"F": "forest", "M": "meadow", "R": "river"}


def view_text(view: dict[str, Any]) -> str:
    """Render a view as plain text: scores, the tile to place, a map of the board and the pieces on it."""
    edition = view["edition"]
    names = [seat["name"] for seat in view["seats"]]
    tile_set = terms.names("tile_set")[view["tile_set"]]
    lines = [_("{game} ({tile_set}), turn {turn}").format(game=_(NAME), tile_set=tile_set, turn=view["turn"])]
    for seat in view["seats"]:
        name = _("{name} (you)").format(name=seat["name"]) if seat["seat"] == view["you"] else seat["name"]
        if seat["left"]:
            line = _("{seat} {name}: {points}, {members} and {huts} in supply, left the game")
        else:
            line = _("{seat} {name}: {points}, {members} and {huts} in supply")
        lines.append("  " + line.format(seat=seat["seat"], name=name, points=counted("point", seat["score"]),
                                        members=counted("member", seat["members"]), huts=counted("hut", seat["huts"])))
    if view["phase"] == "over":
        winners = [names[s] for s in view["winners"] or []]
        lines.append(_.ngettext("The game is over. Winner: {players}.", "The game is over. Winners: {players}.",
                                len(winners)).format(players=list_of(winners)))
    else:
        tile = tiles.oriented(edition, view["tile"], 0)
        edges = " ".join(f"{terms.side(d)}={terms.feature(EDGE_KINDS[e])}" for d, e in zip(tiles.DIRECTIONS, tile.edges))
        if view["bonus_turn"]:
            line = _("{player} places the bonus tile: {tile} (as printed, {rotation}: {edges}).")
        else:
            line = _("{player} places the tile: {tile} (as printed, {rotation}: {edges}).")
        lines.append(line.format(player=names[view["current"]], tile=tile_name(view["tile"], edition),
                                 rotation=lexicon.vocabulary().rotation.format(rot=0), edges=edges))
        lines.append(_("Left: {land}, {bonus}.").format(land=counted("land tile", view["stack_count"]),
                                                        bonus=counted("bonus tile", view["bonus_stack_count"])))
    lines.append("")
    lines.extend(board_map(view))
    if view["pieces"]:
        lines.append(_("Pieces:"))
        placed = {(x, y): (tile_id, rot) for x, y, tile_id, rot, _by in view["board"]}
        for piece in view["pieces"]:
            where = region_names(edition, *placed[piece["x"], piece["y"]])[piece["region"]]
            lines.append("  " + _("{player}: {piece} on {x},{y} ({where})").format(
                player=names[piece["seat"]], piece=terms.piece(piece["kind"]), x=piece["x"], y=piece["y"],
                where=terms.region_label(where)))
    return "\n".join(lines)


def board_map(view: dict[str, Any]) -> list[str]:
    """Draw the board: each tile as 3 text rows showing its edges and any piece (its letter + seat)."""
    placed = {(x, y): (tile_id, rot) for x, y, tile_id, rot, _by in view["board"]}
    pieces = {(p["x"], p["y"]): p for p in view["pieces"]}
    edge_letter = terms.names("edge_letter")
    piece_letter = terms.names("piece_letter")
    xs = [x for x, _y in placed]
    ys = [y for _x, y in placed]
    legend = _("Map: x grows east, y north; edges {forest} forest, {meadow} meadow, {river} river; "
               "{example} = hunter of seat 1 ({letters}).")
    lines = [legend.format(forest=edge_letter["F"], meadow=edge_letter["M"], river=edge_letter["R"],
                           example=f"{piece_letter['hunter']}1", letters=" ".join(piece_letter.values()))]
    lines.append("      " + "".join(f"{x:^7}" for x in range(min(xs), max(xs) + 1)))
    for y in range(max(ys), min(ys) - 1, -1):
        rows = ["", "", ""]
        for x in range(min(xs), max(xs) + 1):
            found = placed.get((x, y))
            if found is None:
                rows = [row + "   .   " if i == 1 else row + " " * 7 for i, row in enumerate(rows)]
                continue
            n, e, s, w = (edge_letter[edge] for edge in tiles.oriented(view["edition"], *found).edges)
            piece = pieces.get((x, y))
            mark = f"{piece_letter[piece['kind']]}{piece['seat']}" if piece else ""
            rows[0] += f"   {n}   "
            rows[1] += f" {w}{mark:^3}{e} "
            rows[2] += f"   {s}   "
        lines.append("      " + rows[0])
        lines.append(f"{y:>5} " + rows[1])
        lines.append("      " + rows[2])
    return lines
