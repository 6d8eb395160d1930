"""Email preference actions."""

from __future__ import annotations

from turnbased.mail.delivery import preference_of
from turnbased.mail.models import MailPreference, TurnEmails


def preferences_update(*, user, turn_emails: str, game_emails: bool) -> MailPreference:
    """Set how the user hears about turns and games."""
    if turn_emails not in TurnEmails.values:
        raise ValueError(f"turn_emails must be one of {', '.join(TurnEmails.values)}")
    preference = preference_of(user)
    preference.turn_emails = turn_emails
    preference.game_emails = game_emails
    preference.save(update_fields=["turn_emails", "game_emails"])
    return preference


def unsubscribe(*, user) -> MailPreference:
    """Stop every email to the user (the one-click unsubscribe)."""
    return preferences_update(user=user, turn_emails=TurnEmails.OFF, game_emails=False)
