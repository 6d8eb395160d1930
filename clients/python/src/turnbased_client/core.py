"""The client's machinery: the operation table, requests with retries, conditional reads and pages.

Every API call of ``Client`` is a method marked with ``@operation(operation_id, method, path, ...)``:
the OpenAPI operation it calls, its path as the schema writes it, its query parameters and body
fields. ``operations()`` collects the marks, and tests/clients/test_schema_drift.py checks them
against the schema the server generates, so the client and the API cannot drift apart.
"""

from __future__ import annotations

import copy
import enum
import random
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Self, TypeVar
from urllib.parse import quote, urljoin, urlsplit

import httpx

from turnbased_client import __version__
from turnbased_client.errors import ApiError, ConnectionFailed, TurnbasedError


class Unset(enum.Enum):
    """The type of ``UNSET``: a parameter left out of the request (``None`` is sent as JSON null)."""

    UNSET = "UNSET"

    def __repr__(self) -> str:
        return "UNSET"


UNSET = Unset.UNSET
DEFAULT_TIMEOUT = httpx.Timeout(15.0, connect=5.0)
# 429 and 503 change nothing on the server, so any request may be sent again after Retry-After.
RETRIED_STATUSES = (429, 503)
IDEMPOTENCY_KEY = "Idempotency-Key"
ETAG_CACHE_SIZE = 128

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Operation:
    """One operation of the API's OpenAPI schema, as a client method calls it."""

    operation_id: str
    method: str
    path: str  # as the schema writes it: /api/games/{game_id}/
    query: tuple[str, ...] = ()
    body: tuple[str, ...] = ()
    conditional: bool = False  # a game read: sends If-None-Match and reuses the answer on 304
    listed: str | None = None  # the answer is a list, or carries it under this key, or is a page of it
    # A page with keys of its own beside ``results`` (the history's ``seq``): the method returns the first
    # page with every page's results in ``results`` (``next`` null), not the bare list.
    gathered: bool = False
    # A create that takes an Idempotency-Key: each call sends a key of its own, so that a call whose answer was
    # lost (a timeout, a dropped connection) is sent again safely: the server answers it as it did the first.
    idempotent: bool = False

    @property
    def path_parameters(self) -> tuple[str, ...]:
        return tuple(part[1:-1] for part in self.path.split("/") if part.startswith("{"))


def operation(operation_id: str, method: str, path: str, *, query: tuple[str, ...] = (),
              body: tuple[str, ...] = (), conditional: bool = False, listed: str | None = None,
              gathered: bool = False, idempotent: bool = False) -> Callable[[F], F]:
    """Mark a client method as calling one operation of the schema."""

    def mark(method_function: F) -> F:
        method_function.operation = Operation(  # type: ignore[attr-defined]
            operation_id, method, path, query, body, conditional, "results" if gathered else listed, gathered,
            idempotent)
        return method_function

    return mark


_OPERATIONS_OF: dict[type, dict[str, tuple[str, Operation]]] = {}


def operations(cls: type) -> dict[str, tuple[str, Operation]]:
    """Return ``{operation_id: (method name, operation)}`` for every marked method of ``cls``."""
    if cls not in _OPERATIONS_OF:
        found = {}
        for name in dir(cls):
            marked = getattr(getattr(cls, name), "operation", None)
            if isinstance(marked, Operation):
                found[marked.operation_id] = (name, marked)
        _OPERATIONS_OF[cls] = found
    return _OPERATIONS_OF[cls]


def site_root(base_url: str) -> str:
    """Return the site's root URL, whether given as the site, with a trailing slash, or its /api/."""
    root = base_url.strip().rstrip("/")
    if root.endswith("/api"):
        root = root[: -len("/api")]
    parts = urlsplit(root)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"Not an http(s) URL: {base_url!r}")
    return root


