"""`rulebook index` while `rulebook serve` is up: hand the folder to the server instead of failing.

The server owns the store (the embedded engine admits one process, and the server is the one
that switches generations atomically), so the command drops a request into the data dir's
request folder and follows the job's progress there (indexing/index_jobs.py).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from config.settings import Settings


def index_through_server(settings: Settings, folder: Path, progress: Callable[[int, int, str], None],
                         say: Callable[[str], None]) -> dict[str, Any] | None:
    """The run's summary (as `IndexSummary.to_dict()`) when a server took the job; None when no
    server runs on this data dir. Raises RuntimeError when the server's job failed."""
    from indexing.index_jobs import running_server, submit_to_server, wait_for_job

    server = running_server(settings.data_dir)
    if server is None:
        return None
    say(f"rulebook serve (pid {server['pid']}) owns this index: indexing runs inside it, "
        "answers keep flowing meanwhile")
    job_id = submit_to_server(settings.data_dir, folder)

    def on_status(status: dict[str, Any]) -> None:
        shown = status.get("progress") or {}
        if shown:
            progress(int(shown.get("done", 0)), int(shown.get("total", 0)), str(shown.get("what", "")))

    status = wait_for_job(settings.data_dir, job_id, on_status)
    if status.get("state") != "done" or status.get("summary") is None:
        raise RuntimeError(f"the server's indexing job failed: {status.get('error') or 'no summary'}")
    return dict(status["summary"])
