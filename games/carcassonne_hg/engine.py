"""Carcassonne: Hunters and Gatherers rules: the revised edition (Hans im Glück 2020, as Board Game Arena plays it)
and, as a table option, the classic edition (2002) on the rules file's reconstructed "classic-approx" tile set.

Follows docs/rules/carcassonne-hunters-gatherers.md (the rules file):
setup of §3, turns of §4 (placement, deployment, completion scoring, the
menhir / gold-nugget bonus turn, the revised bonus-tile powers), the end of
§5, scoring of §6–§8, the edition differences of §10 and every flag of §11
as a table option with the documented defaults (the "bga" column for the
revised edition, the "classic" column for the classic one).

A turn is one move: place the drawn tile and optionally deploy one piece on
it (with the shaman tile, optionally recall a tribe member first). Drawing is
automatic: the tile drawn for the next player is public, the order of the
stacks is not.

This module is the game's state machine: setup, applying a move, drawing,
turns, the end and leaving. The pieces and where each may go are in
``pieces.py``, the fast listing of legal moves in ``legal.py``, what a placed
tile scores during play in ``effects.py``, the final scoring in
``final_scoring.py``, the table options in ``options.py`` and the words of
refusals in ``reasons.py``. Rule algorithms are module functions that build
new states without touching their input; ``CarcassonneHGEngine`` is the thin
contract adapter around them.
"""

from __future__ import annotations

from typing import Any

from games.base import Engine, Event, IllegalMove, InvalidOptions, State, seeded_rng
from games.carcassonne_hg import board, board_words, breakdown, effects, email_text, features, history, legal
from games.carcassonne_hg import notation, player_view, reasons, terms, tiles, web_art, worlds
from games.carcassonne_hg.board import region_names
from games.carcassonne_hg.features import Analysis, analyse, labelled
from games.carcassonne_hg.final_scoring import score_final
from games.carcassonne_hg.fitting import placement_error
from games.carcassonne_hg.moves import normalize
from games.carcassonne_hg.options import END_TURN, NAME, OPTION_SPECS, REDRAW, N_, validate_options
from games.carcassonne_hg.pieces import FISHERMAN, GATHERER, HUT, HUTS, MEMBERS, Claims, by_region, piece_error, recallable
from games.carcassonne_hg.pieces import HUNTER, PIECES, PLACE_FOR, ROLE, TRIBE  # noqa: F401  (named here before pieces.py existed)
from games.carcassonne_hg.tiles import BONUS, LAND
from games.carcassonne_hg.upcast import VERSION, upcast

PLAY = "play"
OVER = "over"

# -- setup ---------------------------------------------------------------------


def new_game(players: list[str], options: dict[str, Any], seed: int | str) -> State:
    """Return the state of a new game: start tile placed, stacks shuffled, first player's tile drawn."""
    if not isinstance(players, list) or not all(isinstance(player, str) for player in players):
        raise InvalidOptions(reasons.players_not_names())
    opts = validate_options(len(players), options)
    edition = opts["edition"]
    stack = opts.get("tiles")
    if stack is None:
        stack = tiles.deck(edition, LAND)
        seeded_rng(seed, "land").shuffle(stack)
    bonus = opts.get("bonus_tiles")
    if bonus is None:
        bonus = tiles.deck(edition, BONUS)
        seeded_rng(seed, "bonus").shuffle(bonus)
    first = opts.get("first_player")
    if first is None:
        first = seeded_rng(seed, "first_player").randrange(len(players))
    n = len(players)
    state: State = {
        "players": list(players),
        "options": opts,
        "seed": seed,
        "edition": edition,
        "phase": PLAY,
        "turn": 0,
        "current": None,
        "tile": None,
        "bonus": False,
        "stack": list(stack),
        "bonus_stack": list(bonus),
        "board": [[0, 0, tiles.start_tile(edition), 0, None]],  # labelled below
        "pieces": [],
        "supply": [{"members": MEMBERS, "huts": HUTS[edition]} for _ in range(n)],
        "scores": [0] * n,
        "left": [False] * n,
        "cancelled": [],
        "discarded": [],
        "last": None,
        "final": None,
        "winners": None,
    }
    an = analyse(edition, state["board"])
    state["board"] = labelled(state["board"], an)
    _draw_land(state, first, an, [])
    return state


