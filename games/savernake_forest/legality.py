"""Which moves are legal in Savernake Forest, and why a move is not (rules file §5.2, §6, §7, §8).

``legal_moves`` lists every move of the seat to play; ``check_move`` checks one move and returns
its plan (the card, the placed entry, the animals turned face down, the token) for ``engine.py`` to
apply, or raises ``IllegalMove`` with the reason in the reader's language.
"""

from __future__ import annotations

from typing import Any

from games.base import IllegalMove, State
from games.i18n import catalog_of
from games.savernake_forest import cards, scoring
from games.savernake_forest.cards import FOODS, SLOTS
from games.savernake_forest.options import IMMEDIATE, per_exit
from games.savernake_forest.words import animal_phrase, food_kinds, or_list, slots_from, slots_under

_ = catalog_of(__name__)

MOVE_KEYS = ("slot", "x", "y", "rot", "keep", "token")


def animal_entry(card: str, x: int, y: int, rot: int) -> dict[str, Any]:
    return {"card": card, "x": x, "y": y, "rot": rot, "up": True, "drops": [], "burrows": 0}


# -- small queries -------------------------------------------------------------


def current(state: State) -> int | None:
    """Return the seat to move, or None once the game is over."""
    return state["order"][0] if state["order"] else None


def face_up_animals(forest: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the face-up animal entries of a forest, sorted by card id."""
    return sorted((e for e in forest if "up" in e and e["up"]), key=lambda e: e["card"])


def new_entry(card: str, x: int, y: int, rot: int) -> dict[str, Any]:
    return animal_entry(card, x, y, rot) if cards.is_animal(card) else {"card": card, "x": x, "y": y, "rot": rot}


def token_options(state: State, slot: str, forest: list[dict[str, Any]]) -> list[dict[str, str] | None]:
    """Return the token choices of ``slot`` on ``forest`` (the mover's forest after the shared-path check)."""
    return token_choices(state, slot, face_up_animals(forest))


def token_choices(state: State, slot: str, face_up: list[dict[str, Any]]) -> list[dict[str, str] | None]:
    """Return the token choices of ``slot`` given the mover's face-up animals (sorted by card id)."""
    if slot == "goat":
        if state["supply"]["drops"] <= 0:
            return [None]
        options = [{"animal": e["card"], "food": food} for e in face_up for food in FOODS if food not in e["drops"]]
        return options or [None]  # §7.2: every corner full, so the drop stays in the supply
    if slot == "armadillo":
        if state["supply"]["burrows"] <= 0:
            return [None]
        return [{"animal": e["card"]} for e in face_up] or [None]
    return [None]


def shared_groups(state: State, forest: list[dict[str, Any]]) -> list[list[str]]:
    """Return the shared paths the mover must resolve now (none when resolution waits for the end)."""
    if state["options"]["shared_path_resolution"] != IMMEDIATE:
        return []
    return scoring.shared(forest, per_exit(state["options"]))


# -- legality (§5.2, §6, §7, §8) ---------------------------------------------------


def legal_moves(state: State, seat: int) -> list[dict[str, Any]]:
    """Return every legal move for ``seat``: by slot, cell (y, x), rotation, survivors, token.

    The forest's paths are worked out once (``scoring.Paths``); each placement
    then only looks up the new card's path ends, and its tokens come from the
    face-up animals it leaves.
    """
    if current(state) != seat:
        return []
    forest = state["forests"][seat]
    cells = scoring.open_cells(forest)
    exits = per_exit(state["options"])
    paths = scoring.Paths(forest, exits) if state["options"]["shared_path_resolution"] == IMMEDIATE else None
    face_up = face_up_animals(forest)
    moves = []
    for slot in SLOTS:
        card = state["market"][slot]
        if card is None:
            continue
        new_animal = cards.is_animal(card)
        for x, y in cells:
            for rot in cards.ROTATIONS:
                groups = paths.shared_after(card, x, y, rot) if paths else []
                for keep in scoring.keeps(groups, exits):
                    flipped = {a for group in groups for a in group} - set(keep)
                    up = [e for e in face_up if e["card"] not in flipped]
                    if new_animal:
                        up = sorted([*up, new_entry(card, x, y, rot)], key=lambda e: e["card"])
                    for token in token_choices(state, slot, up):
                        move: dict[str, Any] = {"slot": slot, "x": x, "y": y, "rot": rot}
                        if groups:
                            move["keep"] = keep
                        if token is not None:
                            move["token"] = token
                        moves.append(move)
    return moves


def _integer(move: dict[str, Any], key: str) -> int:
    value = move.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalMove(_("{key} must be a whole number").format(key=key))
    return value


def check_move(state: State, seat: int, move: Any) -> dict[str, Any]:
    """Return the plan of a legal move (card, entry, flips, token) or raise ``IllegalMove``."""
    if state["result"] is not None:
        raise IllegalMove(_("The game is over"))
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state["players"]):
        raise IllegalMove(_("There is no seat {seat!r}").format(seat=seat))
    if seat != current(state):
        raise IllegalMove(_("It is {player}'s turn, not yours").format(player=state["players"][current(state)]))
    if not isinstance(move, dict):
        raise IllegalMove(_('A move must be an object such as {"slot": "goat", "x": 1, "y": 0, "rot": 1}'))
    extra = sorted(str(key) for key in move if key not in MOVE_KEYS)
    if extra:
        raise IllegalMove(_("Unexpected field(s) in a move: {fields}").format(fields=", ".join(extra)))
    slot = move.get("slot")
    if slot not in SLOTS:
        raise IllegalMove(_("slot must be one of {slots}").format(slots=", ".join(SLOTS)))
    card = state["market"][slot]
    if card is None:
        raise IllegalMove(_("There is no card under the {slot}").format(slot=slots_under()[slot]))
    x, y, rot = _integer(move, "x"), _integer(move, "y"), _integer(move, "rot")
    if rot not in cards.ROTATIONS:
        raise IllegalMove(_("rot must be 0, 1, 2 or 3 quarter turns clockwise (0°, 90°, 180°, 270°)"))
    forest = state["forests"][seat]
    if any(e["x"] == x and e["y"] == y for e in forest):
        raise IllegalMove(_("Cell {x},{y} already holds a card").format(x=x, y=y))
    if (x, y) not in scoring.open_cells(forest):
        if not any(abs(e["x"] - x) + abs(e["y"] - y) == 1 for e in forest):
            raise IllegalMove(_("Cell {x},{y} does not touch a side of a card in your forest").format(x=x, y=y))
        raise IllegalMove(_("A card on {x},{y} would take your forest beyond 4×4 cards").format(x=x, y=y))
    entry = new_entry(card, x, y, rot)
    trial = [*forest, entry]
    groups = shared_groups(state, trial)
    flipped = _check_keep(groups, move)
    resolved = scoring.turn_down(trial, set(flipped)) if flipped else trial
    token = _check_token(state, slot, resolved, move)
    return {"slot": slot, "card": card, "entry": entry, "flips": flipped, "groups": groups, "token": token}


def _check_keep(groups: list[list[str]], move: dict[str, Any]) -> dict[str, str]:
    """Return {turned-down animal: survivor} for a legal ``keep`` (§8.2), or raise ``IllegalMove``."""
    if not groups:
        if "keep" in move:
            raise IllegalMove(_("This placement puts no two animals on one path: leave out keep"))
        return {}
    listing = "; ".join(or_list(group) for group in groups)
    keep = move.get("keep")
    if keep is None:
        raise IllegalMove(_("This placement puts animals on a shared path: keep one of each ({listing})").format(
            listing=listing))
    if not isinstance(keep, list) or not all(isinstance(card, str) for card in keep):
        raise IllegalMove(_("keep must be a list of animal card ids, one per shared path"))
    flips = scoring.settle(groups, keep)
    if flips is None:
        group = scoring.refused(groups, keep) or []
        raise IllegalMove(_("Keep exactly one animal of the shared path {animals}").format(animals=" / ".join(group)))
    stray = [card for card in keep if not any(card in group for group in groups)]
    if stray:
        raise IllegalMove(_("{animals} is on no shared path: keep one of each ({listing})").format(
            animals=", ".join(stray), listing=listing))
    return flips


def _check_token(state: State, slot: str, forest: list[dict[str, Any]], move: dict[str, Any]) -> dict[str, str] | None:
    """Return the token of a legal move (§7), or raise ``IllegalMove``."""
    options = token_options(state, slot, forest)
    token = move.get("token")
    if options == [None]:
        if "token" in move:
            if slot == "goat":
                raise IllegalMove(_("Every corner of your face-up animals holds a drop: the drop stays in the supply"))
            raise IllegalMove(_("The {slot} gives no token: leave out token").format(slot=slots_from()[slot]))
        return None
    if token is None:
        if slot == "goat":
            raise IllegalMove(_("Place the goat's water drop: token {animal, food} on one of your face-up animals"))
        raise IllegalMove(_("Place the armadillo's burrow: token {animal} on one of your face-up animals"))
    if not isinstance(token, dict):
        raise IllegalMove(_('token must be an object such as {"animal": "AN05", "food": "W"}'))
    wanted = {"animal", "food"} if slot == "goat" else {"animal"}
    if set(token) != wanted:
        raise IllegalMove(
            _("A water drop names an animal and a food") if slot == "goat" else _("A burrow names only an animal")
        )
    animal = token["animal"]
    entry = next((e for e in forest if e["card"] == animal and "up" in e), None)
    if entry is None:
        raise IllegalMove(_("{animal!r} is not an animal in your forest").format(animal=animal))
    if not entry["up"]:
        raise IllegalMove(_("The {animal} is face down: tokens go on face-up animals only").format(
            animal=animal_phrase(animal)))
    if slot == "goat":
        food = token["food"]
        if food not in FOODS:
            raise IllegalMove(_("food must be B (berries), W (worms), E (eggs) or N (nuts)"))
        if food in entry["drops"]:
            raise IllegalMove(_("The {animal} already has a drop on its {food} corner").format(
                animal=animal_phrase(animal), food=food_kinds()[food]))
    if token not in options:  # defensive: every reason above should have caught it
        raise IllegalMove(_("That token cannot be placed"))
    return dict(token)

