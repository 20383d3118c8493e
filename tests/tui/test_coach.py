"""The coach (issue 44): a person's first games of each game are coached, from the seat's view
only. Whole games of every game in the catalogue are played by bots with a coach at every
seat: its lines and the hints' lines go through the project's secret scan, stay the same when
everything the seat cannot see is dealt again, say nothing but public facts unless marked
private (what Ctrl+E hides), and use only terms the game explains."""

from __future__ import annotations

import random

import pytest
from support.random_sim import CHECKS, replica
from support.secrets import hidden_from, scan, seed_patterns
from support.terms_scan import unexplained

import engine
from engine.catalogue import CATALOGUE
from tui import coach as coaching
from tui.coach import FIRST_GAMES, Coach, hint_lines, hint_news
from tui.games.terms import terms_of
from tui.models.seats import event_text

GAMES = list(CATALOGUE)
NAMES = ["Ada", "Basil", "Cyril", "Dora", "Edith", "Fred", "Gwen", "Hugo", "Iris", "Jules"]
SEED = 0x5EED_0C_0AC4


@pytest.fixture
def coached(monkeypatch):
    """The coach on at every game, however many games these tests' coaches count."""
    for game_id in GAMES:
        coaching.set_coach(game_id, True)


def strongest(game_id: str):
    return engine.GAMES[game_id].BOTS[CATALOGUE[game_id].default_bot]


def tables(game_id: str):
    """A game of each of two player counts, and the Variante's where the game has one: the
    fewest players, and two more (a full table of the strongest bots' hints costs minutes)."""
    info = CATALOGUE[game_id]
    counts = sorted({info.min_players, min(info.min_players + 2, info.max_players)})
    for n, players in enumerate(counts):
        options = {"variante": n == 0} if game_id == "timebomb_evolution" else {}
        yield engine.new_game(game_id, players, options, SEED + n)


def public_view(game: engine.Game, seat: int) -> dict:
    """What everyone at the table sees, as if through `seat`'s eyes: the spectator's view."""
    return {**game.view(engine.SPECTATOR), "viewer": seat}


def coached_game(game: engine.Game):
    """Play `game` to its end with the strongest bots, a coach at every seat (and at each a
    second one fed the seat's view of a twin game dealt again where the seat cannot see, and
    a third fed only the public view): yield each seat's lines, the twin's, the public
    coach's and every hint asked on the way, as (seat, lines, twin lines, public lines)."""
    names = NAMES[:game.players]
    rng, redeal = random.Random(game.seed), CHECKS[game.id].redeal
    seats = range(game.players)
    coaches = {s: (Coach(), Coach(), Coach()) for s in seats}
    bot = strongest(game.id)

    def heard():
        for s, (own, twin_coach, public) in coaches.items():
            twin = replica(game)
            if game.outcome is None:
                redeal(twin, s, rng)
            legal = game.legal_actions(s)
            lines = own.heard(game.view(s), legal, names)
            hints = []
            if s in game.to_act() and game.outcome is None:
                advice = bot.advise(game.view(s), legal, random.Random(s))
                hints = hint_lines(game.id, advice.action, advice.reason, advice.seats,
                                   game.view(s), names)
            yield (s, lines, twin_coach.heard(twin.view(s), twin.legal_actions(s), names),
                   public.heard(public_view(game, s), [], names), hints)

    yield from heard()
    while game.outcome is None:
        seat = min(game.to_act())
        game.apply(seat, bot(game.view(seat), game.legal_actions(seat), rng))
        yield from heard()


@pytest.mark.parametrize("game_id", GAMES)
def test_a_first_game_coached_says_only_what_each_seat_may_know(game_id, coached):
    said = 0
    for game in tables(game_id):
        lines_of = {s: [] for s in range(game.players)}
        for seat, lines, twin, public, hints in coached_game(game):
            where = f"{game!r}, seat {seat}"
            assert lines == twin, f"the coach read what seat {seat} cannot see: {where}"
            shown = [line for line in lines if not line["private"]]
            events = [line for line in public if not line["private"]]
            assert shown == events, f"a public line of the coach tells a secret: {where}"
            lines_of[seat] += lines + hints
        names = NAMES[:game.players]
        for seat, lines in lines_of.items():
            text = "\n".join(event_text(line, names) for line in lines)
            _, texts = hidden_from(game, seat)
            scan(f"the coach's lines at seat {seat}", text.encode(), {
                "the seed": seed_patterns(game.seed),
                "another seat's private text": [t.encode() for t in sorted(texts)]})
            said += len(lines)
    assert said > 40


