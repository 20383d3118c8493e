"""The engine contract shared by every game: registry, options, shape checks, purity."""

import random
import subprocess
import sys

import pytest

import engine


def test_every_registered_game_declares_the_contract():
    assert "timebomb" in engine.GAMES
    for game_id, cls in engine.GAMES.items():
        assert cls.id == game_id
        assert cls.min_players <= cls.max_players
        assert "random" in cls.BOTS


def test_unknown_game_is_a_clear_setup_error():
    with pytest.raises(engine.InvalidSetup, match="no game 'chess'"):
        engine.new_game("chess", 4)


@pytest.mark.parametrize("players", [3, 9, "5", True])
def test_player_count_outside_the_range_is_refused(players):
    with pytest.raises(engine.InvalidSetup, match="4-8 players"):
        engine.new_game("timebomb", players)


def test_unknown_option_and_bad_value_are_refused():
    with pytest.raises(engine.InvalidSetup, match="no option 'speed'"):
        engine.new_game("timebomb", 5, {"speed": 2})
    with pytest.raises(engine.InvalidSetup, match="first_player"):
        engine.new_game("timebomb", 5, {"first_player": 5})
    # True == 1 in Python; an option must match in type too.
    with pytest.raises(engine.InvalidSetup, match="first_player"):
        engine.new_game("timebomb", 5, {"first_player": True})


def test_engine_imports_nothing_of_the_outer_layers():
    code = (
        "import sys, engine, engine.core, engine.registry\n"
        "for m in list(engine.GAMES.values()): __import__(m.__module__)\n"
        "bad = {'asyncio', 'msgpack', 'textual', 'zeroconf'} & set(sys.modules)\n"
        "print(sorted(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("game_id", sorted(engine.GAMES))
def test_events_say_whether_they_are_private_and_come_apart_from_the_view(game_id):
    cls = engine.GAMES[game_id]
    game = engine.new_game(game_id, cls.min_players, {}, 5)
    rng = random.Random(5)
    bot = cls.BOTS["random"]
    for _ in range(6):
        if game.outcome is not None:
            break
        seat = min(game.to_act())
        game.apply(seat, bot(game.view(seat), game.legal_actions(seat), rng))
    for viewer in (0, engine.SPECTATOR, engine.REFEREE):
        full = game.view(viewer)
        assert game.view(viewer, events=False) == {k: v for k, v in full.items() if k != "events"}
        visible = [e for e in game.events if e.visible_to(viewer)]
        assert [e["private"] for e in full["events"]] == [e.audience is not None for e in visible]
        half = len(game.events) // 2
        later = [e for e in game.events[half:] if e.visible_to(viewer)]
        assert game.events_since(viewer, half) == full["events"][len(full["events"]) - len(later):]


def test_a_game_cannot_write_its_own_view():
    """Views are composed in `Game.view` from the hooks; a game that overrides `view` itself
    is refused when its class is made."""
    with pytest.raises(TypeError, match="overrides view"):
        class Leaky(engine.Game):
            def view(self, viewer, *, events=True):
                return {}


@pytest.mark.parametrize("game_id", sorted(engine.GAMES))
def test_a_seat_sees_the_public_view_plus_its_own_fields_only(game_id):
    """Every field a seat's view adds to the spectator's, or changes, comes from its own
    seat's hook: the public part is the same for every viewer."""
    cls = engine.GAMES[game_id]
    game = engine.new_game(game_id, cls.min_players, {}, 7)
    rng = random.Random(7)
    for _ in range(12):
        if game.outcome is not None:
            break
        seat = min(game.to_act())
        game.apply(seat, cls.BOTS["random"](None, game.legal_actions(seat), rng))
    public = game.view(engine.SPECTATOR)
    for seat in range(game.players):
        own = game.seat_view(seat)
        view = game.view(seat)
        assert {k: v for k, v in view.items() if k not in own and k not in ("viewer", "events")} \
            == {k: v for k, v in public.items() if k not in own and k not in ("viewer", "events")}


def test_the_random_bot_picks_among_the_moves_and_speaks_only_when_it_cannot_move():
    """The moves come before the free actions in a legal list, so the random bot counts the
    moves and draws one of them, each as often as the others; a seat with no move (one the
    game does not wait for) can only take a free action."""
    choose = engine.random_bot(frozenset({"claim"}))
    moves = [{"type": "cut", "target": t} for t in range(3)]
    claims = [{"type": "claim", "defusing": d, "bomb": 0} for d in range(5)]
    rng = random.Random(3)
    picked = [choose(None, moves + claims, rng)["target"] for _ in range(3000)]
    assert sorted(set(picked)) == [0, 1, 2]
    assert all(900 < picked.count(t) < 1100 for t in range(3))
    assert choose(None, claims, rng) in claims


@pytest.mark.parametrize("game_id", sorted(engine.GAMES))
def test_views_built_together_are_the_views_built_one_by_one(game_id):
    """`views` (how the host tells a table) gives every viewer what `view` gives it alone,
    while the game runs and once it is over, and builds what they show alike only once."""
    cls = engine.GAMES[game_id]
    game = engine.new_game(game_id, cls.max_players, {}, 11)
    rng = random.Random(11)
    viewers = [*range(game.players), engine.SPECTATOR, engine.REFEREE]
    checked_running = False
    while game.outcome is None:
        if len(game.history) == 6:
            views = game.views(viewers)
            assert views == {v: game.view(v, events=False) for v in viewers}
            checked_running = True
        seat = min(game.to_act())
        game.apply(seat, cls.BOTS["random"](None, game.legal_actions(seat), rng))
    assert checked_running
    views = game.views(viewers)
    assert views == {v: game.view(v, events=False) for v in viewers}
    assert len({id(view["to_act"]) for view in views.values()}) == 1


def test_views_refuses_a_viewer_that_is_not_one_and_no_game_may_compose_its_own():
    game = engine.new_game("timebomb", 5, {}, 1)
    with pytest.raises(ValueError, match="is not a seat"):
        game.views([0, 5])
    with pytest.raises(TypeError, match="overrides views"):
        class Leaky(engine.Game):
            def views(self, viewers):
                return {}
