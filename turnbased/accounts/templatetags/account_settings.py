"""The account settings that board templates read: ``{{ user|confirms_moves|yesno:"on,off" }}``."""

from django import template

from turnbased.accounts.models import Profile

register = template.Library()


@register.filter
def confirms_moves(user) -> bool:
    """Tell whether the boards ask ``user`` to confirm a move before sending it (the default, and for visitors)."""
    if not getattr(user, "is_authenticated", False):
        return True
    if not hasattr(user, "_confirms_moves"):
        # Read once per request and without creating a profile: a page view writes nothing.
        stored = Profile.objects.filter(user=user).values_list("confirm_moves", flat=True).first()
        user._confirms_moves = True if stored is None else stored
    return user._confirms_moves
