"""LAN play: the wire protocol, the asyncio host, the client connection, discovery and the store.

Each module and its one job are listed in `netplay/README.md`; every message is described in
`netplay/PROTOCOL.md`. What the TUI uses: `netplay.client.Connection` (and, to host a table in
its own process, `netplay.host.Host` with `netplay.limits.HostLimits`).
"""
