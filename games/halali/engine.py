"""Halali! / Tally Ho! rules: the Kosmos 2000 two-player game, played as a two-leg match.

Follows docs/rules/halali.md (the rules file): setup of §3, turns of §4,
captures of §5, scoring of §6, the final phase and exits of §7, the end and
tie-breaks of §8, the two-game match of §9 and every "Adopt" of §10. Rule
algorithms are module functions working on a copy of the state: the options
are in ``options.py``, who may move what where in ``rules.py``, and this
module sets up, applies moves and scores. ``HalaliEngine`` is the thin
contract adapter around them.

Hidden information: a face-down tile's kind and rifle direction live only in
the state. Everything that leaves the engine (views, events, legal moves,
notation, error texts) names face-down tiles by square alone.
"""

from __future__ import annotations

import copy
from typing import Any

from games.base import Engine, Event, IllegalMove, InvalidOptions, State, seeded_rng
from games.halali import board, board_words, breakdown, marks, history, notation, player_view, tiles, worlds
from games.halali.board import EXITS, name
from games.halali.options import LEGS, OPTION_SPECS, VERSION, locks_on_move, specs_at, validate_options
from games.halali.player_view import match_totals, pile_points
from games.halali.rules import FINAL, MAIN, OVER, check_exit, check_step, face_down, legal_moves, must_flip, normalize
from games.halali.tiles import BLUE, BROWN, POINTS, SHARED
from games.i18n import catalog_of, in_english

_ = catalog_of(__name__)
N_ = _.noop

FINAL_TURNS = 5


# -- setup ---------------------------------------------------------------------

def new_game(players: list[str], options: dict[str, Any], seed: int | str, version: int = VERSION) -> State:
    """Return the state of a new match with leg 1 laid out and Blue to move (options as ``version`` reads them)."""
    if not isinstance(players, list) or not all(isinstance(player, str) for player in players):
        raise InvalidOptions(_("players must be a list of display names"))
    opts = validate_options(len(players), options, version)
    first_blue = opts.get("first_blue")
    if first_blue is None:
        # §9: who is Blue in game 1 is drawn from the table's seed.
        first_blue = seeded_rng(seed, "first_blue").randrange(2)
    # The game's own fields; ``_start_leg`` writes every field of a leg (the board, whose turn, the piles...).
    state: State = {"players": list(players), "options": opts, "seed": seed, "leg": 0, "legs": [], "winners": None}
    _start_leg(state, first_blue, [])
    return state


def layout_for(state: State, leg: int) -> list[dict]:
    """Return the 49 cells of a leg's starting board (scripted, or shuffled from the seed)."""
    # One scripted layout serves every leg; a list of layouts scripts the legs in turn.
    scripted = state["options"].get("layout") or []
    specs = scripted[0] if len(scripted) == 1 else (scripted[leg - 1] if leg <= len(scripted) else None)
    if specs is not None:
        cells = [tiles.parse_spec(text) for text in specs]
    else:
        # §3 and §10.8: a fresh shuffle per leg; each hunter's direction is uniform and independent.
        rng = seeded_rng(state["seed"], "leg", leg)
        kinds = tiles.full_set()
        rng.shuffle(kinds)
        cells = [
            {"kind": kind, "up": False, "dir": rng.choice(tiles.DIRECTIONS)}
            if kind == tiles.HUNTER
            else {"kind": kind, "up": False}
            for kind in kinds
        ]
    grid: list[dict | None] = [None] * (board.SIZE * board.SIZE)
    for position, cell in zip(board.START_SQUARES, cells):
        grid[position] = cell
    return grid


