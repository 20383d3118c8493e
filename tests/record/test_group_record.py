"""The group's record across evenings (issue 42, `netplay.group_record`): made afresh from the
kept replay files, each person told apart by the id their app proved, bots by their level, and
each game's ratings OpenSkill's own Plackett-Luce, checked here against `openskill` itself."""

from __future__ import annotations

import asyncio
import random

import pytest
from openskill.models import PlackettLuce
from support.bot_games import bots_play, play_seat
from support.hosts import host, private_data_dir  # noqa: F401 (fixtures)
from support.kept_games import kept_game
from support.waiting import TIMEOUT, until

from netplay import replay_file
from netplay.game_record import GameRecord, Move, Player
from netplay.group_record import group_record, read_folder
from netplay.person import PersonKey
from tui.address import Address
from tui.backend import Backend
from tui.cli import main
from tui.models.standings import record_text
from tui.listing import Ticket

START = 1_800_000_000.0
ANN, BOB, CAT, DAN = ("a" * 32, "b" * 32, "c" * 32, "d" * 32)


def openskill_ratings(games) -> dict[str, tuple[float, float]]:
    """Each player's rating after `games` (engine games with their players, oldest first),
    computed with openskill directly: the seats of a game grouped by their role at the end
    and whether they won, the winners ranked first."""
    model = PlackettLuce()
    ratings: dict[str, object] = {}
    for game, players in games:
        outcome = game.outcome
        sides: dict = {}
        for seat, player in enumerate(players):
            sides.setdefault((outcome.teams[seat], outcome.won(seat)), []).append(player)
        teams = [[ratings.setdefault(p, model.rating()) for p in side] for side in sides.values()]
        ranks = [1 if won else 2 for (_, won) in sides]
        for side, rated in zip(sides.values(), model.rate(teams, ranks=ranks)):
            for player, rating in zip(side, rated):
                ratings[player] = rating
    return {player: (r.mu, r.sigma) for player, r in ratings.items()}


def test_the_ratings_are_openskills_own_on_a_recorded_sequence_of_games(tmp_path):
    rng = random.Random(7)
    people = {"Ann": ANN, "Bob": BOB, "Cat": CAT, "Dan": DAN}
    played = []
    for number in range(24):
        kind, count = [("timebomb", 4), ("holmes", 2), ("machinations", 5)][number % 3]
        names = rng.sample(sorted(people), min(count, 4))
        seats = [(name, people[name]) for name in names] + [None] * (count - len(names))
        game, _ = kept_game(tmp_path, kind, 100 + number, seats, START + 100 * number)
        played.append((kind, game, [f"person:{people[n]}" for n in names]
                       + ["bot:smart"] * (count - len(names))))

    games, problems = read_folder([tmp_path])
    record = group_record(games)

    assert problems == [] and record.played == 24
    for kind in ("timebomb", "holmes"):  # one seat each: every rating is openskill's own
        expected = openskill_ratings([(g, p) for k, g, p in played if k == kind])
        got = {s.player: (s.mu, s.sigma) for s in record.games[kind]}
        assert got.keys() == expected.keys()
        for player, (mu, sigma) in expected.items():
            assert got[player] == pytest.approx((mu, sigma), abs=1e-9), player
    # Machinations puts the bot level in one seat here too, and counts wins by role.
    standings = {s.player: s for s in record.games["machinations"]}
    assert standings["bot:smart"].name == "Inspector (bot)"
    for standing in standings.values():
        assert standing.games == sum(played for played, _ in standing.roles.values())
        assert standing.wins == sum(won for _, won in standing.roles.values())


def test_a_bot_level_in_several_seats_moves_by_the_mean_of_its_seats(tmp_path):
    game, _ = kept_game(tmp_path, "timebomb", 5, [("Ann", ANN), None, None, None], START)
    [standing_game] = read_folder([tmp_path])[0]
    record = group_record([standing_game])
    model = PlackettLuce()
    outcome = game.outcome
    sides: dict = {}
    for seat in range(4):
        sides.setdefault((outcome.teams[seat], outcome.won(seat)), []).append(seat)
    rated = model.rate([[model.rating() for _ in side] for side in sides.values()],
                       ranks=[1 if won else 2 for (_, won) in sides])
    after = {seat: r for side, rs in zip(sides.values(), rated) for seat, r in zip(side, rs)}
    bot = next(s for s in record.games["timebomb"] if s.player == "bot:smart")
    assert bot.mu == pytest.approx(sum(after[s].mu for s in (1, 2, 3)) / 3)
    assert bot.sigma == pytest.approx(sum(after[s].sigma for s in (1, 2, 3)) / 3)
    assert bot.games == 1 and sum(p for p, _ in bot.roles.values()) == 3


