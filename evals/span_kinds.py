"""One set of span weights, or one per kind of question? (`python -m evals.span_kinds`)

The offline model ranks spans with one set of weights (`bot.offline.span_ranker`), fitted on the
golden sets' dev questions. The element probe (`evals.element_probe`) asks what a message guide
says of one element of one message: there the element's own row or record is the answer, and the
sentences about the message around it are not. This compares, on the spans the model scored
(`rulebook eval spans --probe --save-cases`), the share of questions whose best span is right:
- today's weights;
- one set refitted on the golden and the probe's dev questions together;
- two sets, one for element questions (a question about an element, its presence or its conditions,
  naming a message or an element by its run-together name; every probe question) and one for the
  rest, each fitted on its own dev questions.
Every fit is at the L2 strength given (today's weights were chosen at 0.0003) on dev questions only;
test questions of both sources are only scored. Measured, not adopted: the answer path keeps one set.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from bot.offline.span_ranker import WEIGHTS
from bot.offline.span_scoring import MESSAGE_ID, asks_about_element, asks_for_condition, element_names
from evals.span_ranking import COLUMNS, SpanCase, fit

PROBE = "probe"  # the corpus `rulebook eval spans --probe` gives the probe's cases
STRENGTH = 0.0003
BASELINE = Path(__file__).parent / "baselines" / "span_kinds.json"


def element_question(question: str) -> bool:
    """"Is Creator mandatory in a CancelCaseAssignment message?", "When must CancellationDetails be
    present in a ResolutionOfInvestigation?": about an element, naming a message or an element."""
    return (asks_about_element(question) or asks_for_condition(question)) \
        and bool(MESSAGE_ID.search(question) or element_names(question))


def top1_right(cases: Sequence[SpanCase], weights_of: Callable[[SpanCase], np.ndarray]) -> float | None:
    usable = [c for c in cases if c.right.any()]
    if not usable:
        return None
    return round(sum(bool(c.right[int(np.argmax(c.features @ weights_of(c)))]) for c in usable) / len(usable), 4)


def compare(cases: Sequence[SpanCase], questions: Mapping[str, str], strength: float = STRENGTH) -> dict[str, Any]:
    """Top-1 right per source (golden, probe) and half under today's weights, one refit and two sets."""
    def is_element(case: SpanCase) -> bool:
        return case.corpus == PROBE or element_question(questions.get(case.question_id, ""))

    dev = [c for c in cases if c.split == "dev"]
    today = np.array([1.0] + [WEIGHTS.get(name, 0.0) for name in COLUMNS[1:]])
    joint = fit(dev, strength)
    element, rest = fit([c for c in dev if is_element(c)], strength), fit([c for c in dev if not is_element(c)], strength)
    setups: dict[str, Callable[[SpanCase], np.ndarray]] = {
        "today": lambda c: today,
        "one refit": lambda c: joint,
        "two sets": lambda c: element if is_element(c) else rest,
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
                                                   and is_element(c)) for half in ("dev", "test")},
            "top1_right": figures,
            "element_weights": {n: round(float(v), 4) for n, v in zip(COLUMNS[1:], element[1:], strict=True)},
            "rest_weights": {n: round(float(v), 4) for n, v in zip(COLUMNS[1:], rest[1:], strict=True)}}


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
        print(f"{name:10} " + "  ".join(f"{k} {v}" for k, v in row.items()))


if __name__ == "__main__":
    main()
