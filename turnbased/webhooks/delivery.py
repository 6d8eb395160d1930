"""Send the deliveries: queue the due ones, claim one, POST it with no transaction or lock held, settle it.

Every step is one short statement or transaction, and the HTTP request runs
between them with nothing held:

1. ``queue_due`` (the sweep, every ``WEBHOOKS_SWEEP_SECONDS``): due rows are
   marked queued (``queued_at``; ``next_attempt_at`` moves on by
   ``REQUEUE_AFTER``, after which a row whose task was lost is queued again),
   and a task is queued for each.
2. ``claim``: one UPDATE takes a queued row for one attempt (``sending_since``),
   unless its hook is off or pausing; a second task for the same row finds it
   taken. While the attempt runs, ``next_attempt_at`` is the end of its lease
   (longer than the task's hard time limit): a sender that died is retried after it.
3. ``client.post``, then ``settle``: delivered on a 2xx; otherwise the next
   attempt is set (1, 2, 4 ... minutes after ``WEBHOOKS_FIRST_RETRY_SECONDS``,
   at most ``WEBHOOKS_MAX_ATTEMPTS`` attempts), and the hook counts the failure.
   In the same transaction the account's next due delivery is queued; its
   task is sent once that commits, behind whatever the other accounts have waiting.

Fair between accounts (issue 42). The webhook workers are shared, and their
queue is first in, first out: an account has at most ``WEBHOOKS_IN_FLIGHT_PER_OWNER``
deliveries queued or being sent (1: one at a time), and the next follows only
when one is settled, at the back of the queue. So the queue holds at most that
many of each account's, the workers take the accounts in turn, and another
account's delivery waits behind at most that many attempts of each busy
account, however long its backlog or slow its receivers; an account alone
is sent its backlog as fast as its receivers answer, in event order.

A hook whose receiver fails pauses (1, 2, 4 ... minutes, at most an hour) and
gets one attempt at a time until one succeeds, so a dead or slow receiver costs
the workers one attempt per pause whatever the number of events waiting. After
``WEBHOOKS_DISABLE_AFTER_FAILURES`` failed attempts in a row, the first at least
``WEBHOOKS_DISABLE_AFTER_HOURS`` before, the hook is disabled, its waiting
deliveries are given up, and its owner is owed an email (``notice_due``), which
the mail app writes: this app queues that task by name and never imports mail.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime, timedelta

from celery import current_app
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext

from turnbased.accounts.readers import for_reader
from turnbased.events.models import Event
from turnbased.events.sse import event_json
from turnbased.events.wording import add_current
from turnbased.webhooks import client, signing
from turnbased.webhooks.models import PING, DeliveryState, Webhook, WebhookDelivery

logger = logging.getLogger(__name__)

# An attempt's claim lasts longer than the sending task's hard time limit (tasks.SEND_LIMITS), so a row is
# tried again only once its sender is surely gone.
LEASE = timedelta(seconds=90)
# A queued row not claimed this long after (its task lost with the broker, say) is queued again.
REQUEUE_AFTER = timedelta(seconds=120)
# The longest a failing hook pauses between attempts.
LONGEST_PAUSE = timedelta(hours=1)
# Rows queued by one sweep: the next sweep takes the rest.
QUEUE_BATCH = 200
PRUNE_BATCH = 5000
# Queued by name (a registered task, so an eager test run still runs it): the tasks module imports this one.
DELIVER_TASK = "turnbased.webhooks.tasks.deliver_webhook"
NOTICE_TASK = "turnbased.mail.tasks.tell_webhook_disabled"


def first_retry() -> timedelta:
    return timedelta(seconds=settings.WEBHOOKS_FIRST_RETRY_SECONDS)


def retry_delay(attempts: int) -> timedelta:
    """Return the wait after a delivery's ``attempts``-th failed attempt: 1, 2, 4, 8 ... times the first."""
    return first_retry() * 2 ** min(attempts - 1, 20)


def pause_after(failures: int) -> timedelta:
    """Return how long a hook pauses after ``failures`` failed attempts in a row (at most an hour)."""
    return min(first_retry() * 2 ** min(failures - 1, 20), LONGEST_PAUSE)


# -- the document sent -------------------------------------------------------------------------


