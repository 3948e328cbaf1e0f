"""Would one fitted model over every decision signal answer and refuse better than the hand-set bars?
(`rulebook eval decision`, a measurement: the offline model keeps its bars.)

The hand-set rule (`OfflineRulebookModel.answers` at the bars `rulebook eval calibrate` sweeps) answers
when the best span is close enough in meaning or in words, each check with its own bar. This fits the
alternative: a logistic regression on standardised features of everything a `Decision` records (the
similarities, the word overlap, whether the two agree on the chunk, the value asked for, and how much
of the question's terms and phrases, weighed by rarity, the evidence's passages, sections and
documents hold), on the dev cases of the same calibration reports and with the same meaning of a
right answer as the sweep (`evals.calibration`). A case the model cannot decide is left out of the
fit: a name or identifier of the question that no passage holds refuses it, and a section the
question names by number and title that was read answers it.

The target is "answering this case gives a right answer" (a normal-view answer citing a gold passage
or an expected page; an answer with the gold hidden that another document really gives). The L2
strength is the one whose cross-validated F1 (5 folds, 5 shuffles, out-of-fold probabilities of the
dev cases) is highest, the strongest within `CV_TIE` of it; the threshold is the median over the
shuffles of the one at which the out-of-fold F1 peaks. The model is refitted on every dev case, and
the test halves are only scored, beside the hand-set rule at today's bars. As the sweep's own rule
says, a setting whose dev F1 is below today's bars does not replace them: the report's
`replaces_the_bars` is whether the cross-validated F1 beats the bars' dev F1 by `MIN_F1_GAIN`.
It is also the yardstick for a new decision signal: what the fitted model gains with it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bot.offline.neutral_terms import missing_neutral_share
from bot.offline.subject_phrases import MIN_MISSING_PHRASES, PHRASE_MAX_SHARE, PHRASE_SCOPE, phrase_missing
from bot.offline.subject_terms import (
    SUBJECT_MAX_HEADINGS,
    SUBJECT_MAX_SHARE,
    SUBJECT_SCOPE,
    missing_subject_weight,
)
from evals.calibration import MIN_F1_GAIN, Bar, Signal, all_signals, answered_at, by_source, figures

MIN_CHUNK_SHARE = 1e-4  # rarity of a term is -log(its chunk share), capped here

# where the evidence holds a question's term (Decision.subject: passage, section, document) and phrase
# (Decision.phrases: the same and the rulebook's whole text)
_SUBJECT_SCOPES = ("passage", "section", "document")
_PHRASE_SCOPES = ("passage", "section", "document", "rulebook")

FEATURES: tuple[str, ...] = (
    "best_dense",  # best span's similarity, in the question's language or another
    "no_dense_same_language",  # no span in the question's language was measured
    "lexical",  # best span's share of the question's content terms
    "dense_other_language",
    "other_language_best",  # a span in another language is the closest
    "disagree",  # the densest and the lexically best span lie in different chunks
    "asks_value",  # the question asks for money, a duration or a count
    "value_dense",  # ... and the best similarity of a span holding such a value (0: none)
    "value_unmeasured",  # ... and no span holding one was measured
    "phrase_missing",  # the question's rare phrases are missing from the evidence's rulebook (subject_phrases)
    "defining_dense",  # best similarity of a span defining the question's code or element (0: none)
    "defines",  # some span defines it
    "missing_subject",  # subject_terms.missing_subject_weight at its defaults
    "missing_neutral",  # share of the question's acronyms and codes missing from evidence in another language
    "uncovered",  # share of the question's content terms in no passage shown
    "value_gap",  # how far the best span holding the value asked scores below the best span
    *(f"terms_held_{scope}" for scope in _SUBJECT_SCOPES),  # the question's terms, weighed by rarity, held
    *(f"rarest_missing_term_{scope}" for scope in _SUBJECT_SCOPES),  # rarity of the rarest term not held
    *(f"phrases_held_{scope}" for scope in _PHRASE_SCOPES),
    *(f"rarest_missing_phrase_{scope}" for scope in _PHRASE_SCOPES),
    "terms_unmeasured",  # no evidence in the question's language to hold its terms
    "phrases",  # how many of the question's phrases the corpus holds
)


def _coverage(rows: Sequence[Sequence[Any]], flag: int) -> tuple[float, float]:
    """(share of the rows' rarity held, rarity of the rarest row not held) for the held flag at `flag`."""
    if not rows:
        return 1.0, 0.0
    weights = [-math.log(max(float(r[1]), MIN_CHUNK_SHARE)) for r in rows]
    held = [bool(r[flag]) for r in rows]
    total = sum(weights) or 1.0
    return (sum(w for w, h in zip(weights, held, strict=True) if h) / total,
            max((w for w, h in zip(weights, held, strict=True) if not h), default=0.0))


def features(d: Any) -> list[float]:
    """The model's input for one decision (a `Decision`, or a calibration signal with its names)."""
    dense = d.max_dense if d.max_dense is not None else 0.0
    other = d.max_dense_other_language if d.max_dense_other_language is not None else 0.0
    asks = d.slot is not None
    subject = list(d.subject or [])
    phrases = list(d.phrases or [])
    terms = [_coverage(subject, 3 + i) for i in range(len(_SUBJECT_SCOPES))]
    held_phrases = [_coverage(phrases, 2 + i) for i in range(len(_PHRASE_SCOPES))]
    return [
        max(dense, other), float(d.max_dense is None), float(d.max_lexical), other, float(other > dense),
        float(d.agree is False), float(asks),
        (d.max_dense_slot or 0.0) if asks else 0.0, float(asks and d.max_dense_slot is None),
        float(d.phrases is not None and phrase_missing(d.phrases, PHRASE_MAX_SHARE, PHRASE_SCOPE,
                                                       MIN_MISSING_PHRASES)),
        d.max_dense_defining or 0.0, float(d.max_dense_defining is not None),
        missing_subject_weight(d.subject, SUBJECT_MAX_SHARE, SUBJECT_MAX_HEADINGS, SUBJECT_SCOPE)
        if d.subject is not None else 0.0,
        missing_neutral_share(d.neutral) if d.neutral is not None else 0.0,
        d.uncovered or 0.0, d.slot_gap or 0.0,
        *(share for share, _ in terms), *(rarest for _, rarest in terms),
        *(share for share, _ in held_phrases), *(rarest for _, rarest in held_phrases),
        float(d.subject is None), float(len(phrases)),
    ]


@dataclass(frozen=True)
class DecisionModel:
    """A fitted logistic regression: answer when the probability of a right answer reaches `threshold`."""

    means: tuple[float, ...]
    scales: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    threshold: float

    def probability(self, d: Any) -> float:
        z = self.bias + sum(w * (x - m) / s for w, x, m, s
                            in zip(self.weights, features(d), self.means, self.scales, strict=True))
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))

    def answers(self, d: Any) -> bool:
        return self.probability(d) >= self.threshold

    def to_json(self) -> dict[str, Any]:
        return {"features": list(FEATURES), "means": list(self.means), "scales": list(self.scales),
                "weights": list(self.weights), "bias": self.bias, "threshold": self.threshold}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DecisionModel:
        if list(data["features"]) != list(FEATURES):
            raise ValueError("this fit was made on other features than the ones computed now: refit it")
        return cls(tuple(data["means"]), tuple(data["scales"]), tuple(data["weights"]), float(data["bias"]),
                   float(data["threshold"]))

