"""Azurite on loopback for the event, history and blob tests.

The emulator comes from npm, pinned in .ci/node/package-lock.json (Azurite 3.37 on the Node 24
that `scripts/test.sh` installs from PyPI). Without it the Azurite tests skip with that instruction, except in CI (`CI=true`),
where a missing emulator is a failure: a green run must mean the real store was exercised.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from config.settings import Settings

REPO = Path(__file__).resolve().parents[2]
# Azurite's fixed development account (public, documented by Microsoft; not a secret)
ACCOUNT = "devstoreaccount1"
ACCOUNT_KEY = ("Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==")


def wait_until(condition: Callable[[], object], timeout: float = 20.0) -> bool:
    """Poll `condition` until it holds or `timeout` seconds pass (the event log writes in a thread)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return bool(condition())


def azurite_binary() -> str | None:
    local = REPO / ".ci" / "node" / "node_modules" / ".bin" / "azurite"
    if local.exists():
        return str(local)
    return shutil.which("azurite")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _accepting(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


class Azurite:
    """One emulator process; `stop()` and `start()` again keep its ports (and, with a location,
    its data), which the outage test relies on."""

    def __init__(self, binary: str, workdir: Path, location: Path | None = None) -> None:
        self.binary = binary
        self.workdir = workdir
        self.location = location
        self.blob_port, self.queue_port, self.table_port = _free_port(), _free_port(), _free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 30.0) -> None:
        storage = ["--location", str(self.location)] if self.location else ["--inMemoryPersistence"]
        command = [self.binary, *storage, "--silent", "--skipApiVersionCheck", "--disableTelemetry",
                   "--blobHost", "127.0.0.1", "--blobPort", str(self.blob_port),
                   "--queueHost", "127.0.0.1", "--queuePort", str(self.queue_port),
                   "--tableHost", "127.0.0.1", "--tablePort", str(self.table_port)]
        self.workdir.mkdir(parents=True, exist_ok=True)
        log = (self.workdir / "azurite.log").open("ab")
        self.process = subprocess.Popen(command, cwd=self.workdir, stdout=log, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + timeout
        while not (_accepting(self.table_port) and _accepting(self.blob_port)):
            if self.process.poll() is not None:
                raise RuntimeError(f"Azurite exited with {self.process.returncode}; see "
                                   f"{self.workdir / 'azurite.log'}")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"Azurite did not listen within {timeout} s")
            time.sleep(0.1)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.process = None
        deadline = time.monotonic() + 10
        while _accepting(self.table_port) and time.monotonic() < deadline:
            time.sleep(0.05)

    @property
    def connection_string(self) -> str:
        base = "http://127.0.0.1"
        return (f"DefaultEndpointsProtocol=http;AccountName={ACCOUNT};AccountKey={ACCOUNT_KEY};"
                f"BlobEndpoint={base}:{self.blob_port}/{ACCOUNT};"
                f"QueueEndpoint={base}:{self.queue_port}/{ACCOUNT};"
                f"TableEndpoint={base}:{self.table_port}/{ACCOUNT};")


def require_azurite() -> str:
    binary = azurite_binary()
    if binary is None:
        message = ("Azurite is not installed: run `bash scripts/test.sh` once (it installs Node 24 "
                   "and the npm packages of .ci/node) to run the Table/Blob Storage tests")
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return binary


@pytest.fixture(scope="session")
def azurite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Azurite]:
    emulator = Azurite(require_azurite(), tmp_path_factory.mktemp("azurite"))
    emulator.start()
    yield emulator
    emulator.stop()


@pytest.fixture
def restartable_azurite(tmp_path: Path) -> Iterator[Azurite]:
    """An emulator of this test's own that keeps its data on disk across a stop and a start."""
    emulator = Azurite(require_azurite(), tmp_path / "azurite", location=tmp_path / "azurite-data")
    emulator.start()
    yield emulator
    emulator.stop()


@pytest.fixture
def table_prefix() -> str:
    """Tables of this test alone: the session emulator is shared."""
    return "t" + uuid.uuid4().hex[:12]


@pytest.fixture
def azure_settings(azurite: Azurite, tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data", tables_connection_string=azurite.connection_string,
                    blob_connection_string=azurite.connection_string, _env_file=None)


@pytest.fixture
def local_settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data", tables_connection_string=None,
                    blob_connection_string=None, _env_file=None)
