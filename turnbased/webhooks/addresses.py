"""Which URLs a webhook may be sent to: only public ones, so no one can make the server reach inside its network.

Checked twice (server-side request forgery): when a hook is registered or its URL
changed, and before every delivery, whose connection then goes to the address
checked (``Destination.addresses``), never to a second lookup of the name that
could answer differently (DNS rebinding).

A URL is accepted when it is ``https`` (``http`` too with
``WEBHOOKS_ALLOW_HTTP``), carries no user name or password and no fragment, names
its port only if it is 443, 80 or 1024 and above (the ports below belong to other
protocols: a POST sent to a mail or database server is an attack), and its host
(a name, or an IPv4 or IPv6 literal written the usual way) resolves only to
public unicast addresses. ``WEBHOOKS_ALLOW_PRIVATE_ADDRESSES`` lifts the address
rule (loopback receivers in tests and under ``make run``), never the others.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.utils.translation import gettext

MAX_URL_LENGTH = 2000
DEFAULT_PORTS = {"https": 443, "http": 80}
# Below 1024 only the web's own ports: the rest are other protocols' (25 SMTP, 110 POP3, 143 IMAP, ...).
LOWEST_FREE_PORT = 1024

IPv4 = ipaddress.IPv4Network
IPv6 = ipaddress.IPv6Network
# Every IPv4 range that is not public unicast (IANA's special-purpose registry, RFC 6890 and later).
NOT_PUBLIC_V4 = [
    IPv4("0.0.0.0/8"),          # "this network"
    IPv4("10.0.0.0/8"),         # private
    IPv4("100.64.0.0/10"),      # carrier-grade NAT (shared address space)
    IPv4("127.0.0.0/8"),        # loopback
    IPv4("169.254.0.0/16"),     # link-local (cloud metadata services live here)
    IPv4("172.16.0.0/12"),      # private
    IPv4("192.0.0.0/24"),       # IETF protocol assignments
    IPv4("192.0.2.0/24"),       # documentation
    IPv4("192.88.99.0/24"),     # 6to4 relay anycast
    IPv4("192.168.0.0/16"),     # private
    IPv4("198.18.0.0/15"),      # benchmarking
    IPv4("198.51.100.0/24"),    # documentation
    IPv4("203.0.113.0/24"),     # documentation
    IPv4("224.0.0.0/4"),        # multicast
    IPv4("240.0.0.0/4"),        # reserved, and the broadcast address
]
# IPv6 public unicast lies in 2000::/3; inside it, these are not public. (Outside it: loopback, the
# unspecified address, IPv4-mapped and -compatible forms, unique local fc00::/7, link-local fe80::/10,
# site-local fec0::/10, multicast ff00::/8 ... all refused.)
GLOBAL_UNICAST_V6 = IPv6("2000::/3")
NOT_PUBLIC_V6 = [
    IPv6("2001::/23"),          # IETF protocol assignments (Teredo 2001::/32 among them)
    IPv6("2001:db8::/32"),      # documentation
    IPv6("2002::/16"),          # 6to4: an IPv4 address inside
    IPv6("3fff::/20"),          # documentation
]
# NAT64 (RFC 6052): an IPv4 address in the last 32 bits, reached through a translator. On a host behind
# DNS64 every IPv4-only receiver resolves to one, so it is judged by the IPv4 address inside.
NAT64 = IPv6("64:ff9b::/96")
# A host written as digits, dots and hex: only the usual dotted quad is read as an address here
# ("2130706433", "0x7f.1" and "127.1" are 127.0.0.1 to the resolver, and refused as ambiguous).
_NUMERIC_HOST = re.compile(r"[0-9.]+|(0x[0-9a-f]*|[0-9]+)(\.(0x[0-9a-f]*|[0-9]+))*", re.IGNORECASE)
# A host name: letters, digits, hyphens and underscores, in dot-separated labels (urlsplit lowercases it).
_HOST_NAME = re.compile(r"[a-z0-9_-]+(\.[a-z0-9_-]+)*")


class UnsafeAddress(ValueError):
    """The URL may not receive webhooks; the message says why, for the person registering it."""


@dataclass(frozen=True)
class Destination:
    """Where a checked URL's requests go: its scheme, host (for Host and TLS), port and path, and the
    addresses its host resolved to, all of them allowed; connect only to these."""

    scheme: str
    host: str
    port: int
    target: str  # the path and query, as the request line sends them
    addresses: tuple[str, ...]


def is_public(address: str) -> bool:
    """Tell whether an IP address (v4 or v6, scope ignored) is public unicast."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if ip.version == 6:
        if ip in NAT64:
            return is_public(str(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)))
        return ip in GLOBAL_UNICAST_V6 and not any(ip in network for network in NOT_PUBLIC_V6)
    return not any(ip in network for network in NOT_PUBLIC_V4)


