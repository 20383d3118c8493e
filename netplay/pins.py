"""The hosts a client has paired with: each host's key fingerprint under its identity, and the
addresses it was met at, so that a host whose key changed is noticed there (as SSH's
known_hosts does). Kept owner-only; a `KnownHosts` with no path keeps its pins in memory.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Final

from netplay.transport import identity

log = logging.getLogger("gaslight.client")

KNOWN_HOSTS_FILE: Final = "known_hosts.json"
MAX_ADDRESSES: Final = 8
"""Addresses kept per host: the latest ones."""


class KnownHosts:
    def __init__(self, path: Path | None = None):
        self.path = path
        self._hosts: dict[str, dict] = {}
        if path is not None and path.exists():
            try:
                loaded = json.loads(path.read_text())
                self._hosts = {str(k): v for k, v in loaded.get("hosts", {}).items()
                               if isinstance(v, dict) and isinstance(v.get("fingerprint"), str)}
            except (OSError, ValueError, AttributeError) as error:
                log.warning("ignored the unreadable known hosts file %s: %s", path, error)

    def trusts(self, fingerprint: str) -> bool:
        """Whether this fingerprint is pinned under its identity."""
        pin = self._hosts.get(identity(fingerprint))
        return pin is not None and pin["fingerprint"] == fingerprint

    def expected_at(self, address: str) -> str | None:
        """The fingerprint of the host last met at `address`, if one was."""
        for pin in self._hosts.values():
            if address in pin.get("addresses", []):
                return pin["fingerprint"]
        return None

    def pinned(self, host_id: str) -> str | None:
        pin = self._hosts.get(host_id)
        return None if pin is None else pin["fingerprint"]

    def pin(self, fingerprint: str, address: str) -> None:
        """Trust this fingerprint from now on, and remember it was met at `address`."""
        host_id = identity(fingerprint)
        pin = self._hosts.get(host_id)
        if pin is None or pin["fingerprint"] != fingerprint:
            pin = self._hosts[host_id] = {"fingerprint": fingerprint, "addresses": []}
        self._seen(pin, address)
        self._save()

    def seen(self, fingerprint: str, address: str) -> None:
        """A pinned host was met at `address`: that address is its now."""
        pin = self._hosts.get(identity(fingerprint))
        if pin is not None and address not in pin["addresses"]:
            self._seen(pin, address)
            self._save()

    def forget(self, host_id: str) -> bool:
        found = self._hosts.pop(host_id, None) is not None
        self._save()
        return found

    def _seen(self, pin: dict, address: str) -> None:
        for other in self._hosts.values():  # an address leads to one host at a time
            if address in other.get("addresses", []):
                other["addresses"].remove(address)
        pin["addresses"] = (pin.get("addresses", []) + [address])[-MAX_ADDRESSES:]

    def _save(self) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        partial = self.path.with_name(self.path.name + ".new")
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            json.dump({"hosts": self._hosts}, out, indent=1, sort_keys=True)
        os.replace(partial, self.path)
