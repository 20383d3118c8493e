"""Browser play: `gaslight serve` (`tui.serve.server`)."""
