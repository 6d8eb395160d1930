"""What the invitation parts of pages read: a table's invitations, and the people to suggest inviting."""

from django import template

from turnbased.contacts import selectors as contacts_selectors
from turnbased.play import invitation_selectors

register = template.Library()


@register.simple_tag
def table_invitations(game):
    """Return who was invited to the table and where each invitation stands."""
    return invitation_selectors.invitations_of(game)


@register.simple_tag
def recent_opponents_of(user):
    """Return the people to offer for an invitation: the ones the user follows, then the ones they played with most
    recently, no one blocked either way (none for a visitor)."""
    if not user.is_authenticated:
        return []
    return contacts_selectors.people_to_invite(user, invitation_selectors.RECENT_OPPONENTS)


@register.simple_tag
def my_invitations(user):
    """Return the user's pending invitations to open tables."""
    return invitation_selectors.pending_invitations(user) if user.is_authenticated else []
