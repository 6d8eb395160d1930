"""Savernake Forest rules: Rodrigo Rego's forest-drafting game (Devir 2023), 2 to 4 players.

Follows docs/rules/savernake-forest.md (the rules file): setup of §4,
rounds and the compound turn of §5, placement of §6, helpers and tokens of §7,
the one-animal-per-path rule of §8, the end of §9, scoring of §10, tie-breaks
of §11 and every resolution of §16–§17. The card catalogue is the rules
file's RECONSTRUCTION (§15), kept as data in ``cards.py``.

Rule algorithms are module functions working on a copy of the state;
``SavernakeForestEngine`` is the thin contract adapter around them.

Hidden information: only the order of the two decks (and the seed). Forests,
market, discards and token supplies are public, so every seat gets the same
view; nothing that leaves the engine names an undealt card.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from games.base import Engine, Event, IllegalMove, InvalidOptions, State, seeded_rng
from games.i18n import catalog_of, in_english
from games.savernake_forest import breakdown, cards, history, notation, plain_text, player_view, scoring
from games.savernake_forest.cards import ANIMAL_SLOT, FOODS, ROUNDS, SLOTS
from games.savernake_forest.options import IMMEDIATE, OPTION_SPECS, PERSISTENT, validate_options
from games.savernake_forest.words import animal_phrase, food_kinds, or_list, slots_from, slots_under

_ = catalog_of(__name__)
N_ = _.noop

MOVE_KEYS = ("slot", "x", "y", "rot", "keep", "token")


def new_game(players: list[str], options: dict[str, Any], seed: int | str) -> State:
    """Return the state of a new game: starting animals dealt, first market row out, round 1 begun."""
    if not isinstance(players, list) or not all(isinstance(player, str) for player in players):
        raise InvalidOptions(_("players must be a list of display names"))
    opts = validate_options(len(players), options)
    n = len(players)
    scripted = opts.get("deck")
    if scripted:
        paths, animals = list(scripted["paths"]), list(scripted["animals"])
    else:
        paths, animals = list(cards.PATH_IDS), list(cards.ANIMAL_IDS)
        seeded_rng(seed, "paths").shuffle(paths)
        seeded_rng(seed, "animals").shuffle(animals)
    first = opts.get("first_player")
    if first is None:
        first = seeded_rng(seed, "first_player").randrange(n)  # Q18: the first player of round 1 is random
    forests = []
    for _ in range(n):  # ruling 12a: starting animals from the top, seat 0 first, before the first row
        forests.append([_animal_entry(animals.pop(0), 0, 0, 0)])
    state: State = {
        "players": list(players),
        "options": opts,
        "seed": seed,
        "round": 1,
        "turn": 0,
        "first": first,
        "rooster": first,
        "order": [(first + i) % n for i in range(n)],
        "market": {slot: None for slot in SLOTS},
        "path_deck": paths,
        "animal_deck": animals,
        "discard": [],
        "supply": {"drops": cards.TOKENS_PER_KIND, "burrows": cards.TOKENS_PER_KIND},
        "forests": forests,
        "left": [False] * n,
        "result": None,
    }
    _deal_row(state)
    return state


def _animal_entry(card: str, x: int, y: int, rot: int) -> dict[str, Any]:
    return {"card": card, "x": x, "y": y, "rot": rot, "up": True, "drops": [], "burrows": 0}


def _deal_row(state: State) -> list[str]:
    """Fill every empty market slot: paths to rooster, goat, armadillo, then an animal to the rabbit (12a)."""
    dealt = []
    for slot in SLOTS:
        if state["market"][slot] is None:
            deck = state["animal_deck"] if slot == ANIMAL_SLOT else state["path_deck"]
            if deck:  # never empty under the rules (§5.1 supply check); a slot would simply stay empty
                state["market"][slot] = deck.pop(0)
                dealt.append(slot)
    return dealt


def _fork(state: State) -> State:
    """Return a copy of ``state`` that shares nothing mutable with it (cheaper than deepcopy)."""
    new = dict(state)
    new["players"] = list(state["players"])
    new["order"] = list(state["order"])
    new["market"] = dict(state["market"])
    new["path_deck"] = list(state["path_deck"])
    new["animal_deck"] = list(state["animal_deck"])
    new["discard"] = list(state["discard"])
    new["supply"] = dict(state["supply"])
    new["left"] = list(_left(state))
    new["forests"] = [
        [dict(entry, drops=list(entry["drops"])) if "drops" in entry else dict(entry) for entry in forest]
        for forest in state["forests"]
    ]
    return new


# -- small queries -------------------------------------------------------------


def _left(state: State) -> list[bool]:
    """Return which seats have resigned (left the game)."""
    return state.get("left") or [False] * len(state["players"])


def current(state: State) -> int | None:
    """Return the seat to move, or None once the game is over."""
    return state["order"][0] if state["order"] else None


def face_up_animals(forest: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the face-up animal entries of a forest, sorted by card id."""
    return sorted((e for e in forest if "up" in e and e["up"]), key=lambda e: e["card"])


