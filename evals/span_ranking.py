"""Fit the offline model's span weights on dev questions (`rulebook eval spans`).

Every golden question is asked once through the assistant; the offline model tells what it scored
(`OfflineRulebookModel.span_observer`): each span the tools showed, with its dense similarity and
its signals (`bot.offline.span_ranker.SIGNALS`). A span is *right* when it is in an expected
rulebook and the page it would be cited on (`bot.gate.citation_pages.page_of_quote`) is an
expected page; it is *best* when it is right and also holds one of the question's key facts
(`must_contain`). The target of a question is its best spans, or its right spans when none holds a
key fact; a question without a right span shown teaches nothing (retrieval missed) and is left out.

The weights maximise, over dev questions, the probability a softmax over each question's span scores
puts on its target (a conditional logit), with an L2 penalty on each weight's distance from its
hand weight (`HAND_WEIGHTS`, the prior: what the data says little about stays as designed; a new
signal's hand weight is 0), dense similarity's weight setting the scale.
The penalty's strength is chosen by K-fold cross-validation over dev questions (folds by question),
on the share of questions whose best-scoring span is right. The chosen fit is refitted on every dev
question and divided by its dense weight, so that a score stays in units of dense similarity.
Test questions are only scored, never fitted on.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from bot.gate.citation_pages import page_of_quote
from bot.offline.span_ranker import HAND_QUOTE_MARGIN, HAND_WEIGHTS, SIGNALS
from evals.e2e_golden import GoldenQuestion
from evals.e2e_guidelines import must_contain_hits

BASELINE = Path(__file__).parent / "baselines" / "span_weights.json"
RULE = ("weights, L2 strength (5-fold CV over dev questions, the strongest within one question of the best) and "
        "quote margin (the hand weights' quoting budget) chosen on dev only; test figures printed for the record")
COLUMNS: tuple[str, ...] = ("dense", *SIGNALS)
# the columns of case files written before they named their columns (session 6, before "name_parts")
LEGACY_COLUMNS: tuple[str, ...] = tuple(c for c in COLUMNS if c != "name_parts")
STRENGTHS: tuple[float, ...] = (0.00001, 0.00003, 0.0001, 0.0003, 0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)
FOLDS = 5
MARGINS: tuple[float, ...] = tuple(round(0.01 * i, 2) for i in range(1, 16))
TOP = 3  # also reported: a right span among the best three (what the answer may quote)


@dataclass
class SpanCase:
    """One question's scored spans: a row of `COLUMNS` per span whose dense similarity was measured."""

    question_id: str
    corpus: str
    split: str
    features: np.ndarray
    right: np.ndarray  # bool per span
    best: np.ndarray  # bool per span
    texts: list[str] = field(default_factory=list)

    @property
    def target(self) -> np.ndarray:
        return self.best if self.best.any() else self.right

    @property
    def learnable(self) -> bool:
        return bool(self.right.any()) and len(self.right) > 1

    def to_json(self) -> dict[str, Any]:
        return {"question_id": self.question_id, "corpus": self.corpus, "split": self.split,
                "columns": list(COLUMNS), "features": np.round(self.features, 5).tolist(),
                "right": self.right.tolist(), "best": self.best.tolist(), "texts": self.texts}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SpanCase:
        # cases recorded before a signal was added lack its column: it reads as 0 there, so a fit on
        # them leaves that signal at its prior (its hand weight)
        columns = list(data.get("columns") or LEGACY_COLUMNS)
        stored = np.asarray(data["features"], dtype=np.float64).reshape(-1, len(columns))
        features = np.zeros((stored.shape[0], len(COLUMNS)))
        for index, name in enumerate(columns):
            if name not in COLUMNS:
                raise ValueError(f"span cases hold a column this model does not have: {name}")
            features[:, COLUMNS.index(name)] = stored[:, index]
        return cls(data["question_id"], data["corpus"], data["split"], features,
                   np.asarray(data["right"], dtype=bool), np.asarray(data["best"], dtype=bool),
                   list(data.get("texts", [])))


def span_row(span: Any) -> list[float]:
    """A span's column values; the signals it does not carry are 0."""
    signals = dict(span.signals)
    if span.dense_full is not None and span.dense is not None:
        signals["dense_gain"] = span.dense_full - span.dense
    return [float(span.dense), *(float(signals.get(name, 0.0)) for name in SIGNALS)]


def _features(measured: Sequence[Any]) -> np.ndarray:
    return np.asarray([span_row(s) for s in measured], dtype=np.float64).reshape(-1, len(COLUMNS))


