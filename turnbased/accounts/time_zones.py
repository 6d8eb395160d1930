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


# The cookie in which a page's script leaves the browser's zone (js/time-zone.js), so that the next page can offer
# it as it is drawn: an offer a script showed after the page was drawn pushed the whole page down (layout shift).
BROWSER_ZONE_COOKIE = "browser_time_zone"

# The names a browser may give UTC by ("Etc/UTC" on many Linux machines): none of them is worth an offer in UTC.
UTC_NAMES = frozenset({"UTC", "Etc/UTC", "Etc/UCT", "UCT", "Etc/Universal", "Universal", "Etc/Zulu", "Zulu", "GMT",
                       "Etc/GMT", "Etc/GMT0", "Etc/GMT+0", "Etc/GMT-0", "Etc/Greenwich", "Greenwich"})


def zone_to_offer(browser_zone, current: str) -> str:
    """Return the browser's zone if it is worth offering to a person whose pages are in ``current``, else "".

    ``browser_zone`` comes from a cookie and may be anything: only a real zone name other than ``current`` (or
    another name for it) is offered.
    """
    if not is_zone_name(browser_zone) or browser_zone == current or {browser_zone, current} <= UTC_NAMES:
        return ""
    return browser_zone
