"""Retrieval-only eval on our golden sets: hit@10 and MRR per search mode, side by side.

A golden line (JSONL): {"id", "question", "rulebook_id", "section", "page", "kind", "roles",
"include_archived", "split"}; `split` ("dev" | "test", the rule in `evals.e2e_golden.stratified_split`
by `kind`) is required in the committed sets and the report gives hit@10 and MRR for each part
side by side, with the gap. The question is asked with its roles (and archived versions when
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

from evals.e2e_golden import SPLITS
from knowledge.knowledge_base import KnowledgeBase, normalise_section
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
    split: str | None = None


def load_golden(path: Path) -> list[GoldenQuestion]:
    """The questions of `path`; a committed set (a file in `evals/golden/`) must give every line
    its split."""
    if not path.exists():
        raise FileNotFoundError(f"golden set not found: {path}")
    committed = path.resolve().parent == GOLDEN_DIR.resolve()
    items = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            items.append(GoldenQuestion(id=str(row["id"]), question=row["question"], rulebook_id=row["rulebook_id"],
                                        section=str(row.get("section", "")), page=int(row["page"]),
                                        kind=row.get("kind", ""), roles=tuple(row.get("roles", ())),
                                        include_archived=bool(row.get("include_archived", False)),
                                        split=row.get("split")))
        except (KeyError, ValueError, TypeError) as exc:
            raise ValueError(f"{path}:{number}: not a golden question ({exc})") from exc
        split = items[-1].split
        if split is not None and split not in SPLITS:
            raise ValueError(f"{path}:{number}: split must be dev or test, not {split!r}")
        if split is None and committed:
            raise ValueError(f"{path}:{number}: a committed golden line needs a split (dev|test)")
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


def evaluate_golden(knowledge: KnowledgeBase, items: list[GoldenQuestion], k: int = K,
                    modes: dict[str, str] | None = None) -> dict[str, Any]:
    modes = modes or REPORT_MODES
    report: dict[str, Any] = {"questions": len(items), "k": k, "modes": {},
                              "split_counts": {s: sum(i.split == s for i in items) for s in SPLITS}}
    for name, mode in modes.items():
        ranks: dict[str, int | None] = {}
        started = time.perf_counter()
        for item in items:
            results = knowledge.search(item.question, item.roles, k=k, mode=mode,  # type: ignore[arg-type]
                                       include_archived=item.include_archived)
            ranks[item.id] = first_hit_rank([r.payload for r in results], item)
        row = _figures(items, ranks)
        row["lost"] = [i.id for i in items if ranks[i.id] is None]
        row["seconds"] = round(time.perf_counter() - started, 2)
        parts = {s: _figures([i for i in items if i.split == s], ranks) for s in SPLITS}
        row["splits"] = {s: f for s, f in parts.items() if f["questions"]}
        if all(parts[s]["questions"] for s in SPLITS):
            row["splits"]["gap"] = {m: round(parts["dev"][m] - parts["test"][m], 4) for m in ("hit_at_10", "mrr")}
        report["modes"][name] = row
    return report


def _figures(items: list[GoldenQuestion], ranks: dict[str, int | None]) -> dict[str, Any]:
    found = [ranks[i.id] for i in items if ranks[i.id] is not None]
    n = max(len(items), 1)
    return {"questions": len(items), "hit_at_10": round(len(found) / n, 4),
            "mrr": round(sum(1 / r for r in found if r) / n, 4)}


def render_report(report: dict[str, Any]) -> str:
    counts = report.get("split_counts") or {}
    lines = [f"{report['questions']} questions ({report.get('golden', '')}); "
             + ", ".join(f"{s} {counts.get(s, 0)}" for s in SPLITS),
             f"{'mode':<15}{'hit@10':>8}{'dev':>8}{'test':>8}{'gap':>8}{'MRR':>8}{'dev':>8}{'test':>8}{'gap':>8}  lost"]

    def cell(row: dict[str, Any], part: str, metric: str, signed: bool = False) -> str:
        value = (row.get("splits") or {}).get(part, {}).get(metric)
        return f"{'-':>8}" if value is None else (f"{value:>+8.3f}" if signed else f"{value:>8.3f}")

    for name, row in report["modes"].items():
        lost = ", ".join(row["lost"]) or "-"
        lines.append(f"{name:<15}{row['hit_at_10']:>8.3f}{cell(row, 'dev', 'hit_at_10')}"
                     f"{cell(row, 'test', 'hit_at_10')}{cell(row, 'gap', 'hit_at_10', True)}"
                     f"{row['mrr']:>8.3f}{cell(row, 'dev', 'mrr')}{cell(row, 'test', 'mrr')}"
                     f"{cell(row, 'gap', 'mrr', True)}  {lost}")
    return "\n".join(lines)
