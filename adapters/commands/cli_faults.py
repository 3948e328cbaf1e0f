"""What a CLI user sees when a command cannot do its job: one clear line and an exit code, no trace.

`run_cli(app)` runs the Typer app and turns the failures a user can cause or fix into a message
that says what happened and what to do:
- the embedded store is held by another process (`rulebook serve`, an indexer): stop it, or use a
  Qdrant server — `store_busy_message` is the one wording, so a later `index` that hands its work
  to a running server can reuse or bypass it;
- the data dir (or a file in it) cannot be written: read-only, wrong owner, full disk;
- the port of `rulebook serve` is taken;
- anything else: its type and message, with `RULEBOOK_TRACEBACK=1` to see the traceback.
Exit codes: 2 for these faults (1 stays "the command ran and found a problem", e.g. an empty index).
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable
from pathlib import Path

FAULT_EXIT = 2


def store_busy_message(data_dir: str) -> str:
    return (f"error: the embedded knowledge store in {data_dir} is in use by another process (is "
            "`rulebook serve` running?). The embedded engine allows one process at a time: stop that "
            "process and run this command again, or point every process at a Qdrant server with "
            "RULEBOOK_QDRANT_URL.")


def _data_dir() -> str:
    try:
        from config.settings import get_settings

        return str(get_settings().data_dir)
    except Exception:  # settings themselves may be the problem
        return os.environ.get("RULEBOOK_DATA_DIR", ".rulebook")


def os_error_message(exc: OSError) -> str:
    where = exc.filename or _data_dir()
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        why = "the file system is read-only" if exc.errno == errno.EROFS else "permission denied"
        return (f"error: cannot write to {where}: {why}. Rulebook keeps its index, events and keys in "
                f"the data dir ({_data_dir()}): make it writable, or set RULEBOOK_DATA_DIR to a "
                "writable folder.")
    if exc.errno == errno.ENOSPC:
        return f"error: no space left on the device holding {where}; free some space and run again."
    if exc.errno == errno.EADDRINUSE:
        return ("error: the address is already in use: another server listens on that port "
                "(an earlier `rulebook serve`?). Stop it, or choose another one with --port.")
    return f"error: {exc.strerror or type(exc).__name__}: {where}"


def _is_sqlite_readonly(exc: BaseException) -> bool:
    import sqlite3

    return isinstance(exc, sqlite3.OperationalError) and ("readonly" in str(exc) or "unable to open" in str(exc))


def fault_message(exc: BaseException) -> str | None:
    """The user-facing line for a fault we know how to explain, else None."""
    from knowledge.store import StoreBusyError

    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:  # the cause may be wrapped
        seen.add(id(current))
        if isinstance(current, StoreBusyError):
            return store_busy_message(_data_dir())
        if isinstance(current, OSError) and current.errno is not None:
            return os_error_message(current)
        if _is_sqlite_readonly(current):
            return (f"error: cannot write to the data dir ({_data_dir()}): {current}. Make it writable, "
                    "or set RULEBOOK_DATA_DIR to a writable folder.")
        current = current.__cause__ or current.__context__
    return None


def run_cli(app: Callable[[], object]) -> None:
    try:
        app()
    except SystemExit:
        raise
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        raise SystemExit(130) from None
    except Exception as exc:
        if os.environ.get("RULEBOOK_TRACEBACK"):
            raise
        message = fault_message(exc) or (
            f"error: {type(exc).__name__}: {exc} (set RULEBOOK_TRACEBACK=1 to see where it happened)")
        print(message, file=sys.stderr)
        raise SystemExit(FAULT_EXIT) from None


def writable_data_dir(path: Path) -> None:
    """Fail early, with the clear message, when the data dir cannot be created or written."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".write-probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise type(exc)(exc.errno, exc.strerror, str(path)) from None