def test_the_record_is_rebuilt_from_the_kept_files_alone(tmp_path):
    for number in range(6):
        kept_game(tmp_path, "holmes", 40 + number, [("Ann", ANN), ("Bob", BOB)],
                  START + number)
    (tmp_path / "damaged.gaslight-replay").write_bytes(b"\x93not a replay")
    first = group_record(read_folder([tmp_path])[0])
    again = group_record(read_folder([tmp_path])[0])
    assert [(s.player, s.games, s.wins, s.mu, s.sigma) for s in first.games["holmes"]] == \
        [(s.player, s.games, s.wins, s.mu, s.sigma) for s in again.games["holmes"]]
    assert sum(s.games for s in first.games["holmes"]) == 12
    games, problems = read_folder([tmp_path])
    assert len(games) == 6 and len(problems) == 1 and "damaged.gaslight-replay" in problems[0]
    # Another copy of a game (saved again under another name) counts once.
    [one] = sorted(tmp_path.glob("holmes-*"))[:1]
    (tmp_path / "copy.gaslight-replay").write_bytes(one.read_bytes())
    assert len(read_folder([tmp_path])[0]) == 6
    games, problems = read_folder([tmp_path])
    text = record_text(group_record(games, problems=problems), ANN)
    assert "from 6 kept games" in text and "Ann (you)" in text
    assert "damaged.gaslight-replay" in text


def test_two_people_named_alike_are_kept_apart_and_one_renamed_is_one(tmp_path):
    kept_game(tmp_path, "timebomb", 61, [("Ann", ANN), ("Ann (2)", BOB), ("Cat", CAT), None],
              START)
    kept_game(tmp_path, "timebomb", 62, [("Ann", BOB), ("Annie", ANN), ("Cat", CAT), None],
              START + 10)
    record = group_record(read_folder([tmp_path])[0])
    names = {s.player: s.name for s in record.games["timebomb"]}
    # Ann called herself Annie last: one player under the name she used last. Bob called
    # himself Ann: another player, under his own id.
    assert names[f"person:{ANN}"] == "Annie"
    assert names[f"person:{BOB}"] == "Ann"
    kept_game(tmp_path, "timebomb", 63, [("Ann", ANN), ("Ann (2)", BOB), ("Cat", CAT), None],
              START + 20)
    record = group_record(read_folder([tmp_path])[0])
    names = {s.player: s.name for s in record.games["timebomb"]}
    assert names[f"person:{ANN}"] == "Ann #aaaa" and names[f"person:{BOB}"] == "Ann #bbbb"
    assert all(s.games == 3 for s in record.games["timebomb"] if s.player != "bot:smart")


async def test_two_people_named_alike_at_a_real_host_are_two_players(host, tmp_path):
    """Two apps, each of a person called Ann, sit at one table: each keeps the game, and each
    one's record shows two Anns, told apart by their ids, the app's own marked."""
    table_id = host.create_table("timebomb", 4, {}, bots=2, start_when_full=True)
    host.seed_bots(table_id, 3)
    address = Address("127.0.0.1", host.address[1])
    apps = [Backend(interfaces=["127.0.0.1"], data_dir=tmp_path / f"app{n}", discover=False)
            for n in range(2)]
    ticket = Ticket(address, table_id)
    conns = []
    for app in apps:
        app.remember_code(address, host.table_code)
        conns.append(await app.connect(ticket, "Ann"))
    await asyncio.wait_for(asyncio.gather(
        *(play_seat(conn, [], n) for n, conn in enumerate(conns))), TIMEOUT)
    for app, conn in zip(apps, conns):
        app.keep_game(ticket, conn)
        await until(lambda app=app: not app.keeping, "the game kept")
        await conn.close()
    ids = [app.person.id for app in apps]
    for app in apps:
        record = await app.group_record("timebomb")
        text = record_text(record, app.person.id)
        people = [s for s in record.games["timebomb"] if s.player.startswith("person:")]
        assert sorted(s.player for s in people) == sorted(f"person:{i}" for i in ids)
        assert sorted(s.name for s in people) == sorted(f"Ann #{i[:4]}" for i in ids)
        assert f"Ann #{app.person.id[:4]} (you)" in text
        await app.close()


def test_the_command_prints_the_record_of_one_game(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("GASLIGHT_DATA_DIR", str(tmp_path))
    me = PersonKey(tmp_path / "seats" / "person.key").id
    folder = tmp_path / "replays"
    folder.mkdir()
    kept_game(folder, "holmes", 71, [("Ann", me), ("Bob", BOB)], START)
    kept_game(folder, "timebomb", 72, [("Ann", me), ("Bob", BOB), None, None], START + 5)
    assert main(["record", "--game", "holmes"]) == 0
    out = capsys.readouterr().out
    assert "from 1 kept game." in out and "Holmes" in out and "Time Bomb" not in out
    assert "Ann (you)" in out and " ± " in out
    assert main(["record", "--game", "chess"]) == 2
    assert "no game 'chess'" in capsys.readouterr().err
