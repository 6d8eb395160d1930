"""Pairs of games that differ only in what some seats may not know, for every game and edition.

Each ``Scenario`` gives two sets of engine options (usually two scripted
decks) and the moves to play in both. A step's move may differ between the
worlds when what it holds is hidden from the others (a Chancellor's choice);
everything public stays the same. ``blind`` lists the seats that must see the
two worlds identically; spectators always must.

Every installed engine needs at least one scenario here: a new game is not
covered by the secrecy tests until it has one (``test_every_game_has_a_scenario``).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from games import get_engine
from games.love_letter import cards as love_letter_cards
from tests.games.halali import LAYOUT as HALALI_LAYOUT
from tests.games.savernake_forest import deck as savernake_deck

SEED = "secrecy-twin-seed"  # both worlds share the seed: only the scripted options differ


@dataclass(frozen=True)
class Step:
    """One move by ``seat``: ``move`` in world A and ``other`` (default: the same move) in world B.

    In the worlds listed in ``played_for`` the move is the seat's only legal one and the platform plays it
    for the seat (its player asked: ``Scenario.forced_moves``); in the others the seat's player sends it.
    """

    seat: int
    move: dict[str, Any]
    other: dict[str, Any] | None = None
    played_for: tuple[int, ...] = ()

    def move_in(self, world: int) -> dict[str, Any]:
        return self.move if world == 0 or self.other is None else self.other


@dataclass(frozen=True)
class Scenario:
    """Two games that differ only in hidden information, and the moves played in both."""

    slug: str
    label: str
    options: tuple[dict[str, Any], dict[str, Any]]
    steps: tuple[Step, ...]
    blind: frozenset[int]
    players: int = 2
    # Positions (number of steps played) at which every door is compared; the end is always one.
    checkpoints: tuple[int, ...] = ()
    notes: str = field(default="", compare=False)
    # Seats whose players have their forced moves played for them (in both worlds: the setting is no secret).
    forced_moves: frozenset[int] = frozenset()

    @property
    def id(self) -> str:
        return f"{self.slug}:{self.label}"


# -- Love Letter ------------------------------------------------------------------------------


def love_letter_deck(edition: str, *, set_aside: str, face_up: list[str], hands: list[str],
                     draws: list[str]) -> list[str]:
    """Return a full deck order (top first): set-aside, face up, the hands, ``draws``, then the rest by value."""
    named = [set_aside, *face_up, *hands, *draws]
    pool = Counter(love_letter_cards.full_deck(edition))
    pool.subtract(named)
    assert all(count >= 0 for count in pool.values()), f"too many cards named: {pool}"
    rest = sorted(pool.elements(), key=lambda card: love_letter_cards.value(edition, card))
    return [set_aside, *face_up, *hands, *draws, *rest]


def _love_letter_classic() -> list[Scenario]:
    face_up = ["king", "countess", "baron"]
    base = love_letter_deck("classic", set_aside="princess", face_up=face_up, hands=["guard", "priest"],
                            draws=["handmaid", "guard"])
    swapped_hand = love_letter_deck("classic", set_aside="priest", face_up=face_up, hands=["guard", "princess"],
                                    draws=["handmaid", "guard"])
    # Alice's next draw (after the script) stays the same; the cards below it come in reverse order.
    shuffled = base[:9] + list(reversed(base[9:]))
    steps = (
        Step(0, {"card": "handmaid"}),  # alice shows nothing
        Step(1, {"card": "guard"}),     # alice is protected: bob's Guard has no target in both worlds
    )
    common = {"edition": "classic", "first_player": 0}
    return [
        Scenario("love-letter", "classic: the other hand and the set-aside card",
                 ({**common, "deck": base}, {**common, "deck": swapped_hand}), steps, blind=frozenset({0}),
                 checkpoints=(1,)),
        Scenario("love-letter", "classic: the order of the deck",
                 ({**common, "deck": base}, {**common, "deck": shuffled}), steps, blind=frozenset({0, 1}), checkpoints=()),
    ]


def _love_letter_2019_chancellor() -> list[Scenario]:
    """Alice's Chancellor draws different cards in each world and she puts different ones back."""
    face_up = ["king", "countess", "baron"]
    common = {"edition": "2019", "first_player": 0}
    # Alice holds a Guard, draws the Chancellor; the Chancellor draws two cards; then bob draws a Guard.
    world_a = love_letter_deck("2019", set_aside="princess", face_up=face_up, hands=["guard", "priest"],
                               draws=["chancellor", "handmaid", "spy", "guard", "guard"])
    world_b = love_letter_deck("2019", set_aside="princess", face_up=face_up, hands=["guard", "priest"],
                               draws=["chancellor", "prince", "guard", "guard", "guard"])
    steps = (
        Step(0, {"card": "chancellor"}),
        Step(0, {"keep": "guard", "bottom": ["handmaid", "spy"]}, {"keep": "guard", "bottom": ["prince", "guard"]}),
        Step(1, {"card": "priest", "target": 0}),           # bob sees alice's Guard in both worlds
    )
    return [
        Scenario("love-letter", "2019: what the Chancellor drew and put back",
                 ({**common, "deck": world_a}, {**common, "deck": world_b}), steps, blind=frozenset({1}),
                 checkpoints=(1, 2)),
    ]


