"""What fair entry adds to the core's decisions (``play.facts``): a table made with requirements (the term
``requirements``) records them, and a free seat is kept from a person who does not meet them, in words that name
the requirement they miss (the page and the API alike). A person with too many games waiting on them takes no
seat and makes no table (``waiting``), and a person whose seat a bot took leaves the tables they wait to start."""

from __future__ import annotations

from turnbased.entry import requirements as rules
from turnbased.entry import waiting
from turnbased.entry.models import TableRequirements
from turnbased.kit.db import dispatch
from turnbased.play import facts
from turnbased.play.models import Game

LEAVE_TASK = "turnbased.entry.tasks.leave_waiting_tables"


def requirements_of(game: Game) -> TableRequirements | None:
    # Read once per game object: a page asks several questions of one table.
    if not hasattr(game, "_entry_requirements"):
        game._entry_requirements = TableRequirements.objects.filter(game_id=game.pk).first()
    return game._entry_requirements


@facts.table_term("requirements")
def a_table_with_requirements(game: Game, creator, value) -> None:
    chosen = rules.read(value)
    game._entry_requirements = None
    if rules.asks_anything(chosen):
        game._entry_requirements = TableRequirements.objects.create(game=game, **chosen)


@facts.seat_kept
def requirements_keep_a_seat(game: Game, user) -> str | None:
    requirements = requirements_of(game)
    return None if requirements is None else rules.unmet(requirements, user, game)


@facts.seat_kept
def games_waiting_keep_a_seat(game: Game, user) -> str | None:
    if not waiting.any_limit():
        return None
    return waiting.standing(user, besides=game, lock=True).why_not_join()


@facts.creation_kept
def games_waiting_keep_a_table(creator, *, plays: bool) -> str | None:
    if not waiting.any_limit():
        return None
    return waiting.standing(creator, lock=True).why_not_create(plays=plays)


@facts.reacting_to(facts.SeatHandedOn)
def seat_handed_on(fact: facts.SeatHandedOn) -> None:
    # The person whose seat a bot took leaves the tables they wait to start, once this commits: a task (a handler
    # calls no core service), queued by the dispatcher like a bot's turn; lost on the way, the minute sweep does it
    # (tasks.sweep_tables_left_waiting).
    if fact.user_id is not None:
        dispatch.after_commit(LEAVE_TASK, fact.user_id)
