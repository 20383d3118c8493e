"""`gaslight serve` without a browser: what makes a guest, and the certificate it keeps (the
browser tests in tests/browser play through it)."""

from __future__ import annotations

import ssl

import pytest
from aiohttp.test_utils import make_mocked_request

from tui.serve import GUEST_COOKIE, GaslightServer, certificate_fingerprint, guest_id, new_guest_id


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
