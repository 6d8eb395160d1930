"""POST one webhook: to the address that was checked, with short timeouts, no redirects, a bounded read.

The standard library's ``http.client``, with the connection opened by hand: to
an address ``addresses.check`` resolved and allowed (never a second lookup of
the name), while the request still names the host (``Host``, and TLS's server
name and certificate check). Redirects are never followed (a 3xx is a failed
attempt). Each step has a timeout, and a watchdog cuts the connection once the
whole attempt has run ``WEBHOOKS_TOTAL_SECONDS``, so a receiver that answers a
byte at a time holds a worker no longer than that.
"""

from __future__ import annotations

import functools
import http.client
import socket
import ssl
import threading
import time
from dataclasses import dataclass

from django.conf import settings

from turnbased.webhooks.addresses import DEFAULT_PORTS, Destination, UnsafeAddress, check

# The start of the receiver's answer that is kept in the delivery log; the rest is never read.
EXCERPT_BYTES = 1000
USER_AGENT = "turnbased-webhooks/1"


@dataclass(frozen=True)
class Outcome:
    """How one attempt went: the receiver's status (None if it never answered), its answer's start, what failed."""

    status: int | None
    excerpt: str
    error: str
    duration_ms: int

    @property
    def delivered(self) -> bool:
        return self.status is not None and 200 <= self.status < 300 and not self.error


class _PinnedConnection(http.client.HTTPConnection):
    """An HTTP connection to one given address, that still speaks to the URL's host by name (TLS with ``context``)."""

    def __init__(self, destination: Destination, address: str, *, context: ssl.SSLContext | None):
        super().__init__(destination.host, destination.port, timeout=settings.WEBHOOKS_READ_TIMEOUT)
        self.default_port = DEFAULT_PORTS[destination.scheme]  # Host names the port only when it is not this
        self._address = address
        self._context = context
        self.raw_socket: socket.socket | None = None
        self.cut_off = False  # set by the watchdog: what was read after may look complete, and is not

    def connect(self) -> None:
        # Not super().connect(): that would resolve the host name again.
        raw = socket.create_connection((self._address, self.port), timeout=settings.WEBHOOKS_CONNECT_TIMEOUT)
        raw.settimeout(self.timeout)
        raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.raw_socket = raw  # the watchdog may cut a slow TLS handshake too
        # The certificate is checked for the URL's host name, whatever address was connected to.
        self.sock = self._context.wrap_socket(raw, server_hostname=self.host) if self._context else raw
        self.raw_socket = self.sock


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """The system's trusted certificates and Python's safe defaults, loaded once per process."""
    return ssl.create_default_context()


def _cut(connection: _PinnedConnection) -> None:
    """End a connection from another thread: a blocked read returns at once."""
    connection.cut_off = True
    if connection.raw_socket is not None:
        try:
            # socket.socket's own shutdown, also for a TLS socket (whose shutdown would unwrap it first).
            socket.socket.shutdown(connection.raw_socket, socket.SHUT_RDWR)
        except OSError:
            pass


def printable(text: str, limit: int) -> str:
    """Return ``text`` cut to ``limit`` characters, without the NULs PostgreSQL's text cannot hold."""
    return text.replace("\x00", "\ufffd")[:limit]


def _describe(error: BaseException | None) -> str:
    if error is None:
        return "no address to connect to"
    if isinstance(error, UnsafeAddress):
        return f"refused: {error}"
    if isinstance(error, (socket.timeout, TimeoutError)):
        return "timed out"
    if isinstance(error, ssl.SSLCertVerificationError):
        return f"TLS certificate not valid: {error.verify_message}"
    if isinstance(error, ConnectionRefusedError):
        return "connection refused"
    text = str(error) or type(error).__name__
    return f"{type(error).__name__}: {text}"


def _exchange(connection: _PinnedConnection, destination: Destination, body: bytes,
              headers: dict[str, str]) -> tuple[int, str]:
    connection.request("POST", destination.target, body=body, headers={
        "Content-Type": "application/json", "User-Agent": USER_AGENT, "Connection": "close", **headers})
    response = connection.getresponse()
    excerpt = response.read(EXCERPT_BYTES)
    return response.status, printable(excerpt.decode("utf-8", errors="replace"), EXCERPT_BYTES)


def post(url: str, body: bytes, headers: dict[str, str]) -> Outcome:
    """POST ``body`` to ``url`` once; return how it went (never raises for the receiver's faults)."""
    started = time.monotonic()
    elapsed = lambda: int((time.monotonic() - started) * 1000)  # noqa: E731
    try:
        destination = check(url, allow_private=settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES,
                            allow_http=settings.WEBHOOKS_ALLOW_HTTP)
    except UnsafeAddress as error:
        return Outcome(status=None, excerpt="", error=printable(_describe(error), 500), duration_ms=elapsed())
    context = _tls_context() if destination.scheme == "https" else None
    last_error: BaseException | None = None
    for address in destination.addresses:
        if time.monotonic() - started >= settings.WEBHOOKS_TOTAL_SECONDS:
            break
        connection = _PinnedConnection(destination, address, context=context)
        watchdog = threading.Timer(max(0.0, settings.WEBHOOKS_TOTAL_SECONDS - (time.monotonic() - started)),
                                   _cut, args=(connection,))
        watchdog.daemon = True
        watchdog.start()
        try:
            connection.connect()
        except OSError as error:  # refused, unreachable, timed out: the next address may answer
            last_error = error
            watchdog.cancel()
            connection.close()
            continue
        if connection.cut_off:  # the whole attempt's time went on connecting
            watchdog.cancel()
            connection.close()
            return Outcome(status=None, excerpt="", error="timed out", duration_ms=elapsed())
        try:
            status, excerpt = _exchange(connection, destination, body, headers)
        except (OSError, http.client.HTTPException) as error:
            message = "timed out" if connection.cut_off else _describe(error)
            return Outcome(status=None, excerpt="", error=printable(message, 500), duration_ms=elapsed())
        finally:
            watchdog.cancel()
            connection.close()
        if connection.cut_off:  # an answer cut short can read as a whole one (its end is the cut)
            return Outcome(status=None, excerpt="", error="timed out", duration_ms=elapsed())
        error = "" if 200 <= status < 300 else f"the receiver answered {status}"
        return Outcome(status=status, excerpt=excerpt, error=error, duration_ms=elapsed())
    return Outcome(status=None, excerpt="", error=printable(_describe(last_error), 500), duration_ms=elapsed())