def case_of(q: GoldenQuestion, spans: Sequence[Any]) -> SpanCase:
    measured = [s for s in spans if s.dense is not None]
    right, best = [], []
    for span in measured:
        page = page_of_quote(span.chunk, span.text)
        on_page = any(e.rulebook_id == span.chunk.rulebook_id and (not e.pages or page in e.pages)
                      for e in q.expected)
        right.append(on_page)
        best.append(on_page and bool(q.must_contain) and any(must_contain_hits(span.text, q.must_contain)))
    return SpanCase(q.id, q.corpus, q.split or "dev", _features(measured), np.asarray(right, dtype=bool),
                    np.asarray(best, dtype=bool), [s.text[:120] for s in measured])


def obliqa_case(question_id: str, split: str, gold: frozenset[tuple[str, str]], spans: Sequence[Any]) -> SpanCase:
    """An ObliQA question's spans: right (and best) when the span's chunk is a gold passage (the dev
    split has no reference answers, so no key facts to look for)."""
    measured = [s for s in spans if s.dense is not None]
    right = np.asarray([(s.chunk.rulebook_id, s.chunk.section_key) in gold for s in measured], dtype=bool)
    return SpanCase(question_id, "obliqa", split, _features(measured), right, right.copy(),
                    [s.text[:120] for s in measured])


def vector(weights: Mapping[str, float]) -> np.ndarray:
    """A weight set as the fit's vector (dense first, at 1; a signal the set lacks weighs 0)."""
    return np.array([1.0, *(weights.get(name, 0.0) for name in SIGNALS)])


def hand_vector() -> np.ndarray:
    return vector(HAND_WEIGHTS)


def _loss(w: np.ndarray, cases: Sequence[SpanCase], strength: float,
          case_weights: Sequence[float] | None = None) -> tuple[float, np.ndarray]:
    total, grad = 0.0, np.zeros_like(w)
    weights = [1.0] * len(cases) if case_weights is None else list(case_weights)
    for case, weight in zip(cases, weights, strict=True):
        scores = case.features @ w
        scores -= scores.max()
        p = np.exp(scores)
        p /= p.sum()
        target = case.target
        mass = p[target].sum()
        total -= weight * math.log(max(mass, 1e-300))
        q = np.where(target, p, 0.0) / max(mass, 1e-300)
        grad += weight * (case.features.T @ (p - q))
    n = max(1e-9, sum(weights)) if cases else 1.0
    # the prior: the hand weights, at the fit's own scale (dense similarity's weight, which is not shrunk)
    prior = hand_vector()
    gap = w - w[0] * prior
    gap[0] = 0.0
    penalty_grad = 2 * strength * gap
    penalty_grad[0] = -2 * strength * float(gap @ prior)
    return total / n + strength * float(gap @ gap), grad / n + penalty_grad


def _bfgs(objective: Callable[[np.ndarray], tuple[float, np.ndarray]], start: np.ndarray,
          iterations: int = 300, tolerance: float = 1e-6) -> np.ndarray:
    """A minimum of a smooth objective: BFGS with a backtracking (Armijo) line search. Twenty weights
    need nothing more, and the project has no optimiser dependency to carry for one eval."""
    x = start.astype(np.float64)
    value, grad = objective(x)
    inverse = np.eye(len(x))
    for _ in range(iterations):
        if np.linalg.norm(grad) < tolerance:
            break
        direction = -inverse @ grad
        if grad @ direction >= 0:  # not a descent direction: start the curvature estimate again
            inverse = np.eye(len(x))
            direction = -grad
        step = 1.0
        while True:
            candidate = x + step * direction
            new_value, new_grad = objective(candidate)
            if new_value <= value + 1e-4 * step * (grad @ direction) or step < 1e-10:
                break
            step *= 0.5
        s_, y_ = candidate - x, new_grad - grad
        x, value, grad = candidate, new_value, new_grad
        sy = s_ @ y_
        if sy > 1e-12:
            rho = 1.0 / sy
            eye = np.eye(len(x))
            inverse = (eye - rho * np.outer(s_, y_)) @ inverse @ (eye - rho * np.outer(y_, s_)) + rho * np.outer(s_, s_)
        if abs(s_ @ s_) < 1e-18:
            break
    return x


def fit(cases: Sequence[SpanCase], strength: float,
        weight_of: Callable[[SpanCase], float] | None = None) -> np.ndarray:
    """The weights (dense first) of the conditional logit at this L2 strength, scaled so dense's is 1;
    `weight_of` gives a case's weight in the likelihood (1 each when not given)."""
    usable = [c for c in cases if c.learnable]
    weights = None if weight_of is None else [weight_of(c) for c in usable]
    start = hand_vector() * 20.0  # the hand weights at a temperature where dense differences matter
    w = _bfgs(lambda v: _loss(v, usable, strength, weights), start)
    if w[0] <= 0:
        raise ValueError(f"the fit gave dense similarity a weight of {w[0]:.3f}: no span ranking to keep")
    return w / w[0]