# -- small queries -------------------------------------------------------------


def _name(state: State, seat: int) -> str:
    return state["players"][seat]


def _next_seat(state: State, seat: int) -> int:
    """Return the next seat clockwise that has not left the game."""
    n = len(state["players"])
    for step in range(1, n + 1):
        other = (seat + step) % n
        if not state["left"][other]:
            return other
    return seat


# -- legal moves ----------------------------------------------------------------


def legal_moves(state: State, seat: int) -> list[dict[str, Any]]:
    """Return every legal move: placements by x, y, rotation; for each, no piece first, then pieces by region."""
    if state["phase"] == OVER or seat != state["current"]:
        return []
    return legal.list_moves(state, seat)


# -- apply ---------------------------------------------------------------------


def apply_move(state: State, seat: int, move: Any) -> tuple[State, list[Event]]:
    """Return the state after ``seat`` plays ``move`` and the events; never mutate ``state``."""
    if state["phase"] == OVER:
        raise IllegalMove(reasons.game_over())
    n = len(state["players"])
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise IllegalMove(reasons.no_seat(seat))
    if seat != state["current"]:
        raise IllegalMove(reasons.not_your_turn(_name(state, state["current"])))
    move = normalize(move)
    edition = state["edition"]
    an = analyse(edition, state["board"])
    square = (move["x"], move["y"])
    tile = tiles.oriented(edition, state["tile"], move["rot"])
    reason = placement_error(an, tile, square)
    if reason:
        raise IllegalMove(reason)
    recalled = None
    if "recall" in move:
        if not (effects.powers_act(state) and tile.special == tiles.SHAMAN):
            raise IllegalMove(reasons.not_a_shaman_tile())
        at = (move["recall"]["x"], move["recall"]["y"])
        recalled = next((p for p in recallable(state, seat) if (p["x"], p["y"]) == at), None)
        if recalled is None:
            raise IllegalMove(reasons.nothing_to_recall(board.name(at)))
    zone_groups, system_groups = features.groups(an, square, tile)
    if "piece" in move:
        claims = Claims(state, seat, an, recalled)
        reason = piece_error(
            state, claims, tile, move["piece"], move["region"], by_region(zone_groups), by_region(system_groups)
        )
        if reason:
            raise IllegalMove(reason)

    new = dict(state)
    new["scores"] = list(state["scores"])
    new["supply"] = [dict(s) for s in state["supply"]]
    events: list[Event] = []
    placed = state["board"] + [[square[0], square[1], tile.id, tile.rot, seat]]
    # Built from ``an`` (memoised) and memoised in turn: the view of the new position reads it back.
    after = analyse(edition, placed)
    new["board"] = labelled(placed, after)
    was_bonus = state["bonus"]
    names = region_names(edition, tile.id, tile.rot)
    events.append(
        Event(
            "tile_placed",
            {"seat": seat, "tile": tile.id, "x": square[0], "y": square[1], "rot": tile.rot, "bonus": was_bonus},
        )
    )
    if recalled is not None:
        new["pieces"] = [p for p in state["pieces"] if p is not recalled]
        new["supply"][seat]["members"] += 1
        events.append(Event("piece_recalled", {"seat": seat, **recalled}))
    if effects.powers_act(state):
        effects.logboat(new, seat, square, tile, after, events)
        effects.hunting_trap(new, seat, square, tile, after, events)
    if "piece" in move:
        piece = {"seat": seat, "kind": move["piece"], "x": square[0], "y": square[1], "region": move["region"]}
        new["pieces"] = new["pieces"] + [piece]
        new["supply"][seat]["huts" if move["piece"] == HUT else "members"] -= 1
        events.append(Event("piece_placed", {**piece, "feature": names[move["region"]]}))
    earned = effects.score_completed(new, seat, square, tile, after, zone_groups, events)
    new["last"] = {key: move[key] for key in ("x", "y", "rot", "piece", "region") if key in move}
    new["last"].update(seat=seat, tile=tile.id, bonus=was_bonus)
    new["bonus"] = False
    new["tile"] = None
    if earned and not was_bonus:
        events.append(Event("bonus_earned", {"seat": seat, "available": len(new["bonus_stack"])}))
        if _draw_bonus(new, seat, after, events):
            return new, events
    if not new["stack"]:
        _finish(new, after, events)
        return new, events
    _draw_land(new, _next_seat(new, seat), after, events)
    return new, events


