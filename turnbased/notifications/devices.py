"""What a subscription must be before it is kept: a push service we send to, and keys that are keys.

The page sends us what its browser's ``PushSubscription.toJSON()`` gave. The endpoint is a URL the
browser chose, so it is checked against ``WEB_PUSH_SERVICES`` (the workers POST to it: any other host
would let a person make them reach inside the network), here and again before each push.
"""

from __future__ import annotations

import base64
import binascii
import re
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.utils.translation import gettext as _

MAX_ENDPOINT_LENGTH = 2000
_BASE64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")


class BadSubscription(ValueError):
    """The subscription cannot be kept; ``field`` names what is wrong, the message says why."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


def service_allowed(host: str) -> bool:
    """Tell whether ``host`` is one of the push services pushes may go to (``WEB_PUSH_SERVICES``)."""
    host = host.lower().rstrip(".")
    for allowed in settings.WEB_PUSH_SERVICES:
        allowed = allowed.lower()
        if host == allowed or (allowed.startswith(".") and host.endswith(allowed)):
            return True
    return False


def check_endpoint(endpoint: str) -> str:
    """Return the endpoint once it is a push service's URL we send to; raise BadSubscription otherwise."""
    if len(endpoint) > MAX_ENDPOINT_LENGTH or not endpoint.isascii() or any(c.isspace() or ord(c) < 32
                                                                             for c in endpoint):
        raise BadSubscription("endpoint", _("This is not a push service's address."))
    try:
        parts = urlsplit(endpoint)
        parts.port  # noqa: B018 (reading it checks it)
    except ValueError:
        raise BadSubscription("endpoint", _("This is not a push service's address.")) from None
    schemes = ("https", "http") if settings.WEB_PUSH_ALLOW_HTTP else ("https",)
    if parts.scheme not in schemes or "@" in parts.netloc or parts.fragment or not parts.hostname:
        raise BadSubscription("endpoint", _("This is not a push service's address."))
    if not service_allowed(parts.hostname):
        raise BadSubscription("endpoint", _("Pushes go only to the push services of the major browsers; "
                                            "%(host)s is not one of them.") % {"host": parts.hostname})
    return endpoint


def _decoded(text: str) -> bytes | None:
    if not _BASE64URL.fullmatch(text):
        return None
    try:
        return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        return None


def check_keys(p256dh: str, auth: str) -> tuple[str, str]:
    """Return the browser's keys once they are a P-256 public key and a 16-byte secret, base64url."""
    point = _decoded(p256dh)
    try:
        if point is None or len(point) != 65:
            raise ValueError
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise BadSubscription("keys", _("The p256dh key is not a P-256 public key (65 bytes, base64url).")) from None
    secret = _decoded(auth)
    if secret is None or len(secret) != 16:
        raise BadSubscription("keys", _("The auth secret is not 16 bytes written in base64url."))
    return p256dh.rstrip("="), auth.rstrip("=")


# Browsers by the marks their User-Agent carries, the most specific first (Edge and Opera say "Chrome" too).
_BROWSERS = [("Edg", "Edge"), ("OPR", "Opera"), ("SamsungBrowser", "Samsung Internet"), ("Firefox", "Firefox"),
             ("FxiOS", "Firefox"), ("CriOS", "Chrome"), ("Chromium", "Chromium"), ("Chrome", "Chrome"),
             ("Safari", "Safari")]
_SYSTEMS = [("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("CrOS", "ChromeOS"),
            ("Windows", "Windows"), ("Mac OS X", "macOS"), ("Macintosh", "macOS"), ("Linux", "Linux")]


def describe_device(user_agent: str) -> tuple[str, str]:
    """Name the browser and system of a User-Agent, as a person knows them ("", "" when it says neither)."""
    browser = next((name for mark, name in _BROWSERS if mark in user_agent), "")
    system = next((name for mark, name in _SYSTEMS if mark in user_agent), "")
    return browser, system
