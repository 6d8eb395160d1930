"""Savernake Forest's ``strong`` bot: the search of ``games.search`` with this game's settings (issue 48).

Everything but the decks' order is public, and a round's market is dealt at its start: until the round ends, what
each seat after us may take is known, and the basic bot is a fair guess of how it chooses. So the search looks at the
``WIDTH`` moves whose forests are worth most (``prior``), plays the rest of the round with the basic bot for every
seat (``playout``), stops there (``round_over``) and judges each forest by ``worth`` (its score now, its room to grow
as the basic bot sees it, and what the rounds left may still bring it), every seat against the best of the others
(``judge``). A move is then worth what it makes of our forest and what it leaves for the seats after us. The decks
matter only from the next round's deal, which the playout does not reach, so a few iterations a move suffice; each
draws a world all the same (``worlds.py``), as every search does.

36 engine steps a move (a dozen iterations), a playout's basic bot weighing at most ``PLAYOUT_MOVES`` moves of a
turn. Measured by benchmarks/bots.py on 2026-12-07: 43 wins in 100 three-player games against two basic bots (95%
interval 34–53%; the target is 45%, a third is par), 79 in 200 (39.5%), a move 0.12 s at the median and 1.02 s at
most (a playout that weighed every move took up to 2.15 s a move between strong bots). Ten moves searched with 60
steps won 75 of the same 200 (37.5%). On 200 other seeds, a seat playing greedily by the basic bot's own evaluation
won 51 (26%), and greedily by ``worth`` 78 (39%): the prospects, more than the search, make the difference.
Against two ``random`` bots it won all of 60 three-player games (95% interval 94–100%); against itself, the seats
taken in turn, seat 0 won 21 of 60 (35%; a third is par).
"""

from __future__ import annotations

import functools
import json
import random
from typing import Any

from games.base import Engine, Move, State
from games.savernake_forest import cards, scoring
from games.savernake_forest.bots import ROOSTER, BasicBot, after, forest_of, room_to_grow, shape_of, sheets_of
from games.savernake_forest.cards import ROUNDS
from games.savernake_forest.options import per_exit
from games.search import SearchSettings, judged_by_scores

BASIC = BasicBot()
WIDTH = 6  # the basic bot's best moves searched: a turn has 112 to 1,000 moves, most of them plainly worse
SCALE = 10.0  # a lead in worth as good as a win of 0.76: a game is won by a few foods


# What a forest may still gain, weighed by the share of the game still to play (the basic bot's room to grow counts
# the same in the first round and the last): its room to grow, a free place in a face-up animal's store on a path
# with an open end (``FREE``, per open end up to the free places) and a food on an open path no animal holds yet,
# which a later animal may claim (``UNCLAIMED``). Measured as a greedy player against two basic bots over 200
# three-player games: the basic bot's own evaluation won 26%, with ``FREE`` 1 34%, with ``UNCLAIMED`` 0.5 besides 36%.
FREE = 1.0
UNCLAIMED = 0.5


def world_view(world: State, seat: int) -> dict[str, Any]:
    """Return what the basic bot reads of a view (``BasicBot.scored``), straight from a world: the seat, the
    options, its forest and the market. The engine's own view would also score every forest, which it does not read."""
    return {
        "you": seat,
        "options": world["options"],
        "seats": [
            {"forest": [dict(entry, type="animal" if cards.is_animal(entry["card"]) else "path") for entry in forest]}
            if other == seat else {"forest": []}
            for other, forest in enumerate(world["forests"])
        ],
        "market": [{"slot": slot, "card": card} for slot, card in world["market"].items() if card is not None],
        "round": world["round"],
    }


def prospects(forest: list[dict[str, Any]], shape: dict[str, Any], sheets: dict[str, dict[str, Any]],
              rounds_left: int) -> float:
    """Return what the rounds left may still bring the forest: its room to grow as the basic bot sees it, a free
    place on an open path (``FREE``) and an unclaimed food (``UNCLAIMED``), all by the share of the game left."""
    share = rounds_left / ROUNDS
    worth = room_to_grow(forest, shape, sheets)
    for group, ends in zip(shape["groups"], shape["ends"]):
        if not ends:
            continue
        free = sum(sheets[a]["capacity"] - len(sheets[a]["stored"]) for a in group["animals"] if a in sheets)
        if free > 0:
            worth += FREE * min(free, ends)
        if not group["animals"]:
            worth += UNCLAIMED * len(group["foods"])
    return worth * share