def _love_letter_forced_countess() -> list[Scenario]:
    """Bob holds a King in one world and a Baron in the other, and draws the Countess: with the King she is his
    only legal move, and the platform plays her for him (he asked); with the Baron he plays her himself. That
    the Countess was the only move would tell alice of the King: she must read both worlds alike."""
    decks = [love_letter_deck("classic", set_aside="princess", face_up=["guard", "guard", "priest"],
                              hands=["guard", held], draws=["handmaid", "countess", "guard"])
             for held in ("king", "baron")]
    common = {"edition": "classic", "first_player": 0}
    steps = (
        Step(0, {"card": "handmaid"}),  # alice is protected: bob's King or Baron would have no target
        Step(1, {"card": "countess"}, played_for=(0,)),
    )
    return [Scenario("love-letter", "classic: a Countess played for bob as his only move, or by him",
                     ({**common, "deck": decks[0]}, {**common, "deck": decks[1]}), steps, blind=frozenset({0}),
                     checkpoints=(1,), forced_moves=frozenset({1}))]


def ask_for_forced_moves(scenario: Scenario, users: list) -> None:
    """Turn the forced-move setting on for the scenario's seats that ask for it."""
    from turnbased.accounts.models import profile_of

    for seat in scenario.forced_moves:
        profile = profile_of(users[seat])
        profile.choose_play_forced_moves(True)
        profile.save()


def play_step(game, users: list, step: Step, world: int) -> None:
    """Play ``step`` in ``world`` on ``game`` at its current position: its seat's player sends the move, or the
    platform plays it for them at the moment its task draws (``services.play_forced_move``, run twice: once to
    draw, once at that moment, which this lets come at once); either way the move logged is the step's.

    The moment is the subject of ``test_forced_moves.py``, which keeps the clock; here times are masked."""
    import time_machine

    from turnbased.play import services
    from turnbased.play.models import ForcedMoveDue, Move, MoveSource

    game.refresh_from_db()
    if world not in step.played_for:
        services.submit_move(game_id=game.pk, user=users[step.seat], expected_seq=game.seq, move=step.move_in(world))
        return
    logged = Move.objects.filter(game=game, source=MoveSource.AUTO).order_by("-seq").first()
    if logged is None or logged.seq < game.seq:  # not played yet
        services.play_forced_move(game_id=game.pk, seq=game.seq)  # its first task draws the moment...
        due = ForcedMoveDue.objects.get(game=game, seq=game.seq).due_at
        with time_machine.travel(due, tick=False):  # ...and at that moment it is played
            logged = services.play_forced_move(game_id=game.pk, seq=game.seq)
    assert logged is not None and (logged.seat, logged.move) == (step.seat, step.move_in(world)), logged


