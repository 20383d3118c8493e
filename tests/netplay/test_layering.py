"""netplay sits between engine and tui: it never imports textual."""

import subprocess
import sys


def test_netplay_imports_no_textual():
    code = (
        "import sys, netplay.protocol, netplay.errors, netplay.tables, netplay.bots, netplay.host, "
        "netplay.client, netplay.store, netplay.discovery\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'textual', 'tui'}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
