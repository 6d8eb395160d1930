"""Answer a group's invitation, or a request to join a group, by replying to its email (issue 44), as a turn is
answered: the first line says ``accept`` or ``decline`` (in the reader's language or in English), the groups'
own services do it, and one answer says what was done, or why nothing was.

``inbound`` runs these in the reply's transaction, after ``verifying`` found the sender to be the person the
email went to; the reply's record, the act and the answer commit together or not at all, so a redelivered reply
is handled once.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils import translation
from django.utils.translation import gettext as _

from turnbased.groups import services
from turnbased.groups.models import Group
from turnbased.kit.errors import PlayError
from turnbased.mail import commands
from turnbased.mail.models import InboundStatus
from turnbased.mail.news_replies import NewsDone, answer  # noqa: F401 - the answer, written as every news reply's
from turnbased.mail.reading import Request
from turnbased.mail.verifying import GroupReply


def act(reply: GroupReply, request: Request) -> NewsDone:
    """Accept or decline as the reply's first line says; refuse anything else, changing nothing."""
    token = reply.token
    group = Group.objects.filter(pk=token.group_id).first()
    words = commands.shown_words(translation.get_language())
    if group is None:
        return NewsDone(InboundStatus.REJECTED, "no such group", _("Nothing was done: the group no longer exists."))
    answer = None if request.refusal else commands.read_answer(request.line, translation.get_language())
    if answer is None:
        return NewsDone(InboundStatus.REJECTED, "no answer",
                         _("Nothing was done: reply with \"%(accept)s\" or \"%(decline)s\" on the first line.") % words,
                         _("Or answer on the group's page, or in your lobby."))
    accept = answer == commands.ACCEPT
    try:
        if token.asker_id:
            asker = get_user_model().objects.filter(pk=token.asker_id).first()
            if asker is None:
                raise PlayError(_("That player's account is closed."))
            services.request_answer(user=reply.user, group_id=group.pk, username=asker.get_username(), accept=accept)
            said = (_("%(name)s is a member of %(group)s now.") if accept
                    else _("You declined %(name)s's request to join %(group)s.")) % {
                "name": asker.get_username(), "group": group.name}
        else:
            services.invitation_answer(user=reply.user, group_id=group.pk, accept=accept)
            said = (_("You are a member of %(group)s.") if accept else _("You declined the invitation to %(group)s.")) \
                % {"group": group.name}
    except PlayError as refusal:
        return NewsDone(InboundStatus.REJECTED, f"{answer} refused: {refusal.detail}", _("Nothing was done."),
                         refusal.detail)
    return NewsDone(InboundStatus.ANSWERED, "accepted" if accept else "declined", said)
