"""The address rule of webhooks (server-side request forgery): only https URLs of public addresses.

Pure checks, no database: ``is_public`` on addresses, ``check`` on URLs with the resolver
replaced (``resolving``), and the relaxing settings' exact reach.
"""

from __future__ import annotations

import socket

import pytest

from turnbased.webhooks import addresses
from turnbased.webhooks.addresses import UnsafeAddress, check, is_public

NOT_PUBLIC = [
    "0.0.0.0", "0.1.2.3",                          # this network
    "10.0.0.1", "10.255.255.255",                  # private
    "100.64.0.1", "100.127.255.254",               # carrier-grade NAT
    "127.0.0.1", "127.255.255.254",                # loopback
    "169.254.169.254", "169.254.0.1",              # link-local, cloud metadata
    "172.16.0.1", "172.31.255.255",                # private
    "192.0.0.8", "192.0.2.1",                      # IETF assignments, documentation
    "192.88.99.1",                                 # 6to4 relays
    "192.168.0.1", "192.168.255.255",              # private
    "198.18.0.1", "198.19.255.255",                # benchmarking
    "198.51.100.7", "203.0.113.9",                 # documentation
    "224.0.0.1", "239.255.255.250",                # multicast
    "240.0.0.1", "255.255.255.255",                # reserved, broadcast
    "::", "::1",                                   # unspecified, loopback
    "::ffff:127.0.0.1", "::ffff:8.8.8.8",          # IPv4-mapped, even of a public address
    "::127.0.0.1", "::8.8.8.8",                    # IPv4-compatible (deprecated)
    "64:ff9b::7f00:1", "64:ff9b::a00:1",           # NAT64 of loopback and of a private address
    "64:ff9b:1::a00:1",                            # local-use NAT64
    "fc00::1", "fd12:3456:789a::1",                # unique local
    "fe80::1", "fe80::1%eth0", "febf::1",          # link-local
    "fec0::1",                                     # site-local (deprecated)
    "ff02::1", "ff0e::1",                          # multicast
    "100::1",                                      # discard
    "2001::1", "2001:0:4136:e378::1",              # Teredo
    "2001:db8::1", "3fff::1",                      # documentation
    "2002:7f00:1::1", "2002:808:808::1",           # 6to4
    "4000::1", "e000::1",                          # outside global unicast
]
PUBLIC = ["8.8.8.8", "93.184.215.14", "1.1.1.1", "100.63.255.255", "100.128.0.1", "172.15.255.255", "172.32.0.1",
          "192.167.255.255", "192.169.0.1", "223.255.255.255", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e",
          "64:ff9b::808:808"]


@pytest.mark.parametrize("address", NOT_PUBLIC)
def test_an_address_that_is_not_public_unicast_is_refused(address):
    assert not is_public(address)


@pytest.mark.parametrize("address", PUBLIC)
def test_a_public_unicast_address_is_allowed(address):
    assert is_public(address)


@pytest.fixture
def resolving(monkeypatch):
    """Make the resolver answer from a table: name -> addresses (an address literal resolves to itself)."""
    table: dict[str, list[str]] = {}

    def getaddrinfo(host, port, *args, **kwargs):
        if host in table:
            found = table[host]
        else:
            try:
                found = [str(addresses.ipaddress.ip_address(host))]
            except ValueError:
                raise socket.gaierror(socket.EAI_NONAME, "Name or service not known") from None
        return [(socket.AF_INET6 if ":" in address else socket.AF_INET, socket.SOCK_STREAM, 6, "",
                 (address, port)) for address in found]

    monkeypatch.setattr(addresses.socket, "getaddrinfo", getaddrinfo)
    table.update({
        "hooks.example.org": ["93.184.215.14"],
        "dual.example.org": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
        "inside.example.org": ["10.1.2.3"],
        "half-inside.example.org": ["93.184.215.14", "192.168.1.1"],
        "rebind.example.org": ["169.254.169.254"],
        "mapped.example.org": ["::ffff:10.0.0.1"],
        "localhost": ["127.0.0.1", "::1"],
    })
    return table


def _check(url: str, *, allow_private: bool = False, allow_http: bool = False):
    return check(url, allow_private=allow_private, allow_http=allow_http)


