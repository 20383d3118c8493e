"""A game's options, bot levels and bots on the command line, in the words the lobby uses.

`--option NAME=VALUE` is read against the game's own declaration (`engine.catalogue`): a yes-or-no
option takes on or off, a choice takes what the host form shows ("seat-2", "either_team"), the
bomb colours take a comma-separated list. Anything else is refused with the values allowed.
Only the catalogue is read here, never a game, so `gaslight --help` stays fast.
"""

from __future__ import annotations

from typing import Any

from engine.catalogue import CATALOGUE, GameInfo
from engine.core import Option

TRUE_WORDS = ("on", "yes", "true")
FALSE_WORDS = ("off", "no", "false")


class OptionError(ValueError):
    """An option typed on the command line that the game does not declare or allow."""


def games_help() -> str:
    """Every game's id with its title and player counts, one a line."""
    return "\n".join(
        f"  {info.id:<20} {info.title}, {players_text(info)}" for info in CATALOGUE.values()
    )


def players_text(info: GameInfo) -> str:
    if info.min_players == info.max_players:
        return f"{info.min_players} players"
    return f"{info.min_players}-{info.max_players} players"


def options_help() -> str:
    """Every game's options with the values each takes, and its bot levels."""
    lines = []
    for info in CATALOGUE.values():
        lines.append(f"  {info.id}: bot levels {', '.join(bot_level_words(info))}")
        for option in info.options:
            lines.append(f"    --option {option.name}={help_words(option, info)}"
                         f"  ({option.title}; default {word(option, option.default)})")
    return "\n".join(lines)


def word(option: Option, value: Any) -> str:
    """A value as it is typed: on/off, the host form's text with dashes, colours by commas."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list):
        return ",".join(value)
    return option.value_text(value).lower().replace(" ", "-")


def value_words(option: Option, players: int) -> list[str]:
    """The values allowed with `players` players, as typed."""
    allowed = option.allowed(players)
    words = [word(option, c) for c in allowed if not isinstance(c, list)]
    lists = [c for c in allowed if isinstance(c, list)]
    if lists:
        colours = sorted({c for chosen in lists for c in chosen})
        words.append(f"{len(lists[0])} of {'/'.join(colours)} joined by commas")
    return words


def help_words(option: Option, info: GameInfo) -> str:
    """The values an option takes at any player count, for --help."""
    allowed = option.allowed(info.max_players)
    words = [word(option, c) for c in allowed if isinstance(c, (bool, str))]
    if any(type(c) is int for c in allowed):
        words.append("seat-N")
    if any(isinstance(c, list) for c in allowed):
        words.append("COLOUR,COLOUR,... (one a player)")
    return "|".join(words)


def bot_level_words(info: GameInfo) -> list[str]:
    return [f"{level.bot} ({level.name})" for level in info.bot_levels]


def parse_options(info: GameInfo, players: int, typed: list[str]) -> dict[str, Any]:
    """The options typed as NAME=VALUE, as values the game declares; OptionError otherwise."""
    known = {option.name: option for option in info.options}
    chosen: dict[str, Any] = {}
    for text in typed:
        name, sep, value = text.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or not name:
            raise OptionError(f"cannot read --option {text!r}: write NAME=VALUE, for example "
                              f"{next(iter(known), 'name')}=on")
        option = known.get(name)
        if option is None:
            raise OptionError(f"{info.title} has no option {name!r}; its options are: "
                              + (", ".join(known) or "none"))
        if name in chosen:
            raise OptionError(f"--option {name} is given twice")
        chosen[name] = option_value(option, players, value)
    return chosen


def option_value(option: Option, players: int, text: str) -> Any:
    typed = text.strip().lower()
    allowed = option.allowed(players)
    for choice in allowed:
        if isinstance(choice, bool):
            if typed in (TRUE_WORDS if choice else FALSE_WORDS):
                return choice
        elif not isinstance(choice, list) and typed in (
            word(option, choice), option.value_text(choice).lower(), str(choice).lower()
            if isinstance(choice, str) else None,
        ):
            return choice
    if any(isinstance(choice, list) for choice in allowed) and "," in typed:
        value: Any = [part.strip() for part in typed.split(",")]
        if option.canonical is not None:
            value = option.canonical(value)
        if value in allowed:
            return value
    raise OptionError(
        f"option {option.name!r} ({option.title}) cannot be {text!r} with {players} players; "
        f"choose one of: {', '.join(value_words(option, players))}"
    )


def bot_level(info: GameInfo, typed: str) -> str:
    """The bot of the level typed, by its bot name or the name players see."""
    for level in info.bot_levels:
        if typed.strip().lower() in (level.bot, level.name.lower()):
            return level.bot
    raise OptionError(f"{info.title} has no bot level {typed!r}; choose one of: "
                      + ", ".join(bot_level_words(info)))


def options_text(info: GameInfo, options: dict[str, Any]) -> str:
    """Options as the lobby names them: "Claims: yes, First cutter: random"."""
    named = {option.name: option for option in info.options}
    return ", ".join(f"{named[name].title}: {named[name].value_text(value)}"
                     for name, value in options.items() if name in named)
