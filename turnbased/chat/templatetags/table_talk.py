"""The chat beside the board, drawn from the game page's own context (``viewer``) with one include."""

from django import template

from turnbased.chat import selectors
from turnbased.chat.models import MAX_MESSAGE_CHARS

register = template.Library()


@register.inclusion_tag("chat/_chat_panel.html", takes_context=True)
def chat_panel(context):
    viewer, request = context["viewer"], context["request"]
    return {
        "request": request,
        "csrf_token": context.get("csrf_token"),
        "user": request.user,
        "game": viewer.game,
        "chat": selectors.chat_panel(viewer, request.user),
        "max_chars": MAX_MESSAGE_CHARS,
    }