STRENGTHS: tuple[float, ...] = (0.003, 0.01, 0.03, 0.1, 0.3, 1.0)
THRESHOLDS: tuple[float, ...] = tuple(round(0.1 + 0.02 * i, 2) for i in range(41))  # 0.10 .. 0.90
FOLDS = 5
SHUFFLES = 5
CV_TIE = 0.002  # a stronger L2 within this of the best cross-validated F1 is preferred (simpler)
RULE = ("L2 strength by 5-fold cross-validation over dev cases (5 shuffles), the strongest within 0.002 of the best "
        "F1; threshold: median of the out-of-fold F1 peaks; refitted on every dev case; test halves only scored")


def decidable(signals: Sequence[Signal]) -> list[Signal]:
    """The cases the model decides (see the module docstring)."""
    return [s for s in signals if s.answered and not s.blocked_names and not s.named_section]


def answers_with(probability: Callable[[Signal], float], threshold: float) -> Callable[[Signal], bool]:
    """The whole decision: the model's answer for a decidable case, the fixed outcome otherwise."""
    def answers(s: Signal) -> bool:
        if s.blocked_names or not s.answered:
            return False
        return s.named_section or probability(s) >= threshold
    return answers


def fit(x: np.ndarray, y: np.ndarray, strength: float, iterations: int = 50) -> DecisionModel:
    """L2-regularised logistic regression by Newton's method (the bias is not penalised)."""
    means = x.mean(axis=0)
    scales = x.std(axis=0)
    scales[scales < 1e-9] = 1.0  # a feature constant over the dev cases carries no weight
    z = np.hstack([(x - means) / scales, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    penalty = np.full(z.shape[1], strength)
    penalty[-1] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ w, -60, 60)))
        gradient = z.T @ (p - y) / len(y) + penalty * w
        hessian = (z.T * (p * (1 - p))) @ z / len(y) + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return DecisionModel(tuple(float(m) for m in means), tuple(float(s) for s in scales),
                         tuple(float(v) for v in w[:-1]), float(w[-1]), 0.5)


