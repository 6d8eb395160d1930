"""Choosing one's time zone outside the sign-up form: the zone is the account's, the deadlines are the clocks'."""

from __future__ import annotations

from turnbased.accounts.services.time_zones import zone_set
from turnbased.clocks.services import refresh_deadlines


def zone_choose(*, user, zone: str) -> None:
    """Set ``user``'s time zone to the IANA name ``zone`` and note that they chose it.

    Deadlines counted without weekends move with the zone, so the running ones are recomputed.
    Raises ``InvalidRequest`` for a name that is not a zone; nothing changes then.
    """
    if zone_set(user=user, zone=zone):
        refresh_deadlines(user=user)
