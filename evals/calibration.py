"""Calibrate the offline model's answer/refuse decision by a sweep on dev questions only.

Input: reports of `rulebook eval answering --calibration` (ObliQA, normal and exclusion views) and
`rulebook eval exclusion --calibration` (golden sets, expected rulebooks hidden), run with the
model's thresholds at 0 so that every question without an absent name was answered and its
signals recorded (`bot.offline.offline_model.Decision`: best span's dense similarity, best span's share of
the question's content terms). A threshold pair (min_dense, min_lexical) is then replayed exactly:
a question is answered when max_lexical >= min_lexical or max_dense >= min_dense (and nothing the
question names is absent); what an answered question cites does not depend on the thresholds.

Per pair, over dev questions only:
- answered share of answerable questions (normal view);
- precision: of all answers given (normal and exclusion views), the share that is right — the
  normal-view answer cites a gold passage; an exclusion-view answer is wrong unless it is listed
  as answered elsewhere (its cited passage repeats a gold passage);
- recall: right answers / answerable questions; F1 of the two;
- refused share in the exclusion view.
The chosen pair maximises F1 (ties: the higher min_dense, i.e. the more cautious); the curve is
plotted with matplotlib and written beside the numbers it comes from.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DENSE_GRID = tuple(round(0.70 + 0.005 * i, 3) for i in range(51))  # 0.70 .. 0.95
LEXICAL_GRID = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.01)  # 1.01: lexical overlap never decides alone
ELSEWHERE_OVERLAP = 0.6
MIN_DENSE_OTHER_LANGUAGE = 0.83  # as bot.offline.span_scoring: not swept (too few cross-language dev cases)


@dataclass(frozen=True)
class Signal:
    """One question in one view, as the sweep needs it."""

    source: str  # "obliqa" | "golden"
    view: str  # "normal" | "excluded"
    max_dense: float | None
    max_lexical: float
    blocked_names: bool  # a name or identifier of the question is absent: refused whatever the threshold
    answered: bool  # the gate let an answer through (thresholds at 0)
    right: bool  # normal view: a gold passage / expected page cited; excluded: answered elsewhere
    max_dense_other_language: float | None = None  # judged against its own fixed bar (bot.offline.span_scoring)


def answered_at(s: Signal, min_dense: float, min_lexical: float) -> bool:
    if s.blocked_names or not s.answered:
        return False
    return (s.max_lexical >= min_lexical or (s.max_dense is not None and s.max_dense >= min_dense)
            or (s.max_dense_other_language is not None and s.max_dense_other_language >= MIN_DENSE_OTHER_LANGUAGE))


def signals_from_answering(report: dict[str, Any], split: str = "dev") -> list[Signal]:
    out = []
    for c in report.get("cases", []):
        if c["split"] != split or c.get("decision") is None:
            continue
        d = c["decision"]
        right = c["gold_cited"] if c["view"] == "normal" else c.get("elsewhere", 0.0) >= ELSEWHERE_OVERLAP
        out.append(Signal("obliqa", c["view"], d["max_dense"], d["max_lexical"], bool(d["absent"]) or d["hits"] == 0,
                          c["outcome"] == "answered", bool(right), d.get("max_dense_other_language")))
    return out


def signals_from_exclusion(report: dict[str, Any], split: str = "dev") -> list[Signal]:
    out = []
    for c in report.get("cases", []):
        if c["split"] != split or c.get("decision") is None:
            continue
        d = c["decision"]
        view = c.get("view", "excluded")
        out.append(Signal("golden", view, d["max_dense"], d["max_lexical"], bool(d["absent"]) or d["hits"] == 0,
                          c["outcome"] == "answered", view == "normal" and bool(c.get("right_page")),
                          d.get("max_dense_other_language")))
    return out


def point(signals: Sequence[Signal], min_dense: float, min_lexical: float) -> dict[str, Any]:
    normal = [s for s in signals if s.view == "normal"]
    excluded = [s for s in signals if s.view == "excluded"]
    given = [(s, answered_at(s, min_dense, min_lexical)) for s in signals]
    answers = [s for s, a in given if a]
    right = [s for s in answers if s.right]
    right_normal = [s for s in right if s.view == "normal"]
    precision = len(right) / len(answers) if answers else 1.0
    recall = len(right_normal) / len(normal) if normal else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    ex_refused = [s for s in excluded if not answered_at(s, min_dense, min_lexical)]
    normal_answered = [s for s in normal if answered_at(s, min_dense, min_lexical)]
    return {"min_dense": min_dense, "min_lexical": min_lexical, "f1": round(f1, 4), "precision": round(precision, 4),
            "recall": round(recall, 4),
            "answered_share": round(len(normal_answered) / len(normal), 4) if normal else None,
            "right_of_answered": round(len(right_normal) / len(normal_answered), 4) if normal_answered else None,
            "refused_when_excluded": round(len(ex_refused) / len(excluded), 4) if excluded else None}


def sweep(signals: Sequence[Signal], dense_grid: Iterable[float] = DENSE_GRID,
          lexical_grid: Iterable[float] = LEXICAL_GRID) -> list[dict[str, Any]]:
    return [point(signals, d, lx) for lx in lexical_grid for d in dense_grid]


def choose(points: Sequence[dict[str, Any]]) -> dict[str, Any]:
    return max(points, key=lambda p: (p["f1"], p["min_dense"], p["min_lexical"]))


def plot(points: Sequence[dict[str, Any]], chosen: dict[str, Any], path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    for lexical in sorted({p["min_lexical"] for p in points}):
        row = [p for p in points if p["min_lexical"] == lexical]
        label = "lexical off" if lexical > 1 else f"min_lexical {lexical}"
        left.plot([p["min_dense"] for p in row], [p["f1"] for p in row], label=label,
                  linewidth=2.5 if lexical == chosen["min_lexical"] else 1)
    left.axvline(chosen["min_dense"], color="grey", linestyle="--")
    left.set(xlabel="min_dense (best span's cosine with the question)", ylabel="F1 (right answers)",
             title="F1 by threshold")
    left.legend(fontsize=7)
    row = sorted((p for p in points if p["min_lexical"] == chosen["min_lexical"]), key=lambda p: p["min_dense"])
    xs = [p["min_dense"] for p in row]
    for key, label in (("answered_share", "answered (of answerable)"), ("right_of_answered", "gold cited (of answered)"),
                       ("refused_when_excluded", "refused, gold hidden"), ("precision", "precision"),
                       ("recall", "recall")):
        right.plot(xs, [p[key] if p[key] is not None else float("nan") for p in row], label=label)
    right.axvline(chosen["min_dense"], color="grey", linestyle="--")
    right.set(xlabel="min_dense", ylabel="share", ylim=(0, 1.02),
              title=f"at min_lexical {chosen['min_lexical']} (chosen: {chosen['min_dense']})")
    right.legend(fontsize=7)
    fig.suptitle(title)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def calibrate(answering: Sequence[dict[str, Any]], exclusion: Sequence[dict[str, Any]], out_json: Path,
              out_png: Path, current: tuple[float, float]) -> dict[str, Any]:
    signals = [s for r in answering for s in signals_from_answering(r)]
    signals += [s for r in exclusion for s in signals_from_exclusion(r)]
    if not signals:
        raise ValueError("no dev case with recorded signals: run the evals with --calibration first")
    points = sweep(signals)
    chosen = choose(points)
    # the test halves, read at the current and the chosen pair only: never looked at to choose
    held_out = [s for r in answering for s in signals_from_answering(r, "test")]
    held_out += [s for r in exclusion for s in signals_from_exclusion(r, "test")]
    result = {
        "what": "answer/refuse thresholds of the offline model (bot.offline.span_scoring MIN_DENSE, MIN_LEXICAL)",
        "method": __doc__.split("\n\n", 1)[1].strip(),
        "dev_signals": {"total": len(signals),
                        "obliqa_normal": sum(s.source == "obliqa" and s.view == "normal" for s in signals),
                        "obliqa_excluded": sum(s.source == "obliqa" and s.view == "excluded" for s in signals),
                        "golden_normal": sum(s.source == "golden" and s.view == "normal" for s in signals),
                        "golden_excluded": sum(s.source == "golden" and s.view == "excluded" for s in signals)},
        "inputs": [r.get("command", r.get("benchmark", "")) for r in [*answering, *exclusion]],
        "current": point(signals, *current),
        "chosen": chosen,
        "test_cases": len(held_out),
        "test_at_current": point(held_out, *current) if held_out else None,
        "test_at_chosen": point(held_out, chosen["min_dense"], chosen["min_lexical"]) if held_out else None,
        "curve": points,
    }
    out_json.parent.mkdir(parents=True, exist_ok=True)
    out_json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    plot(points, chosen, out_png, f"Offline model answer/refuse sweep, dev only ({len(signals)} cases)")
    return result
