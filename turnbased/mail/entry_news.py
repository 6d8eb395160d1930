"""Tell a person by email that they left the tables they were waiting to start, and why (issue 44, fair entry).

Fair entry sends ``tables_left`` in the transaction that took them out of the tables; the email is written to the
outbox there and sent once it has committed, like every email. Their email settings decide, as for a game's news.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.dispatch import receiver
from django.urls import reverse
from django.utils.translation import gettext as _

from turnbased.entry.signals import tables_left
from turnbased.mail import compose
from turnbased.mail.news import takes_news, write_and_send
from turnbased.mail.models import EmailKind


def _url(game) -> str:
    return settings.SITE_URL + reverse("game-detail", args=[game.pk])


def tables_left_email(user, game, tables):
    with compose.for_recipient(user):  # titles and subject in the recipient's language
        context = {"user": user, "game": {"title": game.title, "url": _url(game)},
                   "tables": [{"title": table.title, "url": _url(table), "aborted": table.created_by_id == user.pk}
                              for table in tables]}
        subject = _("A bot took your seat at %(game)s: you left your tables waiting to start") \
            % {"game": game.title}
        return compose.build(to=user.email, subject=subject, template="tables_left", context=context, user=user)


@receiver(tables_left, dispatch_uid="turnbased-mail-tables-left")
def on_tables_left(sender, user_id, game, tables, **kwargs) -> None:
    user = get_user_model().objects.select_related("profile").filter(pk=user_id).first()
    if user is not None and takes_news(user):
        write_and_send(tables_left_email(user, game, tables), user, kind=EmailKind.TABLES_LEFT)
