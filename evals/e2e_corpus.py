"""Which index each golden corpus is asked against, built with the real indexer when missing.

- "sample": the configured data dir when its index already holds the sample corpus (e.g. after
  `rulebook demo` or in tests); otherwise `<data_dir>/evals/sample`, indexed from
  `examples/rulebooks/`.
- "real": `<data_dir>/evals/real-pdfs`, indexed from `../shared/corpora/real-pdfs/` (no catalog
  there, so each document's id is its file stem). Left out, with the reason, when absent.
Indexing is incremental, so a second run only checks the files; the eval data dirs share the
configured data dir's embedding cache, so vectors computed once are reused.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from config.settings import Settings

REPO = Path(__file__).resolve().parents[1]
SAMPLE_DIR = REPO / "examples" / "rulebooks"
REAL_PDFS_DIR = REPO.parent / "shared" / "corpora" / "real-pdfs"
SAMPLE_MARKER = "PS-01"  # a public sample rulebook: its presence means the sample corpus is indexed


class EvalSettings(Settings):
    """Settings for an eval data dir that borrow another dir's embedding cache."""

    shared_embedding_cache: Path | None = None

    @property
    def embedding_cache_path(self) -> Path:
        return self.shared_embedding_cache or self.data_dir / "embedding_cache.sqlite"


def eval_settings(settings: Settings, name: str) -> EvalSettings:
    fields = settings.model_dump()
    fields.pop("shared_embedding_cache", None)
    fields["data_dir"] = Path(settings.data_dir) / "evals" / name
    return EvalSettings(**fields, shared_embedding_cache=settings.embedding_cache_path)


def holds_rulebook(settings: Settings, rulebook_id: str) -> bool:
    from knowledge.store import AccessFilter, open_store

    store = open_store(settings)
    try:
        return store.count(AccessFilter(rulebook_ids=(rulebook_id,))) > 0
    finally:
        store.close()


def build_index(settings: Settings, folder: Path, console: Any | None = None) -> None:
    """Index `folder` into `settings.data_dir` (incremental) and say what happened."""
    from indexing.pipeline import run_index

    if console is not None:
        console.print(f"indexing {folder} into {settings.data_dir} (incremental)…")
    Path(settings.data_dir).mkdir(parents=True, exist_ok=True)
    summary = run_index(folder, settings)
    if not summary.indexed and not any(d.outcome == "unchanged" for d in summary.documents):
        raise RuntimeError(f"nothing could be indexed from {folder}: "
                           + "; ".join(f"{d.file}: {d.reason}" for d in summary.failed))
    if console is not None:
        console.print(f"  {len(summary.indexed)} indexed, {len(summary.failed)} failed, "
                      f"{summary.seconds:.1f} s")


def sample_settings(settings: Settings, console: Any | None = None) -> Settings:
    if holds_rulebook(settings, SAMPLE_MARKER):
        return settings
    target = eval_settings(settings, "sample")
    build_index(target, SAMPLE_DIR, console)
    return target


def real_settings(settings: Settings, folder: Path, console: Any | None = None) -> Settings:
    target = eval_settings(settings, "real-pdfs")
    build_index(target, folder, console)
    return target


@contextlib.asynccontextmanager
async def prepare_contexts(settings: Settings, corpora: Sequence[str], real_pdfs: Path | None,
                           console: Any | None) -> AsyncIterator[tuple[dict[str, Any], list[str]]]:
    """Open one `CorpusContext` per corpus asked for; yields (contexts, reasons for any left out)."""
    from evals.e2e_suite import open_corpus

    skipped: list[str] = []
    async with contextlib.AsyncExitStack() as stack:
        contexts: dict[str, Any] = {}
        if "sample" in corpora:
            contexts["sample"] = await stack.enter_async_context(
                open_corpus(sample_settings(settings, console), [SAMPLE_DIR]))
        if "real" in corpora:
            folder = real_pdfs or REAL_PDFS_DIR
            if folder.is_dir() and any(folder.glob("*.pdf")):
                contexts["real"] = await stack.enter_async_context(
                    open_corpus(real_settings(settings, folder, console), [folder]))
            else:
                skipped.append(f"real-pdf questions: no PDFs at {folder}")
        yield contexts, skipped
