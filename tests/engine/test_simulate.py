"""The simulator (engine/simulate.py) and the `gaslight simulate` command."""

from __future__ import annotations

import pytest

import engine
from engine.simulate import BotError, parse_bots, play, simulate
from tui.cli import main


@pytest.mark.parametrize("game_id", sorted(engine.GAMES))
def test_simulate_counts_every_game_for_every_registered_game(game_id):
    cls = engine.GAMES[game_id]
    done = []
    result = simulate(game_id, cls.min_players, 30, "random", seed=7, progress=done.append)
    assert done == list(range(1, 31))
    assert result.games == 30
    assert sum(result.reasons.values()) == 30
    # Every game has a winning team, but for a draw (Holmes' tie-breaks can end level).
    assert sum(result.wins.values()) + result.reasons["draw"] >= 30
    assert result.actions > 30
    assert set(result.bots.values()) == {"random"}


def test_time_bomb_results_add_up():
    result = simulate("timebomb", 5, 200, "random", seed=1)
    assert result.wins["sherlock"] + result.wins["moriarty"] == 200
    assert result.wins["sherlock"] == result.reasons["defused"]
    assert result.wins["moriarty"] == result.reasons["bomb"] + result.reasons["time"]
    assert result.team_seats == {"sherlock": 600, "moriarty": 400}
    assert result.win_rate("sherlock") == result.wins["sherlock"] / 200


def test_machinations_results_count_teams_not_roles():
    result = simulate("machinations", 6, 60, "smart", seed=2)
    assert set(result.wins) <= {"cops", "robbers", "neutral"}
    # Exactly one of Cops and Robbers wins each game (MM-36); Irene wins on top of it.
    assert result.wins["cops"] + result.wins["robbers"] == 60
    assert 0 < result.win_rate("cops") < 1


def test_simulate_is_deterministic_and_seeded():
    first = simulate("timebomb", 6, 50, "smart", seed=3)
    again = simulate("timebomb", 6, 50, "smart", seed=3)
    assert (first.wins, first.reasons, first.actions) == (again.wins, again.reasons, again.actions)


def test_per_team_bots():
    result = simulate("timebomb", 5, 40, "sherlock=smart,moriarty=random", seed=2)
    assert result.bots == {"sherlock": "smart", "moriarty": "random"}
    partly = simulate("timebomb", 5, 10, {"moriarty": "smart"}, seed=2)
    assert partly.bots == {"sherlock": "random", "moriarty": "smart"}


@pytest.mark.parametrize(
    "bots, message",
    [
        ("clever", "no bot 'clever'"),
        ("sherlock=clever", "no bot 'clever'"),
        ("watson=smart", "no team 'watson'"),
        ("sherlock", "no bot 'sherlock'"),
        ("sherlock=smart,sherlock=random", "given twice"),
        ("sherlock=", "TEAM=BOT"),
    ],
)
def test_bad_bot_choices_are_clear_errors(bots, message):
    with pytest.raises(engine.InvalidSetup, match=message):
        simulate("timebomb", 5, 1, bots)


def test_bad_counts_are_clear_errors():
    with pytest.raises(engine.InvalidSetup, match="4-8 players"):
        simulate("timebomb", 3, 1)
    with pytest.raises(engine.InvalidSetup, match="whole number"):
        simulate("timebomb", 5, -1)
    with pytest.raises(engine.InvalidSetup, match="no game"):
        simulate("chess", 2, 1)
    assert parse_bots("smart", "timebomb") == "smart"


def test_a_bot_that_only_claims_is_stopped():
    game = engine.new_game("timebomb", 5, {}, 0)

    def chatterbox(view, legal_actions, rng):
        return next(a for a in legal_actions if a["type"] == "claim")

    with pytest.raises(BotError, match="free actions in a row"):
        play(game, [chatterbox] * 5, __import__("random").Random(0))


def test_a_bot_answering_illegally_is_named():
    game = engine.new_game("timebomb", 5, {}, 0)

    def cheat(view, legal_actions, rng):
        return {"type": "cut", "target": view["viewer"]}

    with pytest.raises(BotError, match="own wire"):
        play(game, [cheat] * 5, __import__("random").Random(0))


def test_the_command_prints_win_rates_endings_and_speed(capsys):
    code = main(["simulate", "timebomb", "--players", "5", "--games", "40", "--seed", "9"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Time Bomb, 5 players, 40 games from seed 9" in out
    assert "Sherlock" in out and "Moriarty" in out and "Win rate" in out
    assert "Options: First cutter: random, Claims: yes" in out  # as the lobby names them
    assert "seats" not in out and "2.00" not in out
    assert "games/s" in out
    for reason in ("bomb", "time", "defused"):
        result = simulate("timebomb", 5, 40, seed=9)
        if result.reasons[reason]:
            assert reason in out


def test_the_command_takes_per_team_bots(capsys):
    code = main(["simulate", "timebomb", "-p", "5", "-g", "10",
                 "--bots", "sherlock=smart,moriarty=random"])
    assert code == 0
    assert "Bots: Moriarty: random, Sherlock: smart (Inspector)" in capsys.readouterr().out


def test_the_command_reports_bad_input_without_a_traceback(capsys):
    assert main(["simulate", "timebomb", "-p", "5", "-g", "5", "--bots", "nobody"]) == 2
    assert "no bot 'nobody'" in capsys.readouterr().err
    assert main(["simulate", "timebomb", "-p", "12", "-g", "5"]) == 2
    assert "4-8 players" in capsys.readouterr().err


def test_no_game_to_play_is_refused(capsys):
    """`-g 0` would report nothing: it is refused, with the reason, exit code 2."""
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", "timebomb", "-p", "5", "-g", "0"])
    assert exit_.value.code == 2
    assert "play at least 1 game, not 0" in capsys.readouterr().err


def test_a_long_run_shows_its_rate_and_time_left_on_stderr(capsys):
    code = main(["simulate", "timebomb", "-p", "5", "-g", "600", "--seed", "1"])
    captured = capsys.readouterr()
    assert code == 0 and "600 games from seed 1" in captured.out
    assert "Win rate" in captured.out and "'" not in captured.out.split("Bots:")[0]
