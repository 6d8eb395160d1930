"""Forest geometry, paths, the one-animal-per-path rule and scoring (rules file §6, §8, §10, §11).

A forest is the list of placed cards, each ``{"card", "x", "y", "rot"}``; an
animal card adds ``{"up", "drops", "burrows"}``. A path is a connected
component of the graph whose nodes are path segments and face-up dens; two
nodes join when their ends meet across a shared edge (§8.1).

``per_exit`` is the two-exit den option's other reading (§8.3): each exit of a
den is a node of its own, so a den with two exits lies on two paths, collects
from both, and shares each with its own animals. An exit node is a dead end of
its path, so turning a den face down then never splits or changes a path.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from games.savernake_forest import cards
from games.savernake_forest.options import SHARED_WIN, STORED_FOOD

DELTA = {0: (0, -1), 1: (1, 0), 2: (0, 1), 3: (-1, 0)}  # N, E, S, W; y grows to the south


def open_cells(forest: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """Return the cells a card may go to (§6): empty, orthogonally adjacent, box stays within 4×4; by (y, x)."""
    taken = {(e["x"], e["y"]) for e in forest}
    xs, ys = [x for x, _ in taken], [y for _, y in taken]
    # A cell keeps the box within GRID columns and rows when it lies inside these bounds.
    low_x, high_x = max(xs) - cards.GRID + 1, min(xs) + cards.GRID - 1
    low_y, high_y = max(ys) - cards.GRID + 1, min(ys) + cards.GRID - 1
    found = set()
    for x, y in taken:
        for dx, dy in DELTA.values():
            cell = (x + dx, y + dy)
            if cell not in taken and low_x <= cell[0] <= high_x and low_y <= cell[1] <= high_y:
                found.add(cell)
    return sorted(found, key=lambda cell: (cell[1], cell[0]))


def nodes(forest: list[dict[str, Any]], per_exit: bool = False) -> list[dict[str, Any]]:
    """Return the path nodes of ``forest``: one per path segment and one per face-up den (§8.1), or one per exit
    of a face-up den with ``per_exit`` (§8.3)."""
    found = []
    for entry in forest:
        card, x, y, rot = entry["card"], entry["x"], entry["y"], entry["rot"]
        if cards.is_animal(card):
            if entry["up"]:
                sides = cards.exits(card, rot)
                for part, ends in enumerate([[side] for side in sides] if per_exit else [sides]):
                    found.append({"card": card, "part": part, "x": x, "y": y, "sides": ends, "foods": []})
        else:
            for part, (sides, foods) in enumerate(cards.segments(card, rot)):
                found.append({"card": card, "part": part, "x": x, "y": y, "sides": sides, "foods": foods})
    return found


def linked(
    forest: list[dict[str, Any]], per_exit: bool = False
) -> tuple[list[dict[str, Any]], dict[tuple[int, int, int], int], list[int]]:
    """Return the forest's path nodes, each open end ``(x, y, side)`` -> its node, and each node's path: the index
    of the path's first node, once every two ends that meet are joined (§8.1)."""
    found = nodes(forest, per_exit)
    ends = {(node["x"], node["y"], side): i for i, node in enumerate(found) for side in node["sides"]}
    parent = list(range(len(found)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, node in enumerate(found):
        for side in node["sides"]:
            dx, dy = DELTA[side]
            j = ends.get((node["x"] + dx, node["y"] + dy, (side + 2) % 4))
            if j is not None:
                a, b = root(i), root(j)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return found, ends, [root(i) for i in range(len(found))]


def components(forest: list[dict[str, Any]], per_exit: bool = False) -> list[dict[str, Any]]:
    """Return every path: ``{"nodes": [[card, part], ...], "animals": [ids], "foods": [...]}`` (§8.1)."""
    found, _ends, path_of = linked(forest, per_exit)
    groups: dict[int, dict[str, Any]] = {}
    for i, node in enumerate(found):
        group = groups.setdefault(path_of[i], {"nodes": [], "animals": [], "foods": []})
        group["nodes"].append([node["card"], node["part"]])
        # With a path per exit, both exits of one den may meet on a loop: it is still one animal there.
        if cards.is_animal(node["card"]) and node["card"] not in group["animals"]:
            group["animals"].append(node["card"])
        group["foods"].extend(node["foods"])
    return list(groups.values())


def shared(forest: list[dict[str, Any]], per_exit: bool = False) -> list[list[str]]:
    """Return the face-up animals of each path that holds two or more, each list sorted by id."""
    return [sorted(group["animals"]) for group in components(forest, per_exit) if len(group["animals"]) > 1]


def settle(groups: list[list[str]], keep: list[str]) -> dict[str, str] | None:
    """Return ``{turned-down animal: survivor}`` when ``keep`` settles the shared paths ``groups``, else None (§8.2).

    No path may keep two animals, and an animal of a shared path is turned down for the survivor of the first
    shared path it lies on that keeps one. A path keeping none is settled only when each of its animals is turned
    down for another path's survivor: with a path per exit, a den on two paths may lose on one of them (Fox,
    Squirrel, Fox in a line keeps both Foxes); with one path per den, paths share no animal, so each keeps one.
    """
    if refused(groups, keep) is not None:
        return None
    kept = [[card for card in keep if card in group] for group in groups]
    flips: dict[str, str] = {}
    for group, chosen in zip(groups, kept):
        for card in group:
            if chosen and card != chosen[0]:
                flips.setdefault(card, chosen[0])
    return flips


def refused(groups: list[list[str]], keep: list[str]) -> list[str] | None:
    """Return the first shared path of ``groups`` that ``keep`` leaves unsettled (see ``settle``), or None."""
    kept = [[card for card in keep if card in group] for group in groups]
    covered = {card for group, chosen in zip(groups, kept) if chosen for card in group}
    return next((group for group, chosen in zip(groups, kept)
                 if len(chosen) > 1 or (not chosen and not set(group) <= covered)), None)


def keeps(groups: list[list[str]], per_exit: bool = False) -> list[list[str]]:
    """Return every legal ``keep`` (sorted ids) for the shared paths ``groups``, in a fixed order."""
    if not per_exit or not groups:
        return [sorted(keep) for keep in product(*groups)]
    animals = sorted({card for group in groups for card in group})
    subsets = ([card for i, card in enumerate(animals) if mask >> i & 1] for mask in range(1, 1 << len(animals)))
    return [keep for keep in subsets if settle(groups, keep) is not None]


class Paths:
    """The paths of one forest, worked out once, to tell what a card placed next would share (§8.1).

    ``shared_after(card, x, y, rot)`` equals ``shared(forest + [that card])``
    (the new card face up), in the same order, without walking the forest
    again: only the new card's path ends are looked up. Legal moves ask it for
    every market card on every open cell in every rotation.
    """

    def __init__(self, forest: list[dict[str, Any]], per_exit: bool = False):
        found, ends, path_of = linked(forest, per_exit)
        self.per_exit = per_exit
        # A path is known by its root, its first node: paths are listed in that order (see ``components``).
        self.root_at = {end: path_of[i] for end, i in ends.items()}
        self.animals: dict[int, list[str]] = {}
        for i, node in enumerate(found):
            if cards.is_animal(node["card"]) and node["card"] not in self.animals.get(path_of[i], ()):
                self.animals.setdefault(path_of[i], []).append(node["card"])
        self.already_shared = [(path, animals) for path, animals in self.animals.items() if len(animals) > 1]
        self.count = len(found)
        self.new_nodes: dict[tuple[str, int], list[tuple[tuple[int, ...], str | None]]] = {}

    def shared_after(self, card: str, x: int, y: int, rot: int) -> list[list[str]]:
        """Return ``shared`` of the forest with ``card`` placed face up on (x, y) turned ``rot``."""
        new = self.new_nodes.get((card, rot))
        if new is None:
            if cards.is_animal(card):
                sides = cards.exits(card, rot)
                new = [((side,), card) for side in sides] if self.per_exit else [(sides, card)]
            else:
                new = [(sides, None) for sides, _ in cards.segments(card, rot)]
            self.new_nodes[card, rot] = new
        joined: list[tuple[set[int], list[str], int]] = []  # (old paths, animals, order) of each new path
        for number, (sides, animal) in enumerate(new):
            roots = set()
            for side in sides:
                found = self.root_at.get((x + _DX[side], y + _DY[side], (side + 2) % 4))
                if found is not None:
                    roots.add(found)
            if not roots and animal is None:
                continue  # a segment that meets nothing is a path without animals
            animals = [animal] if animal else []
            for old in [group for group in joined if group[0] & roots]:
                joined.remove(old)
                roots |= old[0]
                animals += old[1]
            joined.append((roots, animals, min(roots) if roots else self.count + number))
        if not joined and not self.already_shared:
            return []
        touched = set().union(*(group[0] for group in joined))
        paths = [(path, animals) for path, animals in self.already_shared if path not in touched]
        for roots, animals, order in joined:
            # dict.fromkeys: with a path per exit a den's two exits may meet on one path, one animal there.
            together = animals + [animal for path in roots for animal in self.animals.get(path, ())]
            together = list(dict.fromkeys(together))
            if len(together) > 1:
                paths.append((order, together))
        paths.sort(key=lambda path: path[0])
        return [sorted(animals) for _, animals in paths]


_DX = {side: dx for side, (dx, _) in DELTA.items()}
_DY = {side: dy for side, (_, dy) in DELTA.items()}


def animal_score(entry: dict[str, Any], foods: list[str]) -> dict[str, Any]:
    """Score one face-up animal with the food on its path (§10): base VP plus its best items up to capacity."""
    info = cards.ANIMALS[entry["card"]]
    drops = entry.get("drops", [])
    capacity = info["capacity"] + entry.get("burrows", 0)
    # Food worth 0 to the animal never takes a capacity slot (Q20); it stores its most valuable items (Q19).
    items = [(info["values"][food] + (1 if food in drops else 0), food) for food in foods]
    ranked = sorted((item for item in items if item[0] > 0), key=lambda item: (-item[0], cards.FOODS.index(item[1])))
    stored = ranked[:capacity]
    food_points = sum(value for value, _ in stored)
    return {
        "card": entry["card"],
        "base": info["base"],
        "capacity": capacity,
        "path_foods": sorted(foods, key=cards.FOODS.index),
        "stored": [food for _, food in stored],
        "food_points": food_points,
        "score": info["base"] + food_points,
    }


def forest_scores(forest: list[dict[str, Any]], per_exit: bool = False) -> dict[str, Any]:
    """Return ``{"total", "stored", "animals"}`` for a forest with no shared path (face-down animals score 0).

    With a path per exit, an animal collects from every path it lies on, up to its one capacity (§8.3).
    """
    by_card = {entry["card"]: entry for entry in forest}
    foods: dict[str, list[str]] = {}
    for group in components(forest, per_exit):
        for card in group["animals"]:
            foods.setdefault(card, []).extend(group["foods"])
    animals = [animal_score(by_card[card], found) for card, found in foods.items()]
    animals.sort(key=lambda item: item["card"])
    return {
        "total": sum(item["score"] for item in animals),
        "stored": sum(len(item["stored"]) for item in animals),
        "animals": animals,
    }


def turn_down(forest: list[dict[str, Any]], flipped: set[str]) -> list[dict[str, Any]]:
    """Return a copy of ``forest`` with the animals in ``flipped`` face down and their tokens removed (§7.5)."""
    return [
        dict(entry, up=False, drops=[], burrows=0) if entry["card"] in flipped else entry for entry in forest
    ]


def best_survivor(forest: list[dict[str, Any]], animals: list[str]) -> str:
    """Return the animal of one shared path whose survival scores most, ties to the lowest id (§8.2)."""
    best, best_score = "", -1
    for keep in sorted(animals):
        trial = turn_down(forest, set(animals) - {keep})
        score = next(item["score"] for item in forest_scores(trial)["animals"] if item["card"] == keep)
        if score > best_score:
            best, best_score = keep, score
    return best


def resolve_best(
    forest: list[dict[str, Any]], per_exit: bool = False
) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """Keep the best animal of every shared path and turn the others down; return (forest, flips).

    Paths are independent: turning a den down changes only its own path, so
    each shared path is decided on the forest as it is. Each flip is
    ``{"card", "survivor"}``. With a path per exit, see ``_resolve_best_per_exit``.
    """
    if per_exit:
        return _resolve_best_per_exit(forest)
    flips = []
    for animals in shared(forest):
        keep = best_survivor(forest, animals)
        flips.extend({"card": card, "survivor": keep} for card in animals if card != keep)
    if not flips:
        return forest, []
    return turn_down(forest, {flip["card"] for flip in flips}), flips


def _resolve_best_per_exit(forest: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """``resolve_best`` with a path per exit: keep the set of animals that scores most in all.

    Paths now chain through two-exit dens, so one path's survivor decides another's. Turning a den down never
    changes a path here (its exits are dead ends), so each animal's score is fixed and the best keep is the
    heaviest set of animals no two of which share a path; among equal totals, the first set by ids.
    """
    groups = shared(forest, True)
    if not groups:
        return forest, []
    worth = {item["card"]: item["score"] for item in forest_scores(forest, True)["animals"]}
    rivals: dict[str, set[str]] = {}
    for group in groups:
        for card in group:
            rivals.setdefault(card, set()).update(other for other in group if other != card)
    animals = sorted(rivals)
    best: tuple[int, list[str]] = (-1, [])

    def search(i: int, chosen: list[str], banned: set[str], total: int) -> None:
        nonlocal best
        if i == len(animals):
            if total > best[0] or (total == best[0] and chosen < best[1]):
                best = (total, list(chosen))
            return
        card = animals[i]
        if card not in banned:
            search(i + 1, [*chosen, card], banned | rivals[card], total + worth[card])
        search(i + 1, chosen, banned, total)

    search(0, [], set(), 0)
    settled = settle(groups, best[1]) or {}  # a heaviest set keeps every animal it can, so it settles every path
    flips = [{"card": card, "survivor": survivor} for card, survivor in settled.items()]
    return turn_down(forest, set(settled)), flips


def live_scores(forest: list[dict[str, Any]], per_exit: bool = False) -> dict[str, Any]:
    """Return the "if the game ended now" score of a forest (shared paths resolved at best, as at the end)."""
    return forest_scores(resolve_best(forest, per_exit)[0], per_exit)


def ranking(scores: list[int], stored: list[int], tie_break: str = SHARED_WIN) -> list[int]:
    """Return seats best first: points, then (with the stored-food tie-break) stored food items, then seat order
    (§11)."""
    if tie_break == STORED_FOOD:
        return sorted(range(len(scores)), key=lambda seat: (-scores[seat], -stored[seat], seat))
    return sorted(range(len(scores)), key=lambda seat: (-scores[seat], seat))


def winners(scores: list[int], stored: list[int], tie_break: str = SHARED_WIN) -> list[int]:
    """Return every seat tied for the best points (with the stored-food tie-break, and stored items): they share
    the victory (§11)."""
    order = ranking(scores, stored, tie_break)

    def standing(seat: int) -> tuple[int, ...]:
        return (scores[seat], stored[seat]) if tie_break == STORED_FOOD else (scores[seat],)

    return sorted(seat for seat in order if standing(seat) == standing(order[0]))