def document(delivery: WebhookDelivery, hook: Webhook) -> dict | None:
    """Return what a delivery sends, as the event stream sends the same event; None if the event is gone.

    The event is read only among the hook owner's own events: a hook is sent nothing worded for
    anyone else.
    """
    if delivery.kind == PING:
        with for_reader(hook.owner):
            message = gettext("A test event: this URL receives the events of these kinds.")
        return {"id": None, "kind": PING, "game": None, "seq": None, "created_at": delivery.created_at,
                "data": {"hook": hook.pk, "kinds": list(hook.kinds), "message": message}}
    event = Event.objects.filter(pk=delivery.event_id, user_id=hook.owner_id).first()
    if event is None:
        return None
    add_current([event])  # a your_turn still current carries the seat's view and legal moves (play.turn_actions)
    with for_reader(hook.owner):  # worded in the owner's language, as their stream would be by default
        return event_json(event)


def body_of(document: dict) -> bytes:
    return json.dumps(document, cls=DjangoJSONEncoder, ensure_ascii=False, separators=(",", ":")).encode()


# -- queueing ----------------------------------------------------------------------------------


def queue_due(*, now: datetime | None = None, limit: int = QUEUE_BATCH, owner_id: int | None = None) -> list[int]:
    """Mark the due deliveries queued (of one account, with ``owner_id``) and return their ids (the caller queues a
    task for each, in that order).

    Due: waiting, its time come, its hook on and not pausing. An account with ``WEBHOOKS_IN_FLIGHT_PER_OWNER``
    deliveries queued or being sent gets none more; the accounts come in turn, each its oldest first. Of a hook
    that is failing, only the oldest is taken, to probe the receiver. Two sweeps at once take each row once (the
    UPDATE re-checks its condition on a row the other changed). An account's attempt settles and queues its next
    in one transaction (``settle``), so a sweep finds it busy before that commit and after it.
    """
    now = now or timezone.now()
    deliveries, hooks = WebhookDelivery._meta.db_table, Webhook._meta.db_table
    per_owner = settings.WEBHOOKS_IN_FLIGHT_PER_OWNER
    one_owner = "AND h.owner_id = %s" if owner_id is not None else ""
    owner = [owner_id] if owner_id is not None else []
    with connection.cursor() as cursor:
        # Queued and not yet taken, or being sent (its lease not over): what each account has in flight.
        cursor.execute(
            f"SELECT h.owner_id, count(*) FROM {deliveries} AS d JOIN {hooks} AS h ON h.id = d.hook_id "
            "WHERE d.state = %s AND d.next_attempt_at > %s "
            f"AND (d.queued_at IS NOT NULL OR d.sending_since IS NOT NULL) {one_owner} GROUP BY h.owner_id",
            [DeliveryState.PENDING, now, *owner])
        in_flight = dict(cursor.fetchall())
        if owner_id is not None and in_flight.get(owner_id, 0) >= per_owner:
            return []
        cursor.execute(
            "SELECT id, hook_id, failures, owner_id FROM ("
            "  SELECT d.id, d.hook_id, h.consecutive_failures AS failures, h.owner_id,"
            "         row_number() OVER (PARTITION BY h.owner_id ORDER BY d.id) AS place"
            f"  FROM {deliveries} AS d JOIN {hooks} AS h ON h.id = d.hook_id"
            "  WHERE d.state = %s AND d.next_attempt_at <= %s AND h.active"
            f"  AND (h.paused_until IS NULL OR h.paused_until <= %s) {one_owner}"
            ") AS ranked WHERE place <= %s ORDER BY place, id LIMIT %s",
            [DeliveryState.PENDING, now, now, *owner, per_owner, limit])
        due = cursor.fetchall()
    chosen, probed, taken = [], set(), dict(in_flight)
    for delivery_id, hook, failures, owner in due:
        if taken.get(owner, 0) >= per_owner:
            continue
        if failures:
            if hook in probed:
                continue
            probed.add(hook)
        taken[owner] = taken.get(owner, 0) + 1
        chosen.append(delivery_id)
    if not chosen:
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {deliveries} SET queued_at = %s, sending_since = NULL, next_attempt_at = %s "
            "WHERE id = ANY(%s) AND state = %s AND next_attempt_at <= %s RETURNING id",
            [now, now + REQUEUE_AFTER, chosen, DeliveryState.PENDING, now],
        )
        queued = {row[0] for row in cursor.fetchall()}
    return [delivery_id for delivery_id in chosen if delivery_id in queued]  # the accounts in turn


def send_soon(delivery_id: int) -> None:
    """Queue one delivery's task; with the broker away the sweep queues it again after ``REQUEUE_AFTER``."""
    try:
        current_app.signature(DELIVER_TASK, args=(delivery_id,)).delay()
    except Exception:
        logger.warning("could not queue webhook delivery %s; the sweep will", delivery_id, exc_info=True)


