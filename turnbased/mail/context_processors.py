from django.conf import settings


def mailbox_link(request):
    """Show the local mailbox in the menu when it exists (development)."""
    return {"debug_mailbox": settings.DEBUG and settings.MAIL_SINK}
