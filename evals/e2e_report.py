"""Report an end-to-end run: headline figures, the dev and test parts side by side (and the gap
between them), deltas against the committed baseline, flips between repeated runs, and the
failing questions with their reasons.

A large dev-test gap means a change was tuned to the dev questions rather than learned. Baselines
written before the split existed have no split figures; their overall deltas still show, and the
split columns say there is nothing to compare with.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from evals.e2e_scoring import QuestionResult, failing, summarise
from evals.intervals import newcombe, rounded, wilson

BASELINE_DIR = Path(__file__).parent / "baselines"
DEFAULT_BASELINE = BASELINE_DIR / "e2e_offline.json"
# One committed baseline per set of corpora that is run on its own.
CORPUS_BASELINES: dict[frozenset[str], Path] = {
    frozenset({"real2"}): BASELINE_DIR / "e2e_real2_offline.json",
}
SPLIT_NAMES = ("dev", "test")
# The figures shown per split (issue 11's targets), in the order of the report.
SPLIT_METRICS: tuple[str, ...] = (
    "citation_expected_rate", "citation_correctness", "answerable_answered", "correct_refusals",
    "must_contain_all", "must_contain_rate", "retrieval_hit_rate", "unsupported_sentences",
    "guideline_violations",
)

# metric -> True when higher is better
HEADLINE: dict[str, bool] = {
    "citation_correctness": True,
    "answered": True,
    "refused": False,
    "blocked": False,
    "answerable_answered": True,
    "correct_refusals": True,
    "unsupported_sentences": False,
    "must_contain_rate": True,
    "must_contain_all": True,
    "guideline_violations": False,
    "retrieval_hit_rate": True,
    "latency_ms_p50": False,
    "latency_ms_p95": False,
    "judge_mean": True,
}
# Targets for the offline model on our golden set (issue 5).
TARGETS: dict[str, tuple[str, float]] = {
    "citation_correctness": (">=", 0.97),
    "correct_refusals": (">=", 1.0),
    "unsupported_sentences": ("<=", 0),
    "retrieval_hit_rate": (">=", 0.97),
}


class BaselineError(ValueError):
    pass


def default_baseline(corpora: Sequence[str]) -> Path:
    return CORPUS_BASELINES.get(frozenset(corpora), DEFAULT_BASELINE)


def split_summaries(results: Sequence[QuestionResult], split_by_id: Mapping[str, str | None]
                    ) -> dict[str, Any]:
    """{"dev": summary, "test": summary, "gap": {metric: dev - test}, "unsplit": n}; a part with no
    question asked is left out, and so is the gap then. Each part's shares carry their 95% Wilson
    intervals ("intervals"), the gap its Newcombe interval ("gap_intervals"), and "gaps_beyond_chance"
    names the shares whose gap interval excludes 0 (`evals.intervals`)."""
    out: dict[str, Any] = {}
    for name in SPLIT_NAMES:
        group = [r for r in results if split_by_id.get(r.id) == name]
        if group:
            out[name] = summarise(group)
            out[name]["intervals"] = {m: rounded(wilson(k, n)) for m, (k, n) in out[name]["fractions"].items()}
    if all(name in out for name in SPLIT_NAMES):
        out["gap"] = {m: _gap(out["dev"].get(m), out["test"].get(m)) for m in SPLIT_METRICS}
        dev, test = out["dev"]["fractions"], out["test"]["fractions"]
        out["gap_intervals"] = {m: rounded(newcombe(*dev[m], *test[m])) for m in dev if m in test}
        out["gaps_beyond_chance"] = [m for m, interval in out["gap_intervals"].items()
                                     if interval is not None and (interval[0] > 0 or interval[1] < 0)]
    out["unsplit"] = sum(1 for r in results if split_by_id.get(r.id) not in SPLIT_NAMES)
    return out


def _gap(dev: Any, test: Any) -> float | None:
    if isinstance(dev, int | float) and isinstance(test, int | float):
        return round(dev - test, 4)
    return None


def split_deltas(splits: Mapping[str, Any], baseline: Mapping[str, Any] | None) -> dict[str, Any]:
    """Per split, the deltas against the baseline's figures for that split, or None when the
    baseline has none (written before the split existed)."""
    base_splits = (baseline or {}).get("splits") or {}
    out: dict[str, Any] = {}
    for name in SPLIT_NAMES:
        if name not in splits:
            continue
        then = base_splits.get(name)
        out[name] = deltas(splits[name], {"summary": then}) if isinstance(then, Mapping) else None
    return out


def load_baseline(path: Path) -> dict[str, Any] | None:
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise BaselineError(f"{path}: not JSON ({exc.msg})") from exc
    if not isinstance(data, dict) or "summary" not in data:
        raise BaselineError(f"{path}: not an e2e baseline (no 'summary')")
    return data


def baseline_payload(summary: Mapping[str, Any], results: Sequence[QuestionResult],
                     golden_files: Sequence[str], chat_model: str, splits: Mapping[str, Any] | None = None,
                     corpora: Sequence[str] | None = None) -> dict[str, Any]:
    split_figures = {name: ({k: v for k, v in part.items() if k != "by_kind"} if isinstance(part, Mapping) else part)
                     for name, part in (splits or {}).items()}
    return {
        "written": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "chat_model": chat_model,
        "golden_files": list(golden_files),
        **({"corpora": list(corpora)} if corpora else {}),
        "summary": {k: v for k, v in summary.items() if k != "by_kind"},
        **({"splits": split_figures, "kind_gaps": kind_gaps(splits)} if splits else {}),
        "questions": {r.id: {"outcome": r.outcome, "passed": r.passed, "citation_ok": r.citation_ok,
                             "top_chunk": r.citations[0].chunk_id if r.citations else None}
                      for r in results},
    }


def write_baseline(path: Path, payload: Mapping[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload, indent=2, ensure_ascii=False, sort_keys=False) + "\n", encoding="utf-8")


def deltas(summary: Mapping[str, Any], baseline: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """metric -> {baseline, now, delta, better}; `better` is None when unchanged or not comparable."""
    base = (baseline or {}).get("summary", {})
    out: dict[str, dict[str, Any]] = {}
    for metric, higher_better in HEADLINE.items():
        now, then = summary.get(metric), base.get(metric)
        delta = round(now - then, 4) if isinstance(now, int | float) and isinstance(then, int | float) else None
        better = None if not delta else (delta > 0) == higher_better
        out[metric] = {"baseline": then, "now": now, "delta": delta, "better": better}
    return out


def question_changes(results: Sequence[QuestionResult], baseline: Mapping[str, Any] | None) -> dict[str, list[str]]:
    before = (baseline or {}).get("questions", {})
    fixed = [r.id for r in results if r.id in before and r.passed and not before[r.id]["passed"]]
    broken = [r.id for r in results if r.id in before and not r.passed and before[r.id]["passed"]]
    new = [r.id for r in results if r.id not in before]
    return {"newly_passing": fixed, "newly_failing": broken, "new_questions": new}


def target_check(summary: Mapping[str, Any]) -> dict[str, bool | None]:
    out: dict[str, bool | None] = {}
    for metric, (op, value) in TARGETS.items():
        now = summary.get(metric)
        out[metric] = None if now is None else (now >= value if op == ">=" else now <= value)
    return out


def report_object(summary: Mapping[str, Any], results: Sequence[QuestionResult],
                  baseline: Mapping[str, Any] | None, flipped: Mapping[str, Any] | None = None,
                  repeats: int = 1, extra: Mapping[str, Any] | None = None,
                  splits: Mapping[str, Any] | None = None) -> dict[str, Any]:
    split_part: dict[str, Any] = {}
    if splits is not None:
        split_part = {"splits": dict(splits), "split_deltas": split_deltas(splits, baseline),
                      "baseline_has_splits": bool((baseline or {}).get("splits")), "kind_gaps": kind_gaps(splits)}
    return {
        **summary,
        **split_part,
        "targets": target_check(summary),
        "deltas": deltas(summary, baseline),
        "question_changes": question_changes(results, baseline),
        "repeats": repeats,
        "flips": {qid: [list(s) for s in sigs] for qid, sigs in (flipped or {}).items()},
        "failing": failing(results),
        "questions": [r.to_dict() for r in results],
        **(extra or {}),
    }


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float) and abs(value) <= 1.0 and value != int(value):
        return f"{value:.1%}"
    return str(value)


def print_report(console: Console, report: Mapping[str, Any], show_questions: bool = False) -> None:
    table = Table(title="End-to-end evaluation", show_lines=False)
    table.add_column("metric")
    table.add_column("now", justify="right")
    table.add_column("baseline", justify="right")
    table.add_column("delta", justify="right")
    table.add_column("target", justify="right")
    targets = report.get("targets", {})
    for metric, d in report["deltas"].items():
        delta = d["delta"]
        style = "" if d["better"] is None else ("green" if d["better"] else "red")
        delta_text = "-" if delta is None else (f"{delta:+.1%}" if isinstance(delta, float) and abs(delta) < 1
                                                else f"{delta:+g}")
        target = TARGETS.get(metric)
        met = targets.get(metric)
        target_text = "" if target is None else f"{target[0]} {_fmt(target[1])} " + ("ok" if met else "MISSED")
        table.add_row(metric, _fmt(d["now"]), _fmt(d["baseline"]), f"[{style}]{delta_text}[/]" if style else delta_text,
                      target_text)
    console.print(table)
    if report.get("splits"):
        print_splits(console, report)
    counts = report.get("counts", {})
    console.print(f"questions {report['question_count']} (answerable {report['answerable']}, unanswerable "
                  f"{report['unanswerable']}); outcomes {dict(counts)}; passed {report['passed']}; "
                  f"first token p50 {report.get('first_token_ms_p50')} ms")
    if report.get("violations_by_kind"):
        console.print(f"guideline violations by kind: {report['violations_by_kind']}")
    changes = report.get("question_changes", {})
    for key in ("newly_failing", "newly_passing"):
        if changes.get(key):
            console.print(f"{key.replace('_', ' ')}: {', '.join(changes[key])}")
    if report.get("repeats", 1) > 1:
        flips = report.get("flips", {})
        console.print(f"{report['repeats']} runs: {len(flips)} question(s) flipped"
                      + (f": {', '.join(flips)}" if flips else " (results reproduce)"))
    for item in report.get("failing", []):
        console.print(f"[red]FAIL[/] {item['id']}: " + " | ".join(item["why"]))
    if show_questions:
        q_table = Table(title="questions")
        for col in ("id", "outcome", "cite", "must", "retr", "ms"):
            q_table.add_column(col)
        for q in report["questions"]:
            q_table.add_row(q["id"], q["outcome"], _fmt(q["citation_ok"]), _fmt(q["must_contain_ok"]),
                            _fmt(q["retrieval_hit"]), f"{q['latency_ms']:.0f}")
        console.print(q_table)


SPLIT_LABELS: dict[str, str] = {
    "citation_expected_rate": "right page cited",  # of answered answerable questions
    "citation_correctness": "cites verified",
    "answerable_answered": "answered",  # of answerable questions
    "correct_refusals": "unanswerable refused",
    "must_contain_all": "key facts all",
    "must_contain_rate": "key facts each",
    "retrieval_hit_rate": "retrieval top 10",
    "unsupported_sentences": "unsupported",
    "guideline_violations": "violations",
}
_COUNTS = {"unsupported_sentences", "guideline_violations"}


def _split_cell(metric: str, value: Any, signed: bool = False) -> str:
    if value is None:
        return "-"
    if metric in _COUNTS:
        return f"{value:+g}" if signed else f"{value:g}"
    return f"{value:+.1%}" if signed else f"{value:.1%}"


def print_intervals(console: Console, splits: Mapping[str, Any], parts: Sequence[str]) -> None:
    """Each share's count and 95% interval per part, and the gap's interval: how much the figures
    above can be trusted on this many questions (`evals.intervals`)."""
    if not any(splits[name].get("fractions") for name in parts):
        return
    table = Table(title="95% intervals (Wilson; gap: Newcombe)")
    table.add_column("metric", no_wrap=True)
    for name in parts:
        table.add_column(name, justify="right", no_wrap=True)
    if "gap_intervals" in splits:
        table.add_column("gap", justify="right", no_wrap=True)

    def span(interval: Sequence[float] | None, signed: bool = False) -> str:
        if not interval:
            return "-"
        return f"{interval[0]:+.0%} to {interval[1]:+.0%}" if signed else f"{interval[0]:.0%}-{interval[1]:.0%}"

    for metric in SPLIT_METRICS:
        if metric not in (splits[parts[0]].get("fractions") or {}):
            continue
        row = [SPLIT_LABELS[metric]]
        for name in parts:
            k, n = splits[name]["fractions"][metric]
            row.append(f"{k}/{n} {span(splits[name]['intervals'][metric])}")
        if "gap_intervals" in splits:
            row.append(span(splits["gap_intervals"].get(metric), signed=True))
        table.add_row(*row)
    console.print(table)


def kind_gaps(splits: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """Questions passed per kind in dev and in test, widest gap first: where a gap opens is where
    changes were fitted to the dev questions of one kind rather than learned (empty without both parts).
    Each gap carries its 95% interval; "beyond_chance" where it excludes 0 (a dozen questions a kind
    rarely tell)."""
    parts = {name: (splits or {}).get(name) for name in SPLIT_NAMES}
    if not all(isinstance(part, Mapping) and part.get("by_kind") for part in parts.values()):
        return []
    dev, test = (parts[name]["by_kind"] for name in SPLIT_NAMES)  # type: ignore[index]
    rows = []
    for kind in sorted(set(dev) | set(test)):
        d, t = dev.get(kind, {}), test.get(kind, {})
        dev_share = d["passed"] / d["questions"] if d.get("questions") else None
        test_share = t["passed"] / t["questions"] if t.get("questions") else None
        interval = newcombe(d.get("passed", 0), d.get("questions", 0), t.get("passed", 0), t.get("questions", 0))
        rows.append({"kind": kind, "dev": f"{d.get('passed', 0)}/{d.get('questions', 0)}",
                     "test": f"{t.get('passed', 0)}/{t.get('questions', 0)}",
                     "gap": None if dev_share is None or test_share is None else round(dev_share - test_share, 4),
                     "gap_interval": rounded(interval),
                     "beyond_chance": interval is not None and (interval[0] > 0 or interval[1] < 0)})
    return sorted(rows, key=lambda r: (r["gap"] is None, -(r["gap"] or 0.0), r["kind"]))


def print_splits(console: Console, report: Mapping[str, Any]) -> None:
    """dev and test side by side, the gap, and each part's delta against the baseline."""
    splits = report["splits"]
    parts = [n for n in SPLIT_NAMES if n in splits]
    if not parts:
        return
    has_base = bool(report.get("baseline_has_splits"))
    split_d = report.get("split_deltas", {})
    table = Table(title="dev / test: tune on dev, report test")
    table.add_column("metric", no_wrap=True)
    table.add_column("all", justify="right", no_wrap=True)
    for name in parts:
        table.add_column(name, justify="right", no_wrap=True)
    if "gap" in splits:
        table.add_column("gap", justify="right", no_wrap=True)
    if has_base:
        for name in parts:
            table.add_column(f"Δ{name}", justify="right", no_wrap=True)
    for metric in SPLIT_METRICS:
        row = [SPLIT_LABELS[metric], _split_cell(metric, report.get(metric))]
        row += [_split_cell(metric, splits[name].get(metric)) for name in parts]
        if "gap" in splits:
            beyond = metric in splits.get("gaps_beyond_chance", ())
            row.append(_split_cell(metric, splits["gap"].get(metric), signed=True) + (" *" if beyond else ""))
        if has_base:
            for name in parts:
                d = (split_d.get(name) or {}).get(metric)
                row.append(_split_cell(metric, d["delta"] if d else None, signed=True))
        table.add_row(*row)
    console.print(table)
    console.print(", ".join(f"{name} {splits[name]['question_count']} questions" for name in parts)
                  + ("; gap = dev - test, * where its 95% interval excludes 0: beyond chance, so a change was "
                     "tuned to dev rather than learned" if "gap" in splits else ""))
    print_intervals(console, splits, parts)
    gaps = kind_gaps(splits)
    if gaps:
        by_kind = Table(title="passed by kind, dev / test (widest gap first)")
        for column in ("kind", "dev", "test", "gap"):
            by_kind.add_column(column, justify="left" if column == "kind" else "right", no_wrap=True)
        for row in gaps:
            gap = "-" if row["gap"] is None else f"{row['gap']:+.0%}" + (" *" if row.get("beyond_chance") else "")
            by_kind.add_row(row["kind"], row["dev"], row["test"], gap)
        console.print(by_kind)
    if not has_base:
        console.print("baseline has no split figures (written before the dev/test split); "
                      "only the overall deltas compare")
    if splits.get("unsplit"):
        console.print(f"{splits['unsplit']} question(s) without a split count only in 'all'")
