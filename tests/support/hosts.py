"""A real host on 127.0.0.1, port 0, its store in the test's own directory: the fixtures the
netplay and hostile tests share, and reading a table back from the store."""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys

import pytest
from support.waiting import TIMEOUT  # noqa: F401 (the tests of a host import it from here)

from netplay.client import Connection
from netplay.host import Host
from netplay.limits import HostLimits
from netplay.store import Store
from netplay.table import Table
from netplay.tables import restore_table


def stored_table(data_dir, table_id: str) -> Table:
    """A table as the host's store holds it (the host may still be running)."""
    with contextlib.closing(Store.open(data_dir)) as store:
        return restore_table(table_id, store.records(table_id))


@pytest.fixture(autouse=True)
def private_data_dir(tmp_path, monkeypatch):
    """No test may touch the real user data directory: the host's store goes with the test."""
    monkeypatch.setenv("GASLIGHT_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture
async def host(tmp_path):
    """A started host whose bots hardly wait, stopped after the test."""
    server = Host(data_dir=tmp_path / "data", limits=HostLimits(bot_delay=0.002))
    await server.start("127.0.0.1", 0)
    yield server
    await server.stop()


async def connect(host: Host, name: str, **kwargs) -> Connection:
    """A client of `host` on loopback, paired by its table code, going by `name`."""
    return await Connection.connect("127.0.0.1", host.address[1], code=host.table_code,
                                    name=name, **kwargs)


async def start_host(data_dir, port: int, *extra: str):
    """`gaslight host` in a process of its own on 127.0.0.1, announcing nothing: the process,
    its port and its banner (which holds the table code, `code_of`)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", "host", "--interface", "127.0.0.1",
        "--port", str(port), "--no-announce", "--data-dir", str(data_dir), *extra,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    lines = []
    while True:
        line = (await asyncio.wait_for(process.stdout.readline(), TIMEOUT)).decode()
        assert line, f"host exited: {(await process.stderr.read()).decode()}"
        lines.append(line)
        if match := re.match(r"Gaslight host listening on 127\.0\.0\.1:(\d+)", line):
            port = int(match[1])
        if line.startswith("players join with"):
            return process, port, "".join(lines)


def code_of(banner: str) -> str:
    """The table code `gaslight host` shows, as a player would type it."""
    return re.search(r"the table code is (\d{4}-\d{4})", banner)[1]
