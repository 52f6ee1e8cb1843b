"""The client's network address, believing a forwarded address only from a trusted proxy.

Log-in lockouts and sign-up limits count per address, so the address must be
one the client cannot choose. ``REMOTE_ADDR`` is the peer that opened the
connection; ``X-Forwarded-For`` is whatever the client wrote, plus one address
appended by each proxy it passed. The header is therefore read only when the
peer is one of ``settings.TRUSTED_PROXIES`` (addresses or networks), and then
from the right: each trusted proxy vouches for the address to its left, and the
first address that no trusted proxy owns is the client. Anything further left
was written by the client and is ignored.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in entries if entry.strip())


def _parse(value: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(value.strip())
    except ValueError:
        return None
    # An IPv4 client seen through an IPv6 socket (::ffff:203.0.113.5) is that IPv4 client.
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _trusted(address, networks: tuple[Network, ...]) -> bool:
    return any(address.version == network.version and address in network for network in networks)


def client_address(request: HttpRequest) -> str | None:
    """Return the address of the client that sent ``request`` (None if the server gave none)."""
    peer = _parse(request.META.get("REMOTE_ADDR", "") or "")
    if peer is None:
        return None
    networks = _networks(tuple(settings.TRUSTED_PROXIES))
    if not networks or not _trusted(peer, networks):
        return str(peer)
    hops = [hop for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    client = peer
    for hop in reversed(hops):
        address = _parse(hop)
        if address is None:  # a trusted proxy never writes garbage: the client did, so stop here
            break
        client = address
        if not _trusted(address, networks):
            break
    return str(client)


def address_bucket(address: str | None) -> str | None:
    """Return the address that per-address limits count for ``address``: itself, or its /64 for IPv6.

    One IPv6 subscriber is routed a whole /64 (often more) and can use a fresh
    address from it for every request, so counting single IPv6 addresses would
    limit nobody. The /64 is named by its first address (``2001:db8:1:2::``),
    so it fits wherever an address is stored.
    """
    parsed = _parse(address or "")
    if parsed is None:
        return None
    if parsed.version == 6:
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False).network_address)
    return str(parsed)


def limit_address(request: HttpRequest) -> str | None:
    """Return the address under which ``request`` counts toward log-in and sign-up limits."""
    return address_bucket(client_address(request))
