"""The Gaslight app, built by `create_app`, which the CLI, the tests and the screenshots share."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Iterable

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from tui.address import Address
from tui.backend import Backend
from tui.collector import settle_collector
from tui.config import load_name
from tui.screens.table_keyboard import TableKeyboard
from tui.serve.page_app import touch_from_environment

if TYPE_CHECKING:
    from tui.screens.play import PlayScreen


MIN_WIDTH, MIN_HEIGHT = 80, 24
"""The smallest terminal the screens' own layouts are made for: below it, some buttons are out
of view. Narrower screens (a phone upright) get the narrow layouts (`-narrow`, app.tcss)."""
NARROW_MIN_WIDTH, NARROW_MIN_HEIGHT = 40, 36
"""The smallest screen the narrow layouts are made for: below it nothing fits."""
TALL = 36
"""From this many rows on, a screen has room for buttons a thumb's size (`-tall`)."""


BROWSER_KEYS = {"ctrl+n": "f2", "ctrl+w": "f3", "ctrl+t": "f4", "ctrl+q": "ctrl+c"}
"""Keys Chromium keeps for itself (a new window, closing the tab...), so that a page under
`gaslight serve` never gets them, and the key each binding of theirs also answers to."""

PAGE_TOLD_EVERY = 0.25
"""Seconds between two looks at what closing a guest's page would end (its title)."""

TOO_SMALL_SHOWN = 8.0
"""Seconds the too-small notice stays: long enough to read, not so long that it hides a row
of the game for good."""


def fits(width: int, height: int) -> bool:
    """Whether a layout shows every screen whole at this size: the terminal's, or the narrow
    one's."""
    if width >= MIN_WIDTH:
        return height >= MIN_HEIGHT
    return width >= NARROW_MIN_WIDTH and height >= NARROW_MIN_HEIGHT


def too_small_text(width: int, height: int) -> str:
    return (f"This terminal is {width}x{height}: Gaslight needs at least "
            f"{MIN_WIDTH}x{MIN_HEIGHT}, or {NARROW_MIN_WIDTH}x{NARROW_MIN_HEIGHT} when narrow, "
            "to show every button. Enlarge the window.")