def _start_leg(state: State, blue: int, events: list[Event]) -> None:
    """Lay out the next leg with ``blue`` playing Blue and moving first (§3, §9)."""
    leg = state["leg"] + 1
    state.update(
        leg=leg,
        blue=blue,
        phase=MAIN,
        current=blue,
        turn=0,
        board=layout_for(state, leg),
        locked=None,
        last_own=[None, None],
        final_left=None,
        quiet=0,
        piles=[[], []],
        last=None,
    )
    if leg > 1:
        _emit(events, "leg_started", {"leg": leg, "blue": blue, "brown": 1 - blue})


# -- small queries -------------------------------------------------------------


def _emit(events: list[Event], kind: str, data: dict[str, Any]) -> None:
    """Record a public event (Halali! has no private facts: face-down tiles are secret from both)."""
    events.append(Event(kind, data))


# -- apply ---------------------------------------------------------------------

_ATOMS = frozenset({str, int, float, bool, type(None)})


def _copied(value: Any) -> Any:
    """Return a deep copy of a state's data, as ``copy.deepcopy`` would, at a fraction of its cost: a state is dicts,
    lists and plain values (anything else, which no state holds, still goes through ``copy.deepcopy``)."""
    kind = type(value)
    if kind is dict:
        return {key: item if type(item) in _ATOMS else _copied(item) for key, item in value.items()}
    if kind is list:
        return [item if type(item) in _ATOMS else _copied(item) for item in value]
    if kind in _ATOMS:
        return value
    return copy.deepcopy(value)


def _copied_state(state: State) -> State:
    """Return a deep copy of ``state``: ``_copied``, with the board's cells (a kind, face up or down and a hunter's
    rifle) and the piles' entries (a kind and how it came) copied flat: they hold plain values only."""
    return {
        key: value if type(value) in _ATOMS
        else [cell if cell is None else cell.copy() for cell in value] if key == "board"
        else [[entry.copy() for entry in pile] for pile in value] if key == "piles"
        else _copied(value)
        for key, value in state.items()
    }


def apply_move(state: State, seat: int, move: Any) -> tuple[State, list[Event]]:
    """Return the state after ``seat`` makes ``move`` and the events; never mutate ``state``."""
    if state["phase"] == OVER:
        raise IllegalMove(_("The match is over"))
    # ``True`` and ``1.0`` compare equal to seat 1: only a whole number names a seat.
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in (0, 1):
        raise IllegalMove(_("There is no seat {seat}").format(seat=repr(seat)))
    if seat != state["current"]:
        raise IllegalMove(_("It is not your turn: it is {player}'s turn").format(player=state["players"][state["current"]]))
    action, move = normalize(move)
    forced = must_flip(state) and bool(face_down(state))
    if forced and action != "flip":
        limit = state["options"]["stall_limit"]
        raise IllegalMove(
            _.ngettext(
                "No flip, capture or exit for {count} turn: you must turn a tile over (table safety valve)",
                "No flip, capture or exit for {count} turns: you must turn a tile over (table safety valve)",
                limit,
            ).format(count=limit)
        )
    captured = None
    if action == "flip":
        square = board.index(move["flip"])
        cell = state["board"][square]
        if cell is None or cell["up"]:
            raise IllegalMove(_("There is no face-down tile on {square}").format(square=move["flip"]))
    elif action == "step":
        captured = check_step(state, seat, board.index(move["from"]), board.index(move["to"]))
    elif action == "exit":
        check_exit(state, seat, board.index(move["from"]), move["exit"])
    elif legal_moves(state, seat) != [{"pass": True}]:
        raise IllegalMove(_("You may pass only when you have no legal move"))

    new = _copied_state(state)
    events: list[Event] = []
    was_final = new["phase"] == FINAL
    new["turn"] += 1
    if action == "flip":
        _flip(new, seat, board.index(move["flip"]), events)
    elif action == "step":
        _step(new, seat, board.index(move["from"]), board.index(move["to"]), captured, events)
    elif action == "exit":
        _exit(new, seat, board.index(move["from"]), move["exit"], events)
    else:
        new.update(locked=None, quiet=new["quiet"] + 1)
        new["last_own"][seat] = None
        left = new["final_left"][seat] - 1 if was_final else None
        _emit(events, "passed", {"seat": seat, "final_left": left})
        new["last"] = {"kind": "passed", "seat": seat}
    _end_turn(new, seat, was_final, events)
    return new, events


