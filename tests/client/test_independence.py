"""docintake_client uses only the public HTTP API: it imports none of the server's
packages, so it can be lifted out as it is."""

from __future__ import annotations

import subprocess
import sys

SERVER_PACKAGES = ("api", "flows", "storage", "processors")


def test_importing_the_client_and_importer_loads_no_server_package() -> None:
    probe = (
        "import sys, docintake_client, docintake_client.importer, docintake_client.webhooks\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({SERVER_PACKAGES!r})))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert loaded == "[]"
