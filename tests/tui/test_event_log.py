"""The log moves both ways: a replay's step back drops the undone events' lines, and the log
then reads exactly as one that never went further."""

from __future__ import annotations

from textual.app import App, ComposeResult

from tui.widgets.event_log import EventLog

NAMES = ["Ann", "Bob", "Cy"]
EVENTS = [
    {"text": f"{{0}} cuts a wire of {{1}} with a long sentence that wraps, number {n}.",
     "seats": [n % 3, (n + 1) % 3]}
    for n in range(12)
]
BEFORE = {4: ("Round 2: the wires are dealt again.",), 9: ("Round 3.",)}


class LogApp(App):
    CSS = "EventLog { height: 12; }"

    def __init__(self, first: int = 0) -> None:
        super().__init__()
        self.first = first

    def compose(self) -> ComposeResult:
        yield EventLog(id="back")

    def on_mount(self) -> None:
        # Before the log's first resize: RichLog keeps these writes until it knows its width.
        self.query_one(EventLog).show_events(EVENTS[: self.first], NAMES, before=BEFORE)


def text(log: EventLog) -> list[str]:
    return [strip.text for strip in log.lines]


async def fresh_text(pilot, count: int) -> list[str]:
    log = EventLog()
    await pilot.app.mount(log)
    await pilot.pause()
    log.show_events(EVENTS[:count], NAMES, before=BEFORE)
    lines = text(log)
    await log.remove()
    return lines


async def test_a_step_back_reads_as_a_log_that_never_went_further():
    application = LogApp()
    async with application.run_test(size=(40, 30)) as pilot:
        back = application.query_one("#back", EventLog)
        back.show_events(EVENTS, NAMES, before=BEFORE)
        await pilot.pause()
        for count in (11, 9, 5, 4, 0, 7):
            back.show_events(EVENTS[:count], NAMES, before=BEFORE)
            await pilot.pause()
            assert text(back) == await fresh_text(pilot, count)
            assert len(back.entries) == count + sum(1 for i in BEFORE if i < count)
            assert back.scroll_y == back.max_scroll_y  # the newest line shows
        assert any("number 6" in line for line in text(back))
        assert not any("number 7" in line for line in text(back))


async def test_events_written_before_the_log_had_a_width_step_back_too():
    application = LogApp(first=8)
    async with application.run_test(size=(40, 30)) as pilot:
        back = application.query_one("#back", EventLog)
        await pilot.pause()
        assert any("number 7" in line for line in text(back))
        assert None in back.starts  # where those lines start was not known when written
        back.show_events(EVENTS[:3], NAMES, before=BEFORE)
        await pilot.pause()
        assert text(back) == await fresh_text(pilot, 3)