# -- drawing, turns and the end (§3, §4.1, §4.4, §4.6) ------------------------------


def _draw_land(state: State, seat: int, an: Analysis, events: list[Event]) -> None:
    """Start ``seat``'s turn: draw the top land tile; unplaceable tiles leave the game (§11); end when none is left."""
    mode = state["options"]["unplaceable_tile"]
    first = True
    while state["stack"]:
        if first or mode == END_TURN:
            state["turn"] += 1
        first = False
        tile_id, state["stack"] = state["stack"][0], state["stack"][1:]
        events.append(Event("tile_drawn", {"seat": seat, "tile": tile_id, "bonus": False, "left": len(state["stack"])}))
        if features.placeable(an, tile_id):
            state.update(current=seat, tile=tile_id, bonus=False)
            return
        state["discarded"] = state["discarded"] + [tile_id]
        events.append(Event("tile_discarded", {"seat": seat, "tile": tile_id, "bonus": False, "then": mode}))
        if mode == END_TURN:
            seat = _next_seat(state, seat)
    _finish(state, an, events)


def _draw_bonus(state: State, seat: int, an: Analysis, events: list[Event]) -> bool:
    """Draw the seat's bonus tile, discarding unplaceable ones; tell whether one is now to be placed."""
    while state["bonus_stack"]:
        tile_id, state["bonus_stack"] = state["bonus_stack"][0], state["bonus_stack"][1:]
        events.append(
            Event("tile_drawn", {"seat": seat, "tile": tile_id, "bonus": True, "left": len(state["bonus_stack"])})
        )
        if features.placeable(an, tile_id):
            state.update(current=seat, tile=tile_id, bonus=True)
            return True
        state["discarded"] = state["discarded"] + [tile_id]
        events.append(Event("tile_discarded", {"seat": seat, "tile": tile_id, "bonus": True, "then": REDRAW}))
    return False


def _finish(state: State, an: Analysis, events: list[Event]) -> None:
    """Score meadows (hunters) and river systems (huts), then end the game (§5, §7)."""
    scores, final = score_final(state, an, events)
    unscored = [
        {"seat": p["seat"], "kind": p["kind"], "x": p["x"], "y": p["y"]}
        for p in state["pieces"]
        if p["kind"] in (GATHERER, FISHERMAN)
    ]
    staying = [seat for seat in range(len(scores)) if not state["left"][seat]]
    best = max(scores[seat] for seat in staying)
    winners = [seat for seat in staying if scores[seat] == best]
    state.update(
        phase=OVER, current=None, tile=None, bonus=False, scores=scores, final=final, winners=winners
    )
    events.append(Event("game_ended", {"scores": scores, "winners": winners, "unscored": unscored}))


def game_result(state: State) -> dict[str, Any] | None:
    """Return the outcome once the game is over, else None (a tie for first is a shared win, §5)."""
    if state["phase"] != OVER:
        return None
    scores = list(state["scores"])
    ranking = sorted(range(len(scores)), key=lambda seat: (state["left"][seat], -scores[seat], seat))
    winners = list(state["winners"])
    names = state["players"]
    table = ", ".join(f"{names[seat]} {scores[seat]}" for seat in ranking)
    if len(winners) == 1:
        summary = f"{names[winners[0]]} wins ({table})"
    else:
        summary = f"{' and '.join(names[s] for s in winners)} share the win ({table})"
    return {
        "winners": winners,
        "scores": scores,
        "ranking": ranking,
        "summary": summary,
        "draw": False,
        "edition": state["edition"],
        "tile_set": player_view.tile_set(state["edition"]),
        "final": [dict(entry) for entry in state["final"]],
    }