BAD_URLS = [
    ("http://hooks.example.org/", "must start with https://"),
    ("ftp://hooks.example.org/", "must start with https://"),
    ("file:///etc/passwd", "must start with https://"),
    ("gopher://hooks.example.org:70/", "must start with https://"),
    ("//hooks.example.org/", "must start with https://"),
    ("hooks.example.org/hook", "must start with https://"),
    ("https:///hook", "no host"),
    ("https://user:secret@hooks.example.org/", "user name or password"),
    ("https://user@hooks.example.org/", "user name or password"),
    ("https://hooks.example.org@127.0.0.1/", "user name or password"),
    ("https://hooks.example.org\\@127.0.0.1/", "backslashes"),
    ("https://hooks.example.org/#fragment", "fragment"),
    ("https://hooks.example.org/ path", "no spaces"),
    ("https://hooks.example.org/\npath", "no spaces"),
    ("https://hooks.exämple.org/", "ASCII"),
    ("https://hooks.example.org:25/", "Port 25 is not allowed"),
    ("https://hooks.example.org:22/", "Port 22 is not allowed"),
    ("https://hooks.example.org:0/", "Port 0 is not allowed"),
    ("https://hooks.example.org:99999/", "cannot be read"),
    ("https://hooks.example.org:port/", "cannot be read"),
    ("https://[::1/", "cannot be read"),
    ("https://%31%32%37.0.0.1/", "not a host name"),
    ("https://2130706433/", "four decimal numbers"),
    ("https://0x7f000001/", "four decimal numbers"),
    ("https://0x7f.0.0.1/", "four decimal numbers"),
    ("https://127.1/", "four decimal numbers"),
    ("https://017700000001/", "four decimal numbers"),
    ("https://" + "a" * 2000 + ".org/", "longer than"),
    ("https://unknown.example.org/", "cannot be resolved"),
    ("https://localhost/", "only to public addresses"),
    ("https://LOCALHOST./", "only to public addresses"),
    ("https://127.0.0.1/", "only to public addresses"),
    ("https://127.0.0.1:8443/", "only to public addresses"),
    ("https://10.0.0.1/", "only to public addresses"),
    ("https://169.254.169.254/latest/meta-data/", "only to public addresses"),
    ("https://100.64.0.1/", "only to public addresses"),
    ("https://[::1]/", "only to public addresses"),
    ("https://[::ffff:127.0.0.1]/", "only to public addresses"),
    ("https://[::ffff:7f00:1]/", "only to public addresses"),
    ("https://[fe80::1%25eth0]/", "only to public addresses"),
    ("https://[fd00::1]/", "only to public addresses"),
    ("https://[64:ff9b::a9fe:a9fe]/", "only to public addresses"),
    ("https://inside.example.org/", "inside.example.org does not resolve only to public addresses"),
    ("https://half-inside.example.org/", "half-inside.example.org does not resolve only to public addresses"),
    ("https://rebind.example.org/", "rebind.example.org does not resolve only to public addresses"),
    ("https://mapped.example.org/", "only to public addresses"),
]


@pytest.mark.parametrize(("url", "why"), BAD_URLS, ids=[url[:60] for url, _ in BAD_URLS])
def test_a_url_that_may_not_receive_webhooks_is_refused_saying_why(resolving, url, why):
    with pytest.raises(UnsafeAddress, match=why.replace("\\", "\\\\").replace("(", "\\(")) as refused:
        _check(url)
    # Issue 27: what this server's resolver answered is never told (the addresses it found, its errors).
    for inside in ("10.1.2.3", "192.168.1.1", "169.254.169.254", "Errno", "Name or service"):
        if inside not in url:
            assert inside not in str(refused.value)


GOOD_URLS = [
    ("https://hooks.example.org/", ("https", "hooks.example.org", 443, "/", ("93.184.215.14",))),
    ("https://hooks.example.org", ("https", "hooks.example.org", 443, "/", ("93.184.215.14",))),
    ("https://Hooks.Example.ORG./a/b?c=d&e=%20", ("https", "hooks.example.org", 443, "/a/b?c=d&e=%20",
                                                  ("93.184.215.14",))),
    ("https://hooks.example.org:8443/x", ("https", "hooks.example.org", 8443, "/x", ("93.184.215.14",))),
    ("https://hooks.example.org:80/", ("https", "hooks.example.org", 80, "/", ("93.184.215.14",))),
    ("https://93.184.215.14/", ("https", "93.184.215.14", 443, "/", ("93.184.215.14",))),
    ("https://[2606:4700:4700::1111]/", ("https", "2606:4700:4700::1111", 443, "/", ("2606:4700:4700::1111",))),
    ("https://dual.example.org/", ("https", "dual.example.org", 443, "/",
                                   ("93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"))),
]


@pytest.mark.parametrize(("url", "expected"), GOOD_URLS, ids=[url for url, _ in GOOD_URLS])
def test_a_public_https_url_is_allowed_with_the_addresses_to_connect_to(resolving, url, expected):
    destination = _check(url)
    assert (destination.scheme, destination.host, destination.port, destination.target,
            destination.addresses) == expected


def test_http_only_with_its_setting_and_then_on_port_80_by_default(resolving):
    destination = _check("http://hooks.example.org/", allow_http=True)
    assert (destination.scheme, destination.port) == ("http", 80)
    with pytest.raises(UnsafeAddress, match="Port 25"):
        _check("http://hooks.example.org:25/", allow_http=True)


def test_private_addresses_only_with_their_setting_which_lifts_nothing_else(resolving):
    assert _check("https://127.0.0.1:8443/", allow_private=True).addresses == ("127.0.0.1",)
    assert _check("https://localhost/", allow_private=True).addresses == ("127.0.0.1", "::1")
    assert _check("https://inside.example.org/", allow_private=True).addresses == ("10.1.2.3",)
    for url, why in [("http://127.0.0.1:8000/", "https://"), ("https://u:p@127.0.0.1/", "password"),
                     ("https://127.0.0.1:25/", "Port 25"), ("https://2130706433/", "four decimal")]:
        with pytest.raises(UnsafeAddress, match=why):
            _check(url, allow_private=True)


def test_the_real_resolver_refuses_loopback_names():
    """No stand-in: this machine's own resolver says what localhost is, and it is refused."""
    with pytest.raises(UnsafeAddress, match="only to public addresses"):
        check("https://localhost/", allow_private=False, allow_http=False)
