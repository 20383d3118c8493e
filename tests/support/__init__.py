"""Helpers the test folders share, importable as `support` (pyproject's pytest `pythonpath`
puts `tests/` on the path, so no test edits `sys.path` to reach them)."""
