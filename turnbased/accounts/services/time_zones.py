"""Setting one's time zone on the account: the zone the pages offer, and the one given at sign-up.

Deadlines counted without weekends move with the zone: ``turnbased.clocks.time_zone_choice.zone_choose``
is the action that sets the zone and recomputes the running deadlines; this is its account half, and all
a new account needs (it has no deadline yet).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from turnbased.accounts.models import profile_of
from turnbased.accounts.time_zones import is_zone_name
from turnbased.kit.errors import InvalidRequest


def zone_set(*, user, zone: str) -> bool:
    """Set ``user``'s time zone to the IANA name ``zone``, note that they chose it, and tell whether it changed.

    Raises ``InvalidRequest`` for a name that is not a zone; nothing changes then.
    """
    if not is_zone_name(zone):
        raise InvalidRequest(_("%(value)r is not a time zone name such as Europe/London.") % {"value": str(zone)[:64]})
    profile = profile_of(user)
    changed = profile.time_zone != zone
    profile.time_zone, profile.time_zone_chosen = zone, True
    profile.save(update_fields=["time_zone", "time_zone_chosen"])
    return changed
