"""Email an invitation to a group to the invited person, and a request to join one to the group's admins (issue 44).

The groups app sends ``invitation_sent`` and ``request_made`` in the transaction that made them; each email is
written to the outbox there (so it commits with the invitation or not at all) and sent once it has committed,
like every email: at most once. The person's email settings decide, as for a game's news: none when they turned
game emails off, none to an address not yet verified. The email links the group's page, where (as in the lobby)
the invitation is accepted or declined and the request decided; a reply saying "accept" or "decline" does the
same (``group_replies``).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.dispatch import receiver
from django.urls import reverse
from django.utils.translation import gettext as _

from turnbased.groups.signals import invitation_sent, request_made
from turnbased.mail import compose
from turnbased.mail.models import EmailKind
from turnbased.mail.news import takes_news, write_and_send
from turnbased.mail.tokens import group_reply_address


def _group_url(group) -> str:
    return settings.SITE_URL + reverse("groups-detail", args=[group.pk])


def invitation_email(invitation):
    user = invitation.invitee
    with compose.for_recipient(user):  # the subject too, in the recipient's language
        context = {"user": user, "inviter": compose.person_name(invitation.inviter), "group": invitation.group,
                   "group_url": _group_url(invitation.group)}
        subject = _("%(name)s invites you to the group %(group)s") % {"name": context["inviter"],
                                                                     "group": invitation.group.name}
        return compose.build(to=user.email, subject=subject, template="group_invitation", context=context, user=user,
                             reply_to=group_reply_address(user_id=user.pk, group_id=invitation.group_id))


def request_email(request, admin):
    with compose.for_recipient(admin):
        context = {"user": admin, "asker": compose.person_name(request.user), "group": request.group,
                   "group_url": _group_url(request.group)}
        subject = _("%(name)s asks to join %(group)s") % {"name": context["asker"], "group": request.group.name}
        return compose.build(to=admin.email, subject=subject, template="group_request", context=context, user=admin,
                             reply_to=group_reply_address(user_id=admin.pk, group_id=request.group_id,
                                                          asker_id=request.user_id))


@receiver(invitation_sent, dispatch_uid="turnbased-mail-group-invitation")
def on_invitation(sender, invitation, **kwargs) -> None:
    if takes_news(invitation.invitee):
        write_and_send(invitation_email(invitation), invitation.invitee, kind=EmailKind.GROUP)


@receiver(request_made, dispatch_uid="turnbased-mail-group-request")
def on_request(sender, request, admin_ids, **kwargs) -> None:
    for admin in get_user_model().objects.filter(pk__in=admin_ids).select_related("profile"):
        if takes_news(admin):
            write_and_send(request_email(request, admin), admin, kind=EmailKind.GROUP)
