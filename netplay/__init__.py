"""LAN play: the wire protocol, the asyncio host, the client connection, discovery and the store.

- `netplay.protocol`: sans-IO frames, limits and the typed messages both sides send;
- `netplay.errors`: protocol errors, refusals and rejections, and which close a connection;
- `netplay.host`: the server, its connections, the handshake and the dispatch;
- `netplay.tables`: tables, seats, tokens and the seat rules, without sockets;
- `netplay.bots`: the driver that plays a table's bot seats;
- `netplay.store`: one SQLite store per host, group-committed, for `--resume`;
- `netplay.discovery`: zeroconf announcement and browsing of tables;
- `netplay.client`: `Connection`, what the TUI and the tests play through.

Every message is described in `netplay/PROTOCOL.md`.
"""
