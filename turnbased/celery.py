"""The Celery application; tasks live in each app's ``tasks.py``."""

import logging
import os

from celery import Celery
from celery.signals import worker_ready

from turnbased.config.schedule import BOTS_QUEUE

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "turnbased.settings")

app = Celery("turnbased")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger(__name__)


@worker_ready.connect
def queue_waiting_bot_turns(sender, **kwargs) -> None:
    """Queue again every bot turn waiting, when a worker that consumes the ``bots`` queue (where bot turns run:
    ``turnbased/config/schedule.py``) starts; a worker of any other queue only (the default one, mail, webhooks)
    does nothing.

    It may be taking over from one that was killed: the bot turns that one held, unacknowledged, stay in the
    broker until its visibility timeout (twenty minutes), and would wait for the clock sweep (issue 42). A turn
    queued twice is played once. A failure (the database away) is logged: the dispatcher and the sweep remain.
    """
    queues = {queue.name for queue in getattr(sender.task_consumer, "queues", ())}
    if BOTS_QUEUE not in queues:
        return
    from django.db import connection

    from turnbased.play.services import queue_bot_turns_waiting

    try:
        logger.info("queued again %s bot turn(s) waiting", queue_bot_turns_waiting())
    except Exception:
        logger.warning("could not queue again the bot turns waiting", exc_info=True)
    finally:
        connection.close()  # the worker's main process keeps no connection: its pool processes have their own