def _flip(state: State, seat: int, square: int, events: list[Event]) -> None:
    """Turn a tile over where it lies; a duck or pheasant is locked for the opponent (§4.A, either reading)."""
    cell = state["board"][square]
    cell["up"] = True
    locked = cell["kind"] in SHARED
    state.update(locked=square if locked else None, quiet=0)
    state["last_own"][seat] = None
    data = {"seat": seat, "square": name(square), "kind": cell["kind"], "locked": locked}
    if cell["kind"] == tiles.HUNTER:
        data["dir"] = cell["dir"]
    data["face_down"] = len(face_down(state))
    _emit(events, "flipped", data)
    state["last"] = {"kind": "flipped", "seat": seat, "square": name(square)}


def _step(state: State, seat: int, start: int, end: int, captured: str | None, events: list[Event]) -> None:
    """Move a tile, capturing what stands on ``end`` (§4.B, §5, §6); a bird moved is locked unless the table
    follows the original text's flip-only lock (``lock_on_move``, §10.1)."""
    grid = state["board"]
    cell = grid[start]
    kind = cell["kind"]
    grid[start], grid[end] = None, cell
    data: dict[str, Any] = {"seat": seat, "kind": kind, "from": name(start), "to": name(end)}
    if captured:
        state["piles"][seat].append({"kind": captured, "how": "captured"})
        data.update(captured=captured, points=POINTS[captured])
    own = tiles.owner(kind) is not None
    remembered = own or (kind in SHARED and state["options"]["no_return_neutral"])
    state["last_own"][seat] = {"kind": kind, "from": name(start), "to": name(end)} if remembered else None
    locked = kind in SHARED and locks_on_move(state["options"])
    state.update(locked=end if locked else None, quiet=0 if captured else state["quiet"] + 1)
    data["locked"] = locked
    _emit(events, "moved", data)
    state["last"] = {"kind": "moved", "seat": seat, "from": name(start), "to": name(end)}


def _exit(state: State, seat: int, start: int, direction: str, events: list[Event]) -> None:
    """Move an own tile off the board through an exit into the mover's pile (§7)."""
    kind = state["board"][start]["kind"]
    state["board"][start] = None
    state["piles"][seat].append({"kind": kind, "how": "exited"})
    state.update(locked=None, quiet=0)
    state["last_own"][seat] = None
    gate = name(EXITS[direction])
    _emit(
        events,
        "exited",
        {"seat": seat, "kind": kind, "from": name(start), "exit": direction, "gate": gate, "points": POINTS[kind]},
    )
    state["last"] = {"kind": "exited", "seat": seat, "from": name(start), "gate": gate}


def _end_turn(state: State, seat: int, was_final: bool, events: list[Event]) -> None:
    """Run the end-of-action checks of §7–§8, then pass the turn (or end the leg)."""
    other = 1 - seat
    if was_final:
        state["final_left"][seat] -= 1
    if not face_down(state):
        present = {tiles.owner(cell["kind"]) for cell in state["board"] if cell is not None}
        cleared = [colour for colour in (BLUE, BROWN) if colour not in present]
        if cleared:
            _end_leg(state, events, "side_cleared", cleared)
            return
        if was_final and not any(state["final_left"]):
            _end_leg(state, events, "final_turns", [])
            return
        if not was_final:
            # §7: the opponent of the player who turned the last tile starts the final phase.
            state.update(phase=FINAL, final_left=[FINAL_TURNS, FINAL_TURNS])
            _emit(events, "final_phase_started", {"first": other, "last_flipper": seat, "turns": FINAL_TURNS})
    state["current"] = other
    limit = state["options"]["stall_limit"]
    if limit and state["phase"] == MAIN and state["quiet"] == limit:
        _emit(events, "flip_required", {"seat": other, "quiet": limit})


