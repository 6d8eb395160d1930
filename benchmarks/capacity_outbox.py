"""The work a move leaves to the workers, measured apart: its emails and its webhook deliveries; and idle streams.

Part of benchmarks/capacity.py. An email or a delivery is measured from the moment its task is queued to the
moment the worker is quiet again, with nothing else to do: the moves that produced them were made beforehand in
this process, queueing nothing (``capacity_cells.nothing_dispatched``), so their notifications and deliveries
wait until the measured window hands them over as the dispatcher and the webhooks' sweep would. The SMTP relay
and the webhook receiver run in this process, as someone else's servers would: their CPU is not counted.
"""

from __future__ import annotations

import os

# As every script here: one loopback address plays many accounts (read when Django loads).
os.environ["RATE_LIMITS"] = "off"

import random  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer  # noqa: E402

from benchmarks.capacity_cells import LocalTable, PagePlayer, local_table, nothing_dispatched, play_here  # noqa: E402
from benchmarks.processes import Cpu, cpu_seconds, rss_kib  # noqa: E402

DELIVERY_TASK = "turnbased.mail.tasks.deliver_game_notifications"
SWEEP_TASK = "turnbased.webhooks.tasks.sweep_webhooks"


class Counter:
    def __init__(self):
        self.count = 0
        self._lock = threading.Lock()

    def add(self) -> None:
        with self._lock:
            self.count += 1

    def wait_for(self, target: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while self.count < target:
            if time.monotonic() > deadline:
                raise RuntimeError(f"waited {timeout:g} s for {target}, got {self.count}")
            time.sleep(0.01)


class SmtpSink:
    """An SMTP server on loopback that accepts every message and counts it (aiosmtpd, in a thread of its own)."""

    def __init__(self, port: int):
        from aiosmtpd.controller import Controller

        self.received = Counter()
        received = self.received

        class Handler:
            async def handle_DATA(self, server, session, envelope):
                received.add()
                return "250 OK"

        self.controller = Controller(Handler(), hostname="127.0.0.1", port=port)

    def __enter__(self) -> SmtpSink:
        self.controller.start()
        return self

    def __exit__(self, *exc) -> None:
        self.controller.stop()


class HookReceiver:
    """A webhook receiver on loopback answering every POST with 204, counting them."""

    def __init__(self):
        received = self.received = Counter()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                self.send_response(204)
                self.end_headers()
                received.add()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"

    def __enter__(self) -> HookReceiver:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()


def wait_quiet(pid: int, interval: float = 0.3, timeout: float = 10.0) -> None:
    """Wait until a process (a worker and its pool) spends no CPU over ``interval``: its last task is done."""
    deadline, last = time.monotonic() + timeout, cpu_seconds(pid)
    while time.monotonic() < deadline:
        time.sleep(interval)
        now = cpu_seconds(pid)
        if now == last:
            return
        last = now


@dataclass
class OutboxTables:
    """Tables whose players receive what is measured (turn emails, or webhooks), one move made here per round; the
    players sit two to a table, the pairs taken in turn."""

    players: list[PagePlayer]
    slug: str
    count: int
    rng: random.Random
    tables: list[LocalTable] = field(default_factory=list)
    made: int = 0

    def one_move_each(self) -> list[LocalTable]:
        """Make one move at each table, queueing nothing; a table whose game ended is replaced by a new one."""
        with nothing_dispatched():
            self.tables = [table for table in self.tables if not table.over]
            while len(self.tables) < self.count:
                pair = 2 * (self.made % (len(self.players) // 2))
                self.tables.append(local_table(self.players[pair:pair + 2], self.slug))
                self.made += 1
            for table in self.tables:
                play_here(table, self.rng)
        return [table for table in self.tables if not table.over]


def email_round(outbox: OutboxTables, sink: SmtpSink, cpu: Cpu, mailer: int) -> int:
    """Measure the mailer delivering the turn emails of one move at each table: decide, compose, write the outbox
    row, send it to the relay, mark it sent. Return the emails sent."""
    from django.db.models import Q

    from turnbased.kit.db import dispatch
    from turnbased.notifications.models import Notification, NotificationKind

    tables = outbox.one_move_each()
    expected = Notification.objects.filter(
        Q(*[Q(game_id=t.game_id, seq=t.seq) for t in tables], _connector=Q.OR),
        kind=NotificationKind.YOUR_TURN, sent_at=None, skipped_at=None).count()
    wait_quiet(mailer)
    before = sink.received.count
    cpu.start()
    for table in tables:
        dispatch.queue(DELIVERY_TASK, [table.game_id, table.seq])  # as the dispatcher does after the move's commit
    sink.received.wait_for(before + expected, timeout=60)
    wait_quiet(mailer)
    cpu.stop()
    return sink.received.count - before


def webhook_round(outbox: OutboxTables, receiver: HookReceiver, cpu: Cpu, hooks: int) -> int:
    """Measure the webhooks' worker delivering what one move at each table wrote (a delivery per event of a hook's
    owner): the sweep that queues them, then for each the claim, the document, the signed POST and the settling.
    Return the deliveries received."""
    from turnbased.kit.db import dispatch
    from turnbased.webhooks.models import DeliveryState, WebhookDelivery

    outbox.one_move_each()
    expected = WebhookDelivery.objects.filter(state=DeliveryState.PENDING).count()
    wait_quiet(hooks)
    before = receiver.received.count
    cpu.start()
    dispatch.queue(SWEEP_TASK, [])  # as beat does every WEBHOOKS_SWEEP_SECONDS
    receiver.received.wait_for(before + expected, timeout=60)
    wait_quiet(hooks)
    cpu.stop()
    return receiver.received.count - before


def hook_owners(players: list[PagePlayer], url: str) -> None:
    from turnbased.webhooks.services import webhook_create

    for player in players:
        webhook_create(owner=player.user, url=url)  # every kind of event


# -- idle streams ------------------------------------------------------------------------------------------


def idle_streams(stream_port: int, stream_pid: int, players: list[PagePlayer], game_ids: list[int],
                 per_player: int, window: float, roots: dict[str, int]) -> dict:
    """Hold ``per_player`` game pages' streams open for each player (``?game=``: the page's presence is renewed as
    it waits) and measure what they cost over ``window`` seconds doing nothing: the server's CPU and the stream
    process's memory. The caller subtracts what the same processes spend with no stream open."""
    from benchmarks.streams import Clients

    keys = [f"{number}:{index}" for number in range(len(players)) for index in range(per_player)]

    def page_stream(key: str) -> bytes:
        number, index = map(int, key.split(":"))
        return (f"GET /api/stream/?game={game_ids[(number + index) % len(game_ids)]} HTTP/1.1\r\n"
                f"Host: 127.0.0.1\r\nCookie: {players[number].cookie}\r\nAccept: text/event-stream\r\n\r\n").encode()

    clients = Clients(stream_port, request=page_stream)
    clients.start()
    try:
        before = rss_kib(stream_pid)
        clients.open(keys)
        if clients.failures or clients.opened != len(keys):
            raise RuntimeError(f"{clients.opened} of {len(keys)} streams opened: {clients.failures[:3]}")
        time.sleep(3.0)  # the openings' reads and first presence marks are done
        after = rss_kib(stream_pid)
        cpu = Cpu(roots)
        cpu.start()
        time.sleep(window)
        cpu.stop()
    finally:
        clients.close()
    return {"streams": len(keys), "seconds": cpu.seconds, "cpu_seconds": cpu.by_process,
            "rss_kib_before": before, "rss_kib_after": after}