@pytest.mark.parametrize("game_id", GAMES)
def test_the_coachs_and_hints_lines_use_only_explained_terms(game_id, coached):
    for game in tables(game_id):
        names = NAMES[:game.players]
        for seat, lines, _, _, hints in coached_game(game):
            for line in lines + hints:
                text = event_text(line, names)
                assert line["text"].startswith(("Coach: ", "Hint: ")), text
                assert unexplained(text, terms_of(game_id), names) == [], text


@pytest.mark.parametrize("game_id", GAMES)
def test_every_seat_hears_how_it_wins_and_what_each_choice_means(game_id, coached):
    """The first view says how the seat wins; every time the game starts waiting on the seat
    (in a game with several kinds of choices), the coach has something to say about it at
    least once."""
    game = next(tables(game_id))
    first, choices = {}, {}
    for seat, lines, *_ in coached_game(game):
        first.setdefault(seat, lines)
        if seat in game.to_act() and game.outcome is None and lines:
            choices[seat] = True
    assert all(first[s] and all(line["private"] for line in first[s]) for s in first), first
    assert choices, "the coach never spoke at a seat's turn"


def test_the_coach_speaks_for_a_persons_first_games_then_falls_quiet():
    bot = strongest("timebomb")
    for n in range(FIRST_GAMES):
        assert coaching.coach_on("timebomb")
        game = next(tables("timebomb"))
        coach, lines, rng = Coach(), [], random.Random(n)
        while True:
            lines += coach.heard(game.view(0), game.legal_actions(0), NAMES)
            if game.outcome is not None:
                break
            seat = min(game.to_act())
            game.apply(seat, bot(game.view(seat), game.legal_actions(seat), rng))
        assert lines
    assert coaching.games_played("timebomb") == FIRST_GAMES
    assert not coaching.coach_on("timebomb") and coaching.coach_on("holmes")
    game = next(tables("timebomb"))
    assert Coach().heard(game.view(0), game.legal_actions(0), NAMES) == []
    # The person turns it on again, for this game only, and off.
    coach = Coach()
    coach.heard(game.view(0), game.legal_actions(0), NAMES)
    assert "on" in coach.toggle()
    assert coaching.coach_on("timebomb")
    assert Coach().heard(game.view(0), game.legal_actions(0), NAMES)
    assert "off" in coach.toggle()
    assert not coaching.coach_on("timebomb")


def test_a_spectator_is_not_coached_and_a_game_seen_only_at_its_end_is_not_counted():
    game = next(tables("machinations"))
    coach = Coach()
    assert coach.heard(game.view(engine.SPECTATOR), [], NAMES) == []
    while game.outcome is None:
        seat = min(game.to_act())
        game.apply(seat, strongest("machinations")(game.view(seat), game.legal_actions(seat),
                                                   random.Random(1)))
    Coach().heard(game.view(0), [], NAMES)
    assert coaching.games_played("machinations") == 0


def test_everyone_is_told_who_asked_for_a_hint():
    assert hint_news([0, 0, 0], [0, 1, 0], NAMES) == ["Basil asked for a hint."]
    assert hint_news([0, 1], [2, 3], NAMES) == ["Ada asked for a hint (2 times).",
                                               "Basil asked for a hint (2 times)."]
    assert hint_news([3, 1], [0, 0], NAMES) == []  # a new game counts again


async def test_at_a_game_against_bots_the_hint_key_asks_and_the_coach_key_toggles(
        app_factory, waiter):
    """Time Bomb against bots, a first game: the coach's lines are in the log; at the
    person's cut Ctrl+G (in the footer then) puts the strongest bot's move and its reason in
    the log, and the table is told a hint was asked; Ctrl+L turns the coach off, and on."""
    from support.flows import claim_offer, play_screen
    from support.screen_text import screen_text

    from tui.widgets.event_log import EventLog

    app = app_factory()
    async with app.run_test(size=(80, 24), message_hook=waiter.hook) as pilot:
        await pilot.press("ctrl+g", "enter")
        table = await waiter.until(pilot, lambda: play_screen(app), "the play screen")
        await waiter.until(pilot, lambda: table.view is not None, "the first state")
        log = table.query_one(EventLog)

        def lines(prefix: str) -> list[str]:
            return [log.line(e) for e in log.entries
                    if isinstance(e, dict) and e["text"].startswith(prefix)]

        assert lines("Coach: You are on "), "the coach did not say how this seat wins"
        while True:
            await waiter.until(pilot, lambda: claim_offer(app) or table.hint_offered
                               or table.view["outcome"], "my cut")
            if not claim_offer(app):
                break
            await pilot.press("escape")
        assert table.view["outcome"] is None, "seed 7's bots no longer leave Ann a cut"
        await pilot.pause()
        assert "^g Hint" in screen_text(app).splitlines()[-1]
        await pilot.press("ctrl+g")
        [hint] = await waiter.until(pilot, lambda: lines("Hint: "), "the hint")
        assert hint.startswith("Hint: cut a wire of ") and "Why: " in hint
        await waiter.until(pilot, lambda: any(
            isinstance(e, str) and e.endswith("Ann asked for a hint.")
            for e in log.entries), "the table told")
        assert coaching.coach_on("timebomb")
        await pilot.press("ctrl+l")
        await pilot.pause()
        assert not coaching.coach_on("timebomb")
        assert log.entries[-1] == "» The coach is off. The same key turns it on again."
        await pilot.press("ctrl+l")
        await pilot.pause()
        assert coaching.coach_on("timebomb")


