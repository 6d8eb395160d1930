"""The ``strong`` bots: information-set Monte Carlo tree search over the pure engine (issue 48).

A search bot is handed what every bot is (``games.bots.bot_move``): its seat's view, its legal moves and the
events it may see. It never holds the real state. Each iteration draws a world the seat cannot tell from the real
one (``Engine.sample_world``), walks one tree shared by every world (single-observer ISMCTS, Cowling, Powley and
Whitehouse 2012), adds a node, plays the world out a bounded number of moves and counts how each seat fared.
Moves are chosen in the tree by UCB1 over the moves legal in that world, each child's share counted against how
often it was available (the "availability" count); the move played is the root's most visited.

Its thinking is counted in engine steps (one ``apply`` with the ``legal_moves`` and ``to_move`` that lead to it),
never in time: for a given seed a search plays the same move on any machine, and its cost is known beforehand.

What each game adds (``SearchSettings``): how many steps a move may think, how far a playout goes before the
position is judged, how a playout chooses its moves (uniformly by default; a game's cheap rule of thumb is
stronger) and how a position cut short is judged (by default from ``public_scores``, the counts every player may
see, through ``score_scale``). Where the searching seat holds a hidden hand, the others' moves may be kept out of
the tree (``others_in_tree``): in one tree over worlds that all hold that hand, the others would learn to play
against it as if they saw it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.base import Engine, Move, State

# A playout's move chooser: (engine, world, seat, legal moves, rng) -> one of the moves.
Playout = Callable[[Engine, State, int, list[Move], random.Random], Move]
# A position's worth for each seat, each in [0, 1] (1: that seat surely wins).
Judge = Callable[[Engine, State], list[float]]
# The moves worth searching, best first, as the seat's own rule of thumb ranks them from what it may know:
# (view, legal moves, visible history, rng) -> moves.
Prior = Callable[[dict[str, Any], list[Move], list[dict[str, Any]], random.Random], list[Move]]


def uniform_playout(engine: Engine, world: State, seat: int, moves: list[Move], rng: random.Random) -> Move:
    return moves[rng.randrange(len(moves))]


@dataclass(frozen=True)
class SearchSettings:
    """How one game's search thinks; every figure is in engine steps or moves, none in time."""

    # Engine steps one move may spend, tree and playouts together.
    steps: int
    # UCB1's exploration constant (rewards are in [0, 1]).
    exploration: float = 0.7
    # Moves a playout plays past the tree before the position is judged (None: to the end of the game).
    playout_moves: int | None = None
    # How a playout chooses.
    playout: Playout = uniform_playout
    # Where a playout stops early, to be judged: (the world the iteration began in, the world now) -> stop. Love
    # Letter's ends with the round: what the round decides is the move's worth, the rounds after are noise.
    horizon: Callable[[State, State], bool] | None = None
    # How a position cut short is judged (None: from public_scores, through score_scale).
    judge: Judge | None = None
    # The root's moves, ranked by the game's rule of thumb, and how many of the best are searched (None: all).
    prior: Prior | None = None
    width: int | None = None
    # The lead in public score that is as good as a win of 0.76 (tanh(1)/2 + 1/2): a game's typical margin.
    score_scale: float = 10.0
    # A move the search is not asked to think about: the root's only move is played at once.
    extra: dict[str, Any] = field(default_factory=dict)
    # How often a node below the root is reached before it grows children of its own; until then its worth is its
    # playouts' (0: at once, UCT's usual). Where a node has many moves, a few playouts from it judge it better than a
    # few children tried at random.
    expand_after: int = 0
    # Whether the child a node grows is the one ``playout`` would choose among the untried moves (False: one at
    # random): the moves a game's rule of thumb prefers (a capture, say) are tried first.
    guided_expansion: bool = False
    # Whether the others' moves are chosen in the tree (UCB1 over what each did in the worlds) or by ``playout`` as
    # in a playout. In the tree, every world holds the searching seat's own hand: the others' statistics learn to
    # play against it, as if they saw it, and the more steps, the more they do (a game with a hidden hand).
    others_in_tree: bool = True


def outcome(engine: Engine, state: State, settings: SearchSettings) -> list[float]:
    """Return each seat's reward for ``state``: its share of the win at the end, else the position's judgement."""
    result = engine.result(state)
    if result is not None:
        seats = len(result["scores"])
        winners = result.get("winners") or []
        if not winners:  # a draw: everyone halfway
            return [0.5] * seats
        share = 1.0 / len(winners)
        return [share if seat in winners else 0.0 for seat in range(seats)]
    if settings.judge is not None:
        return settings.judge(engine, state)
    return judged_by_scores(engine.public_scores(state), settings.score_scale)


def judged_by_scores(scores: list[float] | None, scale: float) -> list[float]:
    """Return each seat's worth from the public counts: its lead over the best of the others, through tanh."""
    if not scores:
        return []
    worth = []
    for seat, score in enumerate(scores):
        best_other = max((s for other, s in enumerate(scores) if other != seat), default=score)
        worth.append(0.5 + 0.5 * math.tanh((score - best_other) / scale))
    return worth


def _key(move: Move) -> str:
    """Return a move's name in the tree. Every world's legal moves are built by the same code of the engine, with
    their keys in the same order, so ``repr`` names a move the same way in each (and costs a fifth of JSON's)."""
    return repr(move)


