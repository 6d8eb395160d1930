"""The words of the groups' events (the stream's and webhooks'), in the reader's language when they are read."""

from __future__ import annotations

from django.utils.translation import gettext


def _names(payload: dict) -> dict | None:
    group, person = payload.get("group"), payload.get("username")
    if not isinstance(group, dict) or not isinstance(person, str):
        return None
    return {"name": person, "group": group.get("name", "")}


def word_invitation(payload: dict, event) -> dict:
    names = _names(payload)
    return payload if names is None else {**payload, "text": gettext("%(name)s invites you to %(group)s.") % names}


def word_request(payload: dict, event) -> dict:
    names = _names(payload)
    return payload if names is None else {**payload, "text": gettext("%(name)s asks to join %(group)s.") % names}