class GaslightApp(App):
    CSS_PATH = "app.tcss"
    TITLE = "Gaslight"
    ENABLE_COMMAND_PALETTE = True
    # Each screen gets `-narrow` below 80 columns (a phone upright: app.tcss lays it out
    # anew), and `-tall` from TALL rows on.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (MIN_WIDTH, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (TALL, "-tall")]
    # The screen under another (a dialog's) is `-suspended`: its bar of buttons hides.
    SUSPENDED_SCREEN_CLASS = "-suspended"
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True,
                tooltip="Quit Gaslight (at a running game it asks first)"),
        # Ctrl+C is how a terminal stops a command: it quits as Ctrl+Q does (asking first at a
        # running game) instead of Textual's hint to press Ctrl+Q.
        Binding("ctrl+c", "quit", show=False, system=True),
    ]

    def __init__(
        self,
        backend: Backend,
        *,
        player_name: str | None = None,
        initial: tuple[Address, bool] | None = None,
    ) -> None:
        super().__init__()
        self.backend = backend
        self.player_name = player_name
        self.initial = initial
        self.said_too_small = False
        """No layout fits the terminal, and the notice said so."""
        self.set_class(touch_from_environment(), "-touch")
        """A page on a touch screen (`tui.serve.page_app`): every screen gets its bar of
        buttons."""
        self.page_title = ""
        """The title last told to the page: what closing it would end."""

    def get_key_display(self, binding: Binding) -> str:
        # In a browser the footer and `?` show the key the page gets, not one the browser keeps.
        if self.is_web and binding.key in BROWSER_KEYS:
            return super().get_key_display(replace(binding, key=BROWSER_KEYS[binding.key]))
        return super().get_key_display(binding)

    async def on_event(self, event: events.Event) -> None:
        # At a table every key is its keyboard's, taken here in the order the keys arrive and
        # finished before the next: Textual would forward it to the focused widget's own
        # queue, where a busy machine can take a later key first (tui/README.md, "The table's
        # keyboard").
        if (isinstance(event, (events.Key, events.Paste)) and not event.is_forwarded
                and self.screen_stack
                and isinstance(keyboard := getattr(self.screen, "keyboard", None), TableKeyboard)):
            self.app_focus = True
            if isinstance(event, events.Key):
                await keyboard.press(event)
            else:
                keyboard.paste(event)
            return
        await super().on_event(event)

    def on_resize(self, event: events.Resize) -> None:
        self.say_if_too_small(*event.size)

    def say_if_too_small(self, width: int, height: int) -> None:
        """When no layout fits, a screen cannot show all its buttons: say so once, for long
        enough to read, and again only if the terminal grows large enough and then shrinks.
        A lasting notice came back on every new screen and covered a player's row there."""
        small = not fits(width, height)
        if small and not self.said_too_small:
            self.notify(too_small_text(width, height), title="Terminal too small",
                        severity="warning", timeout=TOO_SMALL_SHOWN, markup=False)
        elif not small and self.said_too_small:
            self.clear_notifications()
        self.said_too_small = small

    def on_mount(self) -> None:
        from tui.screens.lobby import LobbyScreen

        self.lobby = LobbyScreen(self.backend, self.initial)
        self.push_screen(self.lobby)
        self.say_if_too_small(*self.size)
        with contextlib.suppress(NotImplementedError, RuntimeError):  # no SIGHUP (Windows)
            asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, self.hung_up)
        if not self.player_name:
            self.ask_name()

    def on_ready(self) -> None:
        # Here, not on mount: `gaslight replay`'s app mounts in its own way.
        settle_collector()
        self.screen_change_signal.subscribe(self, self.give_action_bar)
        for screen in self.screen_stack:
            self.give_action_bar(screen)
        if self.is_web:
            self.set_interval(PAGE_TOLD_EVERY, self.tell_page)

    def give_action_bar(self, screen: Screen) -> None:
        """Every screen has a bar of buttons, shown on a touch screen or a narrow one."""
        from tui.widgets.action_bar import ActionBar

        if not screen.query(ActionBar):
            screen.mount(ActionBar())

    def tell_page(self) -> None:
        """Tell a guest's page, through the terminal's title, what closing it would end: it
        asks first then (tui/serve/page_app.py)."""
        from tui.serve.page_app import title_for, title_sequence

        table, hosting = self.would_end()
        title = title_for(table.game_words if table is not None else
                          ", ".join(hosting) if hosting else "")
        if title != self.page_title and self._driver is not None:
            self.page_title = title
            # Textual has no call for a terminal's title: its driver writes the sequence.
            self._driver.write(title_sequence(title))

    def ask_name(self) -> None:
        from tui.screens.name import NameScreen

        def chosen(name: str | None) -> None:
            if name:
                self.player_name = name
                self.lobby.name_known()

        self.push_screen(NameScreen(self.player_name), chosen)

    async def on_unmount(self) -> None:
        await self.backend.close(self.player_name)

    async def action_quit(self) -> None:
        """Ctrl+Q (and Ctrl+C): at a running game, or while this app hosts tables for others,
        it asks the leaving question, as Esc at the table does; elsewhere it quits."""
        if not self.ask_leaving():
            await super().action_quit()

    def ask_leaving(self, *, always: bool = False) -> bool:
        """Ask the one leaving question (`screens/leaving.py`) when anything would end, or
        `always`; False when nothing was asked."""
        from tui.screens.leaving import CLOSE, KEEP, LOBBY, QUIT, leaving_question

        table, hosting = self.would_end()
        if table is None and not hosting and not always:
            return False

        def chosen(choice: str | None) -> None:
            if choice == LOBBY and table is not None:
                table.leave_table()
            elif choice == QUIT:
                self.exit()
            elif choice in (KEEP, CLOSE):
                self.run_worker(self.quit_hosting(choice), group="quit", exclusive=True)

        self.push_screen(leaving_question(at_game=table.game_words if table else None,
                                          hosting=hosting,
                                          may_keep=self.backend.may_keep_in_background),
                         chosen)
        return True

    def would_end(self) -> tuple[PlayScreen | None, list[str]]:
        """What leaving the app now would end: the running game this player sits at, and the
        words naming the tables it hosts for others and who is at each."""
        from tui.screens.play import PlayScreen

        table = next((s for s in reversed(self.screen_stack) if isinstance(s, PlayScreen)
                      and s.seated_in_game), None)
        return table, self.backend.hosted_words()

    async def quit_hosting(self, choice: str) -> None:
        """Keep this app's hosted tables running in the background, or close them, then
        quit."""
        from tui.screens.leaving import KEEP

        name = self.player_name or "The host"
        if choice == KEEP:
            await self.backend.keep_in_background(name)
        else:
            await self.backend.close_for_everyone(name)
        self.exit()

    def hung_up(self) -> None:
        """The terminal closed (SIGHUP): nobody is there to ask, so the tables this app hosts
        for others keep running in the background, and the app quits."""
        from tui.screens.leaving import KEEP

        self.run_worker(self.quit_hosting(KEEP), group="quit", exclusive=True)

    # -- help -----------------------------------------------------------------------------------

    def action_show_keys(self, note: str = "", after: Any = "") -> None:
        """The keys of the screen now; `note` says what else is worth knowing there (how
        others join the table this app hosts), and `after`, under the keys, what its words
        mean (a table's terms). In a browser's page, and while this app hosts a table for
        others, the QR code of Gaslight's page for browsers too, if there is one."""
        from tui.screens.keys import KeysScreen
        from tui.serve.page_address import page_address

        seen: dict[str, str] = {}
        for key, active in self.active_bindings.items():
            binding = active.binding
            # A key kept out of the footer is listed here when it has a tooltip to show.
            listed = binding.show or bool(binding.tooltip)
            if active.enabled and listed and binding.description:
                key = binding.key_display or self.get_key_display(binding)
                seen[key] = binding.tooltip or binding.description
        browsers = self.is_web or bool(self.backend.hosting_for_others())
        self.push_screen(KeysScreen(list(seen.items()), note, after,
                                    page_address() if browsers else None))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        from tui.screens.lobby import LobbyScreen
        from tui.screens.play import PlayScreen
        from tui.screens.replay import ReplayScreen

        # Textual's own "Keys" opens its help panel; ours lists the keys of this screen now.
        yield from (c for c in super().get_system_commands(screen) if c.title != "Keys")
        if isinstance(screen, LobbyScreen):
            yield SystemCommand("Play against bots", "Any game on this computer, bots in every other seat", screen.action_bots)
            yield SystemCommand("Host a table", "Host a game on this computer for the LAN", screen.action_host)
            yield SystemCommand("Join by address", "Find the tables of a host by HOST:PORT", screen.action_address)
            yield SystemCommand("Change name", "The name the other players see", self.ask_name)
            yield SystemCommand("Rules", "The rules of the game in focus", screen.action_rules)
        if isinstance(screen, ReplayScreen):
            yield SystemCommand("Rules of this game", "Read the rules", screen.action_rules)
            yield SystemCommand("Close the replay", "Back to where it was opened from",
                                screen.action_leave)
        if isinstance(screen, PlayScreen):
            yield SystemCommand("Rules of this game", "Read the rules", screen.action_rules)
            yield SystemCommand("Chat", "Say something to the table", screen.action_chat)
            yield SystemCommand("Back to the lobby", "Leave this table", screen.action_leave)
            if screen.joining_words:
                yield SystemCommand(f"Table code {screen.ticket.code}",
                                    "How others join this table, to play or watch",
                                    screen.action_show_code)
        from tui.config import bell_on

        yield SystemCommand(
            "Bell on your turn: turn " + ("off" if bell_on() else "on"),
            "The terminal rings when the game starts waiting for you", self.toggle_bell)
        yield SystemCommand("Keys", "Every key you can press here", self.action_show_keys)

    def toggle_bell(self) -> None:
        from tui.config import bell_on, save_setting

        save_setting("bell", not bell_on())
        self.notify("The bell rings on your turn." if bell_on() else "No bell on your turn.")


def create_app(
    backend: Backend | None = None,
    *,
    player_name: str | None = None,
    initial: tuple[Address, bool] | None = None,
) -> GaslightApp:
    """The app as a player runs it; tests pass a loopback backend and a name."""
    return GaslightApp(
        backend or Backend(),
        player_name=player_name if player_name is not None else load_name(),
        initial=initial,
    )
