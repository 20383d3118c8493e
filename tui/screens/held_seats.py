"""What the lobby says about a seat this player holds (a ★ row): the offer to take it back, the
question before letting it go, and what a host that shows another key means."""

from __future__ import annotations

from rich.markup import escape

from tui.listing import TableListing
from tui.screens.question import Question, yes_no
from tui.widgets.table_list import game_title

KEY_CHANGED_HINT = ("key changed: not the host you sat with. Enter: what this means · "
                    "Ctrl+X: let the seat go")


def rejoin_offer(listing: TableListing) -> Question[bool]:
    text = (
        f"You have a seat at [b]{escape(listing.name)}[/b] ({game_title(listing.game)}, "
        f"{listing.phase}) at {listing.address}.\nTake it back now? It stays yours "
        "either way: the lobby marks it with ★."
    )
    return yes_no(text, "Rejoin", "Not now", yes_first=True)


def key_changed_explanation(listing: TableListing) -> Question[bool]:
    """Enter on a held seat whose host shows another key: why nothing was sent, and the two
    ways on (wait for the real host, or let the seat go and join anew)."""
    text = (
        f"The host at {listing.address} shows a different key from the one you sat with at "
        f"[b]{escape(listing.name)}[/b] ({game_title(listing.game)}): it is not the host you "
        "sat with, so nothing was sent to it, and your seat stays here.\n"
        "Either another computer answers at that address (someone may be pretending to be "
        "the host): keep the seat, and it comes back when the real host answers again.\n"
        "Or its player started that host anew, with a new key: your seat there is gone. Let "
        "it go, then join the new table with the table code its player shows."
    )
    return yes_no(text, "Let it go", "Keep it")


def let_go_question(listing: TableListing, in_background: bool) -> Question[bool]:
    if in_background:
        text = (f"Stop [b]{escape(listing.name)}[/b], which you host in the background?\n"
                f"{escape(who_is_there(listing))}: the table closes for everyone, who are "
                "told you closed it.")
        return yes_no(text, "Stop it", "Keep it")
    if listing.key_changed:
        told = ("The host at that address shows another key: it is told nothing, and this "
                "computer forgets the seat.")
    else:
        told = ("Its host is told, if it answers (before the game the seat is freed for "
                "someone else), and this computer forgets it either way.")
    text = (
        f"Give up your seat at [b]{escape(listing.name)}[/b] ({game_title(listing.game)}, "
        f"{listing.phase}) at {listing.address}?\n{told}"
    )
    return yes_no(text, "Give it up", "Keep it")


def who_is_there(listing: TableListing) -> str:
    """What stopping a table ends, in words: "3 people and 2 bots are playing Time Bomb"."""
    game = game_title(listing.game)
    if listing.people is None:
        seated = listing.players - listing.seats_free
        who = f"{seated} {'is' if seated == 1 else 'are'} seated"
    else:
        bots = f" and {listing.bots} bot{'s' * (listing.bots != 1)}" if listing.bots else ""
        people = f"{listing.people} {'person' if listing.people == 1 else 'people'}"
        who = people + bots + (" is" if listing.people == 1 and not listing.bots else " are")
    doing = {"waiting": f"waiting to play {game}", "playing": f"playing {game}",
             "over": f"at the end of a game of {game}"}.get(listing.phase, f"at {game}")
    return f"{who} {doing}"


def let_go_words(listing: TableListing, answered: bool) -> str:
    if answered:
        told = "its host was told"
    elif listing.key_changed:
        told = "forgotten here, nothing sent to the host at that address"
    else:
        told = "its host did not answer; forgotten here"
    return f"Seat at {listing.name} given up: {told}."
