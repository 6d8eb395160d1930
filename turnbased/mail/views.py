"""Email settings, one-click unsubscribe, and the local mailbox (development only)."""

from __future__ import annotations

import smtplib
from email.message import EmailMessage
from email.utils import make_msgid

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.db.models import Count
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from turnbased.mail import services
from turnbased.mail.delivery import preference_of
from turnbased.mail.models import LocalMessage, TurnEmails
from turnbased.mail.tokens import read_unsubscribe_token


class PreferenceForm(forms.Form):
    turn_emails = forms.ChoiceField(choices=TurnEmails.choices, widget=forms.RadioSelect,
                                    label=gettext_lazy("Turn emails"))
    game_emails = forms.BooleanField(required=False,
                                     label=gettext_lazy("Email me when a game starts or ends, or someone joins"))


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def mail_settings(request):
    preference = preference_of(request.user)
    form = PreferenceForm(request.POST or None, initial={
        "turn_emails": preference.turn_emails, "game_emails": preference.game_emails,
    })
    if request.method == "POST" and form.is_valid():
        services.preferences_update(user=request.user, **form.cleaned_data)
        messages.success(request, _("Email settings saved."))
        return redirect("mail-settings")
    return render(request, "mail/settings.html", {"form": form})


@csrf_exempt  # RFC 8058 one-click: mail clients POST without a session; the signed token is the proof
@require_http_methods(["GET", "HEAD", "POST"])
def unsubscribe(request, token: str):
    try:
        user = get_object_or_404(get_user_model(), pk=read_unsubscribe_token(token))
    except signing.BadSignature:
        raise Http404(_("This unsubscribe link is not valid.")) from None
    if request.method == "POST":
        services.unsubscribe(user=user)
        return render(request, "mail/unsubscribed.html", {"account": user})
    return render(request, "mail/unsubscribe.html", {"account": user, "token": token})


def _mailbox_enabled():
    if not settings.DEBUG:
        raise Http404(_("The mailbox exists only in development."))


def mailbox(request):
    """Every message the local sink kept, by recipient."""
    _mailbox_enabled()
    recipients: dict[str, int] = {}
    for row in LocalMessage.objects.values("recipients").annotate(count=Count("pk")):
        for address in row["recipients"]:
            recipients[address] = recipients.get(address, 0) + row["count"]
    address = request.GET.get("to")
    shown = LocalMessage.objects.all()
    if address:
        shown = shown.filter(recipients__contains=[address])
    return render(request, "mail/mailbox.html", {
        "recipients": sorted(recipients.items()), "address": address, "shown": shown[:100],
    })


class ReplyForm(forms.Form):
    body = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}),
                           label=gettext_lazy("Your reply (the move on the first line)"))


def mailbox_message(request, message_id: int):
    """One kept message, with a box to reply to it as its recipient would."""
    _mailbox_enabled()
    message = get_object_or_404(LocalMessage, pk=message_id)
    form = ReplyForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if not message.reply_to:
            messages.error(request, _("This message has no reply address."))
        else:
            _send_reply(message, form.cleaned_data["body"])
            messages.success(request, _("Reply sent to %(address)s; the answer will appear in this mailbox.")
                             % {"address": message.reply_to})
            return redirect(f"/mailbox/?to={message.recipients[0]}")
    return render(request, "mail/message.html", {"message": message, "form": form})


def _send_reply(original: LocalMessage, body: str) -> None:
    """Send a reply the way a mail client would: to the Reply-To, quoting the original."""
    reply = EmailMessage()
    reply["From"] = original.recipients[0]
    reply["To"] = original.reply_to
    reply["Subject"] = original.subject if original.subject.lower().startswith("re:") else f"Re: {original.subject}"
    reply["Message-ID"] = make_msgid(domain="mailbox.localhost")
    if original.message_id:
        reply["In-Reply-To"] = original.message_id
    quoted = "\n".join(f"> {line}" for line in original.text.splitlines())
    reply.set_content(f"{body.strip()}\n\nOn {original.received_at:%a, %d %b %Y %H:%M}, turnbased wrote:\n{quoted}\n")
    with smtplib.SMTP(settings.MAIL_INBOUND_HOST, settings.MAIL_INBOUND_PORT, timeout=10) as smtp:
        smtp.send_message(reply)
