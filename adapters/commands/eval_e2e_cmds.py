"""`rulebook eval e2e` and `rulebook eval personas`: the end-to-end evaluation (see evals/)."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer


def register(app: typer.Typer, eval_app: typer.Typer) -> None:
    eval_app.command("e2e")(eval_e2e)
    eval_app.command("personas")(eval_personas)
    eval_app.command("quotes")(eval_quotes)
    eval_app.command("elements")(eval_elements)


GoldenOpt = Annotated[list[Path] | None, typer.Option("--golden", help="golden JSONL file(s); default evals/golden/e2e_*.jsonl")]
CORPORA = ("sample", "real", "real2")
# The corpora of the committed baseline (evals/baselines/e2e_offline.json). "real2" (~560 pages,
# slow to index with the default embedder) runs when asked for by name or with "all".
DEFAULT_CORPORA = "sample,real"
CorpusOpt = Annotated[str, typer.Option("--corpus", help="comma-separated: sample, real, real2; or all "
                                                         f"(default {DEFAULT_CORPORA})")]
SplitOpt = Annotated[str, typer.Option("--split", help="dev | test | all: which part of the golden sets to ask "
                                                       "(the report shows dev and test side by side)")]
RealOpt = Annotated[Path | None, typer.Option("--real-pdfs", help="folder of public PDFs (default ../shared/corpora/real-pdfs)")]
Real2Opt = Annotated[Path | None, typer.Option("--real2-pdfs",
                                               help="folder of the real2 PDFs (default ../shared/corpora/real-pdfs-2)")]
OnlyOpt = Annotated[list[str] | None, typer.Option("--only", help="run only these question ids")]


def corpora_of(corpus: str) -> list[str]:
    names = list(CORPORA) if corpus.strip() == "all" else [c.strip() for c in corpus.split(",") if c.strip()]
    unknown = [c for c in names if c not in CORPORA]
    if not names or unknown:
        raise typer.BadParameter(f"unknown corpus {', '.join(unknown) or repr(corpus)}; use "
                                 f"{', '.join(CORPORA)} (comma-separated) or all", param_hint="--corpus")
    return names


def _select(golden: list[Path] | None, corpus: str, only: list[str] | None, limit: int | None,
            split: str = "all"):
    from evals.e2e_golden import GoldenFormatError, load_golden

    corpora = corpora_of(corpus)
    if split not in ("dev", "test", "all"):
        raise typer.BadParameter("use dev, test or all", param_hint="--split")
    try:
        questions = load_golden(golden)
    except GoldenFormatError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    corpus_of = {q.id: q.corpus for q in questions}
    questions = [q for q in questions if q.corpus in corpora]
    if only:
        wanted = set(only)
        missing = wanted - {q.id for q in questions}
        if missing:
            elsewhere = sorted({corpus_of[i] for i in missing if i in corpus_of})
            hint = f" in corpus {', '.join(corpora)} (they are in {', '.join(elsewhere)}: use --corpus)" if elsewhere else ""
            typer.echo(f"error: no such question id(s){hint}: {', '.join(sorted(missing))}", err=True)
            raise typer.Exit(2)
        questions = [q for q in questions if q.id in wanted]
    if split != "all":
        questions = [q for q in questions if q.split == split]
        if not questions:
            typer.echo(f"error: no {split} question among those selected", err=True)
            raise typer.Exit(2)
    return questions[:limit] if limit else questions


def eval_e2e(
    repeat: Annotated[int, typer.Option("--repeat", min=1, help="run the set N times and report flips")] = 1,
    persona: Annotated[str | None, typer.Option("--persona", help="ask every question as this persona")] = None,
    golden: GoldenOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    corpus: CorpusOpt = DEFAULT_CORPORA,
    split: SplitOpt = "all",
    only: OnlyOpt = None,
    limit: Annotated[int | None, typer.Option("--limit", min=1)] = None,
    baseline: Annotated[Path | None, typer.Option(
        "--baseline", help="baseline to compare with (default: the committed one for these corpora)")] = None,
    write_baseline: Annotated[bool, typer.Option("--write-baseline", help="store this run as the baseline")] = False,
    real_pdfs: RealOpt = None,
    real2_pdfs: Real2Opt = None,
    show_questions: Annotated[bool, typer.Option(
        "--show-questions", help="Also print one row per question: outcome, citation, must-contain, "
                                 "retrieval hit, latency")] = False,
    calibration: Annotated[bool, typer.Option(
        "--calibration", help="Thresholds at 0 and each question's decision signals recorded, for "
                              "`eval calibrate --e2e` (not a baseline: every question is answered)")] = False,
) -> None:
    """Ask the golden questions through the assistant and score citations, refusals and guidelines."""
    from rich.console import Console

    from config.settings import get_settings
    from evals.e2e_report import (
        BaselineError,
        baseline_payload,
        default_baseline,
        load_baseline,
        print_report,
        report_object,
        split_summaries,
    )
    from evals.e2e_report import write_baseline as store_baseline
    from evals.personas import UnknownPersonaError
    from evals.personas import persona as lookup_persona

    if persona is not None:
        try:
            lookup_persona(persona)
        except UnknownPersonaError as exc:
            raise typer.BadParameter(str(exc), param_hint="--persona") from exc
    if calibration and write_baseline:
        raise typer.BadParameter("a calibration run answers everything: it is no baseline",
                                 param_hint="--write-baseline")
    questions = _select(golden, corpus, only, limit, split)
    settings = get_settings()
    err = Console(stderr=True)
    baseline_path = baseline or default_baseline(corpora_of(corpus))
    try:
        base = load_baseline(baseline_path)
    except BaselineError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    suite, skipped = asyncio.run(_run(questions, settings, repeat, persona, real_pdfs, err, real2_pdfs,
                                      calibration))
    summary = suite.summary()
    splits = split_summaries(suite.results, {q.id: q.split for q in questions})
    report = report_object(summary, suite.results, base, suite.flips(), repeat,
                           extra={"skipped": skipped, "persona": persona, "chat_model": settings.chat_model,
                                  "baseline_file": str(baseline_path), "split_asked": split,
                                  "calibration_run": calibration,
                                  "split_of": {q.id: q.split for q in questions}},
                           splits=splits)
    if as_json:
        sys.stdout.write(json.dumps(report, ensure_ascii=False, default=str) + "\n")
    else:
        for reason in skipped:
            err.print(f"[yellow]skipped:[/] {reason}")
        print_report(Console(), report, show_questions)
    if write_baseline:
        files = [str(p) for p in (golden or [])] or ["evals/golden/e2e_*.jsonl"]
        store_baseline(baseline_path, baseline_payload(summary, suite.results, files, settings.chat_model,
                                                       splits=splits, corpora=corpora_of(corpus)))
        err.print(f"baseline written to {baseline_path}")


async def _run(questions, settings, repeat, persona, real_pdfs, err, real2_pdfs=None, calibration=False):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from evals.e2e_corpus import prepare_contexts
    from evals.e2e_judge import Judge
    from evals.e2e_runner import RunOptions
    from evals.e2e_suite import run_suite

    corpora = sorted({q.corpus for q in questions})
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True) as progress:
        async with prepare_contexts(settings, corpora, real_pdfs, err, real2_pdfs) as (contexts, skipped):
            task = progress.add_task("asking", total=len([q for q in questions if q.corpus in contexts]) * repeat)
            options = RunOptions(persona=persona, judge=Judge.from_settings(settings),
                                 decisions=[] if calibration else None)
            suite = await run_suite(questions, contexts, repeat, options,
                                    progress=lambda q: progress.update(task, advance=1, description=q.id))
    return suite, skipped


def eval_quotes(
    corpus: CorpusOpt = "real2,sample,real",
    budgets: Annotated[str, typer.Option("--budgets", help="comma-separated quote budgets to sweep")] = "2,3,4,5,6",
    golden: GoldenOpt = None,
    out: Annotated[Path, typer.Option("--out", help="the sweep as JSON, its curve beside it (.png)")] = Path(
        "evals/baselines/quote_budget.json"),
    real_pdfs: RealOpt = None,
    real2_pdfs: Real2Opt = None,
) -> None:
    """Sweep the offline model's quote budget over the dev questions and choose it on their key facts
    (evals/quote_budget.py says how)."""
    from rich.console import Console

    from bot.offline.span_ranker import MAX_QUOTES
    from config.settings import get_settings
    from evals.quote_budget import sweep_report, write_sweep

    try:
        sizes = sorted({int(b) for b in budgets.split(",") if b.strip()})
    except ValueError as exc:
        raise typer.BadParameter("use whole numbers, e.g. 2,3,4", param_hint="--budgets") from exc
    if not sizes or sizes[0] < 1:
        raise typer.BadParameter("use budgets of 1 or more", param_hint="--budgets")
    settings = get_settings()
    if settings.chat_model != "offline":
        raise typer.BadParameter("the quote budget is the offline model's: set RULEBOOK_CHAT_MODEL=offline")
    questions = _select(golden, corpus, None, None, "dev")
    err = Console(stderr=True)
    points, asked, skipped = asyncio.run(_sweep_quotes(questions, settings, sizes, real_pdfs, real2_pdfs, err))
    for reason in skipped:
        err.print(f"[yellow]skipped:[/] {reason}")
    if not asked:
        typer.echo("error: no corpus of these questions could be opened", err=True)
        raise typer.Exit(2)
    report = sweep_report(points, asked, MAX_QUOTES)
    picture = write_sweep(report, out)
    console = Console()
    for p in report["points"]:
        mark = "  <- chosen" if p["budget"] == report["chosen"] else ""
        console.print(f"budget {p['budget']}: key facts {p['key_facts']}/{p['answerable']} "
                      f"({p['key_facts_share']:.3f}), right page {p['right_page_share']:.3f}, citations on page "
                      f"{p['citation_precision']:.3f}, median answer {p['chars_median']:.0f} chars{mark}")
    console.print(f"chosen {report['chosen']} (today {MAX_QUOTES}); written {out} and {picture}")


async def _sweep_quotes(questions, settings, budgets, real_pdfs, real2_pdfs, err):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from evals.e2e_corpus import prepare_contexts
    from evals.quote_budget import sweep

    corpora = sorted({q.corpus for q in questions})
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True) as progress:
        async with prepare_contexts(settings, corpora, real_pdfs, err, real2_pdfs) as (contexts, skipped):
            asked = [q for q in questions if q.corpus in contexts]
            task = progress.add_task("sweeping", total=len(asked) * len(budgets))
            points = await sweep(asked, contexts, budgets,
                                 progress=lambda b, q: progress.update(task, advance=1, description=f"{b}: {q.id}"))
    return points, asked, skipped


def eval_elements(
    per_split: Annotated[int, typer.Option("--per-split", help="questions asked of each split")] = 120,
    seed: Annotated[int, typer.Option("--seed", help="the rows' sampling seed")] = 7,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    real2_pdfs: Real2Opt = None,
) -> None:
    """Ask element questions generated from the real2 message guides' structure tables and element
    records (their truth is the row or the record: evals/element_probe.py) and report dev and test."""
    from rich.console import Console

    from config.settings import get_settings
    from evals.element_probe import report

    if per_split < 1:
        raise typer.BadParameter("ask at least one question per split", param_hint="--per-split")
    err = Console(stderr=True)
    questions, results, skipped = asyncio.run(ask_element_probe(real2_pdfs, err, per_split=per_split, seed=seed,
                                                                settings=get_settings()))
    for reason in skipped:
        err.print(f"[yellow]skipped:[/] {reason}")
    if not questions:
        typer.echo("error: the real2 corpus could not be opened, or its guides hold no structure table", err=True)
        raise typer.Exit(2)
    figures = report(questions, results) | {
        "command": f"rulebook eval elements --per-split {per_split} --seed {seed} --json"}
    if as_json:
        typer.echo(json.dumps(figures, indent=2))
        return
    for family, splits in figures["families"].items():
        for split, row in splits.items():
            typer.echo(f"{family} {split}: right {row['right']}/{row['questions']} ({row['right_share']:.3f}), "
                       f"answered {row['answered']}, right page {row['right_page']}, stated {row['stated']}")


async def ask_element_probe(real2_pdfs: Path | None, err: Any, *, per_split: int = 120, seed: int = 7,
                            settings: Any = None, answerable_only: bool = False,
                            observe: Callable[[Any], None] | None = None,
                            step: Callable[[Any], None] | None = None) -> tuple[list[Any], list[Any], list[str]]:
    """Ask the element probe's questions on the real2 corpus: (questions, results, skipped). `observe` gets
    the offline model before the first question (`eval spans` records its spans), `step` each question
    once it is answered."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from config.settings import get_settings
    from evals.e2e_corpus import prepare_contexts
    from evals.e2e_golden import GoldenQuestion, load_golden
    from evals.e2e_runner import RunOptions
    from evals.e2e_suite import run_suite
    from evals.element_probe import (
        absent_elements,
        constraint_rules,
        element_records,
        probe_questions,
        structure_rows,
    )
    from evals.personas import persona

    settings = settings or get_settings()
    asked = " ".join(q.question for q in load_golden())
    roles = persona(GoldenQuestion.model_fields["persona"].default).roles  # as a golden line without roles
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True) as progress:
        async with prepare_contexts(settings, ["real2"], None, err, real2_pdfs) as (contexts, skipped):
            if "real2" not in contexts:
                return [], [], skipped
            knowledge = contexts["real2"].knowledge
            chunks = [c for info in knowledge.list_rulebooks(roles)
                      for c in knowledge.rulebook_chunks(info.rulebook_id, roles)]
            rows = structure_rows(chunks) + element_records(chunks)
            rows += absent_elements(chunks, rows) + constraint_rules(chunks)
            questions = [q for q in probe_questions(rows, per_split, seed, asked) if q.answerable or not answerable_only]
            if observe is not None:
                observe(contexts["real2"].service.model)
            task = progress.add_task("asking", total=len(questions))

            def done(q: Any) -> None:
                if step is not None:
                    step(q)
                progress.update(task, advance=1, description=q.id)

            suite = await run_suite(questions, contexts, 1, RunOptions(), progress=done)
    return questions, suite.results, skipped


