"""Moriarty's Machinations: the game (`game`), its bots (`bots`), and the static role and card
catalogue (`roles`, `cards`) that the TUI may read. `engine.registry` loads the game; importing
this package alone loads nothing."""
