"""Time Bomb Évolution and its Variante: the game (`game`) and its bots (`bots`). `engine.registry`
loads them; importing this package alone loads neither."""
