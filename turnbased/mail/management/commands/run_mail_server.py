"""Run the inbound SMTP server for replies (and, in development, the sink that keeps outgoing mail)."""

import signal
import threading

from django.conf import settings
from django.core.management.base import BaseCommand

from turnbased.mail.smtp import InboundHandler, SinkHandler, start_server


class Command(BaseCommand):
    help = "Receive email replies on MAIL_INBOUND_PORT; with MAIL_SINK on, keep outgoing mail on EMAIL_PORT."

    def handle(self, *args, **options):
        servers = [start_server(InboundHandler(), settings.MAIL_INBOUND_HOST, settings.MAIL_INBOUND_PORT)]
        self.stdout.write(f"inbound SMTP for replies on {settings.MAIL_INBOUND_HOST}:{settings.MAIL_INBOUND_PORT}")
        if settings.MAIL_SINK:
            servers.append(start_server(SinkHandler(), settings.EMAIL_HOST, settings.EMAIL_PORT))
            self.stdout.write(f"local mail sink on {settings.EMAIL_HOST}:{settings.EMAIL_PORT} (see /mailbox/)")
        stop = threading.Event()
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: stop.set())
        stop.wait()
        for server in servers:
            server.stop()
