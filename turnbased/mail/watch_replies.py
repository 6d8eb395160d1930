"""Stop following by replying to a followed game's news (issue 46): the first line says ``stop`` (in the reader's
language or in English), the following services stop the watch that brought the email (one game's, or a group's or
a competition's games), and one answer says what was done, or why nothing was.

``inbound`` runs this in the reply's transaction, after ``verifying`` found the sender to be the person the email went
to; the reply's record, the act and the answer commit together or not at all, so a redelivered reply is handled once.
The answer is written as every reply to a feature's news is (``news_replies``).
"""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from turnbased.following import selectors, services
from turnbased.following.models import Watch
from turnbased.mail import commands
from turnbased.mail.news_replies import NewsDone, answer  # noqa: F401 - the answer, written as every news reply's
from turnbased.mail.models import InboundStatus
from turnbased.mail.reading import Request
from turnbased.mail.verifying import WatchReply


def act(reply: WatchReply, request: Request) -> NewsDone:
    """Stop the watch if the first line says so; refuse anything else, changing nothing."""
    watch = (Watch.objects.filter(pk=reply.token.watch_id, user=reply.user)
             .select_related("game", "group", "competition").first())
    if watch is None:
        return NewsDone(InboundStatus.REJECTED, "no such watch", _("Nothing was done: you no longer follow it."))
    name = selectors.watch_shown(watch)["name"]
    if request.refusal or not commands.is_stop(request.line, translation.get_language()):
        words = commands.shown_words(translation.get_language())
        return NewsDone(InboundStatus.REJECTED, "no stop",
                         _("Nothing was done: reply with \"%(stop)s\" on the first line to stop following "
                           "%(name)s.") % {"stop": words[commands.STOP], "name": name},
                         _("Or choose what it tells you on your following page: %(url)s")
                         % {"url": settings.SITE_URL + reverse("following")})
    services.watch_remove(watch_id=watch.pk, user=reply.user)
    return NewsDone(InboundStatus.ANSWERED, "stopped", _("You no longer follow %(name)s.") % {"name": name})