def _matrix(cases: Sequence[Signal]) -> tuple[np.ndarray, np.ndarray]:
    return (np.array([features(s) for s in cases], dtype=float).reshape(len(cases), len(FEATURES)),
            np.array([float(s.right) for s in cases]))


def _best_threshold(signals: Sequence[Signal], probability: dict[int, float]) -> tuple[float, float]:
    scored = [(t, figures(signals, answers_with(lambda s: probability[id(s)], t))["f1"]) for t in THRESHOLDS]
    return max(scored, key=lambda ts: (ts[1], ts[0]))  # ties: the higher threshold, the more cautious


def cross_validate(signals: Sequence[Signal], strength: float) -> dict[str, Any]:
    cases = decidable(signals)
    x, y = _matrix(cases)
    peaks = []
    for shuffle in range(SHUFFLES):
        folds = np.random.default_rng(shuffle).permutation(len(cases)) % FOLDS
        out_of_fold = np.zeros(len(cases))
        for k in range(FOLDS):
            model = fit(x[folds != k], y[folds != k], strength)
            out_of_fold[folds == k] = [model.probability(s) for s in np.array(cases, dtype=object)[folds == k]]
        probability = {id(s): float(p) for s, p in zip(cases, out_of_fold, strict=True)}
        peaks.append(_best_threshold(signals, probability))
    return {"strength": strength, "cv_f1": round(float(np.mean([f for _, f in peaks])), 4),
            "cv_f1_per_shuffle": [f for _, f in peaks], "threshold": float(np.median([t for t, _ in peaks]))}


def curve(signals: Sequence[Signal], model: DecisionModel) -> list[dict[str, Any]]:
    """The figures at every threshold of the grid (the plot's lines)."""
    probability = {id(s): model.probability(s) for s in decidable(signals)}
    return [{"threshold": t, **figures(signals, answers_with(lambda s: probability[id(s)], t))} for t in THRESHOLDS]


