"""Where Celery runs each task (its queue) and what Celery beat runs when."""

from __future__ import annotations

from celery.schedules import crontab

# The queue of bot turns (``turnbased.play.tasks.play_bot_turn``), served by the ``bots`` worker alone (Procfile,
# deploy/compose.yaml); turnbased/celery.py queues again the waiting bot turns when a worker of it starts.
BOTS_QUEUE = "bots"


def task_routes() -> dict:
    """Return ``CELERY_TASK_ROUTES``, a new one at each call: the tasks that leave the default queue."""
    # Email has a queue and a worker of its own (Procfile, deploy/compose.yaml): a stalled relay delays only
    # mail, never moves, bots or sweeps. Answers to replies are written by handle_accepted_reply, which
    # makes moves and stays on the default queue with its sweep.
    routes = {
        f"turnbased.mail.tasks.{name}": {"queue": "mail"}
        for name in ("send_email", "deliver_notification", "deliver_game_notifications", "sweep_outbox",
                     "send_daily_digests", "tell_webhook_disabled")
    }
    # Webhooks too (issue 15): a slow receiver, someone else's server, delays only webhooks.
    routes.update({
        f"turnbased.webhooks.tasks.{name}": {"queue": "webhooks"}
        for name in ("deliver_webhook", "sweep_webhooks", "prune_webhook_deliveries")
    })
    # Pushes are outgoing notices like mail: on the mail queue and its worker, never delaying moves.
    routes.update({
        f"turnbased.notifications.tasks.{name}": {"queue": "mail"} for name in ("push_turn", "sweep_pushes")
    })
    # Bot turns too: a strong bot searches up to about two seconds of one core per move, and on the default queue
    # a few such searches would hold every pool process that forced moves, replies and the sweeps wait for. On a
    # queue of their own, served by a worker of one pool process (``bots``), a busy bot delays only other bots,
    # and each bots process takes one core at most, leaving the machine's others to the web and the worker.
    routes["turnbased.play.tasks.play_bot_turn"] = {"queue": BOTS_QUEUE}
    return routes


def beat_schedule(*, sweep_seconds: float, webhooks_sweep_seconds: float) -> dict:
    """Return ``CELERY_BEAT_SCHEDULE``, a new one at each call: sweeps every so many seconds, the rest by the clock."""
    return {
        "sweep-outbox": {"task": "turnbased.mail.tasks.sweep_outbox", "schedule": sweep_seconds},
        "daily-digests": {"task": "turnbased.mail.tasks.send_daily_digests", "schedule": crontab(minute=0, hour=7)},
        "sweep-clocks": {"task": "turnbased.clocks.tasks.sweep_clocks", "schedule": sweep_seconds},
        "sweep-accepted-replies": {"task": "turnbased.mail.tasks.sweep_accepted_replies", "schedule": sweep_seconds},
        "prune-events": {"task": "turnbased.events.tasks.prune_events", "schedule": crontab(minute=17)},
        "prune-idempotency-keys": {"task": "turnbased.idempotency.tasks.prune_idempotency_keys",
                                   "schedule": crontab(minute=29)},
        "sweep-webhooks": {"task": "turnbased.webhooks.tasks.sweep_webhooks", "schedule": webhooks_sweep_seconds},
        "prune-webhook-deliveries": {"task": "turnbased.webhooks.tasks.prune_webhook_deliveries",
                                     "schedule": crontab(minute=41)},
        "sweep-pushes": {"task": "turnbased.notifications.tasks.sweep_pushes", "schedule": sweep_seconds},
        "sweep-tables-left-waiting": {"task": "turnbased.entry.tasks.sweep_tables_left_waiting",
                                      "schedule": sweep_seconds},
        "sweep-competitions": {"task": "turnbased.competitions.tasks.sweep_competitions", "schedule": sweep_seconds},
    }
