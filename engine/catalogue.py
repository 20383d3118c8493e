"""What each game is, without loading any game: its title, player counts, options, bot levels
and rules text.

The lobby, the quick-play picker, the host form and the command line read this module; only a
host and the simulator load the games themselves (`engine.registry`). Each game class takes its
id, title, player counts and options from its entry here, so the two never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from itertools import combinations
from typing import Any, Final, Mapping

from engine.core import InvalidSetup, Option


@dataclass(frozen=True)
class BotLevel:
    """A strength of bot that players may choose."""

    bot: str
    """Its key in the game class's `BOTS`."""
    name: str
    """What players see."""
    help: str = ""


@dataclass(frozen=True)
class GameInfo:
    id: str
    title: str
    short_title: str
    """The title where the whole one does not fit (a column of the lobby): the games' short
    titles start differently, so they stay told apart however narrow."""
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    bot_levels: tuple[BotLevel, ...]
    """Weakest first; the last, the strongest, is the default."""
    summary: str = ""
    """One line for the game picker."""

    @property
    def player_counts(self) -> range:
        return range(self.min_players, self.max_players + 1)

    @property
    def default_bot(self) -> str:
        return self.bot_levels[-1].bot

    def bot_level(self, bot: str) -> BotLevel:
        for level in self.bot_levels:
            if level.bot == bot:
                return level
        names = ", ".join(level.bot for level in self.bot_levels)
        raise InvalidSetup(f"{self.title} has no bot level {bot!r}; choose one of: {names}")

    def check_players(self, players: Any) -> None:
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise InvalidSetup(
                f"{self.title} is for {self.min_players}-{self.max_players} players, "
                f"not {players!r}"
            )

    def validate_options(self, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """The full option set for this player count: defaults filled in, every value checked.
        InvalidSetup, with a message a player can act on, for anything else."""
        self.check_players(players)
        if not isinstance(options, Mapping):
            raise InvalidSetup("options must be a map of option name to value")
        known = {o.name: o for o in self.options}
        unknown = sorted(set(options) - set(known), key=str)
        if unknown:
            raise InvalidSetup(
                f"{self.title} has no option {unknown[0]!r}; its options are: "
                + (", ".join(known) or "none")
            )
        resolved = {}
        for name, option in known.items():
            value = options.get(name, option.default)
            if option.canonical is not None:
                value = option.canonical(value)
            option.check(players, value)
            resolved[name] = value
        return resolved

    def describe_options(self, players: int) -> list[dict[str, Any]]:
        return [o.describe(players) for o in self.options]

    def rules_text(self) -> str:
        """The players' rules, as Markdown (`engine/rules/<id>.md`)."""
        return (resources.files("engine") / "rules" / f"{self.id}.md").read_text(encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# Choices that depend on the player count


def seat_choices(players: int) -> tuple:
    return ("random", *range(players))


COLOURS: Final = ("yellow", "blue", "red", "pink", "green", "orange")
"""Time Bomb Évolution's bomb colours (EV-1), in the box's order."""


def colour_choices(players: int) -> tuple:
    return ("random", *(list(c) for c in combinations(COLOURS, players)))


def in_box_order(value: Any) -> Any:
    """Any order of known colours names the same set: keep the box's order."""
    if isinstance(value, (list, tuple)) and all(c in COLOURS for c in value):
        return sorted(value, key=COLOURS.index)
    return value


def show_seat(value: Any) -> str:
    return "random" if value == "random" else f"seat {value + 1}"


def show_colours(value: Any) -> str:
    return "random" if value == "random" else ", ".join(c.capitalize() for c in value)


VILLAIN_CHOICES: Final = ("none", "moriarty", "moran", "both", "random_one")
_VILLAIN_NAMES: Final = {"none": "none", "moriarty": "Moriarty", "moran": "Moran",
                         "both": "both", "random_one": "one at random"}


# ---------------------------------------------------------------------------------------------
# The games

_CLAIMS_HELP = "Players may announce what they hold: a public claim, which may be a bluff."

TIMEBOMB: Final = GameInfo(
    id="timebomb",
    title="Time Bomb",
    short_title="Time Bomb",
    min_players=4,
    max_players=8,
    options=(
        Option("first_player", "random", seat_choices,
               "Who takes the Wire Cutter first.", label="First cutter", show=show_seat),
        Option("claims", True, (True, False), _CLAIMS_HELP, label="Claims"),
    ),
    bot_levels=(
        BotLevel("novice", "Novice",
                 "Says what it holds after every deal, whatever its team, and often cuts on a "
                 "hunch."),
        BotLevel("smart", "Inspector",
                 "Weighs every claim and every cut; as Moriarty it bluffs, never provably."),
    ),
    summary="Sherlock's team cuts wires to find the Defusing ones before Big Ben blows.",
)

TIMEBOMB_EVOLUTION: Final = GameInfo(
    id="timebomb_evolution",
    title="Time Bomb Évolution",
    short_title="Évolution",
    min_players=4,
    max_players=6,
    options=(
        Option("variante", False, (True, False),
               "Coloured bombs with powers: swap, peek, redeal and more.", label="Variante"),
        Option("colours", "random", colour_choices,
               "The bomb colours in play, one per player.", label="Bomb colours",
               show=show_colours, canonical=in_box_order),
        *TIMEBOMB.options,  # Time Bomb's own, which Évolution plays by too
    ),
    bot_levels=TIMEBOMB.bot_levels,
    summary="Time Bomb with coloured bombs; the Variante gives each colour a power.",
)

MACHINATIONS: Final = GameInfo(
    id="machinations",
    title="Moriarty's Machinations",
    short_title="Machinations",
    min_players=5,
    max_players=10,
    options=(
        Option("accusation_trigger", "either_team", ("either_team", "combined"),
               "When the accusations begin: when either team's score reaches N - 2, or (a "
               "shorter game) when the two scores together do.",
               label="Accusations start",
               show=lambda v: {"combined": "both teams together",
                               "either_team": "either team"}[v]),
        Option("lestrade_reveals", True, (True, False),
               "Lestrade shows his role card when he arrests.", label="Lestrade reveals"),
        Option("first_proposer", "random", seat_choices,
               "Who proposes the first heist.", label="First proposer", show=show_seat),
    ),
    bot_levels=(
        BotLevel("random", "Novice", "Proposes, votes and plays at random."),
        BotLevel("smart", "Inspector", "Plays to its team's win, Irene to hers."),
    ),
    summary="Cops and Robbers plan heists in secret; Irene plays her own game.",
)

HOLMES: Final = GameInfo(
    id="holmes",
    title="Holmes: Sherlock & Mycroft",
    short_title="Holmes",
    min_players=2,
    max_players=2,
    options=(
        Option("alternative_start", False, (False, True),
               "Each player secretly picks one of two characters for Day 1.",
               label="Alternative start"),
        Option("reserve_card", False, (False, True),
               "Sherlock's and Mycroft's card: reserve a clue from the line for later.",
               label="Reserve card"),
        Option("villains", "none", VILLAIN_CHOICES,
               "Moriarty, Moran, both or one at random join the characters of Days 2-7.",
               label="Villains", show=_VILLAIN_NAMES.__getitem__),
        Option("first_player", "random", ("random", "chosen"),
               "Who plays first: random, or the first seat, as arranged at the table.",
               label="First player",
               show=lambda v: {"random": "random", "chosen": "first seat"}[v]),
    ),
    bot_levels=(
        BotLevel("random", "Novice", "Takes any legal action."),
        BotLevel("smart", "Inspector", "Weighs every clue against the deck."),
    ),
    summary="Two brothers race to gather the best clues over seven days.",
)

CATALOGUE: Final[dict[str, GameInfo]] = {
    info.id: info for info in (TIMEBOMB, TIMEBOMB_EVOLUTION, MACHINATIONS, HOLMES)
}
"""Every game, in the order the lobby lists them."""

PROTOCOL_3_IDS: Final = {"timebomb-evolution": "timebomb_evolution"}
"""Ids that protocol 3 wrote into stores and replay files, and the game each names now."""


def read_game_id(stored: Any) -> Any:
    """The id of the game a store or replay file names, written by this Gaslight or an older one."""
    return PROTOCOL_3_IDS.get(stored, stored) if isinstance(stored, str) else stored


def game_info(game_id: Any) -> GameInfo:
    """The catalogue entry of `game_id`; InvalidSetup naming the games if there is none."""
    info = CATALOGUE.get(game_id) if isinstance(game_id, str) else None
    if info is None:
        raise InvalidSetup(f"no game {game_id!r}; the games are: " + ", ".join(CATALOGUE))
    return info