def fit_decision(answering: Sequence[dict[str, Any]], exclusion: Sequence[dict[str, Any]],
                 e2e: Sequence[dict[str, Any]], rule: Bar) -> dict[str, Any]:
    """The fit and every figure behind it (see the module docstring); `rule` is today's hand-set setting."""
    dev = all_signals(answering, exclusion, e2e, "dev")
    test = all_signals(answering, exclusion, e2e, "test")
    if not decidable(dev):
        raise ValueError("no dev case with recorded signals: run the evals with --calibration first")
    validation = [cross_validate(dev, strength) for strength in STRENGTHS]
    best = max(v["cv_f1"] for v in validation)
    chosen = max((v for v in validation if v["cv_f1"] >= best - CV_TIE), key=lambda v: v["strength"])
    x, y = _matrix(decidable(dev))
    fitted = fit(x, y, chosen["strength"])
    model = DecisionModel(fitted.means, fitted.scales, fitted.weights, fitted.bias, chosen["threshold"])

    def decide(s: Signal) -> bool:
        return answers_with(model.probability, model.threshold)(s)

    def by_rule(s: Signal) -> bool:
        return answered_at(s, rule)

    counts: dict[str, int] = {}
    for s in dev:
        counts[f"{s.source}_{s.view}"] = counts.get(f"{s.source}_{s.view}", 0) + 1
    return {
        "what": "a logistic regression over the recorded decision signals, measured against the offline model's "
                "hand-set answer/refuse bars (a measurement: the bars decide)",
        "method": __doc__.split("\n\n", 1)[1].strip(),
        "rule": RULE,
        "inputs": [r.get("command", r.get("benchmark", "")) for r in [*answering, *exclusion, *e2e]],
        "dev_cases": {"total": len(dev), "decided_by_the_model": len(decidable(dev)), **dict(sorted(counts.items()))},
        "test_cases": len(test),
        "cross_validation": validation,
        "chosen_strength": chosen["strength"],
        "threshold": model.threshold,
        "dev_cross_validated_f1": chosen["cv_f1"],
        "dev": figures(dev, decide),
        "dev_by_rule": figures(dev, by_rule),
        "test": figures(test, decide) if test else None,
        "test_by_rule": figures(test, by_rule) if test else None,
        "dev_by_source": by_source_with(dev, decide),
        "dev_by_source_by_rule": by_source(dev, rule),
        "test_by_source": by_source_with(test, decide) if test else None,
        "test_by_source_by_rule": by_source(test, rule) if test else None,
        "weights": dict(zip(FEATURES, (round(w, 4) for w in model.weights), strict=True)),
        "replaces_the_bars": chosen["cv_f1"] >= figures(dev, by_rule)["f1"] + MIN_F1_GAIN,
        "curve_dev": curve(dev, model),
        "curve_test": curve(test, model) if test else None,
        "model": model.to_json(),
    }


def by_source_with(signals: Sequence[Signal], decide: Callable[[Signal], bool]) -> dict[str, dict[str, Any]]:
    return {name: figures([s for s in signals if s.source == name], decide)
            for name in sorted({s.source for s in signals})}


def plot(report: dict[str, Any], path: Path) -> None:
    """F1, precision, recall and refusals against the threshold, dev (as refitted) and test, with the
    hand-set rule's F1 on each half as a dotted line."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    halves = [("dev", report["curve_dev"], report["dev_by_rule"])]
    if report.get("curve_test"):
        halves.append(("test", report["curve_test"], report["test_by_rule"]))
    fig, axes = plt.subplots(1, len(halves), figsize=(6.5 * len(halves), 4.5), squeeze=False)
    for ax, (name, rows, by_rule) in zip(axes[0], halves, strict=True):
        t = [r["threshold"] for r in rows]
        for key, label in (("f1", "F1"), ("precision", "precision"), ("recall", "recall"),
                           ("refused_when_excluded", "refused, gold hidden"),
                           ("refused_unanswerable", "refused, unanswerable")):
            values = [r[key] for r in rows]
            if any(v is not None for v in values):
                ax.plot(t, [float("nan") if v is None else v for v in values], label=label)
        ax.axhline(by_rule["f1"], color="grey", linestyle=":", label=f"F1 of today's bars ({by_rule['f1']})")
        ax.axvline(report["threshold"], color="black", linestyle="--", linewidth=0.8,
                   label=f"chosen threshold {report['threshold']}")
        ax.set_title(f"{name}: answer when P(right answer) >= threshold")
        ax.set_xlabel("threshold")
        ax.set_ylim(0.4, 1.02)
        ax.legend(fontsize=7, loc="lower left")
    fig.suptitle(f"Offline model answer/refuse decision, logistic fit (L2 {report['chosen_strength']}, "
                 f"dev CV F1 {report['dev_cross_validated_f1']})", fontsize=10)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
