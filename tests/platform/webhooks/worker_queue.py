"""The webhooks queue and its worker in the test's process: first in, first out, one task at a time, as the
Procfile's ``hooks`` worker (one pool process) takes them from Redis.

``WorkerQueue`` stands in for ``delivery.send_soon``. A task queued while no sweep runs (a ping, an account's next
delivery queued by a settled attempt) joins the back of the queue, and the queue is worked through at once, each
task to its end before the next; a sweep's tasks are all queued before the first is taken, as the sweep sends
them all before the worker takes any. Within ``held()`` tasks only join the queue (a worker that is busy, or
stopped). ``ran`` lists the deliveries' tasks in the order they ran.
"""

from __future__ import annotations

from collections import deque
from contextlib import contextmanager

from turnbased.webhooks import tasks


class WorkerQueue:
    def __init__(self):
        self.waiting: deque[int] = deque()
        self.ran: list[int] = []
        self._holding, self._working = 0, False

    def put(self, delivery_id: int) -> None:
        self.waiting.append(delivery_id)
        if not self._holding:
            self.work()

    @contextmanager
    def held(self):
        self._holding += 1
        try:
            yield self
        finally:
            self._holding -= 1

    def sweep(self, *, work: bool = True) -> int:
        """Run the sweep (its tasks join the queue), then work through the queue unless told not to; return how
        many the sweep queued."""
        with self.held():
            queued = tasks.sweep_webhooks()
        if work:
            self.work()
        return queued

    def step(self) -> int | None:
        """Run the task at the front of the queue alone (what it queues joins the back); return its delivery."""
        if not self.waiting:
            return None
        delivery_id = self.waiting.popleft()
        self.ran.append(delivery_id)
        working, self._working = self._working, True
        try:
            tasks.deliver_webhook(delivery_id)
        finally:
            self._working = working
        return delivery_id

    def work(self) -> None:
        """Run the queue's tasks in turn until it is empty (a task queued by a running one waits its turn)."""
        if self._working:
            return
        while self.waiting:
            self.step()
