"""The quote budget: how many sentences the offline model quotes at most, swept on dev questions.

The offline model quotes the sentences that score within its quote margin of the best one, at most
`max_quotes` of them (a table it shows counts apart). A larger budget brings the sentence holding
the number or the condition more often (key facts, a recall measure), at the price of longer
answers and of citations that point elsewhere. More citations also make "right page cited" easier
by construction (any citation on an expected page counts), so it is not what the budget is chosen
on: the key facts are.

The sweep asks every dev question of the golden sets at each budget, with the real assistant on the
real indexes, and records per budget:
- `key_facts`: answerable questions answered with every must-contain string;
- `right_page`: answered answerable questions citing an expected page (reported, not chosen on);
- `citation_precision`: the share of those answers' citations that are on an expected page;
- the median and mean length of an answer.

The rule: the smallest budget at which the dev key facts reach their maximum over the sweep (a
larger budget that adds none only makes answers longer), and only when it gets more of the same dev
questions' key facts than today's budget by more than chance (`evals.intervals.sign_test` over the
questions where the two differ, p < `MAX_P`); otherwise today's budget stays. Every budget changes
every answer's length, so a question or two is noise, not a reason (sessions 18 and 19 saw the old
rule pick 6 over 4 by one and by two questions; this minimum was written down in session 20 before
the sweep of that session was read). The answer/refuse decision does not depend on the budget, so
every budget answers the same questions. Test questions are not asked: they are reported by
`rulebook eval e2e` at the chosen budget.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from evals.e2e_golden import GoldenQuestion
from evals.e2e_runner import RunOptions
from evals.e2e_scoring import QuestionResult
from evals.intervals import sign_test

BUDGETS = (2, 3, 4, 5, 6)
MAX_P = 0.05
RULE = ("the smallest budget at which the dev key facts (answerable questions answered with every "
        "must-contain string) reach their maximum over the sweep, if it gets more of the same questions' key "
        f"facts than today's budget by more than chance (two-sided sign test, p < {MAX_P}); else today's budget")


@dataclass(frozen=True)
class BudgetPoint:
    budget: int
    answerable: int
    answered: int  # answerable questions answered
    key_facts: int
    right_page: int
    citations: int  # of the answered answerable questions with an expected source
    citations_on_page: int
    chars_median: float
    chars_mean: float
    key_fact_ids: tuple[str, ...] = ()  # the questions answered with every must-contain string

    @property
    def key_facts_share(self) -> float:
        return self.key_facts / self.answerable if self.answerable else 0.0

    @property
    def right_page_share(self) -> float:
        return self.right_page / self.answered if self.answered else 0.0

    @property
    def citation_precision(self) -> float:
        return self.citations_on_page / self.citations if self.citations else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "key_facts_share": round(self.key_facts_share, 4),
                "right_page_share": round(self.right_page_share, 4),
                "citation_precision": round(self.citation_precision, 4)}


def budget_point(budget: int, results: Sequence[QuestionResult]) -> BudgetPoint:
    answerable = [r for r in results if r.answerable]
    answered = [r for r in answerable if r.outcome == "answered"]
    checked = [c for r in answered if r.expected_cited is not None for c in r.citations]
    lengths = [len(r.answer) for r in results if r.outcome == "answered"] or [0]
    return BudgetPoint(
        budget=budget, answerable=len(answerable), answered=len(answered),
        key_facts=sum(r.must_contain_ok for r in answered), right_page=sum(bool(r.citation_ok) for r in answered),
        citations=len(checked), citations_on_page=sum(c.matches_expected for c in checked),
        chars_median=float(statistics.median(lengths)), chars_mean=round(float(statistics.mean(lengths)), 1),
        key_fact_ids=tuple(sorted(r.id for r in answered if r.must_contain_ok)))


def choose_budget(points: Sequence[BudgetPoint], current: int | None = None) -> int:
    """See `RULE` (without today's budget among the points: the budget reaching the most key facts)."""
    if not points:
        raise ValueError("no budget was measured")
    most = max(p.key_facts for p in points)
    best = min((p for p in points if p.key_facts == most), key=lambda p: p.budget)
    today = next((p for p in points if p.budget == current), None)
    if today is None or today is best:
        return best.budget
    gained = len(set(best.key_fact_ids) - set(today.key_fact_ids))
    lost = len(set(today.key_fact_ids) - set(best.key_fact_ids))
    return best.budget if gained > lost and sign_test(gained, lost) < MAX_P else today.budget


async def sweep(questions: Sequence[GoldenQuestion], contexts: Mapping[str, Any], budgets: Sequence[int],
                progress: Callable[[int, GoldenQuestion], None] | None = None) -> list[BudgetPoint]:
    """Every question at every budget, through each corpus's own assistant (its offline model's
    `max_quotes` set for the run and put back after)."""
    from evals.e2e_suite import run_suite

    models = [getattr(ctx.service, "model", None) for ctx in contexts.values()]
    if not models or any(m is None or not hasattr(m, "max_quotes") for m in models):
        raise ValueError("the quote budget is the offline model's: set the chat model to offline")
    before = [m.max_quotes for m in models]
    points = []
    try:
        for budget in budgets:
            for model in models:
                model.max_quotes = budget
            step = (lambda q, b=budget: progress(b, q)) if progress else None
            suite = await run_suite(questions, contexts, 1, RunOptions(), progress=step)
            points.append(budget_point(budget, suite.results))
    finally:
        for model, value in zip(models, before, strict=True):
            model.max_quotes = value
    return points


def sweep_report(points: Sequence[BudgetPoint], questions: Sequence[GoldenQuestion], current: int) -> dict[str, Any]:
    return {"rule": RULE, "chosen": choose_budget(points, current), "current": current,
            "questions": len(questions), "corpora": sorted({q.corpus for q in questions}),
            "split": sorted({q.split for q in questions}), "points": [p.to_dict() for p in points]}


def write_sweep(report: Mapping[str, Any], path: Path) -> Path:
    """The report as JSON at `path` and its curve beside it (same name, .png)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    picture = path.with_suffix(".png")
    plot_sweep(report, picture)
    return picture


def plot_sweep(report: Mapping[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = report["points"]
    xs = [p["budget"] for p in points]
    fig, (shares, lengths) = plt.subplots(1, 2, figsize=(12, 4.5))
    for key, label in (("key_facts_share", "key facts (of answerable)"),
                       ("right_page_share", "right page cited (of answered)"),
                       ("citation_precision", "citations on an expected page")):
        shares.plot(xs, [p[key] for p in points], marker="o", label=label)
    shares.axvline(report["chosen"], color="grey", linestyle="--")
    shares.set(xlabel="quote budget (sentences)", ylabel="share", ylim=(0, 1.02),
               title=f"dev, {report['questions']} questions ({', '.join(report['corpora'])}); "
                     f"chosen {report['chosen']}")
    shares.set_xticks(xs)
    shares.legend(fontsize=8)
    lengths.plot(xs, [p["chars_median"] for p in points], marker="o", label="median")
    lengths.plot(xs, [p["chars_mean"] for p in points], marker="o", label="mean")
    lengths.axvline(report["chosen"], color="grey", linestyle="--")
    lengths.set(xlabel="quote budget (sentences)", ylabel="characters", title="answer length")
    lengths.set_xticks(xs)
    lengths.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
