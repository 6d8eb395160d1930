"""The time zones a person may pick.

Pages show times in the viewer's zone and emails in the recipient's (``readers.py`` activates it);
the API keeps ISO 8601 in UTC.
"""

from __future__ import annotations

import functools
import zoneinfo

DEFAULT_ZONE = "UTC"


@functools.cache
def zone_names() -> tuple[str, ...]:
    """Return the IANA zone names a person may pick, sorted (tzdata's list, without the legacy aliases)."""
    legacy = ("Etc/", "SystemV/", "US/", "Canada/", "Mexico/", "Brazil/", "Chile/")
    names = {name for name in zoneinfo.available_timezones() if "/" in name and not name.startswith(legacy)}
    return tuple(sorted(names | {DEFAULT_ZONE}))


def is_zone_name(value) -> bool:
    return isinstance(value, str) and value in zoneinfo.available_timezones()
