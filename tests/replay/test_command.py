"""`gaslight replay FILE` refuses a file it cannot show with one clear line and exit status 2,
never a traceback; a good file opens the replay screen (see test_screen.py). `gaslight replay`
lists the kept games, numbered as `gaslight replay N` opens them, a damaged file one line of
its own (see test_kept.py for a whole evening's)."""

from __future__ import annotations

import subprocess
import sys

import msgpack

from netplay import replay_file
from tui.cli import main

from .test_screen import bots_game


def test_a_file_it_cannot_show_is_one_clear_line(tmp_path, capsys):
    good = replay_file.dump(bots_game("timebomb", 4, 1).entries())
    newer = msgpack.packb(dict(msgpack.unpackb(good), version=99))
    cases = {"newer": (newer, "made by a newer Gaslight"),
             "damaged": (good[:100], "not a Gaslight replay file"),
             "edited": (good.replace(b"Ann", b"Eve"), "digest does not match")}
    for name, (data, said) in cases.items():
        path = tmp_path / f"{name}.gaslight-replay"
        path.write_bytes(data)
        assert main(["replay", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"gaslight replay: {path}: ") and said in err
        assert err.count("\n") == 1 and "Traceback" not in err
    assert main(["replay", str(tmp_path / "missing")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_the_command_is_listed():
    out = subprocess.run([sys.executable, "-m", "tui.cli", "--help"], capture_output=True,
                         text=True, check=True).stdout
    assert "replay" in out and "watch a game you played or watched again" in out


def test_the_kept_games_are_listed_and_numbered_a_damaged_one_its_own_line(tmp_path,
                                                                          monkeypatch, capsys):
    monkeypatch.setenv("GASLIGHT_DATA_DIR", str(tmp_path / "data"))
    assert main(["replay"]) == 0
    assert "No games kept yet" in capsys.readouterr().out
    folder = tmp_path / "data" / "replays"
    folder.mkdir(parents=True, exist_ok=True)
    replay_file.save(folder / "one.gaslight-replay", bots_game("timebomb", 4, 1).entries())
    (folder / "bad.gaslight-replay").write_bytes(b"nothing")
    assert main(["replay"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    numbered = [line for line in lines if line.lstrip().startswith("1 ")]
    assert len(numbered) == 1 and "Time Bomb · Baker Street" in numbered[0]
    assert any("bad.gaslight-replay cannot be shown" in line for line in lines)
    assert main(["replay", "2"]) == 2
    assert "no kept game 2" in capsys.readouterr().err
