"""Finished games, through the door (`Backend` mixes this in): the past games a host lists for
this player's tokens, the replay files in the data directory, a replay file opened in a host
of its own on 127.0.0.1 (as quick play opens a game), the connection a replay is watched on,
and a fetched record saved as a file. netplay reads the files and plays the records through
the engine; this side only gets plain entries and connections, so the TUI never holds a game
state. Nothing here imports textual; `netplay` is imported on first use.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui.address import Address
from tui.listing import Ticket
from tui.local_hosts import LOCAL
from tui.past_games import OpenedReplay, PastGame, ReplayFileFailed
from tui.seat_book import HeldSeat, SeatBook

if TYPE_CHECKING:
    from netplay.client import Connection
    from netplay.game_record import GameRecord
    from netplay.host import Host
    from netplay.person import PersonKey
    from netplay.replay_file import ReplayHost

ASK_TIMEOUT = 3.0
"""Seconds a host has to answer before the past games go on without it."""
TOKENS_ASKED = 5
"""Seats asked about per host: a host answers 5 lists at once, then one a second."""
LISTED_FILES = 40
"""Replay files listed: the newest."""
REPLAYS_DIR = "replays"
"""Where this player's replay files go, in Gaslight's data directory."""


class Replaying:
    """Lists, opens, watches and saves finished games for the app."""

    data_dir: Path | None
    codes: dict[Address, str]
    replay_hosts: list["ReplayHost"]

    if TYPE_CHECKING:
        person: PersonKey
        seats: SeatBook

        def seat_key(self, seat: HeldSeat) -> str | None: ...
        def trust(self, address: Address, expected: str | None = None) -> dict[str, Any]: ...
        async def keep_listed(self, connection: Connection, listed: list[dict[str, Any]], *,
                              table: str | None = None,
                              token: str | None = None) -> list[Path]: ...
        def remember_code(self, address: Address, code: str) -> None: ...
        def own_host(self, address: Address) -> "Host | None": ...

    def replays_folder(self) -> Path:
        """Where this player's replay files go: Gaslight's data directory, `replays/` (made
        if missing, owner-only)."""
        from netplay.store import data_dir, private_dir

        return private_dir(data_dir(self.data_dir) / REPLAYS_DIR)

    async def past_games_at(self, address: Address, tokens: list[str], name: str,
                            fingerprint: str | None = None) -> list[PastGame]:
        """The finished games the host at `address` lets these seat tokens watch (the first
        `TOKENS_ASKED`), each with the token that may watch it; `fingerprint` is the key of
        the host that gave them, checked before any token is sent. Each game is kept as a
        replay file as it is found (`keep_listed`: one missed at its end, say), and a
        game kept as a file is listed by `replay_files`, not here. A host that is gone, slow
        (`ASK_TIMEOUT`), untrusted or refusing lists nothing; an entry that is not a game is
        left out."""
        from netplay.replay_file import file_name

        folder = self.replays_folder()

        async def ask() -> list[PastGame]:
            conn = await self.watch(address, fingerprint, name)
            found: dict[str, PastGame] = {}
            try:
                # One list per token, so that each game is opened with the token that may
                # watch it.
                for token in tokens[:TOKENS_ASKED]:
                    listed = await conn.list_replays([token])
                    with contextlib.suppress(Exception):  # what could not be kept is listed
                        await self.keep_listed(conn, listed, token=token)
                    for entry in listed:
                        try:
                            game = PastGame.of(entry, address=address, token=token,
                                               fingerprint=fingerprint)
                            if (folder / file_name(entry)).exists():
                                continue
                        except (KeyError, TypeError, ValueError, AttributeError):
                            continue
                        found.setdefault(game.game, game)
            finally:
                await conn.close()
            return list(found.values())

        try:
            async with asyncio.timeout(ASK_TIMEOUT):
                return await ask()
        except Exception:  # a host that is gone or refuses lists nothing
            return []

    async def past_games(self, name: str, limit: int = LISTED_FILES) -> list[PastGame]:
        """Every past game of this player's, newest first, at most `limit`: the kept files
        (`replay_files`), and the games of the hosts that gave them seat tokens (the seats
        played to an end, `played_book`, and the seats held now), asked together per host and
        key (`past_games_at`), which keeps them as files as it finds them. The lobby's Ctrl+Y
        lists this."""
        from tui.played_games import played_book

        by_host: dict[tuple[Address, str | None], list[HeldSeat]] = {}
        for seat in [*reversed(played_book(self).all()), *self.seats.all()]:
            held = by_host.setdefault((seat.address, seat.fingerprint), [])
            if seat.token not in [s.token for s in held]:
                held.append(seat)
        asked = await asyncio.gather(*(
            self.past_games_at(address, [s.token for s in held], name, self.seat_key(held[0]))
            for (address, _), held in by_host.items()))
        found = [game for games in asked for game in games]
        found.extend(await self.replay_files(limit))
        found.sort(key=lambda g: g.ended or 0, reverse=True)
        return found[:limit]

    async def replay_files(self, limit: int = LISTED_FILES) -> list[PastGame]:
        """The replay files in the data directory's `replays/` (the games this player was at,
        kept as they ended, and replays saved), newest game first, at most `limit`, each
        starting through the eyes of the seat this person played; a damaged file is one line
        saying what is wrong with it."""
        from netplay.replay_file import folder_listing

        entries = await asyncio.to_thread(folder_listing, self.replays_folder(), limit,
                                          self.person.id)
        return [PastGame.of(entry) for entry in entries]

    async def open_replay_file(self, source: Path | str | GameRecord) -> OpenedReplay:
        """Show a replay file (a path, or a record `netplay.replay_file.read` gave) in a host
        of this app's own on 127.0.0.1, which pairs silently. ReplayFileFailed, saying why,
        for a file that cannot be read or does not hold a finished game."""
        from netplay.game_record import RecordError
        from netplay.replay_file import ReplayFileError, ReplayHost, read

        if isinstance(source, (str, Path)):
            path = Path(source)
            try:
                record = await asyncio.to_thread(read, path)
            except ReplayFileError as error:
                raise ReplayFileFailed(f"Cannot open {path.name}: {error}.") from None
        else:
            record = source
        host = ReplayHost(record)
        try:
            _, port = await host.start()
        except (RecordError, ReplayFileError) as error:
            raise ReplayFileFailed(f"Cannot open the replay: {error}.") from None
        self.replay_hosts.append(host)
        address = Address(LOCAL, port)
        self.remember_code(address, host.host.table_code)

        async def close() -> None:
            self.codes.pop(address, None)
            if host in self.replay_hosts:
                self.replay_hosts.remove(host)
            await host.stop()

        return OpenedReplay(Ticket(address, None, spectate=True), record.game, close)

    async def close_replay_files(self) -> None:
        """Stop the hosts of the replay files still open (the app is quitting)."""
        for host in list(self.replay_hosts):
            self.replay_hosts.remove(host)
            with contextlib.suppress(Exception):
                await host.stop()

    async def watch(self, address: Address, fingerprint: str | None, name: str) -> Connection:
        """A connection to watch finished games on at `address` (no table, no seat): the one a
        replay screen asks its steps and the record on. `fingerprint` is the key of the host
        that gave the token the replay is asked with, checked before anything is sent. Raises
        what `Connection.connect` raises (OSError, HostRefused, HostKeyChanged, WrongCode...)."""
        from netplay.client import Connection

        return await Connection.connect(address.host, address.port, name=name or "Replay",
                                        reconnect=False, **self.trust(address, fingerprint))

    def save_replay(self, entries: list[dict]) -> Path:
        """Save a finished game's record (the entries of its `record` parts, in order) as a
        replay file in the data directory's `replays/`, named after its game; the path.
        ReplayFileFailed, saying why, for entries that are not a finished game or a file that
        cannot be written. It plays the game through the engine to be sure: a long game takes
        a moment (call it in a thread if that matters)."""
        from netplay import replay_file

        try:
            return replay_file.save_in(self.replays_folder(), entries)
        except replay_file.ReplayFileError as error:
            raise ReplayFileFailed(f"Could not save the replay: {error}.") from None
        except OSError as error:
            raise ReplayFileFailed(
                f"Could not save the replay: {error.strerror or error}.") from None
