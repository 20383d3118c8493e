"""Finished games kept as replay files, as a person's app keeps them (`tui.kept_games`): for the
group's record and the past evenings, built from seeded bot games."""

from __future__ import annotations

from support.bot_games import bots_play

from netplay import replay_file
from netplay.game_record import GameRecord, Move, Player


def kept_game(folder, kind: str, seed: int, seats: list[tuple[str, str | None] | None],
              ended: float, table: str | None = None, name: str = "Baker Street"):
    """A finished game of the bots kept in `folder`, its seats played by `seats` (a name and a
    person's id each, or None for a bot), ending at `ended`, at `table` (by default one of its
    own): the engine's game and the path."""
    game, played = bots_play(kind, len(seats), seed)
    table = table or f"{seed:08x}"
    moves = [Move(seat, action, ended - len(played) + n, "person")
             for n, (seat, action) in enumerate(played, 1)]
    record = GameRecord(
        game=f"{table}-{seed}", table=table, name=name, kind=kind,
        players=len(seats), options=dict(game.options), seed=seed, bot_level="smart",
        turn_timer=0, started=ended - len(played), moves=moves,
        seats=[Player(f"Bot {n + 1}", "bot") if who is None else Player(who[0], "human", who[1])
               for n, who in enumerate(seats)])
    return game, replay_file.save(folder / replay_file.file_name(record), record.entries())