# -- one attempt -------------------------------------------------------------------------------


def claim(delivery_id: int, *, now: datetime | None = None) -> WebhookDelivery | None:
    """Take a queued delivery for one attempt; None when it is taken, settled, or its hook is off or pausing.

    One UPDATE, so of two tasks for the same row one finds it no longer queued. A ping is sent
    to a pausing hook too: its owner asked for it now.
    """
    now = now or timezone.now()
    deliveries, hooks = WebhookDelivery._meta.db_table, Webhook._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {deliveries} AS d SET attempts = d.attempts + 1, queued_at = NULL, sending_since = %s, "
            f"next_attempt_at = %s, last_attempt_at = %s FROM {hooks} AS h "
            "WHERE d.id = %s AND d.state = %s AND d.queued_at IS NOT NULL AND h.id = d.hook_id AND h.active "
            "AND (h.paused_until IS NULL OR h.paused_until <= %s OR d.kind = %s) RETURNING d.id",
            [now, now + LEASE, now, delivery_id, DeliveryState.PENDING, now, PING],
        )
        taken = cursor.fetchone()
    return WebhookDelivery.objects.select_related("hook").get(pk=delivery_id) if taken else None


def attempt(delivery_id: int) -> str:
    """Claim one delivery, POST it with nothing held, settle it; return what happened.

    Call it outside any transaction: the claim must commit before the receiver is reached.
    """
    delivery = claim(delivery_id)
    if delivery is None:
        return "not queued"
    hook = delivery.hook
    sent = document(delivery, hook)
    if sent is None:
        return settle(delivery, client.Outcome(status=None, excerpt="", error="the event is no longer kept",
                                               duration_ms=0), final=True, receiver_failed=False)
    body = body_of(sent)
    outcome = client.post(hook.url, body, signing.headers(secret=hook.secret, body=body, kind=delivery.kind,
                                                           delivery_id=delivery.pk))
    return settle(delivery, outcome)


def settle(delivery: WebhookDelivery, outcome: client.Outcome, *, final: bool = False,
           receiver_failed: bool = True) -> str:
    """Write an attempt's outcome on the delivery and its hook, and queue the account's next due delivery, in one
    short transaction; return what happened.

    Delivered: the hook's failures are forgotten. Failed: the delivery waits for its next attempt
    (given up after the last, and a ping after its one, or at once when ``final``), and unless the
    fault was not the receiver's the hook pauses, and a hook failing long enough is disabled.

    The account's next delivery (of any of its hooks, the oldest due: what a pause held back first, in event
    order) is queued in the same transaction, so no sweep ever finds the account with nothing in flight between
    the two and queues one more of its own; its task is sent once the transaction commits, at the back of the
    queue, behind what the other accounts have waiting.
    """
    now = timezone.now()
    with transaction.atomic():
        happened = _write_outcome(delivery, outcome, now=now, final=final, receiver_failed=receiver_failed)
        following = queue_due(now=now, owner_id=delivery.hook.owner_id)
        transaction.on_commit(lambda: [send_soon(delivery_id) for delivery_id in following])
    return happened


def _write_outcome(delivery: WebhookDelivery, outcome: client.Outcome, *, now: datetime, final: bool,
                   receiver_failed: bool) -> str:
    """Write an attempt's outcome on the delivery and its hook (in the caller's transaction); return what happened."""
    result = {"status_code": outcome.status, "response_excerpt": outcome.excerpt, "error": outcome.error,
              "duration_ms": outcome.duration_ms, "sending_since": None}
    # FOR NO KEY UPDATE: a move writing deliveries for this hook meanwhile (a foreign key check) need not wait.
    hook = Webhook.objects.select_for_update(no_key=True).filter(pk=delivery.hook_id).first()
    if hook is None:
        return "hook deleted"
    if outcome.delivered:
        # Also over a failed mark the hook's disabling left meanwhile: it did arrive.
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            state=DeliveryState.DELIVERED, finished_at=now, next_attempt_at=now, **result)
        if hook.active and outcome.duration_ms > settings.WEBHOOKS_SLOW_SECONDS * 1000:
            # Answered, but slowly: it pauses as a failing receiver does (a failure is not counted), so one
            # account's slow receivers cannot hold the webhook workers that every account shares.
            _pause(hook, now + pause_after(max(hook.consecutive_failures, 1)))
            hook.save(update_fields=["paused_until"])
            return "delivered, slowly"
        if hook.active and (hook.consecutive_failures or hook.paused_until):
            hook.consecutive_failures, hook.failing_since, hook.paused_until = 0, None, None
            hook.save(update_fields=["consecutive_failures", "failing_since", "paused_until"])
        return "delivered"
    final = final or delivery.kind == PING or delivery.attempts >= settings.WEBHOOKS_MAX_ATTEMPTS
    waiting = {"state": DeliveryState.FAILED, "finished_at": now, "next_attempt_at": now} if final else {
        "next_attempt_at": now + retry_delay(delivery.attempts)}
    WebhookDelivery.objects.filter(pk=delivery.pk, state=DeliveryState.PENDING).update(**waiting, **result)
    if hook.active and receiver_failed:
        _count_failure(hook, now, outcome.error)
    return f"{'given up' if final else 'failed'}: {outcome.error}"