@dataclass(frozen=True)
class _Parts:
    scheme: str
    host: str
    port: int
    target: str


def _parts(url: str, *, allow_http: bool) -> _Parts:
    """Return the URL's parts once its form is allowed; raise UnsafeAddress otherwise."""
    if len(url) > MAX_URL_LENGTH:
        raise UnsafeAddress(gettext("The URL is longer than %(most)s characters.") % {"most": MAX_URL_LENGTH})
    if not url.isascii() or any(character.isspace() or ord(character) < 32 or ord(character) == 127
                                or character == "\\" for character in url):
        raise UnsafeAddress(gettext("The URL must be ASCII with no spaces, backslashes or control characters "
                                    "(write a non-ASCII name in its xn-- form)."))
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise UnsafeAddress(gettext("The URL cannot be read: %(error)s.") % {"error": error}) from None
    schemes = ("https", "http") if allow_http else ("https",)
    if parts.scheme not in schemes:
        raise UnsafeAddress(gettext("The URL must start with https://.") if not allow_http
                            else gettext("The URL must start with https:// or http://."))
    if "@" in parts.netloc:
        raise UnsafeAddress(gettext("The URL may not carry a user name or password."))
    if parts.fragment or url.endswith("#"):
        raise UnsafeAddress(gettext("The URL may not have a fragment (#...)."))
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise UnsafeAddress(gettext("The URL has no host."))
    if port is None:
        port = DEFAULT_PORTS[parts.scheme]
    elif port == 0 or (port < LOWEST_FREE_PORT and port not in DEFAULT_PORTS.values()):
        raise UnsafeAddress(gettext("Port %(port)s is not allowed: use 443, 80, or a port from %(lowest)s up.")
                            % {"port": port, "lowest": LOWEST_FREE_PORT})
    if ":" not in host and _NUMERIC_HOST.fullmatch(host):
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            raise UnsafeAddress(
                gettext("Write an IPv4 address as four decimal numbers (like 93.184.215.14).")) from None
    if ":" in host:
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise UnsafeAddress(gettext("The URL's IPv6 address cannot be read.")) from None
    elif not _HOST_NAME.fullmatch(host):
        raise UnsafeAddress(gettext("The URL's host is not a host name: letters, digits, hyphens and dots."))
    target = parts.path or "/"
    if parts.query:
        target += "?" + parts.query
    return _Parts(scheme=parts.scheme, host=host, port=port, target=target)


def _resolve(host: str, port: int) -> tuple[str, ...]:
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError) as error:
        # Not the resolver's own words: they would tell a stranger about this server's network (issue 27).
        raise UnsafeAddress(gettext("The host %(host)s cannot be resolved.") % {"host": host}) from None
    addresses = tuple(dict.fromkeys(str(sockaddr[0]).split("%", 1)[0] for *_, sockaddr in found))
    if not addresses:
        raise UnsafeAddress(gettext("The host %(host)s has no address.") % {"host": host})
    return addresses


def check(url: str, *, allow_private: bool, allow_http: bool) -> Destination:
    """Return where ``url``'s requests may go; raise UnsafeAddress when it may not receive webhooks.

    Resolves the host (a lookup, unless it is an address): every address it has must be public, so
    a name that also points inside cannot be used at all.
    """
    parts = _parts(url, allow_http=allow_http)
    addresses = _resolve(parts.host, parts.port)
    if not allow_private:
        refused = [address for address in addresses if not is_public(address)]
        if refused:
            # Which address it found is not said: this server's DNS answers are its own (issue 27).
            raise UnsafeAddress(gettext("The host %(host)s does not resolve only to public addresses: webhooks are "
                                        "sent only to public addresses.") % {"host": parts.host})
    return Destination(scheme=parts.scheme, host=parts.host, port=parts.port, target=parts.target,
                       addresses=addresses)
