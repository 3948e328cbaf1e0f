"""The options every ObliQA eval command takes (`eval obliqa`, `eval answering`): one definition,
one help text, so the commands cannot drift apart."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

Questions = Annotated[Path | None, typer.Option("--questions", help="ObliQA questions JSON (default: dev split).")]
Documents = Annotated[Path | None, typer.Option("--documents", help="ObliQA passages ZIP.")]
DocumentsLimit = Annotated[int | None, typer.Option(
    "--documents-limit", min=1, help="A subset: only the first N documents and the questions inside them.")]
OnlyCached = Annotated[bool, typer.Option(
    "--only-cached", help="A subset: only documents whose passages are all in the embedding cache "
                          "(nothing is embedded), and the questions inside them.")]
AsJson = Annotated[bool, typer.Option("--json", help="Print the report as one JSON object.")]
