"""Reads of the clocks app that the API answers with."""

from __future__ import annotations

from turnbased.clocks.models import Absence


def absence_of(user, absence_id: int) -> Absence | None:
    """Return one of the user's absences (an ended or past one too), None if it is not theirs or does not exist."""
    return Absence.objects.filter(user=user, pk=absence_id).first()