class ApiCore:
    """Send the API's requests: token auth, timeouts, retries, conditional reads and errors."""

    def __init__(self, base_url: str, token: str | None = None, *, stream_url: str | None = None,
                 timeout: httpx.Timeout | float = DEFAULT_TIMEOUT, retries: int = 2, max_retry_wait: float = 30.0,
                 transport: httpx.BaseTransport | None = None, sleep: Callable[[float], None] = time.sleep,
                 language: str | None = None) -> None:
        self.base_url = site_root(base_url)
        # Where /api/stream/ is served: the site itself behind nginx; its own port (8001) under ``make run``.
        self.stream_url = site_root(stream_url) if stream_url else self.base_url
        self.token = token
        self.retries = retries
        self.max_retry_wait = max_retry_wait
        self._sleep = sleep
        # Answers are JSON, errors problem documents (RFC 9457): ApiError reads either.
        headers = {"Accept": "application/json, application/problem+json",
                   "User-Agent": f"turnbased-client/{__version__}"}
        if token:
            headers["Authorization"] = f"Token {token}"
        if language:  # the human texts (details, history lines, the stream's words) in it; else the account's
            headers["Accept-Language"] = language
        self.http = httpx.Client(base_url=self.base_url, headers=headers, timeout=timeout, transport=transport)
        self._etags: OrderedDict[str, tuple[str, Any]] = OrderedDict()

    def close(self) -> None:
        """Close the connections."""
        self.http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- calling an operation -------------------------------------------------------------------
    def _call(self, operation_id: str, path: Mapping[str, Any] | None = None, *,
              query: Mapping[str, Any] | None = None, body: Mapping[str, Any] | None = None,
              headers: Mapping[str, str] | None = None) -> Any:
        """Call an operation of the table: fill its path, drop UNSET values, send, return the JSON answer."""
        _, op = operations(type(self))[operation_id]
        path = dict(path or {})
        query = {key: value for key, value in (query or {}).items() if value is not UNSET}
        body = {key: value for key, value in (body or {}).items() if value is not UNSET}
        if set(path) != set(op.path_parameters) or not set(query) <= set(op.query) or not set(body) <= set(op.body):
            raise TypeError(f"{operation_id}: parameters {sorted(path)}, {sorted(query)}, {sorted(body)} do not match")
        url = op.path.format(**{name: quote(str(value), safe="") for name, value in path.items()})
        json_body = body if op.body else None
        if op.idempotent:
            # A move's own idempotency_key names it in the header too (the server refuses two different keys).
            headers = {IDEMPOTENCY_KEY: str(body.get("idempotency_key") or uuid.uuid4().hex), **(headers or {})}
        answer = self._request(op.method, url, params=query or None, json=json_body, conditional=op.conditional,
                               headers=headers)
        if op.gathered:
            return {**answer, "results": self._paginate(answer, op.listed or ""), "next": None}
        if op.listed is not None:
            return self._paginate(answer, op.listed)
        return answer

    def _request(self, method: str, url: str, *, params: Mapping[str, Any] | None = None, json: Any = None,
                 conditional: bool = False, headers: Mapping[str, str] | None = None) -> Any:
        """Send one request (again after a 429 or 503, within ``retries``) and return its JSON, or None for 204."""
        key = str(self.http.build_request(method, url, params=params).url)
        headers = dict(headers or {})
        cached = self._etags.get(key) if conditional else None
        if cached is not None:
            headers["If-None-Match"] = cached[0]
        for attempt in range(self.retries + 1):
            try:
                response = self.http.request(method, url, params=params, json=json, headers=headers)
            except httpx.TransportError as problem:
                # Only a read, or a create under its Idempotency-Key, may be sent again: another POST that timed
                # out may have been carried out.
                if (method == "GET" or IDEMPOTENCY_KEY in headers) and attempt < self.retries:
                    self._sleep(min(2.0**attempt, self.max_retry_wait) * random.uniform(0.5, 1.0))
                    continue
                raise ConnectionFailed(f"{method} {self.base_url}{url}: {problem!r}") from problem
            wait = retry_after(response)
            if (response.status_code in RETRIED_STATUSES and attempt < self.retries
                    and (wait or 1.0) <= self.max_retry_wait):
                self._sleep(wait if wait is not None else 1.0)
                continue
            break
        if response.status_code == 304 and cached is not None:
            self._etags.move_to_end(key)
            return copy.deepcopy(cached[1])
        answer = self._answer(response)
        if conditional and response.headers.get("ETag"):
            self._etags[key] = (response.headers["ETag"], copy.deepcopy(answer))
            self._etags.move_to_end(key)
            while len(self._etags) > ETAG_CACHE_SIZE:
                self._etags.popitem(last=False)
        return answer

    def _answer(self, response: httpx.Response) -> Any:
        """Return the JSON of a successful answer; raise ``ApiError`` for any other."""
        body: Any = None
        if response.content:
            try:
                body = response.json()
            except ValueError:
                body = response.text
        if response.is_success:
            return body
        raise ApiError.from_answer(response.status_code, body, reason=response.reason_phrase,
                                   retry_after=retry_after(response), method=response.request.method,
                                   url=str(response.request.url))

    # -- lists and pages -------------------------------------------------------------------------
    def _paginate(self, answer: Any, key: str = "") -> list[Any]:
        """Return every item of a list answer: a JSON list, a list under ``key``, or pages linked by ``next``."""
        return list(self.iter_results(answer, key))

    def iter_results(self, answer: Any, key: str = "") -> Iterator[Any]:
        """Yield the items of a list answer, fetching the pages its ``next`` links name (on this site only)."""
        while True:
            if isinstance(answer, list):
                yield from answer
                return
            if not isinstance(answer, dict):
                raise TypeError(f"Not a list answer: {type(answer).__name__}")
            if "results" in answer:
                yield from answer["results"]
            elif key and key in answer:
                yield from answer[key]
                return
            else:
                raise TypeError(f"Not a list answer: keys {sorted(answer)}")
            following = answer.get("next")
            if not following:
                return
            answer = self._request("GET", self._same_site(following))

    def _same_site(self, link: str) -> str:
        """Return a page link as a URL on this site; refuse one elsewhere (the token must not go there)."""
        absolute = urljoin(self.base_url + "/", link)
        mine, theirs = urlsplit(self.base_url), urlsplit(absolute)
        if (theirs.scheme, theirs.netloc) != (mine.scheme, mine.netloc):
            raise TurnbasedError(f"A page link leads off this site: {link}")
        return absolute


def retry_after(response: httpx.Response) -> float | None:
    """Return the seconds of a ``Retry-After`` header given in seconds, or None."""
    value = response.headers.get("Retry-After", "").strip()
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None  # an HTTP date: the API always sends seconds
