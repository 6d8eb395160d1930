"""Noting the network an account signed up from, which the ratings compare (issue 42: related accounts)."""

from __future__ import annotations

from turnbased.accounts.models import profile_of, signup_network_digest


def signup_network_note(*, user, address: str | None) -> None:
    """Keep on ``user``'s profile the digest of the network ``address`` belongs to (``signup_network_digest``);
    nothing for an address that tells nothing (none, loopback, private)."""
    digest = signup_network_digest(address)
    if not digest:
        return
    profile = profile_of(user)
    profile.signup_network = digest
    profile.save(update_fields=["signup_network"])
