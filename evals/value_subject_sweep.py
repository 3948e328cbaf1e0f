"""The value-subject bar (`bot.offline.value_subject.MAX_SHARE`), swept on dev cases.

A question asking for money, a duration or a count is refused when the values its answer quotes come
only from passages outside the evidence weighed that hold no subject term of the question at most
`MAX_SHARE` of the chunks hold. Every case of the calibration runs (`--calibration`: bars at 0, the
answer composed) records how far its values are (`Decision.value_subject`), so any bar replays without
asking again: at each bar of the grid, today's other bars and checks decide the rest (`current_bar`).

The rule: the bar with the best dev F1 (`evals.calibration.figures`); among bars within `MIN_F1_GAIN`
of it, the one refusing the fewest dev answers (the largest share is the loosest check); and off when
the check changes fewer than `MIN_CASES_CHANGED` dev outcomes against no check. Test cases are scored
for the record, never chosen on.

    python -m evals.value_subject_sweep --answering ans_dev_cal.json --exclusion excl_real2_cal.json \\
        --e2e e2e_real2_cal.json --e2e e2e_sr_cal.json --out evals/baselines/value_subject.json
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer

from bot.offline.value_subject import MAX_SHARE, about_subject
from evals.calibration import (
    MIN_CASES_CHANGED,
    MIN_F1_GAIN,
    Signal,
    all_signals,
    answered_at,
    current_bar,
    figures,
)

GRID: tuple[float | None, ...] = (None, 0.002, 0.005, 0.01, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0)
def at_bar(signals: Sequence[Signal], bar: float | None) -> list[Signal]:
    """The signals as the check at `bar` would leave them: an answer whose values are too far from the
    subject counts as one quoting no value (the measure itself is dropped, so the module's own bar, when
    it has one, does not decide again)."""
    return [s if s.value_subject is None
            else replace(s, value_subject=None, value_quoted=s.value_quoted and about_subject(s.value_subject, bar))
            for s in signals]


def sweep(dev: Sequence[Signal], test: Sequence[Signal]) -> dict[str, Any]:
    today = current_bar()
    points = []
    answered_off = [answered_at(s, today) for s in at_bar(dev, None)]
    for bar in GRID:
        d, t = at_bar(dev, bar), at_bar(test, bar)
        answered = [answered_at(s, today) for s in d]
        points.append({"max_share": bar, "changed_dev": sum(a != b for a, b in zip(answered, answered_off, strict=True)),
                       "dev": figures(d, lambda s: answered_at(s, today)),
                       "test": figures(t, lambda s: answered_at(s, today))})
    best = max(p["dev"]["f1"] for p in points)
    near = [p for p in points if p["dev"]["f1"] >= best - MIN_F1_GAIN and p["max_share"] is not None]
    chosen = max(near, key=lambda p: p["max_share"])["max_share"] if near else None
    if chosen is not None and next(p for p in points if p["max_share"] == chosen)["changed_dev"] < MIN_CASES_CHANGED:
        chosen = None
    return {"rule": __doc__.split("\n\n")[2].replace("\n", " "), "today": MAX_SHARE, "chosen": chosen,
            "dev_cases": len(dev), "test_cases": len(test), "points": points}


def plot(report: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    points = [p for p in report["points"] if p["max_share"] is not None]
    xs = [p["max_share"] for p in points]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for key, label in (("f1", "F1"), ("answered_share", "answered (of answerable)"),
                       ("refused_unanswerable", "unanswerable refused"),
                       ("refused_when_excluded", "refused with the gold hidden")):
        line = ax.plot(xs, [p["dev"][key] for p in points], marker="o", label=f"dev {label}")[0]
        ax.plot(xs, [p["test"][key] for p in points], linestyle="--", color=line.get_color(), label=f"test {label}")
    off = report["points"][0]["dev"]
    ax.axhline(off["f1"], color="grey", linewidth=0.8, label="dev F1 without the check")
    if report["chosen"] is not None:
        ax.axvline(report["chosen"], color="grey", linestyle=":")
    ax.set(xscale="log", xlabel="subject term share of the chunks (MAX_SHARE)", ylabel="share",
           title=f"value-subject bar: {report['dev_cases']} dev cases; chosen {report['chosen']}")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(answering: Annotated[list[Path], typer.Option()] = [],  # noqa: B006
         exclusion: Annotated[list[Path], typer.Option()] = [],  # noqa: B006
         e2e: Annotated[list[Path], typer.Option()] = [],  # noqa: B006
         out: Annotated[Path, typer.Option()] = Path("evals/baselines/value_subject.json")) -> None:
    def load(paths: list[Path]) -> list[dict[str, Any]]:
        return [json.loads(p.read_text()) for p in paths]

    reports = load(answering), load(exclusion), load(e2e)
    report = sweep(all_signals(*reports, "dev"), all_signals(*reports, "test"))
    report = {"command": "python -m evals.value_subject_sweep " + " ".join(
        f"--{flag} {p.name}" for flag, paths in (("answering", answering), ("exclusion", exclusion), ("e2e", e2e))
        for p in paths) + " (the `--calibration` runs of a final recording)", **report}
    out.write_text(json.dumps(report, indent=1) + "\n")
    plot(report, out.with_suffix(".png"))
    for p in report["points"]:
        print(f"{p['max_share']!s:>6}  changed {p['changed_dev']:3d}  dev F1 {p['dev']['f1']:.4f} "
              f"unans {p['dev']['refused_unanswerable']} excl {p['dev']['refused_when_excluded']} "
              f"answered {p['dev']['answered_share']}  | test F1 {p['test']['f1']:.4f} "
              f"unans {p['test']['refused_unanswerable']} answered {p['test']['answered_share']}")
    print(f"chosen: {report['chosen']} (today {report['today']}); {out}")


if __name__ == "__main__":
    typer.run(main)