def ranks_right(case: SpanCase, w: np.ndarray, k: int = 1, best: bool = False) -> bool:
    """Do the case's k best-scoring spans under `w` hold a right (or best) one?"""
    order = np.argsort(-(case.features @ w), kind="stable")[:k]
    return bool((case.best if best else case.right)[order].any())


def right_count(cases: Sequence[SpanCase], w: np.ndarray, k: int = 1, best: bool = False) -> int:
    """How many questions (with a right span shown) hold a right (or best) span in their k best."""
    return sum(ranks_right(c, w, k, best) for c in cases if c.right.any())


def top_right(cases: Sequence[SpanCase], w: np.ndarray, k: int = 1, best: bool = False) -> float | None:
    """Share of questions (with a right span shown) whose k best-scoring spans hold a right (or best) one."""
    usable = sum(bool(c.right.any()) for c in cases)
    return round(right_count(cases, w, k, best) / usable, 4) if usable else None


def folds(cases: Sequence[SpanCase], k: int = FOLDS) -> list[list[SpanCase]]:
    """Dev questions dealt into k folds in id order, each corpus spread over every fold; the cases of
    one question (recorded in two runs) always share a fold."""
    keys = sorted({(c.corpus, c.question_id) for c in cases})
    fold_of = {key: i % k for i, key in enumerate(keys)}
    return [[c for c in cases if fold_of[(c.corpus, c.question_id)] == i] for i in range(k)]


def cross_validate(dev: Sequence[SpanCase], strength: float, k: int = FOLDS) -> dict[str, float]:
    parts = folds(dev, k)
    held: list[tuple[SpanCase, np.ndarray]] = []
    for i, part in enumerate(parts):
        train = [c for j, p in enumerate(parts) if j != i for c in p]
        w = fit(train, strength)
        held += [(c, w) for c in part]
    usable = [(c, w) for c, w in held if c.right.any()]
    top1 = sum(ranks_right(c, w) for c, w in usable) / max(1, len(usable))
    best1 = sum(ranks_right(c, w, best=True) for c, w in usable) / max(1, len(usable))
    return {"strength": strength, "cv_top1_right": round(top1, 4), "cv_top1_best": round(best1, 4)}


def figures(cases: Sequence[SpanCase], w: np.ndarray) -> dict[str, Any]:
    out: dict[str, Any] = {"questions_with_right_span": sum(bool(c.right.any()) for c in cases),
                           "questions": len(cases)}
    out["top1_right"] = top_right(cases, w)
    out[f"top{TOP}_right"] = top_right(cases, w, TOP)
    out["top1_best"] = top_right(cases, w, best=True)
    by_corpus: dict[str, Any] = {}
    for corpus in sorted({c.corpus for c in cases}):
        mine = [c for c in cases if c.corpus == corpus]
        by_corpus[corpus] = {"questions_with_right_span": sum(bool(c.right.any()) for c in mine),
                             "top1_right": top_right(mine, w), "top1_best": top_right(mine, w, best=True)}
    out["by_corpus"] = by_corpus
    return out


