"""Inbound email from a provider (django-anymail's webhook): check it cheaply, then hand it to a worker.

anymail has already parsed the message; this adds the provider's SPF/DKIM
verdicts and applies the same size and structure limits as the worker, so a
message over them is never serialized again: only its headers are queued,
marked refused, and the worker answers a real player briefly.
"""

from email.errors import MessageError

from anymail.signals import inbound
from django.dispatch import receiver

from turnbased.mail import inbound_limits, sender_auth
from turnbased.mail.tasks import enqueue_inbound


@receiver(inbound, dispatch_uid="turnbased-mail-inbound")
def on_provider_inbound(sender, event, esp_name, **kwargs):
    message = event.message
    if message is None:
        return
    recipients = [message.envelope_recipient] if message.envelope_recipient else []
    provider = {"name": esp_name, "verdicts": sender_auth.provider_verdicts(esp_name, event.esp_event, message)}
    refusal = inbound_limits.parsed_refusal(message)
    if refusal is None:
        try:
            # Headers are written as received: refolding them would parse each one again.
            raw = message.as_bytes(policy=message.policy.clone(refold_source="none"))
        except (ValueError, LookupError, TypeError, MessageError):  # a message the email package cannot write back out
            refusal = inbound_limits.TOO_COMPLEX
    if refusal is not None:
        raw = inbound_limits.headers_of(message)
        provider["refusal"] = refusal
    enqueue_inbound(raw, recipients, provider)
