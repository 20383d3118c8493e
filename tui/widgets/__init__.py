"""One widget per module; each carries its own DEFAULT_CSS."""
