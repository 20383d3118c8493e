"""Helpers the test folders share, importable as `support` (pyproject's pytest `pythonpath`
puts `tests/` on the path, so no test edits `sys.path` to reach them):

- `hosts`: a host on loopback with its data directory, and a table in its store;
- `timebomb`: Time Bomb games arranged by hand (hands, cutter, round);
- `holmes`: Holmes games arranged by hand, and the conservation check;
- `holmes_secrets`: Holmes's part of the random-play harness;
- `random_sim`: the one random-play harness every game's tests and `benchmarks/random_sim.py`
  run;
- `offline`: a play screen fed with engine views instead of a host, for snapshots;
- `waiting`: waiting until something holds, failing with what was awaited, never hanging;
- `flows`: waiting on the app in Pilot flows, pairing and finding the play screen;
- `screen_text`: the text a player would read on the screen right now.
"""
