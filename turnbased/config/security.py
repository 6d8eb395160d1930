"""Security settings that need no environment variable: the secret key's check and the Content-Security-Policy."""

from __future__ import annotations

from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured

# The secret key signs sessions, password resets and the reply and unsubscribe addresses in every
# email: whoever knows it can play and unsubscribe for anyone. Without DEBUG the service refuses to
# start with a missing, short or example key.
EXAMPLE_SECRET_KEYS = {"change-me", "changeme", "insecure-local-key-change-me", "secret", "build"}
SECRET_KEY_HOWTO = "Make one with: python -c 'import secrets; print(secrets.token_urlsafe(50))'"


def production_secret_key(key: str) -> str:
    """Return ``key`` (``DJANGO_SECRET_KEY``) if a service may sign with it; refuse to start otherwise."""
    why = "it signs sessions and the reply and unsubscribe addresses in every email"
    if not key:
        raise ImproperlyConfigured(f"DJANGO_SECRET_KEY is not set; {why}. {SECRET_KEY_HOWTO}")
    if key.lower() in EXAMPLE_SECRET_KEYS or "change-me" in key.lower() or key.startswith("django-insecure-"):
        raise ImproperlyConfigured(
            f"DJANGO_SECRET_KEY is an example value that anyone can read; {why}. {SECRET_KEY_HOWTO}"
        )
    if len(key) < 50:
        raise ImproperlyConfigured(
            f"DJANGO_SECRET_KEY is too short ({len(key)} characters, at least 50 needed); {why}. {SECRET_KEY_HOWTO}"
        )
    if len(set(key)) < 5:
        raise ImproperlyConfigured(f"DJANGO_SECRET_KEY is too simple (under 5 different characters); {why}. "
                                   f"{SECRET_KEY_HOWTO}")
    return key


def content_security_policy(*, https: bool) -> dict:
    """Return ``CONTENT_SECURITY_POLICY`` (django-csp), a new one at each call; over HTTPS it upgrades requests.

    Scripts only from this site's files: no inline scripts, no eval. Styles may be inline (style=""
    attributes in the boards, the API docs page's <style>); they cannot run code.
    """
    return {
        "DIRECTIVES": {
            "default-src": [SELF],
            "script-src": [SELF],
            "style-src": [SELF, UNSAFE_INLINE],
            "img-src": [SELF, "data:"],
            "connect-src": [SELF],
            "object-src": [NONE],
            "base-uri": [NONE],
            "form-action": [SELF],
            "frame-ancestors": [NONE],
            "upgrade-insecure-requests": https,
        },
    }
