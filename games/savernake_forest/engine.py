"""Savernake Forest rules: Rodrigo Rego's forest-drafting game (Devir 2023), 2 to 4 players.

Follows docs/rules/savernake-forest.md (the rules file): setup of §4,
rounds and the compound turn of §5, placement of §6, helpers and tokens of §7,
the one-animal-per-path rule of §8, the end of §9, scoring of §10, tie-breaks
of §11 and every resolution of §16–§17. The card catalogue is the rules
file's RECONSTRUCTION (§15), kept as data in ``cards.py``.

Rule algorithms are module functions working on a copy of the state (which
moves are legal: ``legality.py``; the options: ``options.py``);
``SavernakeForestEngine`` is the thin contract adapter around them.

Every word a person reads is in the reader's language, from the package's
catalogs: the history and the result in ``history.py``, the notation in
``notation.py``, the email text in ``plain_text.py``, the board in ``board.py``,
the names of things in ``words.py``. Nothing stored is worded; the result's
``summary`` is its English line (docs/glossary/savernake-forest.md).

Hidden information: only the order of the two decks (and the seed). Forests,
market, discards and token supplies are public, so every seat gets the same
view; nothing that leaves the engine names an undealt card.
"""

from __future__ import annotations

from typing import Any

from games.base import Engine, Event, IllegalMove, InvalidOptions, State, seeded_rng
from games.i18n import catalog_of, in_english
from games.savernake_forest import breakdown, cards, history, notation, plain_text, player_view, scoring, worlds
from games.savernake_forest.cards import ANIMAL_SLOT, FOODS, ROUNDS, SLOTS
from games.savernake_forest.legality import animal_entry, check_move, current, legal_moves
from games.savernake_forest.options import OPTION_SPECS, PERSISTENT, VERSION, per_exit, reading, validate_options

_ = catalog_of(__name__)
N_ = _.noop

