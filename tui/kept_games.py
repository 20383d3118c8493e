"""The games this player was at, kept on this machine (`Backend` mixes this in): each finished
game they played or watched, as a replay file in the data directory's `replays/`, so that the
past games and `gaslight replay` show it after its table closed, its host stopped or its
machine left the LAN, and the group's record (`netplay.group_record`) is made from them.

What is kept is what the host lets this player watch: the game's record (PROTOCOL.md,
"Replays": its seats, moves, covers and table chat, and its seed, so the end reveals
everything), fetched on the table's own connection at the game's end (`keep_game`), or on a
connection of its own with a seat's token when the past games ask a host (`keep_games_from`).
The host sends nothing unasked. Files are owner-only and bounded: the newest `KEPT_GAMES`
games, `KEPT_BYTES` in all; beyond that the oldest go first. Nothing expires by age: the
record across evenings is made from these files.

Nothing here imports textual; `netplay` is imported on first use.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Final

from tui.address import Address
from tui.listing import Ticket
from tui.models.evenings import PastEvening, past_evenings

if TYPE_CHECKING:
    from netplay.client import Connection
    from netplay.group_record import GroupRecord
    from netplay.host import Host
    from netplay.person import PersonKey

KEPT_GAMES: Final = 2000
"""Replay files kept at most: years of evenings. A game's file is 5 to 50 KB."""
KEPT_BYTES: Final = 200 * 2 ** 20
"""Bytes of replay files kept at most."""


class KeptGames:
    """Keeps the finished games of the tables this player is at, as replay files."""

    keeping: set[asyncio.Task]

    if TYPE_CHECKING:
        person: PersonKey

        def replays_folder(self) -> Path: ...
        def own_host(self, address: Address) -> Host | None: ...

    def keep_game(self, ticket: Ticket, connection: Connection | None,
                  note: Callable[[str], None] | None = None) -> None:
        """A game has ended at the ticket's table: keep, as replay files, every game of that
        table this player may watch and does not have yet (the one just ended, and any
        missed, away at its end), and bound the folder. A host this app runs in its own
        process gives its records at once; any other is asked on the table's `connection`,
        beside the screen that reads it. It runs on: what goes wrong is told to `note`."""
        from tui.played_games import remember_played

        try:
            # A seat's token lets its player ask that host again while it runs.
            remember_played(self, ticket, connection)
            own = self.own_host(ticket.address)
            if own is not None and ticket.table is not None:
                self._keep_entries([record.entries()
                                    for record in own.replays.finished_records(ticket.table)])
                return
        except (OSError, ValueError) as error:
            if note is not None:
                note(f"Could not keep this game's replay: {error}")
            return
        if connection is None:
            return

        async def keep() -> None:
            try:
                await self.keep_games_from(connection, table=connection.table)
            except Exception as error:  # the link dropped, the host refused: said, not raised
                if note is not None:
                    note(f"Could not keep this game's replay: {error}")

        task = asyncio.get_running_loop().create_task(keep())
        self.keeping.add(task)
        task.add_done_callback(self.keeping.discard)

    async def keep_games_from(self, connection: Connection, *, table: str | None = None,
                              token: str | None = None) -> list[Path]:
        """Keep every finished game `connection` (with `token`, if given) may watch at its host
        and this player does not have yet (of `table` only, if given): the files written.
        Raises what the connection raises (NotConnected, TimeoutError...)."""
        listed = await connection.list_replays([token] if token else [])
        return await self.keep_listed(connection, listed, table=table, token=token)

    async def keep_listed(self, connection: Connection, listed: list[dict[str, Any]], *,
                          table: str | None = None, token: str | None = None) -> list[Path]:
        """Keep the games of a `replays` answer (`listed`, of `table` only, if given) that
        this player does not have yet, fetched on `connection` with `token`: the files
        written."""
        from netplay.replay_file import file_name

        folder = self.replays_folder()
        wanted = []
        for entry in listed:
            try:
                if table is not None and entry["table"] != table:
                    continue
                if not (folder / file_name(entry)).exists():
                    wanted.append(str(entry["game"]))
            except (KeyError, TypeError, AttributeError):
                continue  # not a game's entry: a hostile or broken host's
        fetched = [await connection.fetch_record(game, token) for game in wanted]
        return await asyncio.to_thread(self._keep_entries, fetched)

    def _keep_entries(self, records: list[list[dict[str, Any]]]) -> list[Path]:
        """Keep each record (its entries) that is not kept yet, then bound the folder: the
        files written. Each is played through the engine first: a record that is not a
        finished game is not kept."""
        from netplay import replay_file

        folder = self.replays_folder()
        saved = []
        for entries in records:
            try:
                path = folder / replay_file.file_name(entries[0])  # the game's own entry
                if not path.exists():
                    saved.append(replay_file.save(path, entries))
            except (replay_file.ReplayFileError, IndexError, KeyError, TypeError, AttributeError):
                continue  # a host's broken record: nothing to show, nothing kept
        if saved:
            replay_file.bound_folder(folder, KEPT_GAMES, KEPT_BYTES)
        return saved

    async def group_record(self, game: str | None = None) -> GroupRecord:
        """The group's record across evenings, of every game or of `game` (an id) only, made
        afresh from the games kept now (`netplay.group_record`); each kept file that cannot
        be read is one of its `problems`. It reads and plays every kept game: off the event
        loop, about 2 s of CPU per thousand games (`benchmarks/record.py`)."""
        from netplay.group_record import group_record, read_folder

        def made() -> GroupRecord:
            games, problems = read_folder([self.replays_folder()])
            return group_record(games, game, problems)

        return await asyncio.to_thread(made)

    async def past_evenings(self) -> list[PastEvening]:
        """The evenings of the games kept now, newest first: each table's games and who won
        them (`tui.models.evenings`), read afresh from the kept files, off the event loop."""
        from netplay.group_record import read_folder

        def read() -> list[PastEvening]:
            games, _ = read_folder([self.replays_folder()])
            return past_evenings(games)

        return await asyncio.to_thread(read)

    async def finish_keeping(self) -> None:
        """Let the games being kept as the app quits be kept (a few seconds at most)."""
        if self.keeping:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(5):
                    await asyncio.gather(*self.keeping, return_exceptions=True)