async def test_the_host_form_offers_hints_off_by_default_and_the_lobby_shows_them():
    from textual.widgets import Select
    from support.offline import offline_app

    from tui.address import Address
    from tui.listing import TableListing
    from tui.screens.host_table import HostTableScreen
    from tui.table_request import last_table, remember_table

    application = offline_app()
    async with application.run_test(size=(80, 24)) as pilot:
        await application.push_screen(HostTableScreen("Ada", "holmes"))
        await pilot.pause()
        form = application.screen
        assert form.request().hints is False
        form.query_one("#host-hints", Select).value = True
        await pilot.pause()
        request = form.request()
        assert request.hints is True
    remember_table(request)
    assert last_table().hints is True  # the next Ctrl+N starts with hints on
    row = {"id": "t1", "name": "Club", "game": "holmes", "players": 2, "options": {}}
    address = Address("127.0.0.1", 47420)
    assert TableListing.from_message(address, {**row, "hints": True}, "lan").options == \
        "Hints: on"
    assert TableListing.from_message(address, row, "lan").options == ""


def test_evolutions_round_summaries_say_what_each_cut_did_the_blues_too():
    """A past round's line gives each wire cut with what its cut did: the Defusing wire laid
    on a colour, the Defusing wire a Blue moved apart (the issue's missing Blue)."""
    from tui.games.timebomb_evolution.model import build_model
    from tui.models.seats import seat_infos

    game = engine.new_game("timebomb_evolution", 5, {"variante": True}, 0)
    bot, rng = strongest("timebomb_evolution"), random.Random(0)
    while game.outcome is None:
        seat = min(game.to_act())
        game.apply(seat, bot(game.view(seat), game.legal_actions(seat), rng))
    events = game.view(0)["events"]
    moved = next(e for e in events if e["type"] == "move_apart")
    laid = next(e for e in events if e["type"] == "defuse")
    names = {n: NAMES[n] for n in range(5)}
    history = "\n".join(build_model(game.view(0), [], 0, seat_infos(
        [{"seat": s, "name": names[s], "kind": "human"} for s in range(5)], 5)).history)
    colour = {"yellow": "Yellow", "blue": "Blue", "red": "Red", "pink": "Pink",
              "green": "Green", "orange": "Orange"}
    assert f"B (moved ◆{moved['wire']} off {colour[moved['colour']]})" in history, history
    assert f"◆ (laid on {colour[laid['colour']]})" in history, history


@pytest.mark.parametrize("game_id", GAMES)
def test_every_role_of_every_game_has_its_win_line(game_id):
    """Issue 44, point 3: at every player count, every seat's own view gives a line on how its
    role wins (the board shows it on the seat's panel all game); a spectator has none. Every
    role Moriarty's Machinations deals is met on the way."""
    from tui.games.terms import goal

    info, met = CATALOGUE[game_id], set()
    for players in info.player_counts:
        for seed in range(3):
            game = engine.new_game(game_id, players, {}, SEED + seed)
            for seat in range(players):
                view = game.view(seat)
                line = goal(game_id, view)
                # Two rows at most of the 44 columns a panel has at 80x24.
                assert line.startswith("Win: ") and len(line) <= 88, (players, seat, line)
                met.add(view.get("role"))
            assert goal(game_id, game.view(engine.SPECTATOR)) == ""
    if game_id == "machinations":
        from engine.machinations.roles import ROLES

        assert met == set(ROLES)
