"""What every ObliQA eval command (`eval obliqa`, `eval answering`) shares: its options (one
definition, one help text, so the commands cannot drift apart), loading the data set and choosing
the subset the options ask for."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

Questions = Annotated[Path | None, typer.Option("--questions", help="ObliQA questions JSON (default: dev split).")]
Documents = Annotated[Path | None, typer.Option("--documents", help="ObliQA passages ZIP.")]
DocumentsLimit = Annotated[int | None, typer.Option(
    "--documents-limit", min=1, help="A subset: only the first N documents and the questions inside them.")]
OnlyCached = Annotated[bool, typer.Option(
    "--only-cached", help="A subset: only documents whose passages are all in the embedding cache "
                          "(nothing is embedded), and the questions inside them.")]
AsJson = Annotated[bool, typer.Option("--json", help="Print the report as one JSON object.")]


def load(documents: Path | None, questions: Path | None) -> tuple[list[Any], list[Any]]:
    """(passages, questions) from the given files or the defaults; a missing file is exit code 2."""
    from evals.obliqa import DEFAULT_DOCUMENTS, DEFAULT_QUESTIONS, load_passages, load_questions

    try:
        return load_passages(documents or DEFAULT_DOCUMENTS), load_questions(questions or DEFAULT_QUESTIONS)
    except FileNotFoundError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc


def subset(chunks: list[Any], questions: list[Any], cache_path: Path, model_id: str, only_cached: bool,
           documents_limit: int | None) -> tuple[list[Any], list[Any], list[int], list[int]]:
    """(passages, questions, chosen documents, all documents) of the subset the options ask for:
    documents fully in the embedding cache and/or the first N; none chosen is exit code 2."""
    from evals.obliqa import cached_documents, document_ids, questions_within

    everything = document_ids(chunks)
    chosen = cached_documents(chunks, cache_path, model_id) if only_cached else everything
    chosen = chosen[:documents_limit] if documents_limit else chosen
    if not chosen:
        typer.echo(f"error: no ObliQA document is fully in the embedding cache at {cache_path}", err=True)
        raise typer.Exit(2)
    keep = {f"adgm-{d}" for d in chosen}
    return [c for c in chunks if c.rulebook_id in keep], questions_within(questions, chosen), chosen, everything
