"""Suite-wide guards: no test touches the real user's data or config directories. And how the
suite is spread over xdist's workers (`-n auto --dist loadgroup` in pyproject.toml)."""

import os

import pytest


@pytest.fixture(autouse=True)
def private_user_dirs(tmp_path_factory, monkeypatch):
    # Journals hold secrets and the config holds the player's name: a test must never read or
    # write the real ones. Tests that need their own directories still set these themselves.
    root = tmp_path_factory.mktemp("user")
    monkeypatch.setenv("GASLIGHT_DATA_DIR", str(root / "data"))
    monkeypatch.setenv("GASLIGHT_CONFIG_DIR", str(root / "config"))
    monkeypatch.setenv("GASLIGHT_INTERFACES", "127.0.0.1")


WORKERS_BEYOND_CORES = 1
"""Workers `-n auto` starts beyond one a core: much of the suite waits (on servers, browsers,
apps drawing, bots' pace), and a worker that waits leaves its core to another's work."""


@pytest.hookimpl(optionalhook=True)  # a run without xdist has no such hook
def pytest_xdist_auto_num_workers(config):
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    return len(os.sched_getaffinity(0)) + WORKERS_BEYOND_CORES


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """Each `xdist_group` runs on one worker, one test after another, as `--dist loadgroup`
    promises. xdist 3.8 tells its scheduler a test's group by writing "@group" at the end of
    the test's `_nodeid`, which pytest 9.2 no longer reads (it builds `nodeid` from `_id`), so
    every group was silently spread over all workers (pytest-xdist#1386): the browser tests
    ran side by side. Until xdist reads groups another way, the suffix goes where pytest reads
    it; once xdist's own suffix shows again, this does nothing."""
    if not getattr(config.option, "loadgroup", False):
        return
    from _pytest.nodeid import NodeId

    for item in items:
        groups = {mark.args[0] if mark.args else mark.kwargs.get("name", "default")
                  for mark in item.iter_markers("xdist_group")}
        suffix = "@" + "_".join(sorted(groups))
        if groups and not item.nodeid.endswith(suffix):
            # One name after the path, so the id reads back the same however pytest rebuilds
            # its string (a parametrized id's "[...]" would otherwise close after the suffix).
            item._id = NodeId(path=item._id.path, names=(item._id.rest + suffix,))