def _new_entry(card: str, x: int, y: int, rot: int) -> dict[str, Any]:
    return _animal_entry(card, x, y, rot) if cards.is_animal(card) else {"card": card, "x": x, "y": y, "rot": rot}


def _token_options(state: State, slot: str, forest: list[dict[str, Any]]) -> list[dict[str, str] | None]:
    """Return the token choices of ``slot`` on ``forest`` (the mover's forest after the shared-path check)."""
    return _token_choices(state, slot, face_up_animals(forest))


def _token_choices(state: State, slot: str, face_up: list[dict[str, Any]]) -> list[dict[str, str] | None]:
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


def _shared_groups(state: State, forest: list[dict[str, Any]]) -> list[list[str]]:
    """Return the shared paths the mover must resolve now (none when resolution waits for the end)."""
    if state["options"]["shared_path_resolution"] != IMMEDIATE:
        return []
    return scoring.shared(forest)


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
    paths = scoring.Paths(forest) if state["options"]["shared_path_resolution"] == IMMEDIATE else None
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
                for keep in product(*groups):
                    flipped = {a for group in groups for a in group} - set(keep)
                    up = [e for e in face_up if e["card"] not in flipped]
                    if new_animal:
                        up = sorted([*up, _new_entry(card, x, y, rot)], key=lambda e: e["card"])
                    for token in _token_choices(state, slot, up):
                        move: dict[str, Any] = {"slot": slot, "x": x, "y": y, "rot": rot}
                        if groups:
                            move["keep"] = sorted(keep)
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
    entry = _new_entry(card, x, y, rot)
    trial = [*forest, entry]
    groups = _shared_groups(state, trial)
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
    flips = {}
    for group in groups:
        chosen = [card for card in keep if card in group]
        if len(chosen) != 1:
            raise IllegalMove(_("Keep exactly one animal of the shared path {animals}").format(
                animals=" / ".join(group)))
        flips.update({card: chosen[0] for card in group if card != chosen[0]})
    stray = [card for card in keep if not any(card in group for group in groups)]
    if stray:
        raise IllegalMove(_("{animals} is on no shared path: keep one of each ({listing})").format(
            animals=", ".join(stray), listing=listing))
    return flips


def _check_token(state: State, slot: str, forest: list[dict[str, Any]], move: dict[str, Any]) -> dict[str, str] | None:
    """Return the token of a legal move (§7), or raise ``IllegalMove``."""
    options = _token_options(state, slot, forest)
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


# -- applying a move ------------------------------------------------------------


