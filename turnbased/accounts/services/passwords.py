"""After a new password: keep or end the user's other sessions, revoke the API tokens they chose."""

from __future__ import annotations

from collections.abc import Iterable
from importlib import import_module

from allauth.usersessions.models import UserSession
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY

from turnbased.accounts.services.tokens import tokens_revoke


def password_changed_settle(*, user, current_session_key: str | None, end_other_sessions: bool,
                            revoke_token_ids: Iterable[int]) -> None:
    """Call once the new password is saved; the current session (if any) is left to the caller.

    Django signs each session with the password hash, so a new password ends every session by
    itself. Ending them also deletes the tracked ones; keeping them re-signs each tracked session
    (one started at the login page, see allauth.usersessions) with the new hash.
    """
    others = UserSession.objects.filter(user=user).exclude(session_key=current_session_key or "")
    if end_other_sessions:
        for user_session in others:
            user_session.end()
    else:
        store_class = import_module(settings.SESSION_ENGINE).SessionStore
        for user_session in others:
            store = store_class(user_session.session_key)
            # A session that ended or changed hands meanwhile loads empty and is left alone.
            if store.get(SESSION_KEY) == str(user.pk):
                store[HASH_SESSION_KEY] = user.get_session_auth_hash()
                store.save()
    tokens_revoke(user=user, token_ids=revoke_token_ids)
