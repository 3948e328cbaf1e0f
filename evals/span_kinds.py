"""One set of span weights, or one per kind of question? (`python -m evals.span_kinds`)

The offline model ranks a question's spans with one of two weight sets (`bot.offline.span_ranker`):
the element set for a question about one element of one message (`span_scoring.element_question`:
its presence, type or conditions, naming a message or an element by its run-together name; every
question of the element probe, `evals.element_probe`), the main set for the rest. There the element's
own row or record is the answer, and the sentences about the message around it are not.

`fit_element_set` fits the element set on dev questions only, the golden sets' element questions and
the probe's counting equally (the probe has ten times more, all written from exact names; golden
questions are worded by people). The rule, stated before it was first run (session 18): the L2
strength whose 5-fold cross-validated best-span-right count on the golden element dev questions is
highest; ties go to the higher cross-validated share on the probe's dev questions, then to the
stronger penalty. Test questions of both sources are only scored.

`compare` measures, on the spans the model scored (`rulebook eval spans --probe --save-cases`), the
share of questions whose best span is right: the main set alone, one set refitted on the golden and
the probe's dev questions together, two sets each refitted on its own dev questions, and the sets
committed in `span_weights.json`.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from bot.offline.span_ranker import ELEMENT_WEIGHTS, WEIGHTS
from bot.offline.span_scoring import element_question
from evals.span_ranking import COLUMNS, FOLDS, SpanCase, fit, folds, ranks_right, right_count, vector

PROBE = "probe"  # the corpus `rulebook eval spans --probe` gives the probe's cases
STRENGTH = 0.0003
ELEMENT_STRENGTHS: tuple[float, ...] = (0.0001, 0.0003, 0.001, 0.003, 0.01, 0.03)
BASELINE = Path(__file__).parent / "baselines" / "span_kinds.json"
ELEMENT_RULE = ("element set: golden element questions and the probe's weigh equally; L2 strength by 5-fold CV on dev "
                "(most golden element questions whose best span is right, then the probe's share, then the stronger "
                "penalty); test only scored")


def top1_right(cases: Sequence[SpanCase], weights_of: Callable[[SpanCase], np.ndarray]) -> float | None:
    """`span_ranking.top_right` with each question's own weight set."""
    usable = [c for c in cases if c.right.any()]
    return round(sum(ranks_right(c, weights_of(c)) for c in usable) / len(usable), 4) if usable else None


class Kinds:
    """Which cases are element questions (a probe case always is)."""

    def __init__(self, questions: Mapping[str, str]) -> None:
        self.questions = questions

    def element(self, case: SpanCase) -> bool:
        return case.corpus == PROBE or element_question(self.questions.get(case.question_id, ""))


def _balanced(golden: Sequence[SpanCase], probe: Sequence[SpanCase]) -> Callable[[SpanCase], float]:
    """Case weights under which the golden and the probe's questions count equally."""
    n_golden = max(1, sum(c.learnable for c in golden))
    n_probe = sum(c.learnable for c in probe)
    share = n_probe / n_golden if n_probe else 1.0
    return lambda case: 1.0 if case.corpus == PROBE else share