def apply_move(state: State, seat: int, move: dict[str, Any]) -> tuple[State, list[Event]]:
    """Return the next state and the (public) events; raise ``IllegalMove``. The input is not changed."""
    plan = check_move(state, seat, move)
    new = _fork(state)
    events: list[Event] = []
    slot, card, entry = plan["slot"], plan["card"], plan["entry"]
    new["market"][slot] = None
    forest = new["forests"][seat]
    forest.append(dict(entry))
    events.append(
        Event(
            "card_taken",
            {"seat": seat, "round": new["round"], "slot": slot, "card": card, "x": entry["x"], "y": entry["y"],
             "rot": entry["rot"]},
        )
    )  # fmt: skip
    for flipped, survivor in sorted(plan["flips"].items()):
        _turn_down(new, seat, flipped, survivor, False, events)
    token = plan["token"]
    if slot == "goat":
        if token is None:
            events.append(Event("water_drop_unplaced", {"seat": seat}))
        else:
            target = next(e for e in forest if e["card"] == token["animal"])
            target["drops"] = sorted([*target["drops"], token["food"]], key=FOODS.index)
            new["supply"]["drops"] -= 1
            events.append(Event("water_drop_placed", {"seat": seat, "animal": token["animal"], "food": token["food"]}))
    elif slot == "armadillo" and token is not None:
        target = next(e for e in forest if e["card"] == token["animal"])
        target["burrows"] += 1
        new["supply"]["burrows"] -= 1
        events.append(Event("burrow_placed", {"seat": seat, "animal": token["animal"], "burrows": target["burrows"]}))
    elif slot == "rooster":
        previous = new["rooster"]
        new["rooster"] = seat  # §7.1: the marker moves now; it decides next round's first player
        events.append(Event("rooster_taken", {"seat": seat, "previous": previous}))
    new["turn"] += 1
    new["order"].pop(0)
    if not new["order"]:
        _end_round(new, events)
    return new, events


def _turn_down(state: State, seat: int, card: str, survivor: str, final: bool, events: list[Event]) -> None:
    """Turn an animal face down (§8.2); its tokens go back to the supply (§7.5), or are lost at the end."""
    entry = next(e for e in state["forests"][seat] if e["card"] == card)
    drops, burrows = len(entry["drops"]), entry["burrows"]
    if not final:  # end_of_game mode: tokens on flipped animals are simply lost (§8.2)
        state["supply"]["drops"] += drops
        state["supply"]["burrows"] += burrows
    entry.update(up=False, drops=[], burrows=0)
    events.append(
        Event(
            "animal_turned_down",
            {"seat": seat, "card": card, "survivor": survivor, "drops": drops, "burrows": burrows, "final": final},
        )
    )


def _end_round(state: State, events: list[Event]) -> None:
    """Close the round (§5.1): the rooster decides the next first player; discard and deal a new row."""
    n = len(state["players"])
    leftovers = [state["market"][slot] for slot in SLOTS if state["market"][slot] is not None]
    if leftovers and state["options"]["two_player_market"] != PERSISTENT:
        state["discard"].extend(leftovers)
        state["market"] = {slot: None for slot in SLOTS}
        events.append(Event("market_discarded", {"cards": leftovers}))
    if state["round"] >= ROUNDS:  # §5.1: after round 15 no row is dealt; the game is scored
        _final_scoring(state, events)
        return
    dealt = _deal_row(state)
    state["round"] += 1
    # The rooster holder goes first; if they have left the game, the next seat still playing does.
    left = _left(state)
    state["first"] = next(seat for i in range(n) if not left[seat := (state["rooster"] + i) % n])
    state["order"] = [seat for i in range(n) if not left[seat := (state["first"] + i) % n]]
    events.append(Event("market_dealt", {"round": state["round"], "market": dict(state["market"]), "dealt": dealt}))
    started = {"round": state["round"], "first": state["first"], "order": list(state["order"])}
    events.append(Event("round_started", started))


def _final_scoring(state: State, events: list[Event]) -> None:
    """Score every forest (§10) and rank the players (§11); in end_of_game mode resolve shared paths first."""
    for seat, forest in enumerate(state["forests"]):
        _, flips = scoring.resolve_best(forest)
        for flip in flips:
            _turn_down(state, seat, flip["card"], flip["survivor"], True, events)
    sheets = [scoring.forest_scores(forest) for forest in state["forests"]]
    scores = [sheet["total"] for sheet in sheets]
    stored = [sheet["stored"] for sheet in sheets]
    left = _left(state)
    # Seats that resigned rank below everyone still playing, whatever their score.
    order = sorted(scoring.ranking(scores, stored), key=lambda seat: left[seat])
    staying = [seat for seat in order if not left[seat]]
    winners = scoring.winners([scores[s] for s in staying], [stored[s] for s in staying])
    winners = sorted(staying[i] for i in winners)
    state["order"] = []
    state["result"] = {
        "winners": winners,
        "scores": scores,
        "ranking": order,
        "summary": "",
        "draw": False,
        "shared": len(winners) > 1,
        "stored": stored,
        "animals": [sheet["animals"] for sheet in sheets],
        "resigned": [seat for seat in range(len(left)) if left[seat]],
    }
    with in_english():  # the record's line: English whatever the players read
        state["result"]["summary"] = history.describe_result(state["result"], state["players"])
    events.append(Event("game_scored", {"scores": scores, "stored": stored, "winners": winners, "ranking": order}))


