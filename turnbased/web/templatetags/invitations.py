"""What the invitation parts of pages read: a table's invitations, and the people to suggest inviting."""

from django import template

from turnbased.play import invitation_selectors

register = template.Library()


@register.simple_tag
def table_invitations(game):
    """Return who was invited to the table and where each invitation stands."""
    return invitation_selectors.invitations_of(game)


@register.simple_tag
def recent_opponents_of(user):
    """Return the people the user played with most recently (none for a visitor)."""
    return invitation_selectors.recent_opponents(user) if user.is_authenticated else []


@register.simple_tag
def my_invitations(user):
    """Return the user's pending invitations to open tables."""
    return invitation_selectors.pending_invitations(user) if user.is_authenticated else []
