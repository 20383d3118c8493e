"""TLS 1.3 under every connection: the host's key and certificate, both sides' contexts, and
the host's door (its first look at a connection's bytes, and its bound on handshakes).

No certificate is checked against an authority or a name. The client reads the certificate the
host presented and computes its fingerprint (the SHA-256 of its DER `SubjectPublicKeyInfo`);
trust comes from a pin or from pairing by the table code (`netplay.pairing`), never from TLS.
The host's identity is the first 16 hex digits of that fingerprint, so it follows the key,
which the host keeps owner-only beside its store across `--resume`.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import hashlib
import logging
import os
import socket
import ssl
from asyncio import sslproto
from collections.abc import Callable
from pathlib import Path
from typing import Final

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from netplay.frames import PROTOCOL_VERSION, encode
from netplay.protocol import Error

log = logging.getLogger("gaslight.host")

IDENTITY_DIGITS: Final = 16
"""Hex digits of the fingerprint that make the host's identity."""
MAX_HANDSHAKES: Final = 64
"""TLS handshakes a host runs at once; more connections wait their turn."""
PLAIN_REFUSAL: Final = (f"this host speaks Gaslight protocol {PROTOCOL_VERSION} (encrypted): "
                        "update Gaslight")
STREAM_LIMIT: Final = 2 ** 16 + 64
"""The stream reader's buffer: a frame's body at most, and its header."""
CERT_YEARS: Final = 100
"""A self-signed certificate nobody checks the dates of: it outlives the host."""


def fingerprint(certificate_der: bytes) -> str:
    """The SHA-256 of a certificate's public key (its DER SubjectPublicKeyInfo), in hex."""
    public = x509.load_der_x509_certificate(certificate_der).public_key()
    spki = public.public_bytes(serialization.Encoding.DER,
                               serialization.PublicFormat.SubjectPublicKeyInfo)
    return hashlib.sha256(spki).hexdigest()


def identity(fingerprint_hex: str) -> str:
    """A host's identity: the first hex digits of its fingerprint."""
    return fingerprint_hex[:IDENTITY_DIGITS]


