"""Holmes: Sherlock & Mycroft: the game (`game`), its bots (`bots`), and the static catalogue of
characters and clues (`catalogue`) that the TUI may read. `engine.registry` loads the game;
importing this package alone loads nothing."""
