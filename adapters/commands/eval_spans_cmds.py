"""`rulebook eval spans`: fit the offline model's span weights on dev questions (evals.span_ranking)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from adapters.commands.eval_e2e_cmds import Real2Opt, RealOpt, corpora_of


def register(app: typer.Typer, eval_app: typer.Typer) -> None:
    eval_app.command("spans")(eval_spans)


def eval_spans(
    corpus: Annotated[str, typer.Option("--corpus", help="golden sets whose questions are asked (comma list)")]
    = "sample,real,real2",
    cases_files: Annotated[list[Path] | None, typer.Option(
        "--cases", help="read the scored spans from these files (written by --save-cases) instead of asking")]
    = None,
    save_cases: Annotated[Path | None, typer.Option("--save-cases", help="write the scored spans here")] = None,
    write: Annotated[bool, typer.Option(
        "--write", help="store the fit: bot/offline/span_weights.json and evals/baselines/span_weights.{json,png}")]
    = False,
    as_json: Annotated[bool, typer.Option("--json", help="print the report as one JSON object")] = False,
    obliqa_documents: Annotated[int, typer.Option(
        "--obliqa-documents", min=0, help="also ask ObliQA questions over this many of its documents, "
                                          "passages as chunks (as `eval answering --documents-limit`; 0: none)")] = 0,
    obliqa_limit: Annotated[int, typer.Option("--obliqa-limit", min=1, help="ObliQA questions per half")] = 100,
    probe: Annotated[bool, typer.Option(
        "--probe", help="also ask the element probe's answerable questions (`eval elements`, seed 7, 120 per "
                        "family and half; their cases' corpus is 'probe')")] = False,
    element_set_only: Annotated[bool, typer.Option(
        "--element-set-only", help="fit only the element set (needs golden and --probe cases); with --write, store "
                                   "it beside the main set already in span_weights.json")] = False,
    real_pdfs: RealOpt = None,
    real2_pdfs: Real2Opt = None,
) -> None:
    """Ask every golden question, record the spans the offline model scored, and fit the weights of
    their signals on the dev questions (cross-validated); test questions are only scored."""
    from rich.console import Console

    from bot.offline.span_ranker import WEIGHTS_FILE
    from evals.e2e_golden import load_golden
    from evals.span_kinds import PROBE, Kinds, fit_element_set, stored_element_set
    from evals.span_ranking import BASELINE, RULE, SpanCase, calibrate, plot, weights_file

    err = Console(stderr=True)
    if cases_files:
        cases = [SpanCase.from_json(c) for path in cases_files
                 for c in json.loads(path.read_text(encoding="utf-8"))]
    else:
        cases = asyncio.run(_collect(corpora_of(corpus), real_pdfs, real2_pdfs, err)) if corpus else []
        if obliqa_documents:
            cases += asyncio.run(_collect_obliqa(obliqa_documents, obliqa_limit, err))
        if probe:
            cases += asyncio.run(_collect_probe(real2_pdfs, err))
    if save_cases is not None:
        save_cases.write_text(json.dumps([c.to_json() for c in cases], ensure_ascii=False), encoding="utf-8")
    if element_set_only:
        _fit_element_set_only(cases, write, as_json, err)
        return
    # the main set is fitted on the golden sets' questions; the probe's only teach the element set
    golden = [c for c in cases if c.corpus != PROBE]
    sources = sorted({c.corpus for c in golden})
    report = {"command": "rulebook " + " ".join(sys.argv[1:]), "rule": RULE,
              **calibrate(golden, progress=lambda line: err.print(line)), "corpora": sources}
    if any(c.corpus == PROBE for c in cases):
        report["element_set"] = fit_element_set(cases, Kinds({q.id: q.question for q in load_golden()}),
                                                progress=lambda line: err.print(line))
    if write:
        if "element_set" in report:
            element_set = stored_element_set(report["element_set"])
        else:  # a fit without the probe's questions leaves the element set as it was
            kept = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8")) if WEIGHTS_FILE.exists() else {}
            element_set = {key: value for key, value in kept.items() if key.startswith("element_")}
        BASELINE.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        plot(report, BASELINE.with_suffix(".png"))
        WEIGHTS_FILE.write_text(json.dumps(weights_file(report, sources, element_set), indent=1) + "\n",
                                encoding="utf-8")
        err.print(f"weights written to {WEIGHTS_FILE}, the fit to {BASELINE} (+ .png)")
    if as_json:
        sys.stdout.write(json.dumps(report, ensure_ascii=False) + "\n")
        return
    if "element_set" in report:
        for name, figs in report["element_set"]["top1_right"].items():
            err.print(f"element set {name:11} top-1 right: main set {figs['main_set']}  element set "
                      f"{figs['element_set']}  ({figs['questions_with_right_span']} questions)")
    for half in ("dev", "test"):
        for name, figs in report[half].items():
            if "top1_right" in figs:
                err.print(f"{half:4} {name:17} top-1 right {figs['top1_right']}  top-1 right+key fact "
                          f"{figs['top1_best']}  ({figs['questions_with_right_span']} questions)")
    err.print(f"dev cross-validated at L2 {report['chosen_strength']}: {report['dev']['fitted_cv']}")


def _fit_element_set_only(cases: list[Any], write: bool, as_json: bool, err: Any) -> None:
    from bot.offline.span_ranker import WEIGHTS_FILE
    from evals.e2e_golden import load_golden
    from evals.span_kinds import Kinds, fit_element_set, stored_element_set

    try:
        element_set = fit_element_set(cases, Kinds({q.id: q.question for q in load_golden()}),
                                      progress=lambda line: err.print(line))
    except ValueError as error:
        raise typer.BadParameter(str(error)) from error
    if write:
        if not WEIGHTS_FILE.exists():
            raise typer.BadParameter(f"{WEIGHTS_FILE} holds no main set to store the element set beside: fit it first")
        stored = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8")) | stored_element_set(element_set)
        WEIGHTS_FILE.write_text(json.dumps(stored, indent=1) + "\n", encoding="utf-8")
        err.print(f"element set written to {WEIGHTS_FILE}")
    if as_json:
        sys.stdout.write(json.dumps(element_set, ensure_ascii=False) + "\n")
        return
    for name, figs in element_set["top1_right"].items():
        err.print(f"{name:11} top-1 right: main set {figs['main_set']}  element set {figs['element_set']}  "
                  f"({figs['questions_with_right_span']} questions)")


async def _collect(corpora: list[str], real_pdfs: Path | None, real2_pdfs: Path | None, err: Any) -> list[Any]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from config.settings import get_settings
    from evals.e2e_corpus import prepare_contexts
    from evals.e2e_golden import load_golden
    from evals.e2e_runner import RunOptions
    from evals.e2e_suite import run_suite
    from evals.span_ranking import case_of

    questions = [q for q in load_golden() if q.corpus in corpora and q.answerable and q.expected]
    scored: list[tuple[str, list[Any]]] = []
    cases: list[Any] = []

    def done(q: Any) -> None:
        if scored:
            cases.append(case_of(q, scored[-1][1]))
        scored.clear()

    settings = get_settings()
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=True) as progress:
        async with prepare_contexts(settings, corpora, real_pdfs, err, real2_pdfs) as (contexts, skipped):
            for reason in skipped:
                err.print(f"[yellow]skipped:[/] {reason}")
            for ctx in contexts.values():
                model = getattr(ctx.service, "model", None)
                if model is None or not hasattr(model, "span_observer"):
                    raise typer.BadParameter("span weights are the offline model's: set no chat model")
                model.span_observer = lambda query, spans: scored.append((query, list(spans)))
            task = progress.add_task("asking", total=len([q for q in questions if q.corpus in contexts]))

            def step(q: Any) -> None:
                done(q)
                progress.update(task, advance=1, description=q.id)

            await run_suite(questions, contexts, 1, RunOptions(), progress=step)
    return cases


async def _collect_probe(real2_pdfs: Path | None, err: Any) -> list[Any]:
    """The element probe's answerable questions (evals.element_probe), asked on the real2 corpus; their
    cases are marked corpus 'probe' so that a report tells them from the golden sets'."""
    from adapters.commands.eval_e2e_cmds import ask_element_probe
    from evals.span_ranking import case_of

    scored: list[list[Any]] = []
    cases: list[Any] = []

    def observe(model: Any) -> None:
        model.span_observer = lambda query, spans: scored.append(list(spans))

    def step(q: Any) -> None:
        if scored and q.answerable:
            case = case_of(q, scored[-1])
            case.corpus = "probe"
            cases.append(case)
        scored.clear()

    await ask_element_probe(real2_pdfs, err, answerable_only=True, observe=observe, step=step)
    return cases


