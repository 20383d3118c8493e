"""HO-48 to HO-50: what each player may see."""

import engine
from engine.holmes.catalogue import (
    BULLET, BUTTON, CIGARETTE, EXPLOSIVE, FINGERPRINT, FOOTPRINT, IRENE, LANGDALE, MAP,
)
from support.holmes import M, S, act, arrange, new_game, set_area, visit

LINE = [BULLET, BUTTON, CIGARETTE, FOOTPRINT]


def texts(game, viewer):
    return " ".join(e["text"] for e in game.view(viewer)["events"])


def test_ho48_private_to_the_owner():
    game = new_game()
    arrange(game, line=list(LINE), deck_top=[FINGERPRINT, MAP, EXPLOSIVE])
    visit(game, S, LANGDALE)
    act(game, S, "draw", count=2)
    assert game.view(S)["pending"]["drawn"] == [FINGERPRINT, MAP]
    for viewer in (M, engine.SPECTATOR):
        pending = game.view(viewer)["pending"]
        assert "drawn" not in pending and pending["drawn_count"] == 2
        assert "Fingerprint" not in texts(game, viewer).split("draws 2 cards")[-1]
    act(game, S, "keep", index=1)
    assert game.view(S)["areas"][S]["hidden"] == [MAP]
    assert "hidden" not in game.view(M)["areas"][S]
    assert "You keep a Map Fragment hidden." in texts(game, S)
    assert "You keep" not in texts(game, M)


def test_ho49_hidden_from_both_players():
    game = new_game({"villains": "random_one"})
    for viewer in (S, M, engine.SPECTATOR):
        view = game.view(viewer)
        assert "referee" not in view
        assert view["deck_count"] == 48 and view["discard_count"] == 0
        assert view["character_deck_count"] == 8
    referee = game.view(engine.REFEREE)["referee"]
    assert len(referee["deck"]) == 48 and len(referee["character_deck"]) == 8


def test_ho50_public_facts():
    game = new_game({"reserve_card": True})
    set_area(game, M, clues={EXPLOSIVE: 1}, hidden=[BUTTON], reserved=BULLET)
    arrange(game, line=[MAP, BUTTON, CIGARETTE, FOOTPRINT])
    visit(game, S, IRENE, day=2)
    act(game, S, "steal", card=EXPLOSIVE)
    view = game.view(M)
    for key in ("day", "first_player", "characters", "line", "reserve", "deck_count",
                "discard_count", "reserve_card", "unplaced_markers"):
        assert key in view
    assert view["characters"][3]["id"] == IRENE
    assert view["characters"][3]["markers"] == ["lying", None]
    assert view["areas"][S]["hidden_count"] == 1 and view["areas"][M]["hidden_count"] == 1
    assert view["areas"][M]["reserved"] == BULLET
    assert "steals an Explosive" in texts(game, engine.SPECTATOR)  # a theft's card is public


def test_ho50_everyone_sees_the_revealed_clues_at_the_end():
    game = new_game()
    set_area(game, S, hidden=[BUTTON, MAP])
    game.day, game.queue = 7, []
    game.begin_final()
    game.settle()
    assert game.view(M)["areas"][S]["revealed"] == [BUTTON, MAP]
    assert game.view(engine.SPECTATOR)["scores"] is not None
