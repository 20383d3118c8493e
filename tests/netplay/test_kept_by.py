"""`kept_by` reads a host's setting from its store while that host runs in another process:
the app that hosted a table finds its table code there once a host in the background has it."""

from __future__ import annotations

from netplay.store import Store, kept_by


def test_a_setting_is_read_while_the_store_is_open_elsewhere(tmp_path):
    store = Store.open(tmp_path, "lan-1234.sqlite3")
    try:
        code = store.kept("table_code", lambda: "12345678")
        assert kept_by(store.path, "table_code") == code
        assert kept_by(store.path, "nothing kept") is None
    finally:
        store.close()


def test_no_store_reads_nothing_and_makes_none(tmp_path):
    path = tmp_path / "gone.sqlite3"
    assert kept_by(path, "table_code") is None
    assert not path.exists()
