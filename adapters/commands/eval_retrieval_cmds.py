"""`rulebook eval retrieval` (our golden sets) and `rulebook eval obliqa` (public benchmark)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from adapters.commands import obliqa_options as obliqa


def eval_retrieval(
    golden: Annotated[Path | None, typer.Option("--golden", help="Golden JSONL (default: the sample set); an e2e "
                                                                  "set (e2e_*.jsonl) is scored by right page.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as one JSON object.")] = False,
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="Only the first N questions.")] = None,
    split: Annotated[str, typer.Option("--split", help="dev | test | all (the report shows dev and test "
                                                       "side by side)")] = "all",
) -> None:
    """hit@10 and MRR for dense, BM25, hybrid and hybrid + rerank, side by side, per dev/test part.
    An end-to-end golden file (`--golden evals/golden/e2e_real2.jsonl`, lines with `expected`
    sources) is scored by the e2e eval's rule instead: right page in the top 10, with where the
    misses were ranked (11-30, 31-50, not in the top 50) and cross-document questions."""
    from config.settings import get_settings
    from evals.e2e_golden import GoldenFormatError
    from evals.e2e_golden import load_golden as load_e2e_golden
    from evals.retrieval import (
        DEFAULT_GOLDEN,
        evaluate_golden,
        evaluate_pages,
        is_e2e_golden,
        load_golden,
        render_pages,
        render_report,
    )
    from knowledge.knowledge_base import KnowledgeBase

    if split not in ("dev", "test", "all"):
        raise typer.BadParameter("use dev, test or all", param_hint="--split")
    path = golden or DEFAULT_GOLDEN
    try:
        pages = is_e2e_golden(path)
        items = load_e2e_golden([path]) if pages else load_golden(path)
    except (FileNotFoundError, ValueError, GoldenFormatError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    items = [i for i in items if split == "all" or i.split == split]
    items = items[:limit] if limit else items
    knowledge = KnowledgeBase.from_settings(get_settings())
    try:
        if knowledge.store.count() == 0:
            typer.echo("error: the index is empty; run `rulebook index PATH` first", err=True)
            raise typer.Exit(2)
        report = evaluate_pages(knowledge, items) if pages else evaluate_golden(knowledge, items)
    finally:
        knowledge.close()
    report["golden"] = str(path)
    report["split_asked"] = split
    typer.echo(json.dumps(report, indent=2) if as_json else (render_pages if pages else render_report)(report))


def eval_obliqa(
    questions: obliqa.Questions = None,
    documents: obliqa.Documents = None,
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="Only the first N questions.")] = None,
    documents_limit: obliqa.DocumentsLimit = None,
    only_cached: obliqa.OnlyCached = False,
    as_json: obliqa.AsJson = False,
) -> None:
    """Recall@10 and MAP@10 on ObliQA for dense, BM25, hybrid and hybrid + rerank."""
    from config.settings import get_settings
    from evals.obliqa import (
        COLLECTION,
        bm25s_reference,
        evaluate,
        index_passages,
        question_splits,
        subset_collection,
    )
    from knowledge.embedding_cache import load_cached_encoder
    from knowledge.knowledge_base import KnowledgeBase
    from knowledge.model_rerank import load_reranker
    from knowledge.store import StoreBusyError, open_store

    settings = get_settings()
    chunks, qs = obliqa.load(documents, questions)
    splits = question_splits(qs)  # over the whole file: a subset run keeps every question's half
    encoder = load_cached_encoder(settings)
    subset: dict[str, object] | None = None
    collection = COLLECTION
    if only_cached or documents_limit:
        all_questions = len(qs)
        chunks, qs, chosen, everything = obliqa.subset(chunks, qs, settings.embedding_cache_path, encoder.model_id,
                                                       only_cached, documents_limit)
        collection = subset_collection(chosen)
        subset = {"documents": chosen, "of_documents": len(everything), "passages": len(chunks),
                  "questions": len(qs), "of_questions": all_questions,
                  "selected_by": "only-cached" if only_cached else f"documents-limit {documents_limit}"}
    qs = qs[:limit] if limit else qs
    try:
        store = open_store(settings, collection=collection)
    except StoreBusyError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    total = len(chunks)

    def progress(done: int) -> None:
        print(f"\rembedding/indexing passages: {done}/{total}", end="", file=sys.stderr, flush=True)

    added = index_passages(store, encoder, chunks, on_progress=progress)
    if added:
        print(file=sys.stderr)
    knowledge = KnowledgeBase(store, encoder, reranker=load_reranker(settings.reranker),
                              rerank_threshold=settings.rerank_threshold)
    try:
        report = evaluate(knowledge, qs, splits=splits)
    finally:
        knowledge.close()
    report.update({"passages": total, "passages_indexed_now": added, "collection": collection,
                   "reranker": settings.reranker or "section-coherence", "subset": subset,
                   "bm25s_reference": bm25s_reference(chunks, qs)})
    if as_json:
        typer.echo(json.dumps(report, indent=2))
        return
    partial = subset is not None and len(subset["documents"]) < subset["of_documents"]  # type: ignore[arg-type,operator]
    scope = (f"SUBSET of {len(subset['documents'])}/{subset['of_documents']} documents "  # type: ignore[arg-type,index]
             f"({subset['selected_by']}), " if subset and partial else "")
    counts = report["split_counts"]
    typer.echo(f"ObliQA: {scope}{report['questions']} questions (our dev {counts.get('dev', 0)} / "  # type: ignore[union-attr]
               f"test {counts.get('test', 0)}), {total} passages ({added} indexed in this run)")  # type: ignore[union-attr]
    typer.echo(f"{'mode':<15}{'Recall@10':>10}{'dev':>8}{'test':>8}{'gap':>8}{'MAP@10':>10}{'dev':>8}{'test':>8}"
               f"{'gap':>8}{'seconds':>9}")

    def cell(row: dict, part: str, metric: str, signed: bool = False) -> str:  # type: ignore[type-arg]
        value = (row.get("splits") or {}).get(part, {}).get(metric)
        return f"{'-':>8}" if value is None else (f"{value:>+8.3f}" if signed else f"{value:>8.3f}")

    for name, row in report["modes"].items():  # type: ignore[union-attr]
        typer.echo(f"{name:<15}{row['recall_at_10']:>10.3f}{cell(row, 'dev', 'recall_at_10')}"
                   f"{cell(row, 'test', 'recall_at_10')}{cell(row, 'gap', 'recall_at_10', True)}"
                   f"{row['map_at_10']:>10.3f}{cell(row, 'dev', 'map_at_10')}{cell(row, 'test', 'map_at_10')}"
                   f"{cell(row, 'gap', 'map_at_10', True)}{row['seconds']:>9}")
    reference = report["bm25s_reference"]
    if reference:
        typer.echo(f"{'bm25s (ref.)':<15}{reference['recall_at_10']:>10.3f}{'':>24}{reference['map_at_10']:>10.3f}")  # type: ignore[index]


def register(app: typer.Typer, eval_app: typer.Typer) -> None:
    eval_app.command("retrieval")(eval_retrieval)
    eval_app.command("obliqa")(eval_obliqa)
