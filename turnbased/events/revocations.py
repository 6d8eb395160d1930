"""A credential that ends closes its open streams at once (issue 27).

A stream checks its token or session at every read, and reads when woken by a new event of its user: an idle
stream of a revoked token stayed open (and counted against the owner's stream cap) until its hour was up.
Now whatever ends a credential wakes the user's streams with the same ``NOTIFY`` a new event sends, without
an event: each reads, finds its credential gone, and ends; the others read nothing new and go on waiting.
The ``NOTIFY`` goes with the transaction that ends the credential, so the read sees it ended.

What ends one: a token revoked (one, several, every one at a password change, or with its account), a
session deleted (a log out, a session ended from the sessions page or at a password change). Connected in ``EventsConfig.ready``:
accounts knows nothing of streams.
"""

from __future__ import annotations

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.models import Session
from django.db import connection
from django.db.models.signals import post_delete

from turnbased.accounts.models import ApiToken
from turnbased.events.models import NOTIFY_CHANNEL


def wake_streams_of(user_id: int) -> None:
    """Wake every open stream of the user (in every stream process), to check its credential now."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_notify(%s, %s)", [NOTIFY_CHANNEL, str(user_id)])


def _token_deleted(sender, instance: ApiToken, **kwargs) -> None:
    wake_streams_of(instance.user_id)


def _session_deleted(sender, instance: Session, **kwargs) -> None:
    # Deleted, not merely logged out of: Django signals a log out before it deletes the session, and a stream
    # woken then would find it still there.
    try:
        user_id = instance.get_decoded().get(SESSION_KEY)
    except Exception:  # noqa: BLE001 - a session that cannot be read was nobody's stream
        return
    if user_id and str(user_id).isdigit():
        wake_streams_of(int(user_id))


def connect() -> None:
    post_delete.connect(_token_deleted, sender=ApiToken, dispatch_uid="turnbased.events.token_deleted")
    post_delete.connect(_session_deleted, sender=Session, dispatch_uid="turnbased.events.session_deleted")
