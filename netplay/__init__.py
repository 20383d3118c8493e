"""LAN play: the wire protocol, the asyncio host, the client connection, discovery and journals.

- `netplay.protocol`: sans-IO frames, limits and the typed messages clients send;
- `netplay.host`: the host, its tables, seats, bots and per-connection queues;
- `netplay.journal`: one append-only, fsynced journal per table, for `--resume`;
- `netplay.discovery`: zeroconf announcement and browsing of tables;
- `netplay.client`: `Connection`, what the TUI and the tests play through.

Every message is described in `netplay/PROTOCOL.md`.
"""