def resign(state: State, seat: int) -> tuple[State, list[Event]]:
    """Return the state after ``seat`` leaves the game for good, and the events.

    The seat's turns are skipped from now on and it cannot win; its pieces
    stay on the board and still count for majorities. A tile it had drawn
    passes to the next player (a bonus tile leaves the game). When one player
    is left, the game ends at once and they win it.
    """
    if state["phase"] == OVER:
        raise IllegalMove(reasons.game_over())
    n = len(state["players"])
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise IllegalMove(reasons.no_seat(seat))
    if state["left"][seat]:
        raise IllegalMove(reasons.already_left())
    new = dict(state)
    new["left"] = [gone or other == seat for other, gone in enumerate(state["left"])]
    events = [Event("player_left", {"seat": seat})]
    staying = [other for other in range(n) if not new["left"][other]]
    if len(staying) == 1:
        new.update(phase=OVER, current=None, tile=None, bonus=False, final=[], winners=staying)
        events.append(Event("game_ended", {"scores": list(new["scores"]), "winners": staying, "reason": "resigned"}))
        return new, events
    if state["current"] == seat:
        nxt = _next_seat(new, seat)
        if state["bonus"]:
            new.update(discarded=state["discarded"] + [state["tile"]], tile=None, bonus=False)
            an = analyse(state["edition"], state["board"])
            if not new["stack"]:
                _finish(new, an, events)
            else:
                _draw_land(new, nxt, an, events)
        else:
            new["current"] = nxt
            new["turn"] = state["turn"] + 1
            events.append(Event("tile_passed", {"seat": nxt, "tile": state["tile"]}))
    return new, events


