"""A player list whose seats stay draws again only the rows that changed, and shows them
exactly as a list built afresh would."""

from __future__ import annotations

from textual.app import App, ComposeResult

from tui.widgets.player_list import PlayerEntry, PlayerList


class ListApp(App):
    def compose(self) -> ComposeResult:
        yield PlayerList(id="kept", picked=print, why=str)
        yield PlayerList(id="fresh", picked=print, why=str)


def shown(players: PlayerList) -> list[str]:
    return [players.render_line(y).text.rstrip() for y in range(players.option_count)]


async def test_changed_rows_show_as_a_fresh_list_and_the_others_keep_their_drawing():
    first = [PlayerEntry(0, "Ann   3 wires", True), PlayerEntry(1, "Bob   4 wires", False),
             PlayerEntry(2, "Cy    5 wires", True)]
    then = [first[0], PlayerEntry(1, "Bob   3 wires", True), PlayerEntry(2, "Cy    5 wires", False)]
    application = ListApp()
    async with application.run_test(size=(40, 20)) as pilot:
        kept = application.query_one("#kept", PlayerList)
        fresh = application.query_one("#fresh", PlayerList)
        kept.set_entries(first)
        await pilot.pause()
        unchanged = kept.get_option_at_index(0)
        kept.set_entries(then)
        fresh.set_entries(then)
        await pilot.pause()
        assert kept.get_option_at_index(0) is unchanged  # rows kept, not built again
        assert any(key[0] is unchanged for key in kept._option_render_cache.keys())
        assert shown(kept) == shown(fresh) == ["Ann   3 wires", "Bob   3 wires", "Cy    5 wires"]
        assert [kept.get_option_at_index(i).disabled for i in range(3)] == [False, False, True]
        assert kept.highlighted_seat == fresh.highlighted_seat
