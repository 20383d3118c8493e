"""The command line matches the app: every option a game declares, the bot level, pace and turn
timer for `gaslight host`; the games in `--help`; the lobby's words in `tables` and `simulate`;
Ctrl+C without a traceback."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time

import pytest

from engine.catalogue import CATALOGUE
from tui.cli import build_parser, main
from tui.commands.game_options import OptionError, parse_options
from tui.commands.host import table_setup


def host_args(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(["host", *argv])


def test_help_lists_every_game_with_its_player_counts(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for info in CATALOGUE.values():
        assert info.id in out and info.title in out
    assert "timebomb             Time Bomb, 4-8 players" in out
    assert "Holmes: Sherlock & Mycroft, 2 players" in out


def test_host_takes_every_option_a_game_declares():
    setup = table_setup(host_args(
        "--game", "timebomb_evolution", "--players", "5", "--option", "variante=on",
        "--option", "colours=red,blue,yellow,green,pink", "--option", "first-player=seat-2",
        "--option", "claims=off", "--bot-level", "Novice", "--turn-timer", "45"))
    assert setup["options"] == {"variante": True, "colours": ["yellow", "blue", "red", "pink",
                                "green"], "first_player": 1, "claims": False}
    assert setup["bot_level"] == "novice" and setup["turn_timer"] == 45
    # Each game's declared options, at every player count, are accepted in their own words.
    for info in CATALOGUE.values():
        for option in info.options:
            for players in info.player_counts:
                for value in option.allowed(players):
                    from tui.commands.game_options import word

                    typed = f"{option.name}={word(option, value)}"
                    chosen = parse_options(info, players, [typed])[option.name]
                    assert chosen == value, (info.id, typed)


@pytest.mark.parametrize("typed, message", [
    ("variante=maybe", "option 'variante' (Variante) cannot be 'maybe' with 5 players; "
                       "choose one of: on, off"),
    ("colours=red", "choose one of: random, 5 of blue/green/orange/pink/red/yellow joined by "
                    "commas"),
    ("lestrade=on", "Time Bomb Évolution has no option 'lestrade'; its options are: variante, "
                    "colours, first_player, claims"),
    ("variante", "write NAME=VALUE"),
])
def test_a_bad_option_names_what_is_allowed(typed, message):
    with pytest.raises(OptionError) as error:
        parse_options(CATALOGUE["timebomb_evolution"], 5, [typed])
    assert message in str(error.value)


def test_host_refuses_a_bad_option_before_it_listens(tmp_path, capsys):
    assert main(["host", "--game", "holmes", "--players", "2", "--option", "villains=all",
                 "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "option 'villains' (Villains) cannot be 'all'" in err
    assert "none, moriarty, moran, both, one-at-random" in err
    assert main(["host", "--game", "holmes", "--players", "2", "--bot-level", "genius",
                 "--data-dir", str(tmp_path)]) == 2
    assert "random (Novice), smart (Inspector)" in capsys.readouterr().err


def test_host_help_lists_options_and_bot_levels(capsys):
    with pytest.raises(SystemExit):
        main(["host", "--help"])
    out = capsys.readouterr().out
    assert "--option variante=on|off" in out and "--bot-pace" in out and "--turn-timer" in out
    assert "fast, normal, slow" in out
    assert "machinations: bot levels random (Novice), smart (Inspector)" in out


def test_tables_uses_the_lobby_columns_and_words():
    from rich.console import Console

    from netplay.announcement import DiscoveredTable
    from tui.commands.tables import tables_table

    found = [DiscoveredTable("t1", "[b]Baker[/b] Street", "timebomb", 5, 5, 0, "playing", 2,
                             "192.168.1.20", 47321, "h1", people=3, bots=2)]
    console = Console(width=100, record=True, color_system=None)
    console.print(tables_table(found))
    text = console.export_text()
    for header in ("Table", "Game", "Seated", "Free", "Phase", "Address"):
        assert header in text
    assert "Seats" not in text
    assert "[b]Baker[/b] Street" in text and "3 people, 2 bots" in text and "0/5" in text
    assert "192.168.1.20:47321" in text


def test_simulate_help_lists_every_bot_of_every_game(capsys):
    import engine

    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for game_id, cls in engine.GAMES.items():
        assert f"{game_id}: {', '.join(sorted(cls.BOTS))}" in out


@pytest.mark.parametrize("argv", [
    ["simulate", "machinations", "-p", "10", "-g", "100000"],
    ["tables", "--timeout", "60"],
    ["host", "--game", "timebomb", "--players", "5"],
])
def test_ctrl_c_stops_a_command_without_a_traceback(argv, tmp_path):
    env = {**os.environ, "GASLIGHT_INTERFACES": "127.0.0.1",
           "GASLIGHT_DATA_DIR": str(tmp_path / "data")}
    # As a terminal's Ctrl+C finds a command in the foreground: with Ctrl+C's default meaning.
    # A test run started in the background (`.ci/run &`) has it ignored, and so would the
    # command, which a Python program that starts with it ignored keeps.
    process = subprocess.Popen([sys.executable, "-m", "tui.cli", *argv], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        if argv[0] == "host":
            assert process.stdout.readline().startswith("Gaslight host listening")
        elif argv[0] == "tables":
            assert process.stderr.readline().startswith("Listening for tables for 60 s")
        else:
            time.sleep(3)  # well into its games, or still importing: either is stopped
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert process.returncode in (0, 130)
