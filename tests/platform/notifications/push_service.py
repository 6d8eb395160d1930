"""A push service on loopback, as a browser's would be: it takes a push only when it is signed with the
site's VAPID key (a JWT, ES256, RFC 8292) and decrypts it with the device's own keys (aes128gcm, RFC 8291).

Each ``Device`` is a browser's subscription made as the Push API makes one: a P-256 key pair and a
16-byte secret, and an endpoint on this server. What the server received, decrypted and checked, is kept
in ``received``; a device can be told to answer 404 or 410 (unsubscribed, expired) instead of 201.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """One browser's push subscription: its keys stay here; the site gets the public half and the secret."""

    name: str
    endpoint: str
    private_key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))
    answer: int = 201  # what the push service answers a push to it

    @property
    def p256dh(self) -> str:
        return b64url(self.private_key.public_key().public_bytes(serialization.Encoding.X962,
                                                                 serialization.PublicFormat.UncompressedPoint))

    def subscription(self) -> dict:
        """What the browser's PushSubscription.toJSON() gives the page."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": b64url(self.auth)}}


@dataclass
class Push:
    """A push as the device saw it: decrypted, with the signature's claims and the request's headers."""

    device: str
    payload: dict
    claims: dict
    headers: dict


class PushService:
    def __init__(self, *, vapid_public_key: str, subject: str):
        self.vapid_public_key = vapid_public_key  # the applicationServerKey the devices subscribed with
        self.subject = subject
        self.devices: dict[str, Device] = {}
        self.received: list[Push] = []
        self.refused: list[str] = []  # why pushes were refused (a bad signature, a payload not for the device)
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> PushService:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)

    def device(self, name: str) -> Device:
        device = Device(name=name, endpoint=f"{self.origin}/push/{name}-{b64url(os.urandom(6))}")
        self.devices[device.endpoint.rsplit("/", 1)[1]] = device
        return device

    def pushes_to(self, device: Device) -> list[Push]:
        with self.lock:
            return [push for push in self.received if push.device == device.name]

    # -- checking a push as a push service and a browser would ----------------------------------------

    def claims(self, authorization: str) -> dict:
        """Verify ``vapid t=<JWT>, k=<key>`` (RFC 8292): our key, ES256, signed, for this origin, not expired."""
        scheme, _, rest = authorization.partition(" ")
        assert scheme.lower() == "vapid", f"not a VAPID authorization: {scheme}"
        parts = dict(part.strip().split("=", 1) for part in rest.split(","))
        assert parts["k"] == self.vapid_public_key, "signed with a key other than the one the device subscribed with"
        header_b64, payload_b64, signature_b64 = parts["t"].split(".")
        header = json.loads(unb64url(header_b64))
        assert header["alg"] == "ES256" and header.get("typ", "JWT") == "JWT", header
        signature = unb64url(signature_b64)
        assert len(signature) == 64, "an ES256 signature is r and s, 32 bytes each"
        public_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(parts["k"]))
        try:
            public_key.verify(encode_dss_signature(int.from_bytes(signature[:32], "big"),
                                                   int.from_bytes(signature[32:], "big")),
                              f"{header_b64}.{payload_b64}".encode("ascii"), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            raise AssertionError("the JWT's signature does not verify") from None
        claims = json.loads(unb64url(payload_b64))
        assert claims["aud"] == self.origin, claims
        assert time.time() < claims["exp"] <= time.time() + 24 * 3600, claims  # RFC 8292: at most 24 hours
        assert claims["sub"] == self.subject, claims
        return claims

    def _handler(self):
        service = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                device = service.devices.get(self.path.rsplit("/", 1)[-1])
                if device is None:
                    self._answer(404)
                    return
                try:
                    claims = service.claims(self.headers.get("Authorization", ""))
                    assert self.headers.get("Content-Encoding") == "aes128gcm", self.headers.get("Content-Encoding")
                    assert int(self.headers["TTL"]) > 0
                    payload = json.loads(http_ece.decrypt(body, private_key=device.private_key,
                                                          auth_secret=device.auth, version="aes128gcm"))
                except Exception as error:  # noqa: BLE001 (any failure is a refused push, said why)
                    with service.lock:
                        service.refused.append(f"{type(error).__name__}: {error}")
                    self._answer(400)
                    return
                if device.answer == 201:
                    with service.lock:
                        service.received.append(Push(device=device.name, payload=payload, claims=claims,
                                                     headers={key.lower(): value for key, value in self.headers.items()}))
                self._answer(device.answer)

            def _answer(self, status: int):
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

        return Handler
