"""Which address a request counts under: the peer, unless a trusted proxy vouches for a forwarded one."""

from platform.accounts.addresses import address_bucket, client_address, limit_address

import pytest
from django.test import RequestFactory

PROXIES = ["10.9.0.0/16", "2001:db8:ffff::1"]


def request(peer: str, forwarded: str | None = None):
    headers = {"REMOTE_ADDR": peer}
    if forwarded is not None:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().post("/accounts/login/", **headers)


@pytest.mark.parametrize(
    ("peer", "forwarded", "expected"),
    [
        # Not from a trusted proxy: the header is the client's own words.
        ("198.51.100.7", "1.2.3.4", "198.51.100.7"),
        ("198.51.100.7", None, "198.51.100.7"),
        # From a trusted proxy: the right-most address it does not own.
        ("10.9.0.2", "203.0.113.5", "203.0.113.5"),
        ("10.9.0.2", "1.2.3.4, 203.0.113.5", "203.0.113.5"),
        ("10.9.0.2", "1.2.3.4, 203.0.113.5, 10.9.4.4", "203.0.113.5"),  # two proxies
        ("10.9.0.2", "not-an-address, 203.0.113.5", "203.0.113.5"),
        ("10.9.0.2", "203.0.113.5, not-an-address", "10.9.0.2"),  # garbage where the proxy writes
        ("10.9.0.2", "", "10.9.0.2"),
        ("10.9.0.2", None, "10.9.0.2"),
        ("2001:db8:ffff::1", "2001:db8:1::5", "2001:db8:1::5"),
        ("::ffff:198.51.100.7", None, "198.51.100.7"),
    ],
)
def test_client_address(settings, peer, forwarded, expected):
    settings.TRUSTED_PROXIES = PROXIES
    assert client_address(request(peer, forwarded)) == expected


def test_no_trusted_proxies_means_the_header_is_never_read(settings):
    settings.TRUSTED_PROXIES = []
    assert client_address(request("10.9.0.2", "203.0.113.5")) == "10.9.0.2"


@pytest.mark.parametrize(
    ("address", "bucket"),
    [
        ("203.0.113.5", "203.0.113.5"),
        ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::"),
        ("2001:db8:1:2::1", "2001:db8:1:2::"),
        ("", None),
        ("nonsense", None),
    ],
)
def test_limits_count_an_ipv6_64_as_one_address(address, bucket):
    assert address_bucket(address) == bucket


def test_limit_address_combines_both(settings):
    settings.TRUSTED_PROXIES = PROXIES
    assert limit_address(request("10.9.0.2", "2001:db8:1:2::77")) == "2001:db8:1:2::"
