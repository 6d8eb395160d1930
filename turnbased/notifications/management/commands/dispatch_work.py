"""``python manage.py dispatch_work``: queue in Celery the work each commit names (``turnbased.kit.db.dispatch``), and
queue again the bot turns a fault may have lost each time its LISTEN is in place and whenever the broker is back
(``play.services.bot_turns``)."""

from __future__ import annotations

import signal
import threading

from django.conf import settings
from django.core.management.base import BaseCommand

from turnbased.kit.db import dispatch
from turnbased.play.services import queue_bot_turns_waiting


class Command(BaseCommand):
    help = ("LISTEN for the work each commit names (turn notifications to deliver, bot turns, forced moves) and "
            "queue it in Celery, until SIGTERM or SIGINT; on starting, on listening again and when the broker is "
            "back, queue again every bot turn waiting. One is enough; the minute sweeps cover its absences.")

    def handle(self, *args, **options) -> None:
        stop = threading.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stop.set())

        def listening() -> None:
            self.stdout.write(dispatch.READY)
            self.stdout.flush()

        dispatch.run(stopped=stop.is_set, on_listening=listening, recover=queue_bot_turns_waiting,
                     broker=dispatch.BrokerWatch.of(settings.CELERY_BROKER_URL))
