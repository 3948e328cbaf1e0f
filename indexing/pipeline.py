"""`rulebook index PATH`: inventory, parse, chunk, embed, store, incrementally and safely.

Order of work per document, chosen so that a failed run loses nothing already indexed:
1. an unchanged file (same bytes, same catalog entry, same pipeline version) whose chunks are all
   in the store is skipped without being opened;
2. otherwise it is parsed, chunked and embedded completely in memory first;
3. only then are its new chunks upserted, and only after that are its stale chunk ids deleted;
4. the state file is rewritten atomically after each document.
A document that fails (corrupt, password, no text, any error) keeps whatever it had in the index.
Documents that left the folder, or are now draft/duplicate, are removed at the end, and every
section added, changed or removed goes to the audit log with the catalog's changed_by.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from indexing.audit_log import AuditEvent, append_events
from indexing.chunker import chunk_sections
from indexing.dense_fill import StopSignal
from indexing.document_flags import flag_indexed
from indexing.document_parser import ParsedDocument, parse_document
from indexing.index_state import DocumentState, IndexState, SectionState
from indexing.lifecycle import Inventory, InventoryItem, take_inventory
from indexing.payload_builder import PIPELINE_VERSION, build_payloads, document_language, embedding_input
from indexing.pdf_text import PdfRejected
from indexing.pipeline_code import pipeline_code_digest
from indexing.publish import clean_leftovers, publish, retire
from indexing.summary import summarise
from indexing.table_cache import TableCache
from indexing.table_workers import TablePool
from knowledge.payload import ChunkPayload

if TYPE_CHECKING:
    from config.settings import Settings
    from knowledge.store import KnowledgeStore

Outcome = Literal["indexed", "unchanged", "skipped", "failed", "removed"]
ProgressCallback = Callable[[int, int, str], None]  # (documents done, total, what is happening)


@dataclass
class DocumentReport:
    file: str
    rulebook_id: str
    outcome: Outcome
    reason: str = ""
    pages: int = 0
    chunks: int = 0
    tables: int = 0
    re_embedded: int = 0
    warnings: list[str] = field(default_factory=list)  # indexed, but not everything in it is searchable
    active_content: list[str] = field(default_factory=list)  # JavaScript, launch actions (indexing.document_flags)
    instruction_chunks: int = 0  # chunks holding text addressed to the reader as instructions


@dataclass
class IndexSummary:
    folder: str
    catalog: bool
    documents: list[DocumentReport] = field(default_factory=list)
    seconds: float = 0.0
    stage_seconds: dict[str, float] = field(default_factory=dict)
    stage_cpu_seconds: dict[str, float] = field(default_factory=dict)  # CPU time, incl. table workers
    note: str = ""
    # the progressive index (indexing/dense_fill.py): when every document was searchable (BM25,
    # plus dense where cached), and how many chunks still wait for a dense vector at the end
    searchable_seconds: float | None = None
    dense_filled: int = 0
    dense_pending: int = 0
    dense_stopped: bool = False  # the fill was asked to stop (it gave way, or serve is closing)
    dense_chunks: int = 0  # live chunks in the whole index with a dense vector
    index_chunks: int = 0  # live chunks in the whole index

    def _of(self, *outcomes: Outcome) -> list[DocumentReport]:
        return [d for d in self.documents if d.outcome in outcomes]

    @property
    def indexed(self) -> list[DocumentReport]:
        return self._of("indexed", "unchanged")

    @property
    def failed(self) -> list[DocumentReport]:
        return self._of("failed")

    @property
    def skipped(self) -> list[DocumentReport]:
        return self._of("skipped")

    @property
    def removed(self) -> list[DocumentReport]:
        return self._of("removed")

    def total(self, name: str) -> int:
        return sum(getattr(d, name) for d in self.indexed)

    def to_dict(self) -> dict[str, Any]:
        return {
            "folder": self.folder,
            "catalog": self.catalog,
            "note": self.note,
            "documents_indexed": len(self.indexed),
            "documents_unchanged": len(self._of("unchanged")),
            "documents_skipped": len(self.skipped),
            "documents_failed": len(self.failed),
            "documents_removed": len(self.removed),
            "pages": self.total("pages"),
            "chunks": self.total("chunks"),
            "tables": self.total("tables"),
            "chunks_re_embedded": self.total("re_embedded"),
            "seconds": round(self.seconds, 2),
            "stage_seconds": {k: round(v, 2) for k, v in self.stage_seconds.items()},
            "stage_cpu_seconds": {k: round(v, 2) for k, v in self.stage_cpu_seconds.items()},
            "searchable_seconds": None if self.searchable_seconds is None else round(self.searchable_seconds, 2),
            "dense_filled": self.dense_filled,
            "dense_pending": self.dense_pending,
            "dense_stopped": self.dense_stopped,
            "dense_chunks": self.dense_chunks,
            "index_chunks": self.index_chunks,
            "documents_with_active_content": sum(1 for d in self.indexed if d.active_content),
            "chunks_with_instruction_text": self.total("instruction_chunks"),
            "warnings": [f"{d.file}: {w}" for d in self.indexed for w in d.warnings],
            "documents": [asdict(d) for d in self.documents],
        }


class Indexer:
    """One indexing run against the configured store, embedder and data dir."""

    def __init__(self, settings: Settings, progress: ProgressCallback | None = None,
                 on_switched: Callable[[str], None] | None = None, stop: StopSignal | None = None) -> None:
        self.settings = settings
        # dense vectors after the first pass (indexing/dense_fill.py) unless configured inline
        self.defer_dense = getattr(settings, "index_dense", "background") != "inline"
        self.stop = stop  # set: the dense fill stops after its current batch (serve shutting down)
        self.on_switched = on_switched  # after a rulebook's new chunks went live (serve: drop cached results)
        self.data_dir = Path(settings.data_dir)
        self.progress = progress or (lambda done, total, what: None)
        self._encoder: Any = None
        self._bm25: Any = None
        self._stored_ids: dict[str, set[str]] | None = None
        self.stage_seconds: dict[str, float] = {}
        self.stage_cpu_seconds: dict[str, float] = {}
        self._table_cache: TableCache | None = None
        self._table_pool: TablePool | None = None

    # -- the run ------------------------------------------------------------------------------
    def run(self, folder: Path) -> IndexSummary:
        started = time.perf_counter()
        inventory = take_inventory(folder)
        summary = IndexSummary(folder=str(inventory.folder), catalog=inventory.catalog.present)
        if not inventory.catalog.present:
            summary.note = ("no catalog.yaml: every PDF treated as vetted & active, "
                            "each id being its file name without the extension")
        for item in inventory.items:
            if item.bucket in ("draft", "duplicate", "unknown_provenance"):
                summary.documents.append(DocumentReport(item.path.name, item.rulebook_id, "skipped",
                                                        reason=f"{item.bucket}: {item.note}"))
        state = IndexState.load(self.data_dir)
        with self._session() as store:
            todo = inventory.to_index
            for done, item in enumerate(todo):
                self.progress(done, len(todo), item.path.name)
                summary.documents.append(self._index_one(item, inventory, state, store))
            self.progress(len(todo), len(todo), "removing withdrawn documents")
            summary.documents += self._remove_gone(inventory, state, store)
            self._fill(store, summary, started)
        summary.seconds = time.perf_counter() - started
        summary.stage_seconds = dict(self.stage_seconds)
        summary.stage_cpu_seconds = dict(self.stage_cpu_seconds)
        return summary

    def run_document(self, item: InventoryItem, inventory: Inventory) -> IndexSummary:
        """Index one document (a document-system event): the same steps as a folder run."""
        started = time.perf_counter()
        summary = IndexSummary(folder=str(inventory.folder), catalog=inventory.catalog.present)
        state = IndexState.load(self.data_dir)
        with self._session() as store:
            self.progress(0, 1, item.path.name)
            summary.documents.append(self._index_one(item, inventory, state, store))
            self.progress(1, 1, item.path.name)
            self._fill(store, summary, started)
        summary.seconds = time.perf_counter() - started
        summary.stage_seconds = dict(self.stage_seconds)
        summary.stage_cpu_seconds = dict(self.stage_cpu_seconds)
        return summary

    def remove_document(self, rulebook_id: str, reason: str, changed_by: str | None = None,
                        version: str = "") -> IndexSummary:
        """Take one document out of the index (deleted in the document system)."""
        started = time.perf_counter()
        state = IndexState.load(self.data_dir)
        old = state.documents.get(rulebook_id)
        summary = IndexSummary(folder=old.source_dir if old else "", catalog=True)
        with self._session() as store:
            retire(store, rulebook_id, on_switched=self.on_switched)
        if old:
            append_events(self.data_dir, [
                AuditEvent(rulebook_id, key, section.title, "removed", changed_by, version, reason)
                for key, section in old.sections.items()])
            del state.documents[rulebook_id]
            state.save()
        summary.documents.append(DocumentReport(Path(old.source_path).name if old else rulebook_id, rulebook_id,
                                                "removed", reason=reason, chunks=len(old.chunks) if old else 0))
        summary.seconds = time.perf_counter() - started
        return summary

    def fill_dense_only(self) -> IndexSummary:
        """Only the dense fill: what an interrupted run left (`rulebook serve` at start)."""
        started = time.perf_counter()
        summary = IndexSummary(folder="", catalog=True)
        with self._session() as store:
            self._fill(store, summary, started)
        summary.seconds = time.perf_counter() - started
        summary.stage_seconds = dict(self.stage_seconds)
        summary.stage_cpu_seconds = dict(self.stage_cpu_seconds)
        return summary

    def _fill(self, store: KnowledgeStore, summary: IndexSummary, started: float) -> None:
        """Everything is published: searchable now. Then the dense vectors still missing."""
        from indexing.dense_fill import can_fill, fill_dense

        summary.searchable_seconds = time.perf_counter() - started
        if not can_fill(store) or not getattr(store, "exists", True):
            return
        summary.dense_chunks, summary.index_chunks = store.count_dense()  # type: ignore[attr-defined]
        if summary.dense_chunks == summary.index_chunks:
            return  # nothing to fill: the encoder is not even loaded

        def progress(done: int, total: int) -> None:
            self.progress(done, total, f"dense vectors {done} of {total} (searchable already)")

        encoder = self._dense()
        with self._stage("embedding"):
            report = fill_dense(store, encoder, progress, stop=self.stop)  # type: ignore[arg-type]
        summary.dense_filled, summary.dense_pending, summary.dense_stopped = report.filled, report.pending, report.stopped
        summary.dense_chunks, summary.index_chunks = store.count_dense()  # type: ignore[attr-defined]

    @contextmanager
    def _session(self) -> Iterator[KnowledgeStore]:
        """The store (checked against the embedder, leftovers cleaned) and the table helpers."""
        from knowledge.store import open_store

        store = open_store(self.settings)
        try:
            self._check_embedder(store)
            clean_leftovers(store)
        except Exception:
            store.close()
            raise
        self._table_cache = TableCache(self.data_dir / "table_cache.sqlite")
        self._table_pool = TablePool()
        try:
            yield store
        finally:
            store.close()
            self._table_pool.close()
            self._table_cache.close()
            if self._encoder is not None:
                self._encoder.close()
                self._encoder = None

    def _timed(self, stage: str, seconds: float, cpu_seconds: float | None = None) -> None:
        self.stage_seconds[stage] = self.stage_seconds.get(stage, 0.0) + seconds
        if cpu_seconds is not None:
            self.stage_cpu_seconds[stage] = self.stage_cpu_seconds.get(stage, 0.0) + cpu_seconds

    @contextmanager
    def _stage(self, stage: str) -> Iterator[None]:
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            yield
        finally:
            self._timed(stage, time.perf_counter() - wall, time.process_time() - cpu)

    def _index_one(self, item: InventoryItem, inventory: Inventory, state: IndexState,
                   store: KnowledgeStore) -> DocumentReport:
        report = DocumentReport(item.path.name, item.rulebook_id, "indexed")
        source = _source_fingerprint(item)
        fingerprint = _fingerprint(source)
        old = state.documents.get(item.rulebook_id)
        if old and old.fingerprint == fingerprint and self._all_stored(store, old):
            report.outcome = "unchanged"
            report.pages, report.chunks, report.tables = old.pages, len(old.chunks), old.tables
            return report
        try:
            payloads, parsed, sections = self._chunks_for(item, inventory)
            vectors = self._encode(payloads, self._live_vectors(store, item.rulebook_id) if old else {})
        except PdfRejected as exc:
            return DocumentReport(item.path.name, item.rulebook_id, "failed", reason=exc.reason)
        except Exception as exc:  # noqa: BLE001 — one bad document must not stop the batch
            return DocumentReport(item.path.name, item.rulebook_id, "failed",
                                  reason=f"{type(exc).__name__}: {exc}")
        parsed_pages, tables = parsed.page_count, parsed.table_count
        if parsed.image_only_pages:
            listed = ", ".join(map(str, parsed.image_only_pages))
            report.warnings.append(f"page(s) {listed} of {parsed_pages} have no text layer (scanned images?): "
                                   "their content is not searchable without OCR")
            report.reason = "; ".join(report.warnings)
        with self._stage("flags"):
            flags = flag_indexed(item.path, payloads)
        report.active_content, report.instruction_chunks = flags.active_content, flags.instruction_chunks
        if flags.warnings():
            report.warnings += flags.warnings()
            report.reason = "; ".join(report.warnings)
        old_hashes = set(old.chunks.values()) if old else set()
        report.re_embedded = sum(1 for p in payloads if p.content_hash not in old_hashes)
        from knowledge.store import StoredChunk

        with self._stage("store"):
            store.ensure_collection(self._dense().dim)
            self._record_embedder(store)
            # a new generation, switched in at once: questions see the old document or the new one
            publish(store, item.rulebook_id, [StoredChunk(payload=p, dense=d, sparse=s)
                                              for p, (d, s) in zip(payloads, vectors, strict=True)],
                    on_switched=self.on_switched)
            new_ids = {p.chunk_id for p in payloads}
        new_state = DocumentState(
            rulebook_id=item.rulebook_id, source_path=str(item.path), source_dir=str(inventory.folder),
            fingerprint=fingerprint, chunks={p.chunk_id: p.content_hash for p in payloads},
            sections=sections, pages=parsed_pages, tables=tables,
            indexed_at=datetime.now(UTC).isoformat(timespec="seconds"), source_fingerprint=source)
        # the same document read by other code has its sections cut anew, not changed: the audit log
        # (and "what changed in …?") says what changed in the documents, not in the parser
        if old is None or old.source_fingerprint != new_state.source_fingerprint:
            append_events(self.data_dir, _section_events(item, old, new_state))
        state.documents[item.rulebook_id] = new_state
        state.save()
        if self._stored_ids is not None:
            self._stored_ids[item.rulebook_id] = new_ids
        report.pages, report.chunks, report.tables = parsed_pages, len(payloads), tables
        return report

    def _chunks_for(self, item: InventoryItem, inventory: Inventory
                    ) -> tuple[list[ChunkPayload], ParsedDocument, dict[str, SectionState]]:
        entry = item.entry
        catalogued = inventory.catalog.present
        kid = (entry.type == "kid") if (catalogued and entry) else None
        parsed = parse_document(item.path, kid=kid, table_cache=self._table_cache, table_pool=self._table_pool)
        for stage in ("tables", "text", "sections"):
            self._timed(stage, parsed.seconds.get(stage, 0.0), parsed.cpu_seconds.get(stage, 0.0))
        with self._stage("sections"):
            chunks = chunk_sections(parsed.sections)
            if not chunks:
                raise PdfRejected("no text to index")
            title = (entry.title if entry and entry.title and catalogued else "") or item.path.stem.replace("_", " ")
            language = document_language(item, parsed.text, catalogued)
            rulebook_type = entry.type if (entry and catalogued) else ("kid" if kid or _looks_kid(parsed) else "rulebook")
        with self._stage("summary"):
            summary = summarise(title, parsed.sections, self.settings)
        payloads = build_payloads(item, chunks, summary, title, language, rulebook_type)
        sections: dict[str, SectionState] = {}
        for payload in payloads:
            key = payload.section_key or "(front matter)"
            sections.setdefault(key, SectionState(title=payload.section_title, hashes=[])) \
                .hashes.append(payload.content_hash)
        return payloads, parsed, sections

    def _live_vectors(self, store: KnowledgeStore, rulebook_id: str) -> dict[str, tuple[list[float], Any]]:
        reader = getattr(store, "rulebook_vectors", None)
        if reader is None:
            return {}
        with self._stage("store"):
            return dict(reader(rulebook_id))

    def _encode(self, payloads: list[ChunkPayload], known: dict[str, tuple[list[float], Any]] | None = None
                ) -> list[tuple[list[float], Any]]:
        """Dense and BM25 vectors; chunks whose content hash the rulebook's live points already
        carry keep those (the hash covers the text and the metadata both vectors depend on)."""
        known = known or {}
        todo = [p for p in payloads if p.content_hash not in known]
        # a live point still waiting for its dense vector keeps its BM25 vector and gets its
        # dense one here (inline) or from the cache / the fill (background)
        undense = [p for p in payloads if p.content_hash in known and not known[p.content_hash][0]]
        with self._stage("embedding"):
            encoder = self._dense()
            texts = [embedding_input(p) for p in todo + undense]
            if not texts:
                dense: list[list[float]] = []
            elif self.defer_dense and hasattr(encoder, "cached"):
                dense = [v or [] for v in encoder.cached(texts)]  # the rest: indexing/dense_fill.py
            else:
                dense = encoder.embed_passages(texts)
        with self._stage("bm25"):
            if self._bm25 is None:
                from knowledge.bm25 import Bm25Encoder

                self._bm25 = Bm25Encoder()
            sparse = [self._bm25.encode_document(embedding_input(p), p.language) for p in todo]
        fresh = {p.content_hash: pair for p, pair in zip(todo, zip(dense, sparse, strict=False), strict=True)}
        for p, vector in zip(undense, dense[len(todo):], strict=True):
            fresh[p.content_hash] = (vector, known[p.content_hash][1])
        return [fresh.get(p.content_hash) or known[p.content_hash] for p in payloads]

    def _dense(self) -> Any:
        if self._encoder is None:
            from knowledge.embedding_cache import load_cached_encoder

            self._encoder = load_cached_encoder(self.settings)
        return self._encoder

    def _check_embedder(self, store: KnowledgeStore) -> None:
        """Refuse, before any work, to extend an index another embedder built."""
        from knowledge.embedder_identity import check_embedder, identity_of

        if getattr(store, "embedder", None) is not None and store.embedder():  # type: ignore[attr-defined]
            check_embedder(store, identity_of(self._dense(), self.settings.embedding_model), extending=True)

    def _record_embedder(self, store: KnowledgeStore) -> None:
        from knowledge.embedder_identity import check_embedder, identity_of

        check_embedder(store, identity_of(self._dense(), self.settings.embedding_model), extending=True)

    def _all_stored(self, store: KnowledgeStore, old: DocumentState) -> bool:
        if self._stored_ids is None:
            self._stored_ids = {}
            for payload in store.scroll(None):
                self._stored_ids.setdefault(payload.rulebook_id, set()).add(payload.chunk_id)
        return set(old.chunks) <= self._stored_ids.get(old.rulebook_id, set())

    def _remove_gone(self, inventory: Inventory, state: IndexState, store: KnowledgeStore
                     ) -> list[DocumentReport]:
        """Documents indexed from this folder before that are no longer to be indexed."""
        keep = {item.rulebook_id for item in inventory.to_index}
        by_id = {item.rulebook_id: item for item in inventory.items}
        reports: list[DocumentReport] = []
        for rulebook_id, old in sorted(state.documents.items()):
            if old.source_dir != str(inventory.folder) or rulebook_id in keep:
                continue
            item = by_id.get(rulebook_id)
            reason = (f"now {item.bucket}" if item else "file no longer in the folder")
            retire(store, rulebook_id, on_switched=self.on_switched)
            changed_by = item.entry.changed_by if item and item.entry else None
            version = item.entry.version if item and item.entry else ""
            append_events(self.data_dir, [
                AuditEvent(rulebook_id, key, section.title, "removed", changed_by, version, reason)
                for key, section in old.sections.items()])
            del state.documents[rulebook_id]
            state.save()
            reports.append(DocumentReport(Path(old.source_path).name, rulebook_id, "removed",
                                          reason=reason, chunks=len(old.chunks)))
        return reports


def _fingerprint(source: str) -> str:
    """The document (`_source_fingerprint`) as this code reads it: the code's own digest too, so an index
    built by other code under the same PIPELINE_VERSION is read again."""
    material = json.dumps([source, PIPELINE_VERSION, pipeline_code_digest()])
    return hashlib.sha256(material.encode()).hexdigest()


def _source_fingerprint(item: InventoryItem) -> str:
    """What the document is: its bytes, its catalog entry and its bucket (not the code that reads it)."""
    entry = item.entry.model_dump_json() if item.entry else ""
    return hashlib.sha256(json.dumps([item.file_sha256, entry, item.bucket]).encode()).hexdigest()


def _looks_kid(parsed: Any) -> bool:
    return any(section.path and section.path[0] in ("product", "risks", "costs") for section in parsed.sections)


def _section_events(item: InventoryItem, old: DocumentState | None, new: DocumentState) -> list[AuditEvent]:
    entry = item.entry
    changed_by = entry.changed_by if entry else None
    version = entry.version if entry else ""
    before = old.sections if old else {}
    events: list[AuditEvent] = []
    for key, section in new.sections.items():
        if key not in before:
            events.append(AuditEvent(item.rulebook_id, key, section.title, "added", changed_by, version))
        elif before[key].hashes != section.hashes:
            events.append(AuditEvent(item.rulebook_id, key, section.title, "changed", changed_by, version))
    for key, section in before.items():
        if key not in new.sections:
            events.append(AuditEvent(item.rulebook_id, key, section.title, "removed", changed_by, version))
    return events


def run_index(folder: Path, settings: Settings, progress: ProgressCallback | None = None) -> IndexSummary:
    return Indexer(settings, progress).run(folder)
