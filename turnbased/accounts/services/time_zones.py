"""Choosing one's time zone outside the settings form: the zone the pages offer, and the one given at sign-up."""

from __future__ import annotations

from django.utils.translation import gettext as _

from turnbased.accounts.models import profile_of
from turnbased.accounts.time_zones import is_zone_name
from turnbased.clocks.services import refresh_deadlines
from turnbased.play.errors import InvalidRequest


def zone_choose(*, user, zone: str) -> None:
    """Set ``user``'s time zone to the IANA name ``zone`` and note that they chose it.

    Deadlines counted without weekends move with the zone, so the running ones are recomputed.
    Raises ``InvalidRequest`` for a name that is not a zone; nothing changes then.
    """
    if not is_zone_name(zone):
        raise InvalidRequest(_("%(value)r is not a time zone name such as Europe/London.") % {"value": str(zone)[:64]})
    profile = profile_of(user)
    changed = profile.time_zone != zone
    profile.time_zone, profile.time_zone_chosen = zone, True
    profile.save(update_fields=["time_zone", "time_zone_chosen"])
    if changed:
        refresh_deadlines(user=user)
