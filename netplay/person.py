"""Who a person is, across tables and evenings: a key each app keeps, and the proof of it that a
`hello` carries (PROTOCOL.md, "Who a person is").

A display name tells nobody apart: two friends may both be Ann, and anyone may call themselves
Ann. So each app keeps an Ed25519 key, made at its first start, owner-only in its data
directory. The person's id is the first hex digits of the SHA-256 of the public key. A `hello`
says the public key and signs, with the private one, a label and the fingerprint of the host's
key as the client saw it: the host checks the signature against its own fingerprint, and
records the id with the seat the person takes, so every game's record says who played each
seat. The proof is bound to one host's key, so no host can present it to another; and the id,
which every record shows, is no proof: whoever reads it cannot make one.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Final

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from netplay.frames import PROTOCOL_VERSION

PERSON_FILE: Final = "person.key"
"""The person's key in the app's data directory."""
PROOF_LABEL: Final = f"gaslight-{PROTOCOL_VERSION} person".encode()
"""What a proof signs before the host's fingerprint: no other signature of the key reads so."""
ID_DIGITS: Final = 32
"""Hex digits of the public key's SHA-256 that make a person's id: 128 bits."""


class BadProof(ValueError):
    """A `hello`'s person and proof that do not go together, for this host's key."""


def person_id(public_key_hex: str) -> str:
    """The id of the person whose public key (hex) this is."""
    return hashlib.sha256(bytes.fromhex(public_key_hex)).hexdigest()[:ID_DIGITS]


def check_proof(public_key_hex: str, proof_hex: str, fingerprint_hex: str) -> str:
    """The person's id, if `proof_hex` is their signature over this host's fingerprint;
    BadProof otherwise."""
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key_hex))
        key.verify(bytes.fromhex(proof_hex), PROOF_LABEL + bytes.fromhex(fingerprint_hex))
    except (ValueError, InvalidSignature):
        raise BadProof("the person's proof does not match their key and this host") from None
    return person_id(public_key_hex)


class PersonKey:
    """The key of the person using this app: made once, kept owner-only at `path`; with no
    path, in memory (tests)."""

    def __init__(self, path: Path | None = None):
        self.path = path
        if path is None:
            self._key = Ed25519PrivateKey.generate()
        else:
            self._key = self._load(path)
        raw = self._key.public_key().public_bytes(serialization.Encoding.Raw,
                                                  serialization.PublicFormat.Raw)
        self.public_hex = raw.hex()
        self.id = person_id(self.public_hex)

    @staticmethod
    def _load(path: Path) -> Ed25519PrivateKey:
        try:
            return Ed25519PrivateKey.from_private_bytes(path.read_bytes())
        except FileNotFoundError:
            pass
        except ValueError:
            # A damaged key proves nothing: it is set aside, not thrown away, and a new one
            # starts a new record.
            path.replace(path.with_name(path.name + ".damaged"))
        key = Ed25519PrivateKey.generate()
        raw = key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                serialization.NoEncryption())
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        # Written under another name and renamed: an app killed here leaves no half a key.
        partial = path.with_name(path.name + ".new")
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(raw)
            out.flush()
            os.fsync(out.fileno())
        os.replace(partial, path)
        return key

    def proof(self, fingerprint_hex: str) -> str:
        """The signature, in hex, that proves this person to the host of that fingerprint."""
        return self._key.sign(PROOF_LABEL + bytes.fromhex(fingerprint_hex)).hex()

    def hello_fields(self, fingerprint_hex: str) -> dict[str, str | None]:
        """What a `hello` to the host of that fingerprint says of this person."""
        return {"person": self.public_hex, "proof": self.proof(fingerprint_hex)}
