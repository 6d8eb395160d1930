"""The web process's gunicorn worker: gunicorn's threaded worker, whose own error answers under /api/ are JSON.

gunicorn answers some requests itself, before Django sees them, with a small HTML page: a request it cannot
read (400: a malformed request line or header), header fields over its limits (431), a request line too long
(414), an ``Expect`` it cannot meet (417). Under /api/ every answer is a problem document (RFC 9457,
docs/api.md "Errors"), so this worker writes those as ``application/problem+json``, with the same status and
gunicorn's own words as the ``detail``; elsewhere it leaves gunicorn's page. The request's headers could not
be read, so its language cannot be either: the words are English, the API's language when none is asked for.

A body the application did not read (a 413 refuses it by its length, unread) is read to its end after the
answer, within ``DRAIN_BYTES`` and ``DRAIN_SECONDS``, so that the connection carries the next request; gunicorn
alone reads 64 KiB of it, then closes the connection with the rest unread, and the client, still sending, meets
a reset instead of the answer. A body past those bounds still closes the connection (gunicorn's graceful close).

Which address the request named is kept on the error by the request parser (``PathKeepingRequest``): gunicorn
raises it while the request is still being read, before it has a request object. A request line too broken to
name any address gets gunicorn's page. This module imports no Django: gunicorn's master loads it first.
"""

from __future__ import annotations

import html
import json
import re
import time
from http import HTTPStatus
from urllib.parse import urlsplit

from gunicorn import util
from gunicorn.http import message, parser
from gunicorn.workers.gthread import ThreadWorker

# How much of a body the application left unread is read after its answer, and for how long at most: a body a
# few times the upload limit (DATA_UPLOAD_MAX_MEMORY_SIZE, 1 MiB) is read; in production nginx refuses bigger
# ones itself (client_max_body_size).
DRAIN_BYTES = 64 * 1024 * 1024
DRAIN_SECONDS = 10.0
API_PREFIX = "/api/"
PROBLEM_MEDIA_TYPE = "application/problem+json"
# gunicorn's page: its reason in a heading, then its message (util.write_error).
_PAGE_MESSAGE = re.compile(r"</h1>\s*(.*?)\s*</body>", re.DOTALL)
_STATUS_LINE = re.compile(rb"HTTP/1\.1 (\d{3}) ")


class PathKeepingRequest(message.Request):
    """gunicorn's request, which names on any error raised while it is read the address its request line named."""

    def parse(self, unreader):
        try:
            return super().parse(unreader)
        except Exception as error:
            target = self.path or self.uri  # the request line's target, once it was read (before it was checked)
            if target and not hasattr(error, "request_target"):
                error.request_target = target
            raise


class _Kept:
    """A stand-in for the client's socket that keeps what gunicorn writes to it (its error page)."""

    def __init__(self):
        self.written = bytearray()

    def gettimeout(self):
        return 0.0

    def setblocking(self, flag):
        pass

    def sendall(self, data):
        self.written += data


def _is_api(target: str | None) -> bool:
    if not target:
        return False
    return (urlsplit(target).path if "://" in target else target).startswith(API_PREFIX)


def problem_answer(page: bytes) -> bytes:
    """Return gunicorn's error page (the whole HTTP answer) as the same answer with a problem document."""
    status = int(_STATUS_LINE.match(page)[1])
    phrase = HTTPStatus(status).phrase
    said = _PAGE_MESSAGE.search(page.decode("latin-1"))
    detail = html.unescape(said[1]).strip() if said and said[1].strip() else f"{phrase}."
    body = json.dumps({"type": "about:blank", "title": phrase, "status": status, "detail": detail}).encode()
    head = (f"HTTP/1.1 {status} {phrase}\r\nConnection: close\r\nContent-Type: {PROBLEM_MEDIA_TYPE}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1") + body


class ProblemThreadWorker(ThreadWorker):
    """gunicorn's gthread worker (``worker_class`` in deploy/gunicorn.conf.py), its own errors JSON under /api/."""

    def init_process(self):
        # Every connection's parser reads requests that keep their address on an error.
        parser.RequestParser.mesg_class = PathKeepingRequest
        super().init_process()

    def _keepalive_after(self, conn, keepalive):
        # Read what is left of the body whatever the answer said: closing a socket with unread data resets it.
        drained = conn.parser.finish_body(deadline=time.monotonic() + DRAIN_SECONDS, max_bytes=DRAIN_BYTES)
        return bool(keepalive and drained)

    def handle_error(self, req, client, addr, exc):
        target = getattr(exc, "request_target", None) or getattr(req, "path", None)
        if not _is_api(target):
            return super().handle_error(req, client, addr, exc)
        kept = _Kept()
        super().handle_error(req, kept, addr, exc)  # gunicorn decides the status, logs, and writes its page here
        if not _STATUS_LINE.match(kept.written):
            return None
        try:
            util.write_nonblock(client, problem_answer(bytes(kept.written)))
        except Exception:  # the client went away: nothing to answer
            self.log.debug("Failed to send error message.")
        return None
