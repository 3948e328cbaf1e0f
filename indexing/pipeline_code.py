"""The digest of the code that turns a PDF into stored chunks, part of every document's fingerprint.

A document is re-read when its fingerprint changes (`indexing.pipeline`). The fingerprint held the
file's hash, its catalog entry and `PIPELINE_VERSION`, a number a person bumps when a change to
extraction, sectioning or chunking changes the chunks of unchanged files. A change that forgot the
bump, or an index built by a working copy with other code under the same number, left an index that
the next run trusted although the code would now cut it otherwise: two data directories indexed "at
pipeline 13" held 1,722 and 1,757 chunks of the same six PDFs, and the code of that version makes
1,947 (the message guides' constraints, split into sections of their own by the change that bumped
the version, were still packed whole). Evals and answers then depended on which directory ran them.

So the fingerprint also carries a digest of the source of every module whose output is stored: the
`indexing` package (text, tables, sections, chunks, payloads, flags) and the parts of `knowledge` it
stores the output of (the payload model, sentence splitting, language identification, instruction
and active-content flags, and the BM25 encoder whose sparse vectors are stored). Any edit there
re-reads every document once; that costs the parse only, since dense vectors are cached by text
and tables by page. The table cache had the same hole (its key held a hand-bumped
EXTRACTOR_VERSION), so its key also carries a digest of the table code (`table_code_digest`): an
edit there extracts the tables again, page by page. `PIPELINE_VERSION` stays as the changelog of
what changed the chunks on purpose.
"""

from __future__ import annotations

import hashlib
import importlib.util
from functools import lru_cache
from pathlib import Path

# what a stored chunk is made by: its text, section, pages, flags, language and sparse vector
STORED_OUTPUT_PACKAGES = ("indexing",)
STORED_OUTPUT_MODULES = (
    "knowledge.payload",
    "knowledge.sentences",
    "knowledge.language_id",
    "knowledge.instruction_text",
    "knowledge.pdf_actions",
    "knowledge.bm25",
    "knowledge.word_forms",
)


def source_files() -> list[tuple[str, Path]]:
    """(name, file) of every Python file of those packages and modules, in a stable order; found where
    Python imports them from (a checkout or an installed package alike)."""
    files: list[tuple[str, Path]] = []
    for package in STORED_OUTPUT_PACKAGES:
        spec = importlib.util.find_spec(package)
        for location in (spec.submodule_search_locations or []) if spec else []:
            root = Path(location)
            files += [(f"{package}/{p.relative_to(root).as_posix()}", p) for p in sorted(root.rglob("*.py"))]
    return files + [_module_entry(module) for module in STORED_OUTPUT_MODULES]


@lru_cache(maxsize=1)
def pipeline_code_digest() -> str:
    """The sha256 of those files' names and bytes (computed once a process: the code does not change
    while it runs)."""
    return _digest(source_files())


# what the table cache (`indexing.table_cache`) holds of a page is made by camelot's run and by our cuts
# of its output: an edit of these re-extracts a page instead of serving its tables from the cache
TABLE_MODULES = ("indexing.table_extractor", "indexing.borderless_tables", "indexing.text_repair")


@lru_cache(maxsize=1)
def table_code_digest() -> str:
    """The sha256 of the `TABLE_MODULES` (part of every table cache key, beside EXTRACTOR_VERSION)."""
    return _digest([_module_entry(module) for module in TABLE_MODULES])


def _module_entry(module: str) -> tuple[str, Path]:
    """("knowledge/bm25.py", where Python imports it from)."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise ImportError(f"{module} not found: the digest of the indexing code cannot include it")
    return module.replace(".", "/") + ".py", Path(spec.origin)


def _digest(files: list[tuple[str, Path]]) -> str:
    digest = hashlib.sha256()
    for name, path in files:
        digest.update(name.encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()