def worth(forest: list[dict[str, Any]], options: dict[str, Any], rounds_left: int) -> tuple[float, int]:
    """Return what a forest is worth to the strong bot: (its score now, its room to grow and its prospects; the
    foods stored), shared paths settled as the options say (at once, or the best survivors at the end)."""
    exits = per_exit(options)
    if options.get("shared_path_resolution", "immediate") != "immediate":
        forest = scoring.resolve_best(forest, exits)[0]
    shape = shape_of(forest, exits)
    sheets = sheets_of(forest, shape["groups"])
    total = sum(sheet["score"] for sheet in sheets.values())
    total += prospects(forest, shape, sheets, rounds_left)
    return total, sum(len(sheet["stored"]) for sheet in sheets.values())


def ranked(view: dict[str, Any], moves: list[Move], rng: random.Random) -> list[Move]:
    """Rank the moves by the forest each leaves (``worth``), best first, ties in a random order."""
    me = view["you"]
    forest = forest_of(view, me)
    market = {entry["slot"]: entry["card"] for entry in view["market"]}
    immediate = view["options"].get("shared_path_resolution", "immediate") == "immediate"
    exits = per_exit(view["options"])
    rounds_left = ROUNDS - view["round"]
    scored = []
    for i, move in enumerate(moves):
        total, stored = worth(after(forest, market[move["slot"]], move, immediate, exits), view["options"],
                              rounds_left)
        scored.append((total + (ROOSTER if move["slot"] == "rooster" else 0.0), stored, rng.random(), i))
    scored.sort(reverse=True)
    return [moves[i] for *_rest, i in scored]


def prior(view: dict[str, Any], moves: list[Move], history: list[dict[str, Any]], rng: random.Random) -> list[Move]:
    return ranked(view, moves, rng)


# The moves a playout's basic bot weighs at most (``playout``): it scores each forest a move would make, and a turn
# with three market cards, tokens and shared paths has up to a thousand moves, which made a strong move take over two
# seconds. The moves weighed are a draw fixed by the position, so a search plays the same on any machine.
PLAYOUT_MOVES = 240


@functools.lru_cache(maxsize=64)
def _playout_choices(position: str, count: int) -> tuple[int, ...]:
    """Return the indices of the moves the basic bot scores best among those weighed in ``position`` (``playout``'s
    key), the tie the caller's rng breaks. A pure function of the position: the same move is chosen in
    every world and every iteration that reaches it (only the decks differ between worlds, and a playout stops before
    the next deal), so it is chosen once."""
    seat, world_part, moves = json.loads(position)
    weighed = list(range(count))
    if count > PLAYOUT_MOVES:
        weighed = sorted(random.Random(position).sample(weighed, PLAYOUT_MOVES))
    view = world_view(world_part, seat)
    scored = BASIC.scored(view, [moves[i] for i in weighed])
    best = max(value for value, _i in scored)
    return tuple(weighed[i] for value, i in scored if value == best)


def playout(engine: Engine, world: State, seat: int, moves: list[Move], rng: random.Random) -> Move:
    """Play the basic bot's move for ``seat`` in the world, weighing at most ``PLAYOUT_MOVES`` of its moves: the
    others at the table are basic bots, or play as well."""
    part = {key: world[key] for key in ("options", "forests", "market", "round")}
    position = json.dumps([seat, part, moves], sort_keys=True, separators=(",", ":"))
    return moves[rng.choice(_playout_choices(position, len(moves)))]


def round_over(start: State, now: State) -> bool:
    """Stop a playout once the round the search began in is over: the next row is dealt from the drawn decks."""
    return now["round"] != start["round"] or now["result"] is not None


def judge(engine: Engine, world: State) -> list[float]:
    """Return each seat's worth: its forest's (``worth``) lead over the best of the others, through tanh."""
    rounds_left = ROUNDS - world["round"]
    return judged_by_scores([worth(forest, world["options"], rounds_left)[0] for forest in world["forests"]], SCALE)


SETTINGS = SearchSettings(
    steps=36,
    exploration=0.7,
    playout_moves=None,
    playout=playout,
    horizon=round_over,
    judge=judge,
    prior=prior,
    width=WIDTH,
    expand_after=1_000_000,
)
