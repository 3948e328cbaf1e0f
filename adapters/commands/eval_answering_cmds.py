"""`rulebook eval answering` (ObliQA answered through the assistant, normal and exclusion views)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from adapters.commands import obliqa_options as obliqa


def eval_answering(
    questions: obliqa.Questions = None,
    documents: obliqa.Documents = None,
    split: Annotated[str, typer.Option("--split", help="dev | test | all (our own halves of ObliQA dev)")] = "all",
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="A sample: the first N questions "
                                                                    "in SHA-1 order.")] = None,
    documents_limit: obliqa.DocumentsLimit = None,
    only_cached: obliqa.OnlyCached = False,
    view: Annotated[str, typer.Option("--view", help="normal | excluded | both")] = "both",
    as_json: obliqa.AsJson = False,
    cases: Annotated[bool, typer.Option("--cases/--no-cases", help="Include every question's outcome in --json.")] = True,
    calibration: Annotated[bool, typer.Option(
        "--calibration", help="Answer/refuse thresholds at 0, so `eval calibrate` can replay any threshold.")] = False,
) -> None:
    """ObliQA through the assistant: answered share, gold passage cited, refusal with gold documents hidden."""
    from config.settings import get_settings
    from evals.answering import COLLECTION, run, sample, subset_answering_collection
    from knowledge.embedding_cache import load_cached_encoder

    if split not in ("dev", "test", "all"):
        raise typer.BadParameter("use dev, test or all", param_hint="--split")
    views = {"normal": ("normal",), "excluded": ("excluded",), "both": ("normal", "excluded")}.get(view)
    if views is None:
        raise typer.BadParameter("use normal, excluded or both", param_hint="--view")
    settings = get_settings()
    chunks, qs = obliqa.load(documents, questions)
    collection = COLLECTION
    subset = None
    if only_cached or documents_limit:
        model_id = load_cached_encoder(settings).model_id
        chunks, qs, chosen, everything = obliqa.subset(chunks, qs, settings.embedding_cache_path, model_id,
                                                       only_cached, documents_limit)
        collection = subset_answering_collection(chosen)
        subset = {"documents": chosen, "of_documents": len(everything), "passages": len(chunks),
                  "selected_by": "only-cached" if only_cached else f"documents-limit {documents_limit}"}
    qs = sample(qs, split, limit)
    total_chunks = len(chunks)

    def index_progress(done: int) -> None:
        print(f"\rembedding/indexing passages: {done}/{total_chunks}", end="", file=sys.stderr, flush=True)

    def progress(done: int, total: int, outcome: str) -> None:
        print(f"\rasking: {done}/{total} ({outcome})      ", end="", file=sys.stderr, flush=True)

    report = run(settings, chunks, qs, collection, views, progress=progress, index_progress=index_progress,
                 calibration=calibration)
    print(file=sys.stderr)
    report.update({"split": split, "limit": limit, "subset": subset})
    if not cases:
        report.pop("cases")
    if as_json:
        typer.echo(json.dumps(report, indent=2))
        return
    typer.echo(f"ObliQA answering: {len(qs)} questions ({split}), {report['documents']} documents, "
               f"{report['passages']} passages{' (SUBSET)' if subset else ''}, {report['seconds']} s")
    typer.echo(f"{'':<34}{'dev':>10}{'test':>10}")
    rows = [("answered share", "answered_share"), ("gold passage cited (of answered)", "gold_cited_of_answered"),
            ("refused, gold documents hidden", "refused_when_excluded"),
            ("  … not counting 'elsewhere'", "refused_when_excluded_not_counting_elsewhere"),
            ("answered elsewhere (listed)", "also_answered_elsewhere")]
    for label, key in rows:
        cells = [report["splits"][s].get(key) for s in ("dev", "test")]
        typer.echo(f"{label:<34}" + "".join(f"{'—' if v is None else v:>10}" for v in cells))
    for key, label in (("answered_share", "answered"), ("gold_cited_of_answered", "gold cited"),
                       ("refused_when_excluded", "refused, hidden")):
        spans = [(report["splits"][s].get("intervals") or {}).get(key) for s in ("dev", "test")]
        typer.echo(f"  95% interval, {label:<18}" + "".join(
            f"{'—' if v is None else f'{v[0]:.2f}-{v[1]:.2f}':>10}" for v in spans))
    typer.echo(f"must-contain: {report['must_contain']}")


def eval_exclusion(
    golden: Annotated[list[Path] | None, typer.Option("--golden", help="golden JSONL file(s); default "
                                                                       "evals/golden/e2e_*.jsonl")] = None,
    corpus: Annotated[str, typer.Option("--corpus", help="comma-separated: sample, real, real2; or all")] = "real",
    split: Annotated[str, typer.Option("--split", help="dev | test | all (the golden lines' `split`)")] = "all",
    real_pdfs: Annotated[Path | None, typer.Option("--real-pdfs", help="folder of public PDFs")] = None,
    limit: Annotated[int | None, typer.Option("--limit", min=1)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as one JSON object.")] = False,
    calibration: Annotated[bool, typer.Option(
        "--calibration", help="Thresholds at 0 and the questions asked as is too, for `eval calibrate`.")] = False,
) -> None:
    """Golden questions asked with their expected rulebooks hidden from the caller: all should be refused."""
    import asyncio

    from rich.console import Console

    from adapters.commands.eval_e2e_cmds import corpora_of
    from config.settings import get_settings
    from evals.e2e_golden import GoldenFormatError, load_golden
    from evals.exclusion import summarise

    corpora = corpora_of(corpus)
    try:
        questions = load_golden(golden)
    except GoldenFormatError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    questions = [q for q in questions if q.corpus in corpora]
    if split != "all":
        questions = [q for q in questions if (getattr(q, "split", None) or "unsplit") == split]
    questions = questions[:limit] if limit else questions
    err = Console(stderr=True)
    cases, skipped = asyncio.run(_exclusion(questions, get_settings(), real_pdfs, err, calibration))
    from dataclasses import asdict

    report = {"benchmark": "golden questions, expected rulebooks hidden (refusal by exclusion)",
              "calibration_run": calibration,
              "splits": summarise(cases), "skipped": skipped, "cases": [asdict(c) for c in cases]}
    if as_json:
        typer.echo(json.dumps(report, indent=2, ensure_ascii=False))
        return
    for reason in skipped:
        err.print(f"skipped: {reason}")
    for name, row in report["splits"].items():
        interval = row.get("refused_interval")
        typer.echo(f"{name}: refused {row['refused']}/{row['questions']} ({row['refused_share']}"
                   + (f", 95% interval {interval[0]:.1%}-{interval[1]:.1%}" if interval else "") + ")")
    for c in cases:
        if c.outcome == "answered":
            typer.echo(f"  answered {c.question_id} (hidden {', '.join(c.hidden)}) citing {', '.join(c.cited)}")


async def _exclusion(questions, settings, real_pdfs, err, calibration=False):
    from evals.e2e_corpus import prepare_contexts
    from evals.exclusion import run_exclusion

    cases = []
    corpora = sorted({q.corpus for q in questions})
    async with prepare_contexts(settings, corpora, real_pdfs, err) as (contexts, skipped):
        for name, ctx in contexts.items():
            group = [q for q in questions if q.corpus == name]
            done = [0]

            def progress(q, group=group, done=done, name=name) -> None:
                done[0] += 1
                print(f"\rexclusion {name}: {done[0]} asked, {q.id}      ", end="", file=sys.stderr, flush=True)

            views = ("normal", "excluded") if calibration else ("excluded",)
            cases += await run_exclusion(group, ctx.knowledge, ctx.settings, progress, calibration, views)
            print(file=sys.stderr)
    return cases, skipped


def eval_calibrate(
    answering: Annotated[list[Path] | None, typer.Option(
        "--answering", help="`eval answering --calibration --json` report(s)")] = None,
    exclusion: Annotated[list[Path] | None, typer.Option("--exclusion", help="`eval exclusion --calibration --json` "
                                                                            "report(s)")] = None,
    e2e: Annotated[list[Path] | None, typer.Option("--e2e", help="`eval e2e --calibration --json` report(s) "
                                                               "(golden sets, unanswerable questions included)")] = None,
    out: Annotated[Path, typer.Option("--out", help="where the chosen values and the curve go (.json; the plot "
                                                    "beside it as .png)")] = Path("evals/baselines/calibration_offline.json"),
    compare: Annotated[str | None, typer.Option(
        "--compare", help="the values shown as 'current': min_dense,min_lexical[,min_dense_other_language"
                          "[,min_dense_disagree]], e.g. 0.83,0.5, without coverage bars (default: the values in "
                          "bot.offline.span_scoring, coverage bars included)")] = None,
    sweep_all: Annotated[bool, typer.Option(
        "--sweep-all", help="sweep every bar (default: the bars calibrated before stay; only the checks "
                            "not on yet are swept at them)")] = False,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Sweep the offline model's answer/refuse thresholds over the DEV cases of calibration runs."""
    from bot.offline.span_scoring import MIN_DENSE, MIN_DENSE_DISAGREE, MIN_DENSE_OTHER_LANGUAGE, MIN_LEXICAL
    from bot.offline.subject_phrases import MIN_MISSING_PHRASES, PHRASE_MAX_SHARE, PHRASE_SCOPE
    from bot.offline.subject_terms import SUBJECT_MAX_HEADINGS, SUBJECT_MAX_SHARE, SUBJECT_SCOPE
    from evals.calibration import Bar, calibrate, current_bar

    answering, exclusion, e2e = answering or [], exclusion or [], e2e or []
    try:
        if not (answering or exclusion or e2e):
            raise ValueError("give at least one --answering, --exclusion or --e2e report")
        reports_a = [json.loads(p.read_text(encoding="utf-8")) for p in answering]
        reports_x = [json.loads(p.read_text(encoding="utf-8")) for p in exclusion]
        reports_e = [json.loads(p.read_text(encoding="utf-8")) for p in e2e]
        for path, report in zip([*answering, *exclusion, *e2e], [*reports_a, *reports_x, *reports_e], strict=True):
            if not report.get("calibration_run"):
                raise ValueError(f"{path} is not a --calibration run (thresholds were not at 0)")
        values = [float(x) for x in compare.split(",")] if compare else [
            MIN_DENSE, MIN_LEXICAL, MIN_DENSE_OTHER_LANGUAGE, *([MIN_DENSE_DISAGREE] if MIN_DENSE_DISAGREE else [])]
        if len(values) not in (2, 3, 4, 5):
            raise ValueError("--compare takes two to five numbers: "
                             "min_dense,min_lexical[,min_dense_other_language[,min_dense_disagree[,min_dense_slot]]]")
        # the code's own bars and checks, unless --compare gives other values (then without coverage
        # bars, but the value-kind bar when given as a fifth number)
        current = current_bar() if not compare else Bar(
            values[0], values[1], values[2] if len(values) >= 3 else MIN_DENSE_OTHER_LANGUAGE,
            values[3] if len(values) >= 4 else None, values[4] if len(values) == 5 else None, None, None,
            SUBJECT_MAX_SHARE, SUBJECT_MAX_HEADINGS, None, SUBJECT_SCOPE, None, PHRASE_MAX_SHARE, PHRASE_SCOPE,
            min_missing_phrases=MIN_MISSING_PHRASES, max_missing_neutral=None, min_dense_defining=None)
        result = calibrate(reports_a, reports_x, out, out.with_suffix(".png"), current, e2e=reports_e,
                           sweep_all=sweep_all)
    except (OSError, ValueError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    if as_json:
        typer.echo(json.dumps({k: v for k, v in result.items() if k != "curve"}, indent=2))
        return
    typer.echo(f"dev cases: {result['dev_signals']}")
    for name in ("current", "chosen", "test_at_current", "test_at_chosen"):
        p = result[name]
        if p is None:
            continue
        typer.echo(f"{name:>15}: min_dense {p['min_dense']} (disagreeing {p['min_dense_disagree']}) min_lexical "
                   f"{p['min_lexical']} other-language {p['min_dense_other_language']} slot {p.get('min_dense_slot')} "
                   f"uncovered {p.get('max_uncovered')} subject {p.get('max_missing_subject')}"
                   f"@{p.get('subject_max_share')}/{p.get('subject_max_headings')} value gap {p.get('max_slot_gap')}"
                   f" phrase {p.get('min_dense_phrase')}@{p.get('phrase_max_share')}/{p.get('phrase_scope')}"
                   f" neutral {p.get('max_missing_neutral')} defining {p.get('min_dense_defining')}"
                   f"  F1 {p['f1']}  answered {p['answered_share']}  right of "
                   f"answered {p['right_of_answered']}  refused when excluded {p['refused_when_excluded']}  "
                   f"refused unanswerable {p['refused_unanswerable']}  must-contain {p['must_contain']}")
    typer.echo(f"written: {out} and {out.with_suffix('.png')}")


def eval_decision(
    answering: Annotated[list[Path] | None, typer.Option(
        "--answering", help="`eval answering --calibration --json` report(s)")] = None,
    exclusion: Annotated[list[Path] | None, typer.Option("--exclusion", help="`eval exclusion --calibration --json` "
                                                                            "report(s)")] = None,
    e2e: Annotated[list[Path] | None, typer.Option("--e2e", help="`eval e2e --calibration --json` report(s)")] = None,
    out: Annotated[Path, typer.Option("--out", help="where the fit and its figures go (.json; the plot beside it "
                                                    "as .png)")] = Path("evals/baselines/decision_fit.json"),
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Fit a logistic answer/refuse decision over the recorded signals on the DEV cases of calibration runs
    and compare it with today's hand-set bars (test halves only scored); the bars stay unless it beats them on dev."""
    from evals.calibration import current_bar
    from evals.decision_fit import fit_decision, plot

    try:
        reports = [[json.loads(p.read_text(encoding="utf-8")) for p in paths or []]
                   for paths in (answering, exclusion, e2e)]
        if not any(reports):
            raise ValueError("give at least one --answering, --exclusion or --e2e report")
        for path, report in zip([*(answering or []), *(exclusion or []), *(e2e or [])],
                                [r for group in reports for r in group], strict=True):
            if not report.get("calibration_run"):
                raise ValueError(f"{path} is not a --calibration run (thresholds were not at 0)")
        result = fit_decision(*reports, rule=current_bar())
    except (OSError, ValueError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    plot(result, out.with_suffix(".png"))
    if as_json:
        typer.echo(json.dumps({k: v for k, v in result.items() if not k.startswith("curve")}, indent=2))
        return
    typer.echo(f"dev cases: {result['dev_cases']}; L2 {result['chosen_strength']}, threshold {result['threshold']}, "
               f"dev cross-validated F1 {result['dev_cross_validated_f1']}")
    keys = ("f1", "precision", "recall", "answered_share", "refused_when_excluded", "refused_unanswerable")
    for name in ("dev", "dev_by_rule", "test", "test_by_rule"):
        if result[name] is not None:
            typer.echo(f"{name:>13}: " + "  ".join(f"{k} {result[name][k]}" for k in keys))
    typer.echo(f"replaces the bars: {result['replaces_the_bars']} (cross-validated F1 against the bars' dev F1); "
               f"written: {out} (+ .png)")


def register(app: typer.Typer, eval_app: typer.Typer) -> None:
    eval_app.command("calibrate")(eval_calibrate)
    eval_app.command("decision")(eval_decision)
    eval_app.command("answering")(eval_answering)
    eval_app.command("exclusion")(eval_exclusion)
