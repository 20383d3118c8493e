"""Issue 45, 6: a guest reaches only what a guest should.

Here: a pid file left by a background host that stopped by itself never leads the lobby's
"let go" to signal whatever process has that pid now. Finding a host by address from a page
is refused outside the guest's network, and on the serving computer's loopback, in the
browser (`tests/browser/test_serve_attacks.py`, from a network namespace) and in
`tests/tui/test_serve.py`.
"""

from __future__ import annotations

import subprocess
import sys
import time

from tui import background


def a_process_that_is_not_ours() -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])


def test_a_stale_pid_file_never_signals_the_process_that_has_its_pid_now(tmp_path):
    """The pid files of a background host that has stopped: one from before start times were
    kept (a bare pid), one whose start time is another process's. Each names a live process
    that is not a background host; stopping "the table kept in the background" signals
    nothing, and the stale file goes."""
    bystander = a_process_that_is_not_ours()
    try:
        for written in (f"{bystander.pid}", f"{bystander.pid} 12345"):
            background.pid_file(tmp_path, "lan-stale").write_text(written)
            assert background.running(tmp_path, "lan-stale") is None
            assert not background.pid_file(tmp_path, "lan-stale").exists()
            background.pid_file(tmp_path, "lan-stale").write_text(written)
            assert background.stop(tmp_path, "lan-stale") is False
        time.sleep(0.2)
        assert bystander.poll() is None, "the bystander was signalled"
    finally:
        bystander.kill()
        bystander.wait()


def test_the_pid_file_of_a_running_process_names_it(tmp_path):
    """The file keeps the start time the system gives the process: the same process is
    found running, and stopped; once it has ended its file names nothing."""
    process = a_process_that_is_not_ours()
    try:
        background.pid_file(tmp_path, "lan-ours").write_text(
            f"{process.pid} {background.started(process.pid)}")
        assert background.running(tmp_path, "lan-ours") == process.pid
        assert background.stop(tmp_path, "lan-ours") is True
        assert process.wait(timeout=5) != 0  # ended by its SIGTERM
        assert background.running(tmp_path, "lan-ours") is None
    finally:
        process.kill()
        process.wait()
