"""`gaslight host` refuses a bad setup with a clear message before it opens any socket."""

from tui.cli import main


def test_host_needs_a_game_and_a_player_count(tmp_path, capsys):
    assert main(["host", "--data-dir", str(tmp_path)]) == 2
    assert "--game and --players are required" in capsys.readouterr().err


def test_host_names_the_problem_with_a_bad_setup(tmp_path, capsys):
    assert main(["host", "--game", "chess", "--players", "4", "--data-dir", str(tmp_path)]) == 2
    assert "no game 'chess'" in capsys.readouterr().err
    assert main(["host", "--game", "timebomb", "--players", "3", "--data-dir",
                 str(tmp_path)]) == 2
    assert "4-8 players" in capsys.readouterr().err


def test_resume_with_nothing_to_resume_says_so(tmp_path, capsys):
    assert main(["host", "--resume", "--data-dir", str(tmp_path)]) == 2
    assert "no unfinished table to resume" in capsys.readouterr().err
