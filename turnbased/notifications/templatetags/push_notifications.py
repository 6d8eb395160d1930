"""Template tags of push notifications (issue 25): the script every page loads, the devices in settings."""

from __future__ import annotations

from django import template
from django.conf import settings
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import format_html

from turnbased.notifications import selectors
from turnbased.notifications.push import configured
from turnbased.notifications.vapid import public_key_of

register = template.Library()


@register.simple_tag(takes_context=True)
def push_script(context) -> str:
    """The script that installs the service worker, and for a signed-in player, what subscribing needs:
    the site's VAPID public key and where to send the subscription."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and configured():
        return format_html('<script src="{}" defer data-service-worker="{}" data-push-key="{}" '
                           'data-push-subscriptions="{}"></script>', static("js/push.js"), reverse("service-worker"),
                           public_key_of(settings.VAPID_PRIVATE_KEY), reverse("api-me-push-subscriptions"))
    return format_html('<script src="{}" defer data-service-worker="{}"></script>', static("js/push.js"),
                       reverse("service-worker"))


@register.inclusion_tag("notifications/_devices.html", takes_context=True)
def push_devices(context) -> dict:
    """The settings page's list of the user's devices told of their turns, each with Forget."""
    user = context["request"].user
    return {"devices": list(selectors.push_subscriptions_of(user)), "offered": configured(),
            "csrf_token": context.get("csrf_token")}
