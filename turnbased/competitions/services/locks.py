"""The row locks a competition's changes take, in one order: the competition's before a round's (entries, a round's
close, a ladder's challenge), and a game's end its round's alone."""

from __future__ import annotations

from turnbased.competitions.models import Competition, Round


def round_locked(round_id: int) -> Round:
    """Return the round under its row lock, with its stage and competition read but not locked (a FOR UPDATE of the
    join would lock the competition after the round, and deadlock with a challenge: the competitions' soak found
    it)."""
    return Round.objects.select_for_update(of=("self",)).select_related("stage__competition").get(pk=round_id)


def competition_locked(competition_id: int) -> Competition:
    return Competition.objects.select_for_update().get(pk=competition_id)