async def _collect_obliqa(documents_limit: int, limit: int, err: Any) -> list[Any]:
    """ObliQA questions of both halves, asked as everyone; a span is right when its chunk is a gold passage."""
    from adapters.commands import obliqa_options as obliqa
    from bot.answer import User
    from config.settings import get_settings
    from evals.answering import (
        ObliqaAnswering,
        role_of,
        sample,
        split_of,
        subset_answering_collection,
        with_document_roles,
    )
    from evals.e2e_runner import ask_once
    from evals.span_ranking import obliqa_case
    from knowledge.embedding_cache import load_cached_encoder

    settings = get_settings()
    chunks, questions = obliqa.load(None, None)
    model_id = load_cached_encoder(settings).model_id
    chunks, questions, chosen, _ = obliqa.subset(chunks, questions, settings.embedding_cache_path, model_id,
                                                 False, documents_limit)
    collection = subset_answering_collection(chosen)
    asked = [*sample(questions, "dev", limit), *sample(questions, "test", limit)]
    bench = ObliqaAnswering(settings, with_document_roles(chunks), collection).open()
    scored: list[list[Any]] = []
    bench.model.span_observer = lambda query, spans: scored.append(list(spans))
    user = User(id="eval-spans", roles=tuple(role_of(r) for r in sorted({c.rulebook_id for c in chunks})),
                platform="eval", name="everyone")
    cases: list[Any] = []
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    try:
        with Progress(TextColumn("ObliQA"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=err, transient=True) as progress:
            task = progress.add_task("asking", total=len(asked))
            for q in asked:
                scored.clear()
                await ask_once(bench.service, q.text, user, f"spans-{q.question_id}")
                if scored:
                    cases.append(obliqa_case(q.question_id, split_of(q.question_id), q.gold, scored[-1]))
                progress.update(task, advance=1)
    finally:
        bench.close()
    return cases