# -- scoring, legs and the match (§6, §8, §9) ------------------------------------


def winners_by(points: list[int], tiles_count: list[int]) -> list[int]:
    """Return the winner by points, then by tiles collected; [] for a draw (§8, §10.7)."""
    for values in (points, tiles_count):
        if values[0] != values[1]:
            return [0 if values[0] > values[1] else 1]
    return []


def _end_leg(state: State, events: list[Event], reason: str, cleared: list[str]) -> None:
    """Score the leg, then start the next one with the roles swapped, or end the match."""
    points = [pile_points(pile) for pile in state["piles"]]
    counts = [len(pile) for pile in state["piles"]]
    record = {
        "leg": state["leg"],
        "blue": state["blue"],
        "brown": 1 - state["blue"],
        "reason": reason,
        "cleared": cleared,
        "points": points,
        "tiles": counts,
        "winners": winners_by(points, counts),
        "piles": [[entry["kind"] for entry in pile] for pile in state["piles"]],
    }
    state["legs"].append(record)
    _emit(events, "leg_ended", {key: value for key, value in record.items() if key != "piles"})
    if state["leg"] < LEGS:
        _start_leg(state, 1 - state["blue"], events)
        return
    totals, tile_totals = match_totals(state)
    winners = winners_by(totals, tile_totals)
    state.update(phase=OVER, current=None, winners=winners, locked=None, final_left=None)
    _emit(events, "match_ended", {"winners": winners, "points": totals, "tiles": tile_totals})


def resign(state: State, seat: int) -> tuple[State, list[Event]]:
    """Return the state after ``seat`` gives up the match: the opponent wins it at once."""
    if state["phase"] == OVER:
        raise IllegalMove(_("The match is over"))
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in (0, 1):
        raise IllegalMove(_("There is no seat {seat}").format(seat=repr(seat)))
    new = copy.deepcopy(state)
    events: list[Event] = []
    new.update(phase=OVER, current=None, winners=[1 - seat], locked=None, final_left=None, resigned=seat)
    _emit(events, "resigned", {"seat": seat, "winners": [1 - seat]})
    return new, events


def game_result(state: State) -> dict[str, Any] | None:
    """Return the outcome once both legs are over (or a player resigned), else None.

    The ``summary`` is the record's English line, worded by ``history.describe_result`` in English.
    """
    if state["phase"] != OVER:
        return None
    points, counts = match_totals(state)
    if state.get("resigned") is not None:
        loser = state["resigned"]
        result = {
            "winners": [1 - loser],
            "scores": points,
            "ranking": [1 - loser, loser],
            "draw": False,
            "tiles": counts,
            "legs": _copied(state["legs"]),
            "resigned": loser,
        }
    else:
        winners = state["winners"]
        result = {
            "winners": list(winners),
            "scores": points,
            "ranking": sorted((0, 1), key=lambda seat: (-points[seat], -counts[seat], seat)),
            "draw": not winners,
            "tiles": counts,
            "legs": _copied(state["legs"]),
        }
    with in_english():  # worded from the rest of the result
        result["summary"] = history.describe_result(result, state["players"])
    return result


# -- takebacks (games/takebacks.py) -------------------------------------------------

# A turn that only moves face-up tiles, or passes, changes nothing anyone could not see: it may be taken back. A
# flip shows a face-down tile, and a leg's end deals the next leg's tiles: never (docs/rules/halali.md, §10.10).
_TAKEN_BACK_SAFELY = frozenset({"moved", "exited", "passed", "final_phase_started", "flip_required"})


