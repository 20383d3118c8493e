"""Time Bomb: the game (`game`) and its bots (`bots`). `engine.registry` loads them; importing
this package alone loads neither, so the static catalogue stays light."""