def calibrate(cases: Sequence[SpanCase], strengths: Sequence[float] = STRENGTHS,
              progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The sweep, the chosen fit and its dev / test figures beside the hand weights'. A question
    recorded in several runs (given in order) is fitted on in each and scored on its last."""
    fitted_on = [c for c in cases if c.split == "dev"]
    latest = list({(c.corpus, c.question_id): c for c in cases}.values())
    dev = [c for c in latest if c.split == "dev"]
    test = [c for c in latest if c.split == "test"]
    curve = []
    for strength in strengths:
        curve.append(cross_validate(fitted_on, strength))
        if progress is not None:
            progress(f"L2 {strength}: cv top-1 right {curve[-1]['cv_top1_right']}")
    # the strongest penalty within one question of the best cross-validated share: the simplest fit that does as well
    best = max(row["cv_top1_right"] for row in curve)
    slack = 1.0 / max(1, len({(c.corpus, c.question_id) for c in fitted_on if c.right.any()}))
    chosen = max((row for row in curve if row["cv_top1_right"] >= best - slack), key=lambda r: r["strength"])
    w = fit(fitted_on, chosen["strength"])
    margin = equal_budget_margin(dev, w)
    hand = hand_vector()
    hand_cv = {"cv_top1_right": top_right(fitted_on, hand), "cv_top1_best": top_right(fitted_on, hand, best=True)}
    return {
        "columns": list(COLUMNS),
        "curve": curve,
        "hand_dev": hand_cv,
        "chosen_strength": chosen["strength"],
        "quote_margin": margin,
        "quoted_per_dev_question": {
            "hand": round(float(np.mean([len(quoted(c, hand, HAND_QUOTE_MARGIN)) for c in dev])), 3),
            "fitted": round(float(np.mean([len(quoted(c, w, margin)) for c in dev])), 3)},
        "quoted_right": {half: {"hand": _quoted_right(cases_, hand, HAND_QUOTE_MARGIN),
                                "fitted": _quoted_right(cases_, w, margin)}
                         for half, cases_ in (("dev", dev), ("test", test))},
        "weights": {name: round(float(v), 4) for name, v in zip(COLUMNS[1:], w[1:], strict=True)},
        "dev": {"hand": figures(dev, hand), "fitted_in_sample": figures(dev, w), "fitted_cv": chosen},
        "test": {"hand": figures(test, hand), "fitted": figures(test, w)},
    }


def quoted(case: SpanCase, w: np.ndarray, margin: float) -> list[int]:
    """The spans an answer quotes first, as `offline_model` picks them: the best, the sentences within
    `margin` of it (at most MAX_QUOTES) and table rows within it (at most MAX_TABLES)."""
    from bot.offline.offline_model import MAX_QUOTES, MAX_TABLES

    scores = case.features @ w
    order = np.argsort(-scores, kind="stable")
    bar = scores[order[0]] - margin
    row = case.features[:, COLUMNS.index("table_row")] > 0
    prose = [int(i) for i in order if not row[i] and scores[i] >= bar][:MAX_QUOTES]
    rows = [int(i) for i in order if row[i] and scores[i] >= bar][:MAX_TABLES]
    return list(dict.fromkeys([int(order[0]), *prose, *rows]))


def equal_budget_margin(dev: Sequence[SpanCase], w: np.ndarray, margins: Sequence[float] = MARGINS) -> float:
    """The quote margin at which the fitted weights quote as many spans per dev question as the hand
    weights did at theirs: fitted scores spread differently, and a margin fitted for more right
    answers alone would simply quote more (the e2e check counts an answer right when any citation is)."""
    usable = [c for c in dev if len(c.right)]
    budget = float(np.mean([len(quoted(c, hand_vector(), HAND_QUOTE_MARGIN)) for c in usable]))
    counts = {m: float(np.mean([len(quoted(c, w, m)) for c in usable])) for m in margins}
    return min(margins, key=lambda m: (abs(counts[m] - budget), m))


def plot(report: Mapping[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curve = report["curve"]
    xs = [row["strength"] for row in curve]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    left.semilogx(xs, [row["cv_top1_right"] for row in curve], "o-", label="fitted, 5-fold CV on dev: right page")
    left.semilogx(xs, [row["cv_top1_best"] for row in curve], "s-", label="fitted, CV on dev: right page + key fact")
    left.axhline(report["hand_dev"]["cv_top1_right"], color="grey", ls="--", label="hand weights, dev: right page")
    left.axhline(report["hand_dev"]["cv_top1_best"], color="grey", ls=":", label="hand weights, dev: + key fact")
    left.axvline(report["chosen_strength"], color="red", alpha=0.4, label="chosen")
    left.set_xlabel("L2 strength")
    left.set_ylabel("share of questions whose best span is right")
    left.set_title("span weights: cross-validated on dev questions")
    left.legend(fontsize=7)
    names = list(report["weights"])
    fitted = [report["weights"][n] for n in names]
    hand = [HAND_WEIGHTS[n] for n in names]
    ys = np.arange(len(names))
    right.barh(ys - 0.2, hand, 0.4, label="hand")
    right.barh(ys + 0.2, fitted, 0.4, label="fitted (dense = 1)")
    right.set_yticks(ys, names, fontsize=7)
    right.axvline(0, color="black", lw=0.5)
    right.set_title("weight of each signal")
    right.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _quoted_right(cases: Sequence[SpanCase], w: np.ndarray, margin: float) -> float | None:
    """Share of questions (with a right span shown) of which a span quoted first is right."""
    usable = [c for c in cases if c.right.any()]
    if not usable:
        return None
    return round(sum(bool(c.right[quoted(c, w, margin)].any()) for c in usable) / len(usable), 4)


def weights_file(report: Mapping[str, Any], sources: Sequence[str],
                 element_set: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """What `bot/offline/span_weights.json` holds: the weights and where they come from, and the
    element set's entries (`evals.span_kinds.stored_element_set`) when given."""
    stored = {"weights": report["weights"], "quote_margin": report["quote_margin"],
              "fitted_by": "rulebook eval spans --write",
              "fitted_on": f"dev questions of {', '.join(sources)}", "chosen_strength": report["chosen_strength"],
              "dev_cv_top1_right": report["dev"]["fitted_cv"]["cv_top1_right"],
              "dev_hand_top1_right": report["dev"]["hand"]["top1_right"],
              "test_top1_right": report["test"]["fitted"]["top1_right"],
              "test_hand_top1_right": report["test"]["hand"]["top1_right"],
              "figures": "evals/baselines/span_weights.{json,png}"}
    return stored | dict(element_set or {})