def resign(state: State, seat: int) -> tuple[State, list[Event]]:
    """Return the state after ``seat`` leaves the game for good, and the events.

    The seat takes no more turns (the cards it would have taken stay in the
    market and are discarded at the end of the round); its forest stays as it
    is and it ranks below every player still in the game. When one player is
    left, the game ends at once and they win.
    """
    if state["result"] is not None:
        raise IllegalMove(_("The game is over"))
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state["players"]):
        raise IllegalMove(_("There is no seat {seat!r}").format(seat=seat))
    if _left(state)[seat]:
        raise IllegalMove(_("You have already left this game"))
    new = _fork(state)
    new["left"][seat] = True
    events = [Event("player_left", {"seat": seat, "round": new["round"]})]
    if sum(not gone for gone in new["left"]) == 1:
        _final_scoring(new, events)
    elif seat in new["order"]:
        new["order"].remove(seat)
        if not new["order"]:
            _end_round(new, events)
    return new, events


def game_result(state: State) -> dict[str, Any] | None:
    """Return the outcome once the game is over, else None."""
    if state["result"] is None:
        return None
    result = state["result"]
    return {
        **result,
        "winners": list(result["winners"]),
        "scores": list(result["scores"]),
        "ranking": list(result["ranking"]),
        "stored": list(result["stored"]),
        "animals": [[dict(item) for item in sheet] for sheet in result["animals"]],
        "resigned": list(result.get("resigned", [])),
    }


class SavernakeForestEngine(Engine):
    """Savernake Forest (Devir 2023) with the rules file's reconstructed card catalogue."""

    slug = "savernake-forest"
    name = N_("Savernake Forest")
    version = 1
    min_players = 2
    max_players = 4
    option_specs = OPTION_SPECS
    default_players = 2
    summary = N_("Draft path and animal cards into a 4×4 forest so each animal's path brings it the food it loves.")

    # The rules live in this package's module functions; the contract's docstrings are in games/base.py.
    validate_options = staticmethod(validate_options)
    setup = staticmethod(new_game)

    def to_move(self, state: State) -> list[int]:
        """Return the seat to act; empty once the game is over."""
        seat = current(state)
        return [] if seat is None else [seat]

    legal_moves = staticmethod(legal_moves)
    apply = staticmethod(apply_move)
    result = staticmethod(game_result)
    resign = staticmethod(resign)
    score_breakdown = staticmethod(breakdown.score_breakdown)
    view_text = staticmethod(plain_text.view_text)

    def moves_summary(self, texts: list[str], limit: int = 40) -> list[str]:
        """Return the legal moves' notation grouped by slot: cells, rotations, survivors and tokens."""
        return notation.moves_summary(texts, limit)

    view = staticmethod(player_view.view)
    view_after_end = staticmethod(player_view.view_after_end)
    describe_event = staticmethod(history.describe_event)

    def describe_result(self, result: dict[str, Any], players: list[str]) -> str:
        """Return who won, with how many points and how, in the reader's language (``history.describe_result``)."""
        return history.describe_result(result, players)

    describe_move = staticmethod(notation.describe_move)
    parse_move = staticmethod(notation.parse_move)
    notation_help = staticmethod(notation.notation_help)

    def board_data(self, view: dict[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any] | None:
        """Return the board template's drawing data (see ``games/savernake_forest/board.py``)."""
        from games.savernake_forest.board import board_data

        return board_data(view, moves)

    def bots(self) -> dict[str, Any]:
        """Return the bots this game offers: ``random`` and ``basic`` (see ``games/savernake_forest/bots.py``)."""
        from games.bots import RandomBot
        from games.savernake_forest.bots import BasicBot

        return {"random": RandomBot(), "basic": BasicBot()}
