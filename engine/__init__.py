"""Gaslight's game engines: the rules of each game, behind one small contract.

The engine is pure Python: no I/O, no clock, no asyncio, msgpack, zeroconf or textual. The host,
the bots, the simulator and the TUI all meet the games through this contract, and only it:

    import engine
    game = engine.new_game("timebomb", players=5, options={}, seed=42)
    game.to_act()              # frozenset of seats the game waits for (several when simultaneous)
    game.legal_actions(seat)   # complete list of msgpack-able dicts, each with a "type" key
    game.apply(seat, action)   # raises engine.IllegalAction(message); state unchanged on error
    game.view(seat)            # what that seat may see: a fresh msgpack-able dict (allow-list)
    game.view(engine.SPECTATOR)    # the public view
    game.view(engine.REFEREE)      # everything: only for the end, replays and tests
    game.views(seats)          # each one's view(seat, events=False), sharing what they show
                               # alike (read them, change none): the host tells a table so
    game.outcome               # None while running, then an engine.Outcome
    game.history               # [(seat, action), ...] applied so far, for journals and replay

`engine.GAMES` maps each game id to its class, which declares `title`, `min_players`,
`max_players`, `OPTIONS` (name, default, allowed values per player count) and `BOTS`; these come
from its entry in `engine.catalogue`, which holds every game's static facts without loading any
game (for the TUI).
`new_game` validates the player count and options and raises `engine.InvalidSetup` with a clear
message. `engine.replay(game_id, players, options, seed, actions)` rebuilds the same state from
the same inputs: all randomness comes from one `random.Random(seed)` inside the state, and no
view ever contains the seed.

Shapes the games rely on:

- **Turns.** `to_act()` names every seat the game is waiting for. A seat not in it may only
  take the game's `FREE_ACTIONS` (a public, non-binding claim, say), which never advance play.
  `legal_actions` lists the moves that advance play first, then the free actions.
- **Simultaneous secret actions** (votes, heist cards, accusations): `to_act()` holds every
  seat that has yet to choose. Each `apply` records one seat's choice; views show only *that*
  a seat has chosen, and the choices are revealed together once all are in.
- **Multi-step decisions** (take 1-3 clues, assign a defusing wire to a colour): the state
  holds a pending decision; `legal_actions` offers its next steps, each applied in turn, with a
  "done" or "decline" step where the rules allow stopping. A client never needs the rules to
  offer the right buttons: it offers `legal_actions`.
- **Off-turn decisions** (the opponent's optional buy at Von Kramm): `to_act()` names the
  deciding seat, even though it is not that seat's turn.
- **Actions** are maps with a "type" and typed fields (`Game.ACTIONS`). A wrong type, a missing
  or extra field, an out-of-turn seat or a move the rules forbid raises `IllegalAction` with a
  message a player can read; the state is unchanged. `apply` keeps a copy of the action.
- **Views** are built field by field for the viewer, never by copying the state and deleting
  secrets. A face-down card carries no identity that survives a shuffle or redeal. Every view
  has `game`, `players`, `viewer`, `options`, `to_act`, `events` and `outcome`. `Game.view`
  is one final method that composes them with the game's hooks: `public_view()` (given no
  viewer, so it cannot tailor a secret), `seat_view(seat)` for a seated viewer,
  `reveal_view()` once the game is over (and always for the referee) and `referee_view()`.
- **Events** (`Game.events`) each name their audience: everyone, some seats, or the referee only.
  A view holds the events its viewer may see, as `{"type", "text", "seats", ...}`, where the
  text's `{0}`, `{1}`... stand for the players in `seats`. Public wording never depends on a
  secret.
- **Bots** are `engine.bots.Bot`s: `bot(view, legal_actions, rng) -> action` when the game
  waits for their seat, and `bot.speak(view, legal_actions, rng) -> free action or None` when
  what they see has changed; `engine.bots.BotTurns` is the one rule of who is asked when, for
  the host and the simulator alike. They see their own seat's view only. Every game has
  `BOTS["random"]`.
"""

from engine.core import (
    REFEREE,
    SPECTATOR,
    Action,
    Event,
    Game,
    IllegalAction,
    InvalidSetup,
    Option,
    Outcome,
    random_bot,
)

_REGISTRY = frozenset({"GAMES", "game_class", "new_game", "register", "replay"})


def __getattr__(name: str):
    # The registry loads every game; it loads on first use so that the static catalogue
    # (`engine.catalogue`, the games' name lists) stays light for the TUI.
    if name in _REGISTRY:
        from engine import registry

        # Kept as a global of the package once loaded: the host reads `engine.GAMES` on every
        # move, and this hook (an import statement each time) cost it a few microseconds.
        value = globals()[name] = getattr(registry, name)
        return value
    raise AttributeError(f"module 'engine' has no attribute {name!r}")

__all__ = [
    "GAMES",
    "REFEREE",
    "SPECTATOR",
    "Action",
    "Event",
    "Game",
    "IllegalAction",
    "InvalidSetup",
    "Option",
    "Outcome",
    "game_class",
    "new_game",
    "random_bot",
    "register",
    "replay",
]
