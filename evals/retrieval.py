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


# --- right page in the top k, on the end-to-end golden sets (e2e_*.jsonl, e.g. real2) ---------

PAGE_MODES = REPORT_MODES
DEPTHS = (10, 30, 50)


def is_e2e_golden(path: Path) -> bool:
    """An end-to-end golden file (lines carry `expected` sources) rather than a retrieval one."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            return "expected" in json.loads(line)
    return False


def expected_ranks(payloads: list[ChunkPayload], question: Any) -> list[int | None]:
    """Per expected source of an e2e question: the 1-based rank of its first chunk on one of its
    pages (any page when it lists none), None when absent. The e2e eval's retrieval rule."""
    ranks: list[int | None] = []
    for e in question.expected:
        found = None
        for rank, payload in enumerate(payloads, start=1):
            if payload.rulebook_id == e.rulebook_id and (
                    not e.pages or any(payload.page_start <= p <= payload.page_end for p in e.pages)):
                found = rank
                break
        ranks.append(found)
    return ranks


def evaluate_pages(knowledge: KnowledgeBase, questions: list[Any], k: int = K,
                   modes: dict[str, str] | None = None, depth: int = 50) -> dict[str, Any]:
    """Right page in the top k per mode (the e2e eval's rule: a chunk of any expected source on
    one of its pages), dev and test side by side; for questions with several expected documents
    also the share with ALL of them in the top k; and, for the misses, where the right page was
    in a deeper list (top `depth`), so a miss reads as "ranked 11-30" or "not retrieved"."""
    from evals.e2e_runner import retrieval_query
    from evals.personas import roles_for

    modes = modes or PAGE_MODES
    asked = [q for q in questions if q.answerable and q.expected]
    report: dict[str, Any] = {"questions": len(asked), "k": k, "modes": {},
                              "split_counts": {s: sum(q.split == s for q in asked) for s in SPLITS}}
    for name, mode in modes.items():
        per: dict[str, dict[str, Any]] = {}
        started = time.perf_counter()
        for q in asked:
            query, roles = retrieval_query(q), roles_for(q)
            ranks = expected_ranks([h.payload for h in knowledge.search(query, roles, k=k, mode=mode)], q)  # type: ignore[arg-type]
            found = [r for r in ranks if r is not None]
            best = min(found) if found else None
            if best is None:  # where was it? (a deeper search: the product's top k is the k=10 one)
                deeper = [r for r in expected_ranks([h.payload for h in knowledge.search(
                    query, roles, k=depth, mode=mode)], q) if r is not None]  # type: ignore[arg-type]
                best = max(min(deeper), k + 1) if deeper else None
            per[q.id] = {"split": q.split, "best": best, "all": len(found) == len(ranks),
                         "documents": len({e.rulebook_id for e in q.expected})}
        row = _page_figures(per, k)
        row["seconds"] = round(time.perf_counter() - started, 2)
        row["splits"] = {s: _page_figures({i: v for i, v in per.items() if v["split"] == s}, k) for s in SPLITS}
        row["splits"]["gap"] = {"right_page_at_k": round(row["splits"]["dev"]["right_page_at_k"]
                                                       - row["splits"]["test"]["right_page_at_k"], 4)}
        row["missed"] = {i: v["best"] for i, v in per.items() if v["best"] is None or v["best"] > k}
        report["modes"][name] = row
    return report


def _page_figures(per: dict[str, dict[str, Any]], k: int) -> dict[str, Any]:
    n = max(len(per), 1)
    best = [v["best"] for v in per.values()]
    multi = [v for v in per.values() if v["documents"] > 1]
    return {"questions": len(per), "right_page_at_k": round(sum(b is not None and b <= k for b in best) / n, 4),
            "mrr": round(sum(1 / b for b in best if b is not None and b <= k) / n, 4),
            "missed_ranked_11_30": sum(b is not None and k < b <= 30 for b in best),
            "missed_ranked_31_50": sum(b is not None and 30 < b <= 50 for b in best),
            "missed_not_in_50": sum(b is None for b in best),
            "cross_document": len(multi), "cross_document_all_at_k": sum(bool(v["all"]) for v in multi)}


def render_pages(report: dict[str, Any]) -> str:
    counts = report.get("split_counts") or {}
    lines = [f"{report['questions']} answerable questions ({report.get('golden', '')}); "
             + ", ".join(f"{s} {counts.get(s, 0)}" for s in SPLITS) + f"; right page in the top {report['k']}",
             f"{'mode':<15}{'page@10':>8}{'dev':>8}{'test':>8}{'gap':>8}{'MRR':>8}{'dev':>8}{'test':>8}"
             f"{'11-30':>7}{'31-50':>7}{'>50':>5}{'x-doc all':>11}"]
    for name, row in report["modes"].items():
        sp = row["splits"]
        lines.append(f"{name:<15}{row['right_page_at_k']:>8.3f}{sp['dev']['right_page_at_k']:>8.3f}"
                     f"{sp['test']['right_page_at_k']:>8.3f}{sp['gap']['right_page_at_k']:>+8.3f}{row['mrr']:>8.3f}"
                     f"{sp['dev']['mrr']:>8.3f}{sp['test']['mrr']:>8.3f}{row['missed_ranked_11_30']:>7}"
                     f"{row['missed_ranked_31_50']:>7}{row['missed_not_in_50']:>5}"
                     f"{row['cross_document_all_at_k']:>6}/{row['cross_document']}")
    return "\n".join(lines)
