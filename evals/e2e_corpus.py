"""Which index each golden corpus is asked against, built with the real indexer when missing.

- "sample": the configured data dir when its index already holds the sample corpus (e.g. after
  `rulebook demo` or in tests); otherwise `<data_dir>/evals/sample`, indexed from
  `examples/rulebooks/`.
- "real": `<data_dir>/evals/real-pdfs`, indexed from `../shared/corpora/real-pdfs/` (no catalog
  there, so each document's id is its file stem). Left out, with the reason, when absent.
- "real2": `<data_dir>/evals/real-pdfs-2`, indexed from `../shared/corpora/real-pdfs-2/` (~535
  pages: slow with the default embedder, so only the e2e eval asked for it builds it, never a
  default test) plus the two SIX QR-IID/QR-IBAN documents of `real-pdfs/`, which the set's
  cross-document questions pair with the QR-bill guide. Those two are copied into the eval data
  dir (`companions/`) so that they are indexed without the rest of `real-pdfs/`.
Indexing is incremental, so a second run only checks the files; the eval data dirs share the
configured data dir's embedding cache, so vectors computed once are reused.
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from config.settings import Settings

REPO = Path(__file__).resolve().parents[1]
SAMPLE_DIR = REPO / "examples" / "rulebooks"
REAL_PDFS_DIR = REPO.parent / "shared" / "corpora" / "real-pdfs"
REAL2_PDFS_DIR = REPO.parent / "shared" / "corpora" / "real-pdfs-2"
REAL2_COMPANIONS = ("six_qr-iid_qr-iban-en.pdf", "six_qr-iid_qr-iban-de.pdf")  # from real-pdfs/
REAL2_NAME = "real-pdfs-2"
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

    def progress(done: int, total: int, what: str) -> None:
        if console is not None and done < total:
            console.print(f"  [{done + 1}/{total}] {what}")

    summary = run_index(folder, settings, progress)
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


def companion_folder(target: Settings, source: Path = REAL_PDFS_DIR,
                     names: Sequence[str] = REAL2_COMPANIONS) -> Path | None:
    """The companion documents, copied (when new or changed) into `<data_dir>/companions/`;
    None when none of them is present."""
    folder = Path(target.data_dir) / "companions"
    found = [source / n for n in names if (source / n).is_file()]
    if not found:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    for path in found:
        copy = folder / path.name
        if not copy.is_file() or copy.read_bytes() != path.read_bytes():
            shutil.copyfile(path, copy)
    return folder


def real2_settings(settings: Settings, folder: Path, console: Any | None = None,
                   companions_from: Path = REAL_PDFS_DIR) -> tuple[Settings, list[Path]]:
    """The real2 eval index (built when missing) and the folders its PDFs are read from."""
    target = eval_settings(settings, REAL2_NAME)
    build_index(target, folder, console)
    roots = [folder]
    companions = companion_folder(target, companions_from)
    if companions is not None:
        build_index(target, companions, console)
        roots.append(companions)
    return target, roots


@contextlib.asynccontextmanager
async def prepare_contexts(settings: Settings, corpora: Sequence[str], real_pdfs: Path | None,
                           console: Any | None, real2_pdfs: Path | None = None
                           ) -> AsyncIterator[tuple[dict[str, Any], list[str]]]:
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
        if "real2" in corpora:
            folder = real2_pdfs or REAL2_PDFS_DIR
            if folder.is_dir() and any(folder.glob("*.pdf")):
                target, roots = real2_settings(settings, folder, console)
                contexts["real2"] = await stack.enter_async_context(open_corpus(target, roots))
            else:
                skipped.append(f"real2 questions: no PDFs at {folder}")
        yield contexts, skipped
