"""Register, change, test and remove a user's webhooks.

Each function acts for ``owner`` on one of their own hooks; another user's hook,
or none, raises ``WebhookNotFound`` (the API answers 404, never saying whether it exists).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from turnbased.accounts.readers import for_reader
from turnbased.events.models import EventKind
from turnbased.webhooks import addresses, delivery, signing
from turnbased.webhooks.models import PING, Webhook, WebhookDelivery

# The first key of the transaction lock taken per owner while counting their hooks ("WHKS" in ASCII).
LOCK_SPACE = 0x57484B53
UNCHANGED = object()


class WebhookError(Exception):
    """A request about a webhook that cannot be done; ``detail`` says why, ``field`` which input."""

    status = 400

    def __init__(self, detail: str, *, field: str | None = None):
        super().__init__(detail)
        self.detail, self.field = detail, field


class WebhookNotFound(WebhookError):
    status = 404

    def __init__(self):
        super().__init__(gettext("No such webhook."))


class UnusableUrl(WebhookError):
    """A URL of the right shape that webhooks may not be sent to (not https, a private address, no such host)."""

    status = 422


class TooManyWebhooks(WebhookError):
    status = 409


class WebhookOff(WebhookError):
    status = 409


def checked_url(url: str) -> str:
    """Return ``url`` if webhooks may be sent to it now; raise WebhookError saying why not."""
    try:
        addresses.check(url, allow_private=settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES,
                        allow_http=settings.WEBHOOKS_ALLOW_HTTP)
    except addresses.UnsafeAddress as error:
        raise UnusableUrl(str(error), field="url") from None
    return url


def checked_kinds(kinds: Iterable[str]) -> list[str]:
    """Return the kinds once each, in the order ``EventKind`` lists them; raise WebhookError for none or unknown."""
    chosen = set(kinds)
    unknown = chosen - set(EventKind.values)
    if unknown:
        raise WebhookError(gettext("Unknown event kind: %(kind)s.") % {"kind": sorted(unknown)[0]}, field="kinds")
    if not chosen:
        raise WebhookError(gettext("Choose at least one event kind."), field="kinds")
    return [kind for kind in EventKind.values if kind in chosen]


def _locked(owner, hook_id: int) -> Webhook:
    # FOR NO KEY UPDATE: a move writing deliveries for this hook meanwhile (a foreign key check) need not wait.
    hook = Webhook.objects.select_for_update(no_key=True).filter(pk=hook_id, owner=owner).first()
    if hook is None:
        raise WebhookNotFound()
    return hook


def webhook_create(*, owner, url: str, kinds: Iterable[str] | None = None) -> tuple[Webhook, str]:
    """Register a URL for the owner's events of ``kinds`` (all kinds when None); return it and its secret.

    Preconditions: fewer than ``WEBHOOKS_MAX_PER_USER`` hooks; the URL passes ``addresses.check``.
    The secret is returned here and by ``webhook_rotate_secret`` only.
    """
    kinds = checked_kinds(EventKind.values if kinds is None else kinds)
    url = checked_url(url)
    with transaction.atomic():
        # Two registrations at once count one after the other, so neither passes the limit.
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_SPACE, owner.pk])
        if Webhook.objects.filter(owner=owner).count() >= settings.WEBHOOKS_MAX_PER_USER:
            most = settings.WEBHOOKS_MAX_PER_USER
            refusal = ngettext("You have %(count)s webhook, the most an account may have: delete it first.",
                               "You have %(count)s webhooks, the most an account may have: delete one first.", most)
            raise TooManyWebhooks(refusal % {"count": most})
        secret = signing.new_secret()
        hook = Webhook.objects.create(owner=owner, url=url, kinds=kinds, secret=secret)
    return hook, secret


def webhook_update(*, owner, hook_id: int, url=UNCHANGED, kinds=UNCHANGED, active=UNCHANGED) -> Webhook:
    """Change a hook's URL, kinds or state; return it.

    Turning it on again (also after it was disabled for failing) forgets its failures; turning it
    off gives up its waiting deliveries. A new URL is checked as at registration, and receives
    the deliveries still waiting.
    """
    if kinds is not UNCHANGED:
        kinds = checked_kinds(kinds)
    if url is not UNCHANGED:
        url = checked_url(url)
    with transaction.atomic():
        hook = _locked(owner, hook_id)
        changed = []
        if url is not UNCHANGED and url != hook.url:
            hook.url = url
            changed.append("url")
        if kinds is not UNCHANGED:
            hook.kinds = kinds
            changed.append("kinds")
        if changed:
            hook.save(update_fields=changed)
        if active is True and not hook.active:
            hook.active, hook.disabled_at, hook.disabled_reason, hook.notice_due = True, None, "", False
            hook.consecutive_failures, hook.failing_since, hook.paused_until = 0, None, None
            hook.save(update_fields=["active", "disabled_at", "disabled_reason", "notice_due",
                                     "consecutive_failures", "failing_since", "paused_until"])
        elif active is False and hook.active:
            with for_reader(owner):  # the reason is kept in words, the owner's
                reason = gettext("turned off by its owner")
            delivery.turn_off(hook, now=timezone.now(), reason=reason, notify=False)
    return hook


def webhook_delete(*, owner, hook_id: int) -> None:
    """Remove a hook and its delivery log; nothing more is sent to it (an attempt under way ends unrecorded)."""
    with transaction.atomic():
        _locked(owner, hook_id).delete()


def webhook_rotate_secret(*, owner, hook_id: int) -> tuple[Webhook, str]:
    """Give a hook a new secret and return it; from now on every attempt, retries included, is signed with it."""
    with transaction.atomic():
        hook = _locked(owner, hook_id)
        hook.secret = signing.new_secret()
        hook.save(update_fields=["secret"])
    return hook, hook.secret


def webhook_ping(*, owner, hook_id: int) -> WebhookDelivery:
    """Send the hook a test event (kind ``ping``) now, once, without retries; return its delivery.

    Precondition: the hook is on (``WebhookOff`` otherwise). The attempt is made by a worker after
    the transaction commits; the delivery log shows how it went.
    """
    with transaction.atomic():
        hook = _locked(owner, hook_id)
        if not hook.active:
            raise WebhookOff(gettext('This webhook is off: turn it on first (PATCH {"active": true}).'))
        now = timezone.now()
        ping = WebhookDelivery.objects.create(hook=hook, kind=PING, created_at=now, queued_at=now,
                                              next_attempt_at=now + delivery.REQUEUE_AFTER)
        transaction.on_commit(lambda: delivery.send_soon(ping.pk))
    return ping
