"""Hidden information: a seat's view depends only on what that seat may know.

Information-set invariance: from positions reached in random games, re-deal everything seat s
cannot see (the other players' roles and the set-aside card, the face-down wires of the other
players within their public counts, their private events, the seed and the generator), and
`msgpack.packb(view(s))` must not change by a single byte. The spectator sees nothing secret.
"""

from __future__ import annotations

import random

import msgpack
import pytest

import engine
from engine.core import Event
from engine.timebomb.game import MORIARTY, SHERLOCK

SECRET_KEYS = {"role", "roles", "hand", "hands", "set_aside"}


def positions(players: int, games: int):
    """Running positions from random games, several per game."""
    bot = engine.GAMES["timebomb"].BOTS["random"]
    for seed in range(games):
        game = engine.new_game("timebomb", players, {}, seed)
        rng = random.Random(seed)
        while game.outcome is None:
            if rng.random() < 0.3:
                claimer = rng.randrange(players)
                claims = game.claim_actions(claimer)
                game.apply(claimer, rng.choice(claims))
            if rng.random() < 0.25:
                yield game
            game.apply(game.cutter, bot(None, game.legal_actions(game.cutter), rng))


def redeal_unseen(game, viewer: int, rng: random.Random):
    """A copy of `game` that differs from it in everything `viewer` cannot see."""
    other = engine.replay("timebomb", game.players, game.options, game.seed, game.history)
    hidden = [s for s in range(game.players) if s != viewer]
    # Roles: shuffle the unseen cards (the others' and the set-aside one).
    cards = [other.roles[s] for s in hidden] + ([other.set_aside] if other.set_aside else [])
    if len(set(cards)) == 1:
        cards = [SHERLOCK if c == MORIARTY else MORIARTY for c in cards]  # change them anyway
    rng.shuffle(cards)
    for seat, card in zip(hidden, cards):
        other.roles[seat] = card
    if other.set_aside:
        other.set_aside = cards[-1]
    # Face-down wires: pool the others' wires and deal them again in the same counts.
    kinds = len(other.kinds)
    pile = [k for s in hidden for k in range(kinds) for _ in range(other.hands[s][k])]
    rng.shuffle(pile)
    for seat in hidden:
        size = sum(other.hands[seat])
        other.hands[seat] = [0] * kinds
        for k in pile[:size]:
            other.hands[seat][k] += 1
        del pile[:size]
    # Private events of the other seats: new roles and hands. Events are shared immutable
    # values, so they are replaced, never changed.
    for i, event in enumerate(other.events):
        if event.audience is not None and viewer not in event.audience:
            if event.type == "role":
                data = {"role": rng.choice((SHERLOCK, MORIARTY))}
                text = "You are on someone's team."
            elif event.type == "hand":
                data = {"hand": {"safe": rng.randrange(6), "defusing": 9, "bomb": 1}}
                text = "You see your wires: something else."
            else:
                continue
            other.events[i] = Event(event.type, text, event.seats, data, event.audience)
    # The seed and the generator's state.
    other.seed = game.seed + 1_000_003
    other.rng = random.Random(other.seed)
    return other


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_view_is_invariant_under_redealing_what_the_viewer_cannot_see(players):
    rng = random.Random(players)
    checked = 0
    for game in positions(players, 25):
        for viewer in (*range(players), engine.SPECTATOR):
            original = msgpack.packb(game.view(viewer))
            twin = redeal_unseen(game, viewer, rng)
            assert msgpack.packb(twin.view(viewer)) == original, (viewer, game)
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("players", [4, 7])
def test_the_redeal_really_changes_the_hidden_state(players):
    # Guards the test above: its twins differ from the original where it matters.
    rng = random.Random(1)
    differs = 0
    for game in positions(players, 10):
        twin = redeal_unseen(game, 0, rng)
        differs += twin.view(engine.REFEREE) != game.view(engine.REFEREE)
    assert differs > 0


def test_spectator_never_sees_a_role_or_an_unrevealed_wire():
    for players in (4, 5, 6, 7, 8):
        for game in positions(players, 15):
            view = game.view(engine.SPECTATOR)
            assert not SECRET_KEYS & set(view)
            assert all(e["type"] not in ("role", "hand") for e in view["events"])
            text = msgpack.packb(view["events"])
            assert b"You are on" not in text and b"You see your wires" not in text
            # What is public of the hands is their face-down counts.
            assert view["face_down"] == [sum(h) for h in game.hands]
            assert sum(view["face_down"]) == (6 - view["round"]) * players - view["cuts"]


def test_events_in_a_seat_view_are_its_own_or_public():
    for players in (4, 7):
        for game in positions(players, 15):
            for seat in range(players):
                for event in game.view(seat)["events"]:
                    if event["type"] == "role":
                        assert event["role"] == game.roles[seat]
                # Exactly one role event and one hand event per deal reach each seat.
                view = game.view(seat)
                kinds = [e["type"] for e in view["events"]]
                assert kinds.count("role") == 1
                assert kinds.count("hand") == kinds.count("deal")
                assert view["events"] == [
                    e.as_dict() for e in game.events if e.audience is None or seat in e.audience
                ]
                assert all(
                    e.audience in (None, frozenset({seat}))
                    for e in game.events
                    if e.audience is None or seat in e.audience
                )


def test_no_view_holds_the_seed():
    game = engine.new_game("timebomb", 5, {}, 987654321)
    for viewer in (0, engine.SPECTATOR, engine.REFEREE):
        assert b"987654321" not in msgpack.packb(game.view(viewer), use_bin_type=True)
        assert 987654321 not in _all_ints(game.view(viewer))


def _all_ints(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from _all_ints(v)
    elif isinstance(value, list):
        for v in value:
            yield from _all_ints(v)
    elif isinstance(value, int):
        yield value
