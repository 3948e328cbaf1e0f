"""No stack trace reaches a CLI user: each fault a user can meet is one clear line and a non-zero
exit (read-only data dir, the embedded store held by `rulebook serve`, a taken port, an empty
index, an empty folder, an unknown role), and the help texts say what the options do."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from knowledge.store_copy import copy_store_dir
from tests.conftest import REPO_ROOT, SAMPLE_CORPUS
from tests.load.test_http_hardening import _free_port


def _env(data_dir: Path, **extra: str) -> dict[str, str]:
    env = {**os.environ, "RULEBOOK_DATA_DIR": str(data_dir), "RULEBOOK_TEAMS_APP_ID": "",
           "RULEBOOK_SLACK_SIGNING_SECRET": "", "RULEBOOK_SLACK_APP_TOKEN": "", "NO_PROXY": "127.0.0.1",
           "PYTHONPATH": str(REPO_ROOT)}
    env.pop("RULEBOOK_TRACEBACK", None)
    env.update(extra)
    return env


def rulebook(*args: str, data_dir: Path, cwd: Path, timeout: float = 180,
             **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "adapters.cli", *args], cwd=cwd, env=_env(data_dir, **extra),
                          capture_output=True, text=True, timeout=timeout)


def _no_trace(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stderr + result.stdout, result.stderr[-3000:]


@pytest.fixture
def index_copy(sample_index, tmp_path) -> Path:
    """A private copy of the indexed sample corpus, so a subprocess may hold its store."""
    target = tmp_path / "data"
    return copy_store_dir(sample_index.data_dir, target,
                          ignore=shutil.ignore_patterns("*.lock", "events*", "events_spill"))


class Serving:
    def __init__(self, data_dir: Path, cwd: Path) -> None:
        self.port = _free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "adapters.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port)],
            cwd=cwd, env=_env(data_dir), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=2):
                    return
            except OSError:
                time.sleep(0.3)
        self.stop()
        raise AssertionError(f"rulebook serve did not come up: {self.output[-3000:]}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
        self.output, _ = self.process.communicate(timeout=60)


@pytest.fixture
def serving(index_copy, tmp_path) -> Iterator[Serving]:
    server = Serving(index_copy, tmp_path)
    yield server
    server.stop()


def test_index_of_an_empty_folder_says_no_pdf_was_found(tmp_path):
    empty = tmp_path / "nothing"
    empty.mkdir()
    (empty / "notes.txt").write_text("not a pdf", encoding="utf-8")
    result = rulebook("index", str(empty), data_dir=tmp_path / "data", cwd=tmp_path)
    assert result.returncode == 1
    assert f"no PDF found in {empty}" in " ".join(result.stderr.split())
    _no_trace(result)


def test_ask_json_on_an_empty_index_says_so_and_fails(tmp_path):
    result = rulebook("ask", "What is the refund fee?", "--json", data_dir=tmp_path / "data", cwd=tmp_path)
    assert result.returncode == 1
    assert "empty" in json.loads(result.stdout)["error"]
    _no_trace(result)


def test_an_unknown_role_is_refused_naming_the_roles_that_exist(index_copy, tmp_path):
    result = rulebook("ask", "What is the refund fee?", "--role", "risk-oficer", data_dir=index_copy, cwd=tmp_path)
    assert result.returncode == 2
    assert "unknown role risk-oficer" in result.stderr and "risk-officer" in result.stderr.split("exist:")[1]
    _no_trace(result)
    search = rulebook("search", "fraud", "--role", "nobody-has-this", data_dir=index_copy, cwd=tmp_path)
    assert search.returncode == 2 and "risk-officer" in search.stderr
    known = rulebook("search", "fraud monitoring", "--role", "risk-officer", "--json", data_dir=index_copy,
                     cwd=tmp_path)
    assert known.returncode == 0, known.stderr


def test_help_texts(tmp_path):
    index_help = rulebook("index", "--help", data_dir=tmp_path / "d", cwd=tmp_path).stdout
    assert "optional" in index_help and "with catalog.yaml)" not in index_help
    inventory_help = " ".join(rulebook("inventory", "--help", data_dir=tmp_path / "d", cwd=tmp_path).stdout.split())
    assert "--json" in inventory_help and "Print the buckets as one JSON object" in inventory_help
    e2e_help = " ".join(rulebook("eval", "e2e", "--help", data_dir=tmp_path / "d", cwd=tmp_path).stdout.split())
    assert "--show-questions" in e2e_help and "one row per question" in e2e_help


@pytest.fixture
def read_only_dir(tmp_path) -> Iterator[Path]:
    """A data dir nobody may write: mode 0555, and immutable when we are root (root ignores modes)."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    immutable = os.geteuid() == 0 and shutil.which("chattr") is not None
    if immutable:
        subprocess.run(["chattr", "+i", str(folder)], check=False, capture_output=True)
    try:
        (folder / "probe").write_bytes(b"")
    except OSError:
        pass
    else:
        pytest.skip("cannot make a folder read-only here (root without chattr)")
    yield folder
    if immutable:
        subprocess.run(["chattr", "-i", str(folder)], check=False, capture_output=True)
    folder.chmod(0o755)


def test_index_and_serve_with_a_read_only_data_dir(read_only_dir, tmp_path):
    data_dir = read_only_dir
    small = tmp_path / "pdfs"
    small.mkdir()
    shutil.copy(SAMPLE_CORPUS / "PS-04_card_and_device_acceptance_rulebook.pdf", small)
    result = rulebook("index", str(small), data_dir=data_dir, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert f"cannot write to {data_dir}" in result.stderr and "RULEBOOK_DATA_DIR" in result.stderr
    _no_trace(result)
    served = rulebook("serve", "--port", str(_free_port()), data_dir=data_dir, cwd=tmp_path)
    assert served.returncode == 2
    assert "cannot write to" in served.stderr and "writable" in served.stderr
    _no_trace(served)


def test_index_export_and_a_second_serve_while_serve_holds_the_store(serving, index_copy, tmp_path):
    small = tmp_path / "pdfs"
    small.mkdir()
    shutil.copy(SAMPLE_CORPUS / "PS-04_card_and_device_acceptance_rulebook.pdf", small)
    # `index` is handed to the running server (issue 13): it succeeds and says so
    indexed = rulebook("index", str(small), data_dir=index_copy, cwd=tmp_path)
    assert indexed.returncode == 0, indexed.stderr[-2000:]
    assert "owns this index" in " ".join(indexed.stderr.split())
    _no_trace(indexed)
    for args in (("export-chunks", str(tmp_path / "chunks.jsonl")), ("serve", "--port", str(_free_port()))):
        result = rulebook(*args, data_dir=index_copy, cwd=tmp_path)
        assert result.returncode == 2, (args, result.stderr[-2000:])
        message = " ".join(result.stderr.split())
        assert "in use by another process" in message and "stop that process" in message, args
        assert "RULEBOOK_QDRANT_URL" in message
        _no_trace(result)
    # the running server is unharmed
    with urllib.request.urlopen(f"http://127.0.0.1:{serving.port}/healthz", timeout=10) as response:
        assert response.status == 200


def test_serve_on_a_port_already_taken(serving, tmp_path):
    result = rulebook("serve", "--port", str(serving.port), data_dir=tmp_path / "other", cwd=tmp_path)
    assert result.returncode == 2
    assert "already in use" in result.stderr and "--port" in result.stderr
    _no_trace(result)