def eval_personas(
    golden: GoldenOpt = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    only: OnlyOpt = None,
    personas: Annotated[list[str] | None, typer.Option("--persona", help="personas to compare (default: all three)")] = None,
) -> None:
    """Ask the sample-corpus questions as three personas and print what differs; flags any leak of
    a restricted rulebook and any answer about one that differs from a non-existent rulebook's."""
    from rich.console import Console

    from config.settings import get_settings
    from evals.personas import DEFAULT_PERSONAS, PERSONAS

    names = personas or list(DEFAULT_PERSONAS)
    unknown = [n for n in names if n not in PERSONAS]
    if unknown:
        raise typer.BadParameter(f"unknown persona(s) {unknown}; known: {', '.join(PERSONAS)}", param_hint="--persona")
    questions = _select(golden, "sample", only, None)
    err = Console(stderr=True)
    diff = asyncio.run(_run_personas(questions, get_settings(), names, err))
    if as_json:
        sys.stdout.write(json.dumps(diff.to_dict(), ensure_ascii=False) + "\n")
    else:
        _print_diff(Console(), diff)
    if not diff.ok:
        raise typer.Exit(1)


async def _run_personas(questions, settings, names, err):
    from evals.e2e_corpus import prepare_contexts
    from evals.e2e_suite import run_personas

    async with prepare_contexts(settings, ["sample"], None, err) as (contexts, skipped):
        if "sample" not in contexts:
            typer.echo(f"error: {'; '.join(skipped)}", err=True)
            raise typer.Exit(2)
        diff, _ = await run_personas(questions, contexts["sample"], names)
    return diff


def _print_diff(console, diff) -> None:
    from rich.table import Table

    console.print("personas: " + ", ".join(f"{n} {list(r) or '(no roles)'}" for n, r in diff.personas.items()))
    table = Table(title="questions answered differently by persona")
    table.add_column("question")
    for name in diff.personas:
        table.add_column(name)
    for qid, row in diff.differing().items():
        table.add_row(qid, *(f"{row[n][0]} {','.join(row[n][1])}" if n in row else "-" for n in diff.personas))
    console.print(table)
    for leak in diff.leaks:
        console.print(f"[red]LEAK[/] {leak.persona} {leak.question_id}: {leak.rulebook_id} {leak.how} ({leak.evidence})")
    for m in diff.twin_mismatches:
        console.print(f"[red]DIFFERS FROM NON-EXISTENT[/] {m.persona} {m.question_id} vs {m.twin_id}: "
                      f"{m.restricted!r} / {m.nonexistent!r}")
    console.print("[green]no leak; restricted reads like non-existent[/]" if diff.ok else "[red]persona check FAILED[/]")