def fit_element_set(cases: Sequence[SpanCase], kinds: Kinds,
                    strengths: Sequence[float] = ELEMENT_STRENGTHS,
                    progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The element set, fitted on the dev element questions by `ELEMENT_RULE`, its curve and figures."""
    dev = [c for c in cases if c.split == "dev" and kinds.element(c)]
    golden = [c for c in dev if c.corpus != PROBE]
    probe = [c for c in dev if c.corpus == PROBE]
    if not golden or not probe:
        raise ValueError("the element set is fitted on golden element questions and the probe's: give both")
    golden_folds, probe_folds = folds(golden, FOLDS), folds(probe, FOLDS)
    curve = []
    for strength in strengths:
        golden_right = probe_right = 0
        for i in range(FOLDS):
            train_golden = [c for j, part in enumerate(golden_folds) if j != i for c in part]
            train_probe = [c for j, part in enumerate(probe_folds) if j != i for c in part]
            w = fit(train_golden + train_probe, strength, _balanced(train_golden, train_probe))
            golden_right += right_count(golden_folds[i], w)
            probe_right += right_count(probe_folds[i], w)
        row = {"strength": strength, "cv_golden_right": golden_right,
               "cv_probe_top1_right": round(probe_right / max(1, sum(c.right.any() for c in probe)), 4)}
        curve.append(row)
        if progress is not None:
            progress(f"element set, L2 {strength}: golden {golden_right} right, probe {row['cv_probe_top1_right']}")
    chosen = max(curve, key=lambda r: (r["cv_golden_right"], r["cv_probe_top1_right"], r["strength"]))
    w = fit(golden + probe, chosen["strength"], _balanced(golden, probe))
    main = vector(WEIGHTS)
    test = [c for c in cases if c.split == "test" and kinds.element(c)]
    halves = {"dev": dev, "test": test}
    figures = {f"{source} {half}": {
        "questions_with_right_span": int(sum(c.right.any() for c in mine)),
        "main_set": top1_right(mine, lambda c: main), "element_set": top1_right(mine, lambda c: w)}
        for half, cases_ in halves.items() for source in ("golden", PROBE)
        for mine in [[c for c in cases_ if (c.corpus == PROBE) == (source == PROBE)]]}
    return {"rule": ELEMENT_RULE, "curve": curve, "chosen_strength": chosen["strength"],
            "cv_golden_right_main_set": right_count(golden, main),
            "golden_dev_questions_with_right_span": int(sum(c.right.any() for c in golden)),
            "top1_right": figures,
            "weights": {name: round(float(v), 4) for name, v in zip(COLUMNS[1:], w[1:], strict=True)}}


def stored_element_set(element_set: Mapping[str, Any]) -> dict[str, Any]:
    """The entries `span_weights.json` keeps of an element set (`span_ranker.load_weights` reads the first)."""
    return {"element_weights": element_set["weights"], "element_strength": element_set["chosen_strength"],
            "element_rule": element_set["rule"], "element_top1_right": element_set["top1_right"]}


def compare(cases: Sequence[SpanCase], questions: Mapping[str, str], strength: float = STRENGTH) -> dict[str, Any]:
    """Top-1 right per source (golden, probe) and half under the main set alone, one refit, two refits
    and the committed sets."""
    kinds = Kinds(questions)
    dev = [c for c in cases if c.split == "dev"]
    main, committed = vector(WEIGHTS), vector(ELEMENT_WEIGHTS)
    joint = fit(dev, strength)
    element = fit([c for c in dev if kinds.element(c)], strength)
    rest = fit([c for c in dev if not kinds.element(c)], strength)
    setups: dict[str, Callable[[SpanCase], np.ndarray]] = {
        "main set alone": lambda c: main,
        "one refit": lambda c: joint,
        "two refits": lambda c: element if kinds.element(c) else rest,
        "committed sets": lambda c: committed if kinds.element(c) else main,
    }
    figures: dict[str, Any] = {}
    for name, weights_of in setups.items():
        figures[name] = {}
        for source in ("golden", PROBE):
            mine = [c for c in cases if (c.corpus == PROBE) == (source == PROBE)]
            for half in ("dev", "test"):
                figures[name][f"{source} {half}"] = top1_right([c for c in mine if c.split == half], weights_of)
    counts = {f"{source} {half}": sum(1 for c in cases if c.split == half and c.right.any()
                                      and (c.corpus == PROBE) == (source == PROBE))
              for source in ("golden", PROBE) for half in ("dev", "test")}
    return {"strength": strength, "questions_with_right_span": counts,
            "golden_element_questions": {half: sum(1 for c in cases if c.split == half and c.corpus != PROBE
                                                   and kinds.element(c)) for half in ("dev", "test")},
            "top1_right": figures}


def main(argv: Sequence[str] | None = None) -> None:
    from evals.e2e_golden import load_golden

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=Path, nargs="+", required=True,
                        help="files written by `rulebook eval spans --save-cases` (golden and --probe)")
    parser.add_argument("--strength", type=float, default=STRENGTH)
    parser.add_argument("--out", type=Path, default=BASELINE)
    args = parser.parse_args(argv)
    cases = [SpanCase.from_json(c) for path in args.cases for c in json.loads(path.read_text(encoding="utf-8"))]
    report = {"command": "python -m evals.span_kinds --cases <golden cases> <probe cases>",
              **compare(cases, {q.id: q.question for q in load_golden()}, args.strength)}
    args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    for name, row in report["top1_right"].items():
        print(f"{name:15} " + "  ".join(f"{k} {v}" for k, v in row.items()))


if __name__ == "__main__":
    main()