def new_game(players: list[str], options: dict[str, Any], seed: int | str, version: int = VERSION) -> State:
    """Return the state of a new game of engine ``version``: starting animals dealt, first market row out, round 1
    begun."""
    if not isinstance(players, list) or not all(isinstance(player, str) for player in players):
        raise InvalidOptions(_("players must be a list of display names"))
    opts = validate_options(len(players), options, version)
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
    for _seat in range(n):  # ruling 12a: starting animals from the top, seat 0 first, before the first row
        forests.append([animal_entry(animals.pop(0), 0, 0, 0)])
    state: State = {
        "players": list(players),
        "options": opts,  # no seed: both decks are shuffled here, and nothing later is drawn
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
    """Return which seats have resigned (left the game): every state has the list, from setup on."""
    return state["left"]


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
    exits = per_exit(state["options"])
    for seat, forest in enumerate(state["forests"]):
        _resolved, flips = scoring.resolve_best(forest, exits)
        for flip in flips:
            _turn_down(state, seat, flip["card"], flip["survivor"], True, events)
    sheets = [scoring.forest_scores(forest, exits) for forest in state["forests"]]
    scores = [sheet["total"] for sheet in sheets]
    stored = [sheet["stored"] for sheet in sheets]
    left = _left(state)
    tie_break = reading(state["options"], "tie_break")
    # Seats that resigned rank below everyone still playing, whatever their score.
    order = sorted(scoring.ranking(scores, stored, tie_break), key=lambda seat: left[seat])
    staying = [seat for seat in order if not left[seat]]
    winners = scoring.winners([scores[s] for s in staying], [stored[s] for s in staying], tie_break)
    winners = sorted(staying[i] for i in winners)
    state["order"] = []
    state["result"] = {
        "winners": winners,
        "scores": scores,
        "ranking": order,
        "draw": False,
        "shared": len(winners) > 1,
        "stored": stored,
        "animals": [sheet["animals"] for sheet in sheets],
        "resigned": [seat for seat in range(len(left)) if left[seat]],
    }
    with in_english():  # the record's line, worded from the rest: English whatever the players read
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
    return player_view.result_copy(state["result"])


# -- takebacks (games/takebacks.py) -------------------------------------------------

# A turn inside a round shows nothing: the card came from the open market, the forests lie face up. The round's
# last turn deals the next row from the decks (or scores the game): never (docs/rules/savernake-forest.md, §12).
_TAKEN_BACK_SAFELY = frozenset({"card_taken", "animal_turned_down", "water_drop_placed", "water_drop_unplaced",
                                "burrow_placed", "rooster_taken"})


def take_back_refusal(before: State, seat: int, move: Any, after: State, events: list[Event]) -> str | None:
    """Allow a turn that did not end its round; refuse the round's last turn, which deals the next row."""
    if not {event.kind for event in events} <= _TAKEN_BACK_SAFELY:
        return _("That turn ended the round and a new row of cards was dealt: it cannot be taken back.")
    return None


class SavernakeForestEngine(Engine):
    """Savernake Forest (Devir 2023) with the rules file's reconstructed card catalogue."""

    slug = "savernake-forest"
    name = N_("Savernake Forest")
    # Version 2 made the original text's readings the defaults (shared paths settled at final scoring, equal
    # totals sharing the win) and added the tie-break and the two-exit den as options. Version 1's games keep
    # version 1's options and defaults (``options.specs_at``); their states lack the new options, which
    # ``options.reading`` answers as version 1 played, so this code plays both to the same events and result.
    version = VERSION
    supported_versions = (1, VERSION)
    min_players = 2
    max_players = 4
    option_specs = OPTION_SPECS
    default_players = 2
    summary = N_("Draft path and animal cards into a 4×4 forest so each animal's path brings it the food it loves.")

    # The rules live in this package's module functions; the contract's docstrings are in games/base.py.
    def validate_options(self, players: int, options: dict[str, Any]) -> dict[str, Any]:
        return validate_options(players, options, self.version)

    def setup(self, players: list[str], options: dict[str, Any], seed: int | str) -> State:
        return new_game(players, options, seed, self.version)

    def to_move(self, state: State) -> list[int]:
        """Return the seat to act; empty once the game is over."""
        seat = current(state)
        return [] if seat is None else [seat]

    legal_moves = staticmethod(legal_moves)
    apply = staticmethod(apply_move)
    result = staticmethod(game_result)

    def public_scores(self, state: State) -> list[float]:
        """Return each seat's forest scored as it lies now: every forest is face up."""
        return [seat["score"] for seat in self.view(state, None)["seats"]]
    resign = staticmethod(resign)
    score_breakdown = staticmethod(breakdown.score_breakdown)
    view_text = staticmethod(plain_text.view_text)

    def moves_summary(self, texts: list[str], limit: int = 40) -> list[str]:
        """Return the legal moves' notation grouped by slot: cells, rotations, survivors and tokens."""
        return notation.moves_summary(texts, limit)

    view = staticmethod(player_view.view)
    view_after_end = staticmethod(player_view.view_after_end)
    describe_event = staticmethod(history.describe_event)
    offers_takebacks = True
    shares_results = True
    take_back_refusal = staticmethod(take_back_refusal)

    def describe_result(self, result: dict[str, Any], players: list[str]) -> str:
        """Return who won, with how many points and how, in the reader's language (``history.describe_result``)."""
        return history.describe_result(result, players)

    describe_move = staticmethod(notation.describe_move)
    parse_move = staticmethod(notation.parse_move)
    notation_help = staticmethod(notation.notation_help)

    def mark_spots(self, view: dict[str, Any]) -> list[tuple[str, str]]:
        """Every card in every forest (``marks.py``)."""
        from games.savernake_forest.marks import mark_spots

        return mark_spots(view)

    def board_data(self, view: dict[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any] | None:
        """Return the board template's drawing data (see ``games/savernake_forest/board.py``)."""
        from games.savernake_forest.board import board_data

        return board_data(view, moves)

    def bots(self) -> dict[str, Any]:
        """Return the bots this game offers: ``random``, ``basic`` (see ``games/savernake_forest/bots.py``) and
        ``strong``, a search (``games/search.py``, with ``strong.py``'s settings)."""
        from games.bots import RandomBot
        from games.savernake_forest.bots import BasicBot
        from games.savernake_forest.strong import SETTINGS
        from games.search import SearchBot

        return {"random": RandomBot(), "basic": BasicBot(), "strong": SearchBot(self, SETTINGS)}

    def sample_world(self, view: dict[str, Any], history: list[dict[str, Any]], seat: int, rng: Any) -> State:
        """Only the deck orders are hidden: the view's public facts and a uniform shuffle of each deck's unseen
        cards (``worlds.py``). The history tells nothing more, so ``world_history_moves`` stays 0."""
        return worlds.sample_world(view, history, seat, rng)
