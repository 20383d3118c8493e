"""`gaslight serve` without a browser: what makes a guest, and the certificate it keeps (the
browser tests in tests/browser play through it)."""

from __future__ import annotations

import os
import ssl
import time

import pytest
from aiohttp.test_utils import make_mocked_request

from tui.serve.server import (GUEST_COOKIE, GUEST_COOKIE_SECONDS, GUESTS_DIR, GaslightServer,
                       certificate_fingerprint, guest_id, new_guest_id)


def request_with(cookie: str):
    return make_mocked_request("GET", "/ws", headers={"Cookie": f"{GUEST_COOKIE}={cookie}"})


def test_a_guest_id_we_made_is_a_guest():
    made = new_guest_id()
    assert guest_id(request_with(made)) == made


@pytest.mark.parametrize("cookie", [
    "", "..", "../../../../etc", "a" * 31, "a" * 33, "/" + "a" * 31, "a" * 30 + "/.",
    "." * 32, "a" * 31 + "%", "a" * 31 + "~",
])
def test_a_cookie_we_did_not_make_is_no_guest_and_never_a_path(cookie):
    assert guest_id(request_with(cookie)) is None


def test_the_certificate_is_owner_only_and_kept_across_restarts(tmp_path):
    first = GaslightServer(tmp_path / "serve")
    again = GaslightServer(tmp_path / "serve")
    assert certificate_fingerprint(first.key) == certificate_fingerprint(again.key)
    assert first.key.path.stat().st_mode & 0o077 == 0
    assert (tmp_path / "serve").stat().st_mode & 0o077 == 0
    fingerprint = certificate_fingerprint(first.key)
    assert len(fingerprint.split(":")) == 32 and fingerprint == fingerprint.upper()
    assert isinstance(first.key.server_context(), ssl.SSLContext)


def test_plain_http_makes_no_certificate(tmp_path):
    server = GaslightServer(tmp_path / "serve", https=False)
    assert server.key is None and server.scheme == "http"
    assert not list((tmp_path / "serve").iterdir())


def test_a_guest_not_seen_for_longer_than_the_cookie_lasts_is_forgotten(tmp_path):
    """No browser can name a guest whose cookie expired: the server forgets its directory
    (its name, seats and known hosts) when it starts. A visit renews the cookie and the
    mark; nothing but a guest's directory is ever removed."""
    server = GaslightServer(tmp_path / "serve", https=False)
    gone, kept, back = new_guest_id(), new_guest_id(), new_guest_id()
    for guest in (gone, kept, back):
        (server.guest_home(guest) / "data").mkdir()
    other = server.root / GUESTS_DIR / "notes"
    other.mkdir()
    long_ago = time.time() - GUEST_COOKIE_SECONDS - 60
    for old in (gone, back, "notes"):
        os.utime(server.root / GUESTS_DIR / old, (long_ago, long_ago))
    server.visited(back)
    assert server.forget_expired_guests() == [gone]
    assert sorted(p.name for p in (server.root / GUESTS_DIR).iterdir()) == sorted(
        [kept, back, "notes"])
    assert (server.guest_home(back) / "data").is_dir()
