"""The time zones a person may pick.

Pages show times in the viewer's zone and emails in the recipient's (``readers.py`` activates it);
the API keeps ISO 8601 in UTC.
"""

from __future__ import annotations

import functools
import zoneinfo

DEFAULT_ZONE = "UTC"


# tzdata's zone names: zoneinfo.available_timezones() walks its folder of files at every call (a request that
# names a zone asked it once a request), and the installed tzdata does not change while a process runs.
_available_zones = functools.cache(zoneinfo.available_timezones)


@functools.cache
def zone_names() -> tuple[str, ...]:
    """Return the IANA zone names a person may pick, sorted (tzdata's list, without the legacy aliases)."""
    legacy = ("Etc/", "SystemV/", "US/", "Canada/", "Mexico/", "Brazil/", "Chile/")
    names = {name for name in _available_zones() if "/" in name and not name.startswith(legacy)}
    return tuple(sorted(names | {DEFAULT_ZONE}))


def is_zone_name(value) -> bool:
    return isinstance(value, str) and value in _available_zones()
