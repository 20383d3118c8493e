"""Each game's table says what a player needs, at 80x24: Holmes' skills where you choose a
character, its clue table on F1 and its hidden clues in words; Machinations' end screen says
who was arrested or murdered and why; no role is named twice; no term the players' rules do
not use."""

from __future__ import annotations

from support.offline import open_table
from support.positions import (
    HOLMES_SEATS,
    holmes_game,
    holmes_lobby,
    machinations_game,
    machinations_lobby,
    machinations_seats,
)
from support.offline import offline_app as app
from support.screen_text import screen_text

import engine
from tui.games.holmes.board import area_text
from tui.games.holmes.model import build_model as build_holmes_model
from tui.games.machinations.model import build_model as build_machinations_model
from tui.games.machinations.model import ending_lines
from support.flows import open_dialog
from tui.screens.end import EndScreen
from tui.screens.rules import RulesScreen


def flat(application) -> str:
    return " ".join(screen_text(application).split())


async def test_holmes_choice_dialog_names_each_characters_skill():
    game = holmes_game(14)
    while 0 not in game.to_act():
        seat = min(game.to_act())
        game.apply(seat, game.legal_actions(seat)[0])
    view = game.view(0)
    places = [a for a in game.legal_actions(0) if a["type"] in ("place", "move")]
    assert places
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await open_table(application, game, 0, holmes_lobby())
        await pilot.pause()
        await pilot.press("ctrl+k")
        for _ in range(3):
            await pilot.pause()
        dialog = open_dialog(application)
        assert dialog is not None
        words = dict((str(c.answer), str(c.words)) for c in dialog.choices)
        for action in places:
            character = action.get("character", action.get("to"))
            row = next(c for c in view["characters"] if c["id"] == character)
            assert words[str(action)].endswith(f" · {row['skill']}: {row['text']}")
        first = next(c for c in view["characters"]
                     if c["id"] == places[0].get("character", places[0].get("to")))
        assert f"{first['skill']}:" in screen_text(application)


def test_holmes_says_hidden_clues_in_words_never_hidden_0():
    game = holmes_game(0)
    model = build_holmes_model(game.view(0), game.legal_actions(0), 0, HOLMES_SEATS)
    for compact in (True, False):
        text = area_text(model.areas[0], hide_secrets=False, compact=compact).plain
        assert "no hidden clues" in text and "hidden 0" not in text
    game.areas[0].hidden = ["button"]
    model = build_holmes_model(game.view(0), game.legal_actions(0), 0, HOLMES_SEATS)
    assert "hidden 1: Button" in area_text(model.areas[0], False, compact=True).plain
    over = holmes_game(400)
    assert over.outcome is not None
    model = build_holmes_model(over.view(0), [], 0, HOLMES_SEATS)
    for area in model.areas:
        text = area_text(area, hide_secrets=False, compact=True).plain
        assert "were hidden: " in text and "hidden 0" not in text


async def test_holmes_clue_table_on_f1_reads_at_80_columns():
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await application.push_screen(RulesScreen("holmes"))
        await pilot.pause()
        for _ in range(18):
            await pilot.press("down")
        await pilot.pause()
        text = screen_text(application)
        assert "Copies = value" in text
        for clue in ("False Pass", "Explosive", "Cigarette"):
            assert clue in text
        assert "…" not in text  # no clue name cut short


def test_irene_adler_is_named_once():
    game = machinations_game(lambda g: False, seed=3, n=6)
    model = build_machinations_model(game.view(0), [], 0, machinations_seats(6))
    assert "Irene Adler (Irene Adler)" not in model.composition
    assert "Irene Adler" in model.composition


async def test_irene_adlers_own_role_line_names_her_once():
    game = machinations_game(lambda g: g.heists, seed=3, n=6)
    seat = game.roles.index("irene")
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await open_table(application, game, seat, machinations_lobby(6))
        await pilot.pause()
        text = flat(application)
        assert "Role: Irene Adler" in text and "Irene Adler (Irene Adler)" not in text


async def test_machinations_end_screen_says_who_was_arrested_or_murdered_and_whether_right():
    game = machinations_game(lambda g: False, seed=5, n=8)
    outcome = game.view(0)["outcome"]
    assert outcome["reason"] == "points"
    lestrade, jack = game.roles.index("lestrade"), game.roles.index("jack")
    names = [s.name for s in machinations_seats(8)]
    application = app()
    async with application.run_test(size=(80, 24)) as pilot:
        await open_table(application, game, 0, machinations_lobby(8))
        while not isinstance(application.screen, EndScreen):
            await pilot.pause()
        await pilot.pause()
        text = flat(application)
        arrested, murdered = game.arrest, game.murder
        assert (f"{names[lestrade]} (Inspector Lestrade) arrested {names[arrested]}: "
                in text)
        assert f"{names[jack]} (Jack the Ripper) murdered {names[murdered]}: " in text
        assert "Irene Adler loses: " in text or "Irene Adler wins: " in text


def test_machinations_ending_explains_every_kind_of_end():
    """Arrest, murder, both right, both wrong: each accusation says whether it was right."""
    seen = set()
    for seed in range(60):
        game = machinations_game(lambda g: False, seed=seed, n=7)
        view = game.view(engine.SPECTATOR)
        lines = ending_lines(view, machinations_seats(7))
        arrest = next(line for line in lines if " arrested " in line)
        murder = next(line for line in lines if " murdered " in line)
        moriarty = game.roles[game.arrest] == "moriarty"
        sherlock = game.roles[game.murder] == "sherlock"
        assert arrest.endswith("right.") == moriarty
        assert murder.endswith("right.") == sherlock
        seen.add((moriarty, sherlock))
    assert len(seen) >= 3


def test_machinations_says_what_you_are_shown_in_the_rules_words():
    game = engine.new_game("machinations", 5, {}, 1)
    seat = game.roles.index("jack")
    texts = [e["text"] for e in game.view(seat)["events"]]
    assert "You are shown nobody at the start." in texts
    assert not any("Information Exchange" in t for t in texts)
