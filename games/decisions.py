"""Games stopped before their own end and decided by the platform's rule rather than by play: at a competition's round
deadline, adjudicated on the count every player and spectator can see so far (``Engine.public_scores``), or with
every seat losing; or drawn by its players' agreement, in a game whose rules know a shared result
(``Engine.shares_results``). The engine contract's ``decided_result`` builds the result here; the record's verifier replays
the moves and decides again (``games.record``).
"""

from __future__ import annotations

from typing import Any

from games.i18n import catalog_of, in_english

_ = catalog_of(__name__)

ADJUDICATED = "adjudicated"
ALL_LOSE = "all_lose"
AGREED_DRAW = "agreed_draw"
DECIDED = (ADJUDICATED, ALL_LOSE, AGREED_DRAW)


def decided(counted: list[float] | None, how: str, players: list[str]) -> dict[str, Any]:
    """Return the result of a game stopped before its own end, decided ``how`` from the seats' public count
    (``counted``, None when the game keeps none): the contract's keys and ``decided`` saying how.

    ``adjudicated``: the seats with the most share the win, the others ranked by their count (equal counts
    everywhere, or no public count: a draw). ``all_lose``: nobody wins and every seat shares the last place.
    ``agreed_draw``: its players agreed to end it as a draw; the count is kept as it stood. The ``summary`` is the
    record's English line, as a game's own result's is.
    """
    if how not in DECIDED:
        raise ValueError(f"a game is decided one of {DECIDED}, not {how!r}")
    scores = [float(score) for score in counted] if counted is not None else [0.0] * len(players)
    scores = [int(score) if score == int(score) else score for score in scores]
    seats = list(range(len(scores)))
    ranking = sorted(seats, key=lambda seat: (-scores[seat], seat))
    if how == ALL_LOSE:
        result = {"winners": [], "scores": scores, "ranking": ranking, "draw": False, "decided": how}
    elif how == AGREED_DRAW:
        result = {"winners": [], "scores": scores, "ranking": ranking, "draw": True, "decided": how}
    else:
        best = max(scores)
        winners = [] if len(set(scores)) == 1 else [seat for seat in seats if scores[seat] == best]
        result = {"winners": winners, "scores": scores, "ranking": ranking, "draw": not winners, "decided": how}
    with in_english():
        result["summary"] = _decided_line(result, list(players))
    return result


def _decided_line(result: dict[str, Any], players: list[str]) -> str:
    winners = [players[seat] for seat in result.get("winners", []) if 0 <= seat < len(players)]
    scores = " – ".join(str(score) for score in result.get("scores", []))
    if result.get("decided") == ALL_LOSE:
        return _("Stopped before its end: every player loses")
    if result.get("decided") == AGREED_DRAW:
        return _("Drawn by the players' agreement")
    if not winners:
        return _("Adjudicated before its end: a draw ({scores})").format(scores=scores)
    return _.ngettext("Adjudicated before its end on the count so far: {names} wins ({scores})",
                      "Adjudicated before its end on the count so far: {names} share the win ({scores})",
                      len(winners)).format(names=list_of(winners), scores=scores)


def worded_result(engine, result: dict[str, Any], players: list[str]) -> str:
    """Return the result's one line in the reader's language: the engine's (``describe_result``), or, for a game
    decided before its end, how it was decided."""
    if result.get("decided") in DECIDED:
        return _decided_line(result, players)
    return engine.describe_result(result, players)


def list_of(names: list[str]) -> str:
    """Return names joined as the reader's language lists them: "alice", "alice and bob", "alice, bob and carol"."""
    if len(names) < 2:
        return "".join(names)
    return _("{first} and {last}").format(first=", ".join(names[:-1]), last=names[-1])
