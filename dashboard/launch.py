"""Serving the dashboard: `studdraw dashboard` runs Streamlit in this process on app.py.

Streamlit runs in-process (not as a child) so the server is the process the user started: its
pid is the one to stop, and Ctrl-C reaches it directly. The settings are passed as flags, so
they hold whatever ~/.streamlit/config.toml says: no usage statistics (the dashboard never calls
out), no file watcher (the code is installed, not edited), and no browser started on a server.
"""

from __future__ import annotations

import os
from pathlib import Path

from streamlit.web.cli import main as streamlit_main

APP = Path(__file__).with_name("app.py")
ENV_VAR = "STUDDRAW_DB"
"""Names the store for the app: Streamlit runs each page as a fresh script, and AppTest cannot
pass command-line arguments."""

THEME = {
    "theme.base": "light",
    "theme.primaryColor": "#1f6e43",
}


def streamlit_args(port: int, address: str) -> list[str]:
    """The `streamlit run` command line for the app."""
    options = {
        "server.port": str(port),
        "server.address": address,
        "server.headless": "true",
        "server.fileWatcherType": "none",
        "browser.gatherUsageStats": "false",
        "client.toolbarMode": "minimal",
        **THEME,
    }
    return ["run", str(APP), *(f"--{name}={value}" for name, value in options.items())]


def serve(db: Path, port: int, address: str) -> None:
    """Serve the dashboard on the store `db` (a DuckDB file or a Parquet dataset folder) until
    interrupted."""
    os.environ[ENV_VAR] = str(db.resolve())
    streamlit_main(args=streamlit_args(port, address), prog_name="streamlit")
