"""What a table says in words about its people, from the host's `lobby` message and the seats:
why the game waits (for whom the bots wait at a deal, who is away and who can help), the news
of a player going away or a bot covering them, and who asked for another game."""

from __future__ import annotations

from typing import Sequence

from rich.text import Text

from netplay import protocol as wire
from tui.models.seats import SeatInfo, away, covered

NO_LOBBY = wire.Lobby(table="", name="", game="", players=0, options={}, seats=[], phase="",
                      host_seat=None, spectators=0, bot_level="", turn_timer=0, play_again=[])
"""The table before its host's first `lobby` message: nothing known yet."""


def spoken_key(key: str) -> str:
    """A key as the player reads it in a sentence: "ctrl+o" is "Ctrl+O"."""
    *modifiers, name = key.split("+")
    return "+".join([*(m.capitalize() for m in modifiers), name.upper() if modifiers else name])


def away_from_game(lobby: wire.Lobby, seats: Sequence[SeatInfo]) -> list[SeatInfo]:
    """The people away from the running game whom no bot covers yet."""
    return away(seats) if lobby.phase == "playing" else []


def you_or_name(seat: SeatInfo, you: int | None) -> str:
    return "you" if seat.seat == you else seat.name


def claims_awaited(lobby: wire.Lobby, seats: Sequence[SeatInfo], to_act: Sequence[int],
                   you: int | None) -> str:
    """At a deal, while the bots whose turn it is wait for people to claim (PROTOCOL.md,
    "Deals"): whom they wait for, so the status line says why nothing moves. `you`: the
    player's seat, None for a spectator."""
    awaited = set(lobby.claim_wait)
    if not awaited or not to_act or not all(
            0 <= s < len(seats) and (seats[s].kind == "bot" or seats[s].covered) for s in to_act):
        return ""
    names = [you_or_name(s, you) for s in seats if s.seat in awaited]
    verb = "has" if len(names) == 1 and names[0] != "you" else "have"
    return f" once {' and '.join(names)} {verb} claimed"


def acting_host(lobby: wire.Lobby) -> int | None:
    """The seat that holds the host's powers now: the table's host, or while its person is
    away the one who takes over (PROTOCOL.md, "The host's powers")."""
    return lobby.acting_host if lobby.acting_host is not None else lobby.host_seat


def away_help(lobby: wire.Lobby, seats: Sequence[SeatInfo], you: int | None, key: str) -> str:
    """When the game waits for a player who is away: who can let a bot cover them (with
    `key`) now, or who will once the table has waited for them (PROTOCOL.md, "Covered
    seats"). `you`: the player's seat, None for a spectator."""
    if you is not None and you in lobby.may_cover:
        return f", away: press {key} for a bot"
    acting = acting_host(lobby)
    helpers = [s.name for s in seats if s.seat in lobby.may_cover and s.seat != you]
    if helpers:
        # the acting host alone may, until the table has waited long enough for anyone to
        soon = " (soon anyone)" if lobby.may_cover == [acting] else ""
        return f", away: {' or '.join(helpers)} can press {key}{soon}"
    name = next((s.name for s in seats if s.seat == acting and s.seat != you), None)
    if name:
        return f", away: {name} can press {key} (soon anyone)"
    return f", away: soon anyone can press {key}"


def went_away(before: Sequence[SeatInfo], now: Sequence[SeatInfo], key: str) -> list[str]:
    """The news for the table's host of each player gone away since `before`, and what the
    host can do about it."""
    was_away = {s.seat for s in before}
    return [f"{s.name} is away. Press {key} to let a bot play their seat until they return."
            for s in now if s.seat not in was_away]


def cover_news(before: Sequence[SeatInfo], now: Sequence[SeatInfo]) -> list[str]:
    """A bot that took an away player's seat since `before`, and a player who took theirs
    back."""
    was, covers = covered(before), covered(now)
    return ([f"A bot plays {name}'s seat until they return."
             for seat, name in covers.items() if seat not in was]
            + [f"{name} takes their seat back from the bot."
               for seat, name in was.items() if seat not in covers])


def play_again_text(asked: Sequence[str], awaited: Sequence[str], you_asked: bool | None) -> Text:
    """Who asked for another game and who it waits for; `you_asked` None for a spectator."""
    text = Text()
    if not asked:
        text.append("Nobody has asked for another game yet.")
    else:
        text.append("Another game? Asked: ")
        text.append(", ".join(asked), style="bold")
        text.append(". Waiting for: ")
        text.append(", ".join(awaited) if awaited else "nobody", style="bold")
        text.append(".")
    if you_asked is False:
        text.append(" Press Ctrl+R to join in." if asked else " Press Ctrl+R to ask.")
    elif you_asked:
        text.append(" You asked.")
    return text


def play_again_words(lobby: wire.Lobby, seats: Sequence[SeatInfo], you: int | None) -> Text:
    """Who asked for another game, and which people it still waits for: every person's end
    screen says so, not only the asker's. `you`: None for a spectator."""
    asked = {int(s) for s in lobby.play_again}
    people = [s for s in seats if s.kind == "human" and not s.covered]
    return play_again_text(
        [you_or_name(s, you) for s in people if s.seat in asked],
        [you_or_name(s, you) for s in people if s.seat not in asked and s.connected],
        None if you is None else you in asked,
    )