def take_back_refusal(before: State, seat: int, move: Any, after: State, events: list[Event]) -> str | None:
    """Refuse a turn that turned a tile over or ended a leg; allow a move of a face-up tile, an exit or a pass."""
    kinds = {event.kind for event in events}
    if "flipped" in kinds:
        return _("Turning a tile over shows it to both players: it cannot be taken back.")
    if kinds & {"leg_ended", "match_ended"}:
        return _("That turn ended the leg: it cannot be taken back.")
    if not kinds <= _TAKEN_BACK_SAFELY:  # anything else a turn may one day do is refused until it is weighed
        return _("That turn cannot be taken back.")
    return None


class HalaliEngine(Engine):
    """Halali! (Tally Ho!), Kosmos 2000: a two-leg match with the roles swapped."""

    slug = "halali"
    name = N_("Halali!")
    # Version 2 added the ``lock_on_move`` option (options.py); with its default it plays version 1's games to
    # the same events and result, and version 1 keeps its own options so its records stay complete.
    version = VERSION
    supported_versions = (1, VERSION)
    min_players = 2
    max_players = 2
    option_specs = OPTION_SPECS
    default_players = 2
    summary = N_(
        "Bears and foxes against hunters and lumberjacks in a forest of face-down tiles; two legs, roles swapped."
    )

    # The rules live in this package's module functions; the contract's docstrings are in games/base.py.
    def at_version(self, version: int) -> "HalaliEngine":
        """Return the engine playing ``version``, with the table options that version had."""
        played = super().at_version(version)
        if played is not self:
            played.option_specs = specs_at(version)
        return played

    def validate_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        """Return the complete options this version reads (version 1 has no ``lock_on_move``)."""
        return validate_options(players, options, self.version)

    def setup(self, players: list[str], options: dict[str, Any], seed: int | str) -> State:
        """Return the new match's state, its options read by this version."""
        return new_game(players, options, seed, self.version)

    def to_move(self, state: State) -> list[int]:
        """Return the seat to act; empty once the match is over."""
        return [] if state["phase"] == OVER else [state["current"]]

    legal_moves = staticmethod(legal_moves)
    apply = staticmethod(apply_move)
    result = staticmethod(game_result)

    def public_scores(self, state: State) -> list[float]:
        """Return each seat's points over the legs so far, the leg in play too: the captured tiles lie face up."""
        return [seat["match_points"] for seat in self.view(state, None)["seats"]]
    view = staticmethod(player_view.view)
    view_after_end = staticmethod(player_view.view_after_end)
    resign = staticmethod(resign)
    score_breakdown = staticmethod(breakdown.score_breakdown)
    view_text = staticmethod(player_view.view_text)
    describe_event = staticmethod(history.describe_event)
    board_data = staticmethod(board_words.board_data)

    def mark_spots(self, view: dict[str, Any]) -> list[tuple[str, str]]:
        """Every square that holds a tile (``marks.py``)."""
        return marks.mark_spots(view)
    offers_takebacks = True
    shares_results = True
    take_back_refusal = staticmethod(take_back_refusal)

    def describe_result(self, result: dict[str, Any], players: list[str]) -> str:
        """Return who won the match and how (points, or tiles when the points tied; a resignation), per leg."""
        return history.describe_result(result, players)
    describe_move = staticmethod(notation.describe_move)
    parse_move = staticmethod(notation.parse_move)
    notation_help = staticmethod(notation.notation_help)

    # Nothing is private and the view shows the last action, so a world is drawn from the view alone (worlds.py).
    sample_world = staticmethod(worlds.sample_world)

    def bots(self) -> dict[str, Any]:
        """Return the bots this game offers: ``random``, ``basic`` (see ``games/halali/bots.py``) and ``strong``, a
        search (``games/search.py``, with ``strong.py``'s settings)."""
        from games.bots import RandomBot
        from games.halali.bots import BasicBot
        from games.halali.strong import SETTINGS
        from games.search import SearchBot

        return {"random": RandomBot(), "basic": BasicBot(), "strong": SearchBot(self, SETTINGS)}
