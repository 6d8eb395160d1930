"""The mail server's memory stays flat however much mail passes (issue 42): it keeps no log of its queries.

Under ``make run`` DEBUG is on, and Django then logs every statement a connection runs, with its parameters,
until a request empties the log (up to 9,000 a connection). The mail server has no requests: each message it
kept for the mailbox, each reply it queued and each refused recipient it counted stayed in its database threads'
logs, an outgoing message whole, picture and all (+9.6 MiB a minute under load). Its handlers now empty the log
around each call, as a request does. Counted here, not timed: what the database threads keep after many messages.
"""

from __future__ import annotations

import smtplib
import threading
from email.message import EmailMessage

import pytest

from turnbased.local.services import free_port
from turnbased.mail import smtp
from turnbased.mail.models import InboundDrop, LocalMessage

pytestmark = pytest.mark.django_db(transaction=True)

MESSAGES = 40
BODY = "x" * 20_000  # about the size of a turn email with its picture of the board


def outgoing(number: int) -> EmailMessage:
    message = EmailMessage()
    message["From"], message["To"] = "games@turnbased.localhost", f"player{number}@example.com"
    message["Subject"] = f"Your turn {number}"
    message.set_content(BODY)
    message.add_alternative(f"<p>{BODY}</p>", subtype="html")
    return message


def kept_by_each_database_thread() -> list[tuple[int, int]]:
    """Return, for each of the mail server's database threads, the queries its connection's log keeps and their
    length in characters."""
    every_thread = threading.Barrier(smtp.DATABASE_THREADS, timeout=10)

    def kept() -> tuple[int, int]:
        every_thread.wait()  # one call per database thread
        from django.db import connection as this_threads

        return len(this_threads.queries_log), sum(len(query["sql"]) for query in this_threads.queries_log)

    calls = [smtp._database_threads.submit(kept) for _ in range(smtp.DATABASE_THREADS)]
    return [call.result(20) for call in calls]


def test_the_mail_server_keeps_no_query_after_many_messages_with_debug_on(settings):
    settings.DEBUG = True  # as under make run
    sink_port, inbound_port = free_port(), free_port()
    servers = [smtp.start_server(smtp.SinkHandler(), "127.0.0.1", sink_port),
               smtp.start_server(smtp.InboundHandler(), "127.0.0.1", inbound_port)]
    try:
        with smtplib.SMTP("127.0.0.1", sink_port, timeout=30) as client:
            for number in range(MESSAGES):
                client.send_message(outgoing(number))
        with smtplib.SMTP("127.0.0.1", inbound_port, timeout=30) as client:
            client.ehlo()
            client.mail("stranger@example.com")
            for number in range(MESSAGES):  # each refused recipient is counted in the database
                assert client.rcpt(f"nobody{number}@example.com")[0] == 550
    finally:
        for server in servers:
            server.stop()
    assert LocalMessage.objects.count() == MESSAGES
    assert sum(drop.count for drop in InboundDrop.objects.all()) == MESSAGES
    assert kept_by_each_database_thread() == [(0, 0)] * smtp.DATABASE_THREADS
