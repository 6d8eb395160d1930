"""``python manage.py dispatch_work``: queue in Celery the work each commit names (``turnbased.dispatch``)."""

from __future__ import annotations

import signal
import threading

from django.core.management.base import BaseCommand

from turnbased import dispatch


class Command(BaseCommand):
    help = ("LISTEN for the work each commit names (turn notifications to deliver, bot turns, forced moves) and "
            "queue it in Celery, until SIGTERM or SIGINT. One is enough; the minute sweeps cover its absences.")

    def handle(self, *args, **options) -> None:
        stop = threading.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stop.set())

        def listening() -> None:
            self.stdout.write(dispatch.READY)
            self.stdout.flush()

        dispatch.run(stopped=stop.is_set, on_listening=listening)
