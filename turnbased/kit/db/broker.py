"""The Celery broker's transport: kombu's Redis transport, made to outlive the broker's outage.

With tasks in hand (a bot turn waiting out its countdown is one), a worker that loses Redis closes its
channel, and closing gives the unacknowledged tasks back to the broker. In kombu 5.7 that step asks for a
new Redis client after the transport has already let go of its connection's details, and fails with an
``AttributeError`` ("'NoneType' object has no attribute 'hostname'"), which is not among the errors kombu
expects from a lost connection: the worker stops with "Unrecoverable error" and does not come back when
Redis does. Here that step fails as the broker being unreachable does, which kombu ignores while closing
a channel, so the consumer goes on to reconnect as it does for any lost connection. The tasks it held are
not lost by it: an acknowledged-late task stays in the broker's unacknowledged set and comes back after the
visibility timeout; a broker that lost its memory lost them anyway, and the sweeps queue that work again
from the database.

``CELERY_BROKER_TRANSPORT`` names it for ``redis://`` broker URLs (settings.py).
"""

from __future__ import annotations

import redis.exceptions
from kombu.transport import redis as kombu_redis


class Channel(kombu_redis.Channel):
    def _connparams(self, asynchronous: bool = False) -> dict:
        if self.connection.client is None:
            raise redis.exceptions.ConnectionError("the connection to the broker is closed")
        return super()._connparams(asynchronous=asynchronous)


class Transport(kombu_redis.Transport):
    Channel = Channel