class _Node:
    """A move in the tree: who made it, how often it was tried, its total reward for that seat, and how often it
    was available when its parent was visited."""

    __slots__ = ("mover", "move", "visits", "reward", "available", "children")

    def __init__(self, mover: int | None, move: Move | None) -> None:
        self.mover = mover
        self.move = move
        self.visits = 0
        self.reward = 0.0
        self.available = 0
        self.children: dict[str, _Node] = {}


class SearchBot:
    """Choose a move by information-set MCTS over worlds drawn from the seat's knowledge (see the module)."""

    # The platform thinks a searching bot's move before it locks the game (``play.services.play_bot_turn``).
    searches = True

    def __init__(self, engine: Engine, settings: SearchSettings) -> None:
        self.engine = engine
        self.settings = settings
        # The bot reads the events the world drawer needs, and no more.
        self.history_moves = engine.world_history_moves

    def choose(self, view: dict[str, Any], moves: list[Move], history: list[dict[str, Any]],
               rng: random.Random) -> Move:
        if len(moves) == 1:
            return moves[0]
        seat = view_seat(view)
        candidates = moves
        if self.settings.prior is not None:
            candidates = self.settings.prior(view, moves, history, rng)[: self.settings.width or len(moves)]
            if len(candidates) == 1:
                return candidates[0]
        root = self.search(view, candidates, history, seat, rng)
        return best_move(root, candidates)

    def search(self, view: dict[str, Any], moves: list[Move], history: list[dict[str, Any]], seat: int,
               rng: random.Random) -> _Node:
        """Return the root of a search of ``settings.steps`` engine steps."""
        engine, settings = self.engine, self.settings
        root = _Node(None, None)
        allowed = {_key(move) for move in moves}
        spent = 0
        while spent < settings.steps:
            world = engine.sample_world(view, history, seat, rng)
            if world is None:
                raise ValueError(f"{engine.slug} draws no worlds: it cannot be searched")
            spent += self._iterate(root, world, seat, allowed, rng)
        return root

    def _played_by_rule(self, node: _Node, state: State, mover: int, legal: list[Move], rng: random.Random) -> _Node:
        """Return the child of ``node`` for the move ``playout`` chooses for ``mover``, grown if new: another seat's
        move kept out of the tree (``others_in_tree``)."""
        move = legal[0] if len(legal) == 1 else self.settings.playout(self.engine, state, mover, legal, rng)
        key = _key(move)
        child = node.children.get(key)
        if child is None:
            child = node.children[key] = _Node(mover, move)
        child.available += 1
        return child

    def _iterate(self, root: _Node, state: State, seat: int, allowed: set[str], rng: random.Random) -> int:
        """Run one iteration in one world; return the engine steps it spent."""
        engine, settings = self.engine, self.settings
        c = settings.exploration
        start, node, path, steps = state, root, [], 0
        expanded = False
        while True:
            to_move = engine.to_move(state)
            if not to_move:
                break
            mover = to_move[0]
            legal = engine.legal_moves(state, mover)
            if node is not root and mover != seat and not settings.others_in_tree:
                child = self._played_by_rule(node, state, mover, legal, rng)
            else:
                keyed = [(_key(move), move) for move in legal]
                if node is root:  # the root offers only the real legal moves (every world's are the same)
                    keyed = [(key, move) for key, move in keyed if key in allowed] or keyed
                untried = [(key, move) for key, move in keyed if key not in node.children]
                for key, _move in keyed:
                    child = node.children.get(key)
                    if child is not None:
                        child.available += 1
                if untried and node is not root and node.visits < settings.expand_after:
                    break  # too young to grow: played out from here
                if untried:
                    if settings.guided_expansion and len(untried) > 1:
                        move = settings.playout(engine, state, mover, [move for _key, move in untried], rng)
                        key = _key(move)
                    else:
                        key, move = untried[rng.randrange(len(untried))]
                    child = _Node(mover, move)
                    child.available = 1
                    node.children[key] = child
                    expanded = True
                else:
                    log = math.log
                    child = max(
                        (node.children[key] for key, _move in keyed),
                        key=lambda n: n.reward / n.visits + c * math.sqrt(log(n.available) / n.visits),
                    )
            state, _events = engine.apply(state, mover, child.move)
            steps += 1
            path.append(child)
            node = child
            if expanded:
                break
        played = 0
        limit, horizon = settings.playout_moves, settings.horizon
        while limit is None or played < limit:
            to_move = engine.to_move(state)
            if not to_move or (horizon is not None and horizon(start, state)):
                break
            mover = to_move[0]
            legal = engine.legal_moves(state, mover)
            move = legal[0] if len(legal) == 1 else settings.playout(engine, state, mover, legal, rng)
            state, _events = engine.apply(state, mover, move)
            steps += 1
            played += 1
        rewards = outcome(engine, state, settings)
        for visited in path:
            visited.visits += 1
            visited.reward += rewards[visited.mover] if visited.mover < len(rewards) else 0.5
        root.visits += 1
        return max(steps, 1)


def view_seat(view: dict[str, Any]) -> int:
    """Return the seat a view is for: every game's player view names it ``you``."""
    return view["you"]


def best_move(root: _Node, moves: list[Move]) -> Move:
    """Return the legal move most visited at the root (ties: the better average, then the order of the moves)."""
    best, best_rank = moves[0], None
    for move in moves:
        child = root.children.get(_key(move))
        if child is None or child.visits == 0:
            continue
        rank = (child.visits, child.reward / child.visits)
        if best_rank is None or rank > best_rank:
            best, best_rank = move, rank
    return best
