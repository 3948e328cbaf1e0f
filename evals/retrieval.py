"""Retrieval-only eval on our golden sets: hit@10 and MRR per search mode, side by side.

A golden line (JSONL): {"id", "question", "rulebook_id", "section", "page", "kind", "roles",
"include_archived"}. The question is asked with its roles (and archived versions when
`include_archived`), in each mode.

The hit rule: a returned chunk is a hit when its `rulebook_id` is the expected one AND either its
page range [page_start, page_end] covers the expected page OR its section path contains the
expected section (compared after normalisation: "Section 4.2" == "4.2", case and spacing
ignored). hit@10 is the share of questions with a hit among the first 10 results; MRR the mean of
1 / rank of the first hit (0 when none). Questions lost (no hit at all) are listed per mode.

Modes reported: dense, bm25, hybrid (both legs fused by RRF in one query, no rerank) and
hybrid_rerank (the product: fused, the configured model reranker if any, section coherence).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from knowledge.knowledge_base import Knowledge, normalise_section
from knowledge.payload import ChunkPayload

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
DEFAULT_GOLDEN = GOLDEN_DIR / "retrieval_sample.jsonl"
REAL_GOLDEN = GOLDEN_DIR / "retrieval_real.jsonl"
K = 10
REPORT_MODES = {"dense": "dense", "bm25": "bm25", "hybrid": "fused", "hybrid_rerank": "hybrid"}


@dataclass(frozen=True)
class GoldenQuestion:
    id: str
    question: str
    rulebook_id: str
    section: str
    page: int
    kind: str = ""
    roles: tuple[str, ...] = ()
    include_archived: bool = False


def load_golden(path: Path) -> list[GoldenQuestion]:
    if not path.exists():
        raise FileNotFoundError(f"golden set not found: {path}")
    items = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            items.append(GoldenQuestion(id=str(row["id"]), question=row["question"], rulebook_id=row["rulebook_id"],
                                        section=str(row.get("section", "")), page=int(row["page"]),
                                        kind=row.get("kind", ""), roles=tuple(row.get("roles", ())),
                                        include_archived=bool(row.get("include_archived", False))))
        except (KeyError, ValueError, TypeError) as exc:
            raise ValueError(f"{path}:{number}: not a golden question ({exc})") from exc
    return items


def is_hit(payload: ChunkPayload, item: GoldenQuestion) -> bool:
    if payload.rulebook_id != item.rulebook_id:
        return False
    if payload.page_start <= item.page <= payload.page_end:
        return True
    want = normalise_section(item.section)
    return bool(want) and want in {normalise_section(p) for p in payload.section_path}


def first_hit_rank(hits: list[ChunkPayload], item: GoldenQuestion) -> int | None:
    for rank, payload in enumerate(hits, start=1):
        if is_hit(payload, item):
            return rank
    return None


def evaluate_golden(knowledge: Knowledge, items: list[GoldenQuestion], k: int = K,
                    modes: dict[str, str] | None = None) -> dict[str, Any]:
    modes = modes or REPORT_MODES
    report: dict[str, Any] = {"questions": len(items), "k": k, "modes": {}}
    for name, mode in modes.items():
        hits_at_k, reciprocal, lost, started = 0, 0.0, [], time.perf_counter()
        for item in items:
            results = knowledge.search(item.question, item.roles, k=k, mode=mode,  # type: ignore[arg-type]
                                       include_archived=item.include_archived)
            rank = first_hit_rank([r.payload for r in results], item)
            if rank is None:
                lost.append(item.id)
            else:
                hits_at_k += 1
                reciprocal += 1 / rank
        n = max(len(items), 1)
        report["modes"][name] = {"hit_at_10": round(hits_at_k / n, 4), "mrr": round(reciprocal / n, 4),
                                 "lost": lost, "seconds": round(time.perf_counter() - started, 2)}
    return report


def render_report(report: dict[str, Any]) -> str:
    lines = [f"{report['questions']} questions ({report.get('golden', '')})",
             f"{'mode':<15}{'hit@10':>8}{'MRR':>8}  lost"]
    for name, row in report["modes"].items():
        lost = ", ".join(row["lost"]) or "-"
        lines.append(f"{name:<15}{row['hit_at_10']:>8.3f}{row['mrr']:>8.3f}  {lost}")
    return "\n".join(lines)
