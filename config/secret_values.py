"""Secrets in settings: never a constant default, never in a log line.

Every secret setting is a pydantic `SecretStr` (its repr and str are `**********`, so logging a
Settings object or a field leaks nothing); code that needs the value calls `reveal(...)` at the
one place it hands it to a client library.

`user_hash_key` keys the pseudonymous user ids in events and signs source links (a link grants
the roles written into it). A constant default would let anyone forge a link to a restricted
rulebook, so when it is not configured each data dir gets its own random key, generated on first
use and kept in `<data dir>/user_hash_key` (mode 0600, created exclusively so two processes
starting at once agree on one key). Several replicas behind one load balancer must share a key:
set `RULEBOOK_USER_HASH_KEY` for them.
"""

from __future__ import annotations

import logging
import os
import secrets
import threading
from pathlib import Path

from pydantic import SecretStr

log = logging.getLogger("rulebook.settings")

KEY_FILE_NAME = "user_hash_key"
_generated: dict[Path, str] = {}
_generated_lock = threading.Lock()


def reveal(value: SecretStr | str | None) -> str:
    """The secret's text ("" when unset); accepts plain strings so callers need not care."""
    if value is None:
        return ""
    if isinstance(value, SecretStr):
        return value.get_secret_value()
    return str(value)


def _read_or_create(path: Path) -> str:
    try:
        existing = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        existing = ""
    if existing:
        return existing
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process won the race: use its key
        return path.read_text(encoding="utf-8").strip() or key
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(key + "\n")
    return key


def data_dir_key(data_dir: Path) -> str:
    """The data dir's own random key, made on first use; a process-only key when it is read-only."""
    path = (Path(data_dir) / KEY_FILE_NAME).resolve()
    with _generated_lock:
        if path not in _generated:
            try:
                _generated[path] = _read_or_create(path)
            except OSError as exc:
                log.warning("cannot keep a user hash key in %s (%s): using a key for this process only; "
                            "user ids in events and source links will not survive a restart. "
                            "Set RULEBOOK_USER_HASH_KEY or make the data dir writable.",
                            path.parent, exc.strerror or type(exc).__name__)
                _generated[path] = secrets.token_urlsafe(32)
        return _generated[path]


class DataDirKey(SecretStr):
    """A SecretStr whose value is the data dir's key, read or generated when first needed.

    Lazy on purpose: building Settings (every CLI command, every test) must not write files.
    """

    def __init__(self, data_dir: Path) -> None:
        super().__init__("")
        self._data_dir = Path(data_dir)
        self._key = ""  # once read, kept: every usage event and source link hashes with it

    def get_secret_value(self) -> str:
        if not self._key:  # resolving the path costs a syscall per component: once, not per use
            self._key = data_dir_key(self._data_dir)
        return self._key

    def __len__(self) -> int:
        return len(self.get_secret_value())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SecretStr) and self.get_secret_value() == other.get_secret_value()

    def __hash__(self) -> int:
        return hash(self.get_secret_value())