# -- games whose hidden information nobody sees: random legal play that avoids the secret --------


def _random_steps(slug: str, options: dict[str, Any], *, count: int, seed: int,
                  allowed: Callable[[dict[str, Any]], bool] = lambda move: True, players: int = 2) -> tuple[Step, ...]:
    """Return ``count`` seeded random legal moves of world A that keep the secret (``allowed``)."""
    engine = get_engine(slug)
    names = [f"p{i}" for i in range(players)]
    state = engine.setup(names, engine.validate_options(players, dict(options)), SEED)
    rng = random.Random(seed)
    steps = []
    for _ in range(count):
        (seat,) = engine.to_move(state)
        move = rng.choice([move for move in engine.legal_moves(state, seat) if allowed(move)])
        state, _ = engine.apply(state, seat, move)
        steps.append(Step(seat, move))
    return tuple(steps)


def _halali() -> list[Scenario]:
    """A bear and a tree swapped, and a hunter turned round, all still face down."""
    from games.halali import board

    other = list(HALALI_LAYOUT)
    bear, tree, hunter = other.index("bear"), other.index("tree"), other.index("hunter:N")
    other[bear], other[tree] = other[tree], other[bear]
    other[hunter] = "hunter:S"
    secret = {board.name(board.START_SQUARES[i]) for i in (bear, tree, hunter)}
    options = ({"layout": HALALI_LAYOUT, "first_blue": 0}, {"layout": other, "first_blue": 0})
    steps = _random_steps("halali", options[0], count=6, seed=3, allowed=lambda move: move.get("flip") not in secret)
    return [Scenario("halali", "face-down tiles", options, steps, blind=frozenset({0, 1}), checkpoints=(3,))]


def _carcassonne() -> list[Scenario]:
    """The land stack agrees on its first tiles and differs after them."""
    from games.carcassonne_hg import tiles

    rng = random.Random(11)
    land = tiles.deck("revised", "land")
    rng.shuffle(land)
    shared = 10
    other = land[:shared] + list(reversed(land[shared:]))
    bonus = tiles.deck("revised", "bonus")
    common = {"bonus_tiles": bonus, "first_player": 0}
    options = ({**common, "tiles": land}, {**common, "tiles": other})
    steps = _random_steps("carcassonne-hg", options[0], count=4, seed=4)
    return [Scenario("carcassonne-hg", "the order of the land stack", options, steps, blind=frozenset({0, 1}),
                     checkpoints=(2,))]


def _savernake() -> list[Scenario]:
    """Two rows of the market agree; the cards still in the decks come in another order."""
    one = savernake_deck(["AN01", "AN02"], [("ST07", "CU12", "CU05", "AN06"), ("DC01", "ST14", "CU18", "AN09")])
    engine = get_engine("savernake-forest")
    full = engine.validate_options(2, {"deck": one})["deck"]
    other = {"paths": full["paths"][:6] + full["paths"][6:][::-1], "animals": full["animals"][:4] + full["animals"][4:][::-1]}
    options = ({"deck": full, "first_player": 0}, {"deck": other, "first_player": 0})
    # Round 1 (two turns) and the first turn of round 2: the next row, which differs, is not dealt yet.
    steps = _random_steps("savernake-forest", options[0], count=3, seed=5)
    return [Scenario("savernake-forest", "the order of the undealt cards", options, steps, blind=frozenset({0, 1}),
                     checkpoints=(1,))]


def scenarios() -> list[Scenario]:
    """Return every scenario, for every game and every edition or option that hides something."""
    return [*_love_letter_classic(), *_love_letter_2019_chancellor(), *_love_letter_forced_countess(), *_halali(),
            *_carcassonne(), *_savernake()]