class CarcassonneHGEngine(Engine):
    """Carcassonne: Hunters and Gatherers, revised edition by default, classic edition as an option.

    Every method that takes a state reads it through ``upcast``, so a game
    stored by an older engine version goes on (see ``upcast.py``).
    """

    slug = "carcassonne-hg"
    name = NAME
    version = VERSION
    # Version 2 changed only the stored state's shape (``upcast.py``): it plays version 1's games to the same
    # events and result, so both are played by this code.
    supported_versions = (1, VERSION)
    min_players = 2
    max_players = 5
    # A tie is a shared win (rules §5), so a draw may be agreed.
    shares_results = True
    option_specs = OPTION_SPECS
    default_players = 2
    summary = N_("Stone-age Carcassonne: lay land, send out gatherers, fishermen and hunters, build huts by the rivers.")

    # The rules live in this package's module functions; the contract's docstrings are in games/base.py.
    validate_options = staticmethod(validate_options)
    setup = staticmethod(new_game)
    upcast = staticmethod(upcast)

    def to_move(self, state: State) -> list[int]:
        """Return the seat to act; empty once the game is over."""
        state = upcast(state)
        return [] if state["phase"] == OVER else [state["current"]]

    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        return legal_moves(upcast(state), seat)

    def apply(self, state: State, seat: int, move: Any) -> tuple[State, list[Event]]:
        return apply_move(upcast(state), seat, move)

    def result(self, state: State) -> dict[str, Any] | None:
        return game_result(upcast(state))

    def public_scores(self, state: State) -> list[float]:
        """Return each seat's points on the scoring track (the final scoring of meadows not yet made)."""
        return [seat["score"] for seat in self.view(state, None)["seats"]]

    def resign(self, state: State, seat: int) -> tuple[State, list[Event]]:
        return resign(upcast(state), seat)

    def score_breakdown(self, state: State) -> list[dict[str, Any]]:
        """Return the points scored during play, from meadows and from river systems (``breakdown.py``)."""
        return breakdown.score_breakdown(upcast(state))

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return player_view.view(upcast(state), seat)

    def view_after_end(self, state: State) -> dict[str, Any]:
        """Return the land and bonus stacks in drawing order too (the rules file, §5.1)."""
        return player_view.view_after_end(upcast(state))

    def describe_move(self, state: State, move: dict[str, Any]) -> str:
        return notation.describe_move(upcast(state), move)

    def parse_move(self, text: str, state: State, seat: int) -> dict[str, Any]:
        return notation.parse_move(text, upcast(state), seat)

    view_text = staticmethod(email_text.view_text)

    def sample_world(self, view: dict[str, Any], history: list[dict[str, Any]], seat: int, rng: Any) -> State:
        """Return a state with the view's public part and both stacks shuffled anew from ``rng`` (``worlds.py``)."""
        return worlds.sample_world(view, history, seat, rng)

    def assets(self) -> dict[str, Any]:
        """Return the tile drawings of each edition (``art-revised``, ``art-classic``), named by ``view["art_asset"]``."""
        return web_art.assets()

    def mark_spots(self, view: dict[str, Any]) -> list[tuple[str, str]]:
        """Every tile on the board (``marks.py``)."""
        from games.carcassonne_hg.marks import mark_spots

        return mark_spots(view)

    def board_data(self, view: dict[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any] | None:
        """Return the board's compact picture (``web_art.board_data``) and its words (``board_words``).

        ``tile_name``: the drawn tile's name; ``latest`` (for the page without its script, which shows a
        line instead of the board): ``{x, y, name, by}`` of the last tile placed, ``by`` the placer's name
        (None: the start tile); ``words``, ``text``, ``script``: everything the board says, in the reader's
        language.
        """
        data = web_art.board_data(view, moves)
        if view.get("tile"):
            data["tile_name"] = terms.tile_name(view["tile"], view["edition"])
        x, y, tile_id, _, by = view["board"][-1]
        data["latest"] = {"x": x, "y": y, "name": terms.tile_name(tile_id, view["edition"]),
                          "by": None if by is None else view["seats"][by]["name"]}
        data.update(words=board_words.words(), text=board_words.text(view, moves), script=board_words.script_words(moves, view["edition"]))
        return data

    def view_picture(self, view: dict[str, Any]) -> bytes | None:
        """Return a PNG of the board around the latest placements, for turn e-mails (``picture.py``)."""
        from games.carcassonne_hg import picture  # Pillow is loaded only when a picture is wanted

        return picture.view_picture(view)

    def moves_summary(self, texts: list[str], limit: int = 40) -> list[str]:
        """Return the legal moves for an email: one line per placement with its piece choices."""
        return notation.moves_summary(texts, limit)

    describe_event = staticmethod(history.describe_event)

    def take_back_refusal(self, before: State, seat: int, move: Any, after: State, events: list[Event]) -> str:
        """Refuse every placement (docs/rules/carcassonne-hunters-gatherers.md, §5.2): each one is followed by the
        next tile drawn face up (the next player's, or a bonus tile), or ends the game."""
        return reasons.no_take_back()

    def describe_result(self, result: dict[str, Any], players: list[str]) -> str:
        """Return who won, with the scores in ranking order, in the reader's language (``history.py``)."""
        return history.describe_result(result, players)

    notation_help = staticmethod(notation.notation_help)

    def bots(self) -> dict[str, Any]:
        """Return the bots this game offers: ``random``, ``basic`` (see ``games/carcassonne_hg/bots.py``) and
        ``strong``, every move played in a drawn world and the board it leaves judged (``strong.py``)."""
        from games.bots import RandomBot
        from games.carcassonne_hg.bots import BasicBot
        from games.carcassonne_hg.strong import StrongBot

        return {"random": RandomBot(), "basic": BasicBot(), "strong": StrongBot(self)}
