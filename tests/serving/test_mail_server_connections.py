"""The mail server's database connections are bounded and checked, however many messages arrive at once.

Its SMTP handlers reach the database through ``smtp.DATABASE_THREADS`` threads shared by both
servers, each call handled as a request is (connections past CONN_MAX_AGE or broken are replaced
before and closed after), instead of a thread per concurrent message, each keeping a connection.
"""

from __future__ import annotations

import smtplib
import threading
import time
from email.message import EmailMessage

import pytest
from django.db import connection

from turnbased.local.services import free_port
from turnbased.mail import smtp
from turnbased.mail.models import LocalMessage

pytestmark = [pytest.mark.serving, pytest.mark.django_db(transaction=True)]

MESSAGES = 12


def send(port: int, number: int) -> None:
    message = EmailMessage()
    message["From"] = "games@turnbased.localhost"
    message["To"] = f"player{number}@example.com"
    message["Subject"] = f"Your turn {number}"
    message.set_content("It is your turn.")
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as client:
        client.send_message(message)


def test_many_messages_at_once_reach_the_database_from_the_mail_servers_few_threads(monkeypatch):
    threads_used = set()
    store = smtp._store_local_message

    def slow_store(*args):
        threads_used.add(threading.get_ident())
        time.sleep(0.2)  # every message arrives while the others are still being stored
        return store(*args)

    monkeypatch.setattr(smtp, "_store_local_message", slow_store)
    port = free_port()
    server = smtp.start_server(smtp.SinkHandler(), "127.0.0.1", port)
    try:
        senders = [threading.Thread(target=send, args=(port, number)) for number in range(MESSAGES)]
        for sender in senders:
            sender.start()
        for sender in senders:
            sender.join(30)
    finally:
        server.stop()
    assert LocalMessage.objects.count() == MESSAGES
    assert 0 < len(threads_used) <= smtp.DATABASE_THREADS


def test_the_mail_servers_database_threads_keep_no_connection_past_its_age():
    # make test runs with DATABASE_CONN_MAX_AGE=0: a connection lasts one call, as it lasts one request.
    assert connection.settings_dict["CONN_MAX_AGE"] == 0
    every_thread = threading.Barrier(smtp.DATABASE_THREADS, timeout=10)

    def use_the_database_then_report():
        smtp._as_one_request(LocalMessage.objects.count)()
        every_thread.wait()  # one call per database thread
        from django.db import connection as this_threads

        return this_threads.connection is None

    calls = [smtp._database_threads.submit(use_the_database_then_report) for _ in range(smtp.DATABASE_THREADS)]
    assert [call.result(20) for call in calls] == [True] * smtp.DATABASE_THREADS