def _pause(hook: Webhook, until: datetime) -> None:
    """Pause a (locked) hook until ``until`` (the caller saves it). Its deliveries already queued would be refused
    while it pauses, then wait REQUEUE_AFTER behind newer ones: they wait for the pause's end instead, in their
    place (issue 27)."""
    hook.paused_until = until
    WebhookDelivery.objects.filter(hook=hook, state=DeliveryState.PENDING, queued_at__isnull=False).update(
        queued_at=None, next_attempt_at=until)


def _count_failure(hook: Webhook, now: datetime, error: str) -> None:
    hook.consecutive_failures += 1
    hook.failing_since = hook.failing_since or now
    _pause(hook, now + pause_after(hook.consecutive_failures))
    hook.save(update_fields=["consecutive_failures", "failing_since", "paused_until"])
    failing_for = now - hook.failing_since
    if (hook.consecutive_failures >= settings.WEBHOOKS_DISABLE_AFTER_FAILURES
            and failing_for >= timedelta(hours=settings.WEBHOOKS_DISABLE_AFTER_HOURS)):
        with for_reader(hook.owner):  # the reason is kept in words, the owner's, as their email says it
            reason = gettext("%(count)s failed attempts in a row over %(hours)s hours (the last: %(error)s)") % {
                "count": hook.consecutive_failures, "hours": number_format(failing_for.total_seconds() / 3600, 1),
                "error": error}
        turn_off(hook, now=now, notify=True, reason=reason[:200])


def turn_off(hook: Webhook, *, now: datetime, reason: str, notify: bool) -> None:
    """Disable a (locked) hook and give up its waiting deliveries; with ``notify`` its owner is emailed.

    Call inside a transaction holding the hook's row lock.
    """
    hook.active, hook.disabled_at, hook.disabled_reason, hook.paused_until = False, now, reason, None
    hook.notice_due = notify
    hook.save(update_fields=["active", "disabled_at", "disabled_reason", "paused_until", "notice_due"])
    WebhookDelivery.objects.filter(hook=hook, state=DeliveryState.PENDING).update(
        state=DeliveryState.FAILED, finished_at=now, next_attempt_at=now, queued_at=None, sending_since=None,
        error="given up: the hook was disabled" if notify else "given up: the hook was turned off")
    if notify:
        hook_id = hook.pk
        transaction.on_commit(lambda: tell_owner_soon(hook_id))
        logger.warning("webhook %s disabled: %s", hook.pk, reason)


def tell_owner_soon(hook_id: int) -> None:
    """Queue the owner's email about a disabled hook; with the broker away the mail sweep writes it."""
    try:
        current_app.signature(NOTICE_TASK, args=(hook_id,)).delay()
    except Exception:
        logger.warning("could not queue the notice of disabled webhook %s; the sweep will", hook_id, exc_info=True)


# -- keeping the log short ---------------------------------------------------------------------


def prune(*, now: datetime | None = None) -> int:
    """Delete the deliveries older than ``WEBHOOKS_KEEP_DAYS``, a batch per statement; return how many."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.WEBHOOKS_KEEP_DAYS)
    deleted = 0
    while True:
        batch = list(WebhookDelivery.objects.filter(created_at__lt=cutoff).order_by("id")
                     .values_list("id", flat=True)[:PRUNE_BATCH])
        if not batch:
            return deleted
        count, _ = WebhookDelivery.objects.filter(id__in=batch).delete()
        deleted += count
        if len(batch) < PRUNE_BATCH:
            return deleted