class HostKey:
    """The host's EC key and self-signed certificate, in one owner-only PEM file."""

    def __init__(self, path: Path):
        self.path = path
        if not path.exists():
            self._make(path)
        elif path.stat().st_mode & 0o077:
            path.chmod(0o600)
        pem = path.read_bytes()
        self.certificate = x509.load_pem_x509_certificate(pem)
        self.fingerprint = fingerprint(self.certificate.public_bytes(serialization.Encoding.DER))
        self.identity = identity(self.fingerprint)

    @staticmethod
    def _make(path: Path) -> None:
        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "gaslight host")])
        now = datetime.datetime.now(datetime.timezone.utc)
        certificate = (
            x509.CertificateBuilder()
            .subject_name(name).issuer_name(name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=365 * CERT_YEARS))
            .sign(key, hashes.SHA256())
        )
        pem = key.private_bytes(serialization.Encoding.PEM,
                                serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
        pem += certificate.public_bytes(serialization.Encoding.PEM)
        # Written under another name and linked into place: a host killed here leaves no half
        # a key, and of two hosts making a shared key at once, the second takes the first's.
        partial = path.with_name(f"{path.name}.{os.getpid()}.new")
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(pem)
                out.flush()
                os.fsync(out.fileno())
            with contextlib.suppress(FileExistsError):
                os.link(partial, path)
        finally:
            partial.unlink()

    def server_context(self) -> ssl.SSLContext:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.minimum_version = ssl.TLSVersion.TLSv1_3
        context.load_cert_chain(self.path)
        return context


TLS_READ_BUFFER: Final = 32 * 1024
"""Bytes asyncio's TLS layer takes from a socket, and decrypts, at a time. Its default,
256 KiB, is a buffer every connection keeps for its life, five per table: 1,280 of the
1,505 KiB a table cost the host in `capacity.py`, 382 KiB with this. A frame is 16 KiB at
most, so it still comes in one read; a larger burst takes a few."""
sslproto.SSLProtocol.max_size = TLS_READ_BUFFER


def client_context() -> ssl.SSLContext:
    """TLS 1.3 with no authority: the caller checks the host's fingerprint itself."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_3
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def peer_fingerprint(writer: asyncio.StreamWriter) -> str:
    """The fingerprint of the certificate the other end of a TLS stream presented."""
    ssl_object = writer.get_extra_info("ssl_object")
    der = ssl_object.getpeercert(binary_form=True) if ssl_object is not None else None
    if not der:
        raise ssl.SSLError("the host presented no certificate")
    return fingerprint(der)


async def open_tls(host: str, port: int, timeout: float) -> tuple[
        asyncio.StreamReader, asyncio.StreamWriter]:
    """A TLS connection to a host; `timeout` bounds the TCP connect and the handshake."""
    async with asyncio.timeout(timeout):
        return await asyncio.open_connection(
            host, port, ssl=client_context(), server_hostname="gaslight",
            ssl_handshake_timeout=timeout, limit=STREAM_LIMIT)


TLS_HANDSHAKE_RECORD: Final = 0x16
"""The first byte of a TLS handshake record. A Gaslight frame of protocol 1 or 2 starts with
its length's high byte, 0."""


class Door:
    """The host's first look at each connection: a first byte that cannot start TLS gets one
    plain error an old client can read; the rest get a TLS handshake, at most
    `MAX_HANDSHAKES` at once, each within `timeout` seconds of waiting and of shaking."""

    def __init__(self, key: HostKey, timeout: float, max_handshakes: int = MAX_HANDSHAKES):
        self.context = key.server_context()
        self.timeout = timeout
        self._slots = asyncio.Semaphore(max_handshakes)
        self.in_flight = 0
        """Handshakes running now (for tests)."""

    async def open(self, sock: socket.socket) -> tuple[
            asyncio.StreamReader, asyncio.StreamWriter] | None:
        """Streams over TLS for a freshly accepted socket, or None after refusing it (it is
        closed then). Raises ConnectionError or OSError for a handshake that fails or stalls."""
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(self.timeout):
            first = await self._peek(sock)
        if first != bytes([TLS_HANDSHAKE_RECORD]):
            if first:
                log.info("refused a connection that does not speak TLS (protocol 1 or 2?)")
                with contextlib.suppress(OSError):
                    sock.send(encode(Error(PLAIN_REFUSAL, fatal=True)))
            sock.close()
            return None
        async with asyncio.timeout(self.timeout):
            await self._slots.acquire()
        self.in_flight += 1
        try:
            reader = asyncio.StreamReader(limit=STREAM_LIMIT)
            protocol = asyncio.StreamReaderProtocol(reader)
            transport, _ = await loop.connect_accepted_socket(
                lambda: protocol, sock, ssl=self.context, ssl_handshake_timeout=self.timeout)
        finally:
            self.in_flight -= 1
            self._slots.release()
        return reader, asyncio.StreamWriter(transport, protocol, reader, loop)

    @staticmethod
    async def _peek(sock: socket.socket) -> bytes:
        """The first byte of a connection, left in the socket for the handshake to read (none
        if it closed first). One byte decides, as waiting for more would not see a close: a
        peek at a closed socket that still holds a byte returns that byte, again and again."""
        loop = asyncio.get_running_loop()
        while True:
            readable = loop.create_future()
            loop.add_reader(sock.fileno(), lambda: readable.done() or readable.set_result(None))
            try:
                await readable
            finally:
                loop.remove_reader(sock.fileno())
            try:
                return sock.recv(1, socket.MSG_PEEK)
            except BlockingIOError:
                continue


class Listener:
    """A listening socket that hands each accepted socket, raw, to `on_socket`: the door must
    see a connection's first bytes before any TLS, which `asyncio.start_server` would not
    let it."""

    BACKLOG: Final = 128

    def __init__(self, host: str, port: int,
                 on_socket: Callable[[socket.socket, tuple], None]):
        self.socket = socket.create_server((host, port), backlog=self.BACKLOG)
        self.socket.setblocking(False)
        name = self.socket.getsockname()
        self.address: tuple[str, int] = (name[0], name[1])
        self._on_socket = on_socket
        self._task = asyncio.get_running_loop().create_task(self._accept())

    async def _accept(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                sock, peer = await loop.sock_accept(self.socket)
            except OSError as error:  # out of file descriptors, say: the listener goes on
                log.warning("could not accept a connection: %s", error)
                await asyncio.sleep(0.1)
                continue
            sock.setblocking(False)
            self._on_socket(sock, peer)

    def close(self) -> None:
        self._task.cancel()
        self.socket.close()


def waiting_bytes(transport: asyncio.BaseTransport) -> int:
    """Bytes written to a connection and not yet taken by its socket, TLS records included.
    An asyncio TLS transport counts only what its TLS layer holds; the records it made wait in
    the TCP transport under it, which only a private attribute reaches."""
    waiting = transport.get_write_buffer_size()
    inner = getattr(getattr(transport, "_ssl_protocol", None), "_transport", None)
    if inner is not None:
        waiting += inner.get_write_buffer_size()
    return waiting
