"""The lobby: tables found on the LAN, live; join or watch one; host one; play against bots."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from rich.markup import escape
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from tui.address import Address
from tui.backend import Backend
from tui.finding import LOOKUP_TIMEOUT
from tui.listing import TableListing, Ticket, connect_error_text
from tui.messages import TablesFound
from tui.quick_play import QuickPlay, remember, remembered
from tui.widgets.table_list import TableList

EMPTY_HINT = (
    "No table found on your network yet; new ones appear here by themselves.\n"
    "Ctrl+G: play against bots now · Ctrl+N: host a table · Ctrl+O: join a table by its address"
)
DISCOVERY_DELAY = 0.3
"""Seconds between the lobby's first paint and loading zeroconf, which would slow that paint."""
TABLES_HINT = ("Enter: join the highlighted table · Ctrl+W: watch it as a spectator\n"
               "Ctrl+Y: past games · Ctrl+E: past evenings and ratings · ?: every key")
ADDRESS_REFRESH = 3.0
"""Seconds between asking again the hosts the player added by address. A host found on the LAN
announces each change to its tables; one known only by its address cannot, so the lobby asks
it, often enough that its rows move as the discovered ones do."""


class LobbyScreen(Screen):
    # A sentence typed here changes nothing: commands are on keys no sentence types, and an
    # Enter right after typed letters joins nothing (`on_key`).
    BINDINGS = [
        Binding("ctrl+g", "bots", "Play vs bots", tooltip="Pick a game and play it against bots, now"),
        Binding("ctrl+n,f2", "host", "Host", tooltip="Host a new table for the LAN"),
        Binding("ctrl+w,f3", "watch", "Watch", tooltip="Watch the highlighted table as a spectator"),
        Binding("ctrl+o", "address", "Address", tooltip="Find a host's tables by HOST:PORT"),
        Binding("ctrl+x", "let_go", "Let go", tooltip="Give up your seat at the highlighted ★ table, "
                "or stop it if you host it in the background (asks first)"),
        Binding("ctrl+r", "rename", "Change name", show=False, tooltip="Change your name"),
        Binding("ctrl+y", "past_games", "Replays", tooltip="Watch a finished game again: every "
                "game you played or watched is kept on this computer"),
        # Out of the footer, which 80 columns fill: the hint line and `?` name it.
        Binding("ctrl+e", "record", "Record", show=False, tooltip="Past evenings, and each "
                "player's games, wins and rating per game, from the games kept here"),
        Binding("f1", "rules", "Rules", tooltip="The rules of the highlighted table's game"),
        Binding("question_mark", "keys", "Keys"),
        Binding("ctrl+c", "quit", "Quit", show=False, tooltip="Quit Gaslight (asks first)"),
    ]

    def __init__(self, backend: Backend, initial: tuple[Address, bool] | None = None) -> None:
        super().__init__()
        self.backend = backend
        self.initial = initial
        """A table to go to at once (`gaslight join/watch HOST:PORT`): its host and spectate."""
        self.sources: dict[str, list[TableListing]] = {}
        self.seats_looked_up = False
        self.connecting: Address | None = None
        """A host asked by address that has not answered yet."""
        self.bindings_state: tuple[bool, bool] | None = None
        self.missed: dict[str, int] = {}
        """How many times in a row each of those hosts did not answer."""
        self.added: dict[str, Address] = {}
        """The hosts the player added by address, by their rows' source, asked again while
        they answer."""
        self.typed = False
        """Letters were typed since the list last moved: the next Enter joins nothing."""
        self.cursor_moved_by_itself = False
        """The table under the cursor went away and the cursor is on another, which the
        person never chose: the next Enter says so instead of joining it."""

    def compose(self) -> ComposeResult:
        yield Static("", id="lobby-title")
        yield TableList(id="tables")
        yield Static(EMPTY_HINT, id="lobby-hint")
        # Compact, and the palette found through ? and Ctrl+P alone: at 80 columns the footer is
        # whole even with a table highlighted that this player holds a seat at.
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.show_name()
        self.query_one(TableList).border_title = "Tables on your network"
        if self.backend.discover:
            self.set_timer(DISCOVERY_DELAY, self.browse)
        if self.initial is not None and self.app.player_name:
            self.go_initial()
        self.refresh_added()

    def on_screen_resume(self) -> None:
        # On start, and back from a table: its seat may be held still (left mid-game), or
        # over now.
        if self.app.player_name and self.initial is None:
            self.find_held_seats()

    def show_name(self) -> None:
        name = self.app.player_name or "…"
        self.query_one("#lobby-title", Static).update(
            "[b]Gaslight[/b]  Sherlock Holmes table games over the LAN\n"
            f"Playing as [b]{escape(name)}[/b]"
            " · Ctrl+R to change"
        )

    def name_known(self) -> None:
        self.show_name()
        if self.initial is not None:
            self.go_initial()

    # -- finding tables ---------------------------------------------------------------------

    @work(exclusive=True, group="net")
    async def browse(self) -> None:
        try:
            async for tables in self.backend.browse():
                self.post_message(TablesFound(tables, "lan"))
        except Exception as error:  # discovery is a convenience; joining by address still works
            self.query_one("#lobby-hint", Static).update(
                f"Discovery is unavailable ({error}).\n{EMPTY_HINT}"
            )

    @work(exclusive=True, group="seats")
    async def find_held_seats(self) -> None:
        """List the games where this player holds a seat; on start, offer to rejoin one."""
        try:
            held = await self.backend.held_tables(self.app.player_name or "guest")
        except Exception as error:  # the seat book is a convenience; the lobby works without
            self.notify(f"Could not look for your seats: {error}", severity="warning")
            return
        self.post_message(TablesFound(held, "seats"))
        first, self.seats_looked_up = not self.seats_looked_up, True
        rejoinable = [t for t in held if not t.key_changed]
        if rejoinable and first and self.app.screen is self:
            self.offer_rejoin(rejoinable[-1])

    def offer_rejoin(self, listing: TableListing) -> None:
        from tui.screens.held_seats import rejoin_offer

        def chosen(rejoin: bool | None) -> None:
            if rejoin:
                self.open_table(listing, spectate=False)

        self.app.push_screen(rejoin_offer(listing), chosen)

    @work(exclusive=True, group="ask")
    async def ask_host(self, address: Address, then: str | None = None) -> None:
        """List the tables at `address`; `then` ("join" or "watch") goes straight to one."""
        self.connecting = address
        self.show_hint()
        from netplay.client import NotPaired

        try:
            tables = await self.backend.list_tables(address, self.app.player_name or "guest")
        except NotPaired:
            self.ask_code(address, False, lambda: self.ask_host(address, then))
            return
        except Exception as error:
            self.notify(connect_error_text(address, error), severity="error", timeout=8)
            return
        finally:
            self.connecting = None
            if self.is_attached:
                self.show_hint()
        source = f"address:{address}"
        self.added[source] = address
        self.post_message(TablesFound(tables, source))
        if not tables:
            self.notify(f"{address} hosts no table yet.", severity="warning")
            return
        if then == "watch":
            playing = [t for t in tables if t.phase == "playing"] or tables
            self.open_table(playing[0], spectate=True)
        elif then == "join":
            held = [t for t in tables if self.backend.holds_seat(t) and t.phase != "over"]
            free = [t for t in tables if t.seats_free > 0 and t.phase == "waiting"]
            if held or free:
                self.open_table((held or free)[0], spectate=False)
            else:
                self.notify(f"No free seat at {address}: press Ctrl+W to watch.", severity="warning")
        else:
            self.notify(f"{len(tables)} table{'s' if len(tables) != 1 else ''} at {address}.")

    @work(exclusive=True, group="refresh")
    async def refresh_added(self) -> None:
        """Keep the rows of the hosts added by address current; a host that stopped
        answering takes its rows away with it."""
        while True:
            await asyncio.sleep(ADDRESS_REFRESH)
            if self.app.screen is not self:
                continue  # at a table: the lobby asks again when it is back in view
            for source, address in list(self.added.items()):
                try:
                    async with asyncio.timeout(LOOKUP_TIMEOUT):
                        tables = await self.backend.list_tables(
                            address, self.app.player_name or "guest")
                except Exception:
                    # Not answering twice in a row (a busy host may miss once): gone, tidy its
                    # rows away.
                    self.missed[source] = self.missed.get(source, 0) + 1
                    if self.missed[source] < 2:
                        continue
                    del self.added[source]
                    tables = []
                self.missed.pop(source, None)
                self.post_message(TablesFound(tables, source))

    def show_hint(self) -> None:
        if self.connecting is not None:
            hint = f"◌ Connecting to {self.connecting}… (a host that does not answer: 10 s)"
        else:
            hint = TABLES_HINT if self.query_one(TableList).listings else EMPTY_HINT
            selected = self.query_one(TableList).selected
            if selected is not None and selected.key_changed:
                from tui.screens.held_seats import KEY_CHANGED_HINT

                hint = f"{selected.name}: {KEY_CHANGED_HINT}"
            elif selected is not None and selected.options:  # the Variante, before joining
                hint = f"{selected.name}: {selected.options}\n{hint}"
        self.query_one("#lobby-hint", Static).update(Text(hint))

    def go_initial(self) -> None:
        address, spectate = self.initial  # type: ignore[misc]
        self.initial = None
        self.ask_host(address, "watch" if spectate else "join")

    def on_tables_found(self, event: TablesFound) -> None:
        self.sources[event.source] = event.tables
        held = {(s.host_id, s.table) for s in self.backend.seats.all() if not s.in_use_elsewhere}
        rows = {t.key: t for tables in self.sources.values() for t in tables}
        # A seat whose host shows another key stays marked, whoever else lists its table.
        rows |= {t.key: t for t in self.sources.get("seats", []) if t.key_changed}
        merged = {key: replace(t, held=(t.host_id, t.id) in held) for key, t in rows.items()}
        table_list = self.query_one(TableList)
        vanished = table_list.set_tables(merged.values())
        if vanished is not None:
            # The cursor is on a table the person did not choose: Enter first says so.
            self.cursor_moved_by_itself = vanished.now is not None
            if self.app.screen is self:  # never over a table, a game or a dialog
                where = (f"the cursor is on {vanished.now.name} now" if vanished.now is not None
                         else "no table is listed now")
                self.notify(f"{vanished.gone.name} is no longer listed: {where}.",
                            markup=False)
        self.show_hint()
        self.update_bindings()

    # -- going to a table -------------------------------------------------------------------

    def open_table(self, listing: TableListing, *, spectate: bool) -> None:
        if listing.key_changed:  # nothing goes to that host: say why, and the ways on
            from tui.screens.held_seats import key_changed_explanation

            self.app.push_screen(key_changed_explanation(listing),
                                 lambda agreed: agreed and self.let_go(listing))
            return
        if not self.backend.needs_code(listing):
            self.go(self.backend.ticket(listing, spectate))
            return
        self.ask_code(listing.address, listing.private,
                      lambda: self.go(self.backend.ticket(listing, spectate)), listing.name,
                      listing.by)

    def ask_code(self, address: Address, private: bool, then, table: str = "",
                 by: str = "") -> None:
        """Ask the table code of the host at `address` (a new host, or a private table) for
        the table named `table` that `by` hosts, then go on."""
        from tui.screens.pairing import PairingScreen

        def given(code: str | None) -> None:
            if code is not None:
                self.backend.remember_code(address, code)
                then()

        self.app.push_screen(PairingScreen(str(address), private, table, by), given)

    def go(self, ticket: Ticket) -> None:
        from tui.screens.play import ASK_CODE_AGAIN, PlayScreen

        def closed(result: str | None) -> None:
            if result == ASK_CODE_AGAIN:
                self.ask_code(ticket.address, ticket.private, lambda: self.go(ticket),
                              ticket.name or "")

        self.app.push_screen(PlayScreen(self.backend, ticket, self.app.player_name or "guest"),
                             closed)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        selected = self.query_one(TableList).selected if self.is_mounted else None
        if action == "watch":
            return selected is not None
        if action == "let_go":
            return selected is not None and selected.held
        return True

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.typed = False
        self.update_bindings()
        self.show_hint()

    def update_bindings(self) -> None:
        """Refresh the footer only when what the keys can do changed: each refresh rebuilds
        the footer's widgets, and rows change many times a second on a busy LAN."""
        selected = self.query_one(TableList).selected
        state = (selected is not None, selected is not None and selected.held)
        if state != self.bindings_state:
            self.bindings_state = state
            self.refresh_bindings()

    def on_key(self, event) -> None:
        """The lobby has no chat: a letter does nothing, and says where the keys are. A key
        that moves the cursor chooses the table it lands on."""
        if event.key in ("up", "down", "home", "end", "pageup", "pagedown"):
            self.cursor_moved_by_itself = False
        if event.is_printable and event.character not in (None, "?"):
            if not self.typed:
                self.notify("Typing does nothing in the lobby: its keys are Ctrl keys, "
                            "? lists them.", timeout=4)
            self.typed = True

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter: the table of the row pressed, by its key (the list may have moved since)."""
        event.stop()
        if self.typed:  # the Enter that ends a sentence typed here by mistake
            self.typed = False
            self.notify("You were typing: press Enter again to join the highlighted table.",
                        timeout=4)
            return
        listing = self.query_one(TableList).listings.get(event.row_key.value)
        if listing is None:
            self.notify("That table is no longer listed: its host closed it or left the "
                        "network.", severity="warning")
            return
        if self.cursor_moved_by_itself:  # its table went: this one the person never chose
            self.cursor_moved_by_itself = False
            self.notify(f"The table you chose is gone; the cursor is on {listing.name}: "
                        "press Enter again to join it.", timeout=5, markup=False)
            return
        spectate = listing.seats_free == 0 and not listing.held
        if spectate and listing.phase == "waiting":
            self.notify(f"{listing.name} has no free seat: watching it.", markup=False)
        self.open_table(listing, spectate=spectate)

    def action_watch(self) -> None:
        listing = self.query_one(TableList).selected
        if listing is not None:
            self.open_table(listing, spectate=True)

    def action_bots(self) -> None:
        from tui.screens.quick_play import QuickPlayScreen

        self.app.push_screen(QuickPlayScreen(), self.bots_chosen)

    def bots_chosen(self, choice: QuickPlay | None) -> None:
        if choice is None:
            return
        try:
            remember(choice)
        except OSError as error:
            self.notify(f"Could not remember this choice: {error}", severity="warning")
        self.play_bots(choice)

    @work(exclusive=True, group="host")
    async def play_bots(self, choice: QuickPlay) -> None:
        try:
            ticket = await self.backend.play_bots(
                self.app.player_name or "guest", choice.game, choice.players, choice.options,
                choice.bot_level, bot_pace=choice.bot_pace,
            )
        except Exception as error:
            self.notify(f"Could not start a local game: {error}", severity="error")
            return
        self.go(ticket)

    def action_host(self) -> None:
        from tui.screens.host_table import HostTableScreen
        from tui.table_request import last_table

        self.app.push_screen(HostTableScreen(self.app.player_name or "guest",
                                             last=last_table()), self.host_chosen)

    def host_chosen(self, request) -> None:
        from tui.table_request import remember_table

        if request is not None:
            remember_table(request)  # the next Ctrl+N starts from this table
            self.host(request)

    @work(exclusive=True, group="host")
    async def host(self, request) -> None:
        try:
            ticket = await self.backend.host_table(
                request.game,
                request.players,
                request.options,
                name=request.name,
                bots=request.bots,
                advertise=True,
                bot_pace=request.bot_pace,
                hints=request.hints,
            )
        except Exception as error:
            self.notify(f"Could not host the table: {error}", severity="error")
            return
        self.go(ticket)

    def action_address(self) -> None:
        from tui.screens.join_address import JoinAddressScreen

        def chosen(address: Address | None) -> None:
            if address is not None:
                self.ask_host(address)

        self.app.push_screen(JoinAddressScreen(), chosen)

    def action_let_go(self) -> None:
        from tui.screens.held_seats import let_go_question

        listing = self.query_one(TableList).selected
        if listing is None or not listing.held:
            return
        self.app.push_screen(let_go_question(listing, self.backend.in_background(listing)),
                             lambda agreed: agreed and self.let_go(listing))

    @work(group="let-go")
    async def let_go(self, listing: TableListing) -> None:
        from tui.screens.held_seats import let_go_words

        answered = await self.backend.let_go(listing, self.app.player_name or "guest")
        held = [t for t in self.sources.get("seats", []) if t.key != listing.key]
        self.post_message(TablesFound(held, "seats"))
        self.notify(let_go_words(listing, answered), markup=False)

    def action_past_games(self) -> None:
        from tui.screens.past_games import PastGamesScreen

        self.app.push_screen(PastGamesScreen(self.backend, self.app.player_name or "guest"))

    def action_record(self) -> None:
        from tui.screens.record import RecordScreen

        self.app.push_screen(RecordScreen(self.backend))

    def action_rename(self) -> None:
        self.app.ask_name()

    def rules_game(self) -> str:
        """The game in focus: the highlighted table's, else the one last played against bots."""
        selected = self.query_one(TableList).selected
        return selected.game if selected is not None else remembered()[0]

    def action_rules(self) -> None:
        from tui.screens.rules import RulesScreen

        self.app.push_screen(RulesScreen(self.rules_game()))

    def action_keys(self) -> None:
        self.app.action_show_keys()

    def action_quit(self) -> None:
        self.app.ask_leaving(always=True)
