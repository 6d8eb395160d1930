"""The POST over TLS: to the address checked, with the certificate checked for the URL's host name."""

from __future__ import annotations

import socket
import ssl
import subprocess

import pytest

from tests.platform.webhooks.receivers import Receiver
from turnbased.webhooks import addresses, client


@pytest.fixture
def tls_receiver(tmp_path, loopback_allowed, monkeypatch):
    """An HTTPS receiver on loopback whose certificate names hooks.example.org, which resolves to loopback,
    and a client that trusts that certificate (and nothing else)."""
    certificate, key = tmp_path / "certificate.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-days", "1", "-subj", "/CN=hooks.example.org", "-addext", "subjectAltName=DNS:hooks.example.org",
         "-keyout", str(key), "-out", str(certificate)],
        check=True, capture_output=True,
    )
    receiver = Receiver().start()
    server_side = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_side.load_cert_chain(certificate, key)
    receiver.server.socket = server_side.wrap_socket(receiver.server.socket, server_side=True)
    trusting = ssl.create_default_context(cafile=str(certificate))
    monkeypatch.setattr(client, "_tls_context", lambda: trusting)
    real = addresses.socket.getaddrinfo

    def resolve(host, port, *args, **kwargs):
        if host in ("hooks.example.org", "other.example.org"):
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(addresses.socket, "getaddrinfo", resolve)
    yield receiver
    receiver.stop()


def test_https_reaches_the_pinned_address_and_checks_the_certificate_for_the_name(tls_receiver):
    outcome = client.post(f"https://hooks.example.org:{tls_receiver.port}/hook", b'{"id":1}',
                          {"X-Turnbased-Event": "ping"})
    assert outcome.delivered, outcome
    [request] = tls_receiver.received
    assert request.body == b'{"id":1}' and request.headers["Host"] == f"hooks.example.org:{tls_receiver.port}"


def test_a_certificate_for_another_name_fails_the_attempt(tls_receiver):
    outcome = client.post(f"https://other.example.org:{tls_receiver.port}/hook", b"{}", {})
    assert not outcome.delivered
    assert outcome.status is None and outcome.error.startswith("TLS certificate not valid"), outcome
    assert tls_receiver.received == []


def test_a_refused_connection_and_an_unresolvable_name_are_failed_attempts(loopback_allowed):
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    listener.close()
    refused = client.post(f"http://127.0.0.1:{port}/", b"{}", {})
    assert (refused.delivered, refused.status, refused.error) == (False, None, "connection refused")
    unknown = client.post("https://no-such-host.invalid/", b"{}", {})
    assert unknown.error.startswith("refused: The host no-such-host.invalid cannot be resolved")
