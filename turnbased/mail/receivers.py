"""Inbound email from a provider (django-anymail's webhook): hand the raw message to a worker."""

from anymail.signals import inbound
from django.dispatch import receiver

from turnbased.mail.tasks import enqueue_inbound


@receiver(inbound, dispatch_uid="turnbased-mail-inbound")
def on_provider_inbound(sender, event, esp_name, **kwargs):
    message = event.message
    recipients = [address.addr_spec for address in (message.to or [])] if message is not None else []
    enqueue_inbound(message.as_bytes() if message is not None else b"", recipients)
