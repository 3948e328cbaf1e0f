"""`rulebook index`, `rulebook inventory`, `rulebook export-chunks`."""

from __future__ import annotations

import json
from pathlib import Path

import typer


def register(app: typer.Typer, eval_app: typer.Typer) -> None:
    app.command("index")(index)
    app.command("inventory")(inventory)
    app.command("export-chunks")(export_chunks)


def index(
    path: Path | None = typer.Argument(None, exists=True, file_okay=False,
                                       help="Folder of PDFs (a catalog.yaml beside them is optional)"),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as one JSON object"),
    strict: bool = typer.Option(False, "--strict", help="Exit non-zero when any document failed"),
    from_blob: str | None = typer.Option(None, "--from-blob", metavar="CONTAINER[/FOLDER]",
                                         help="Index a release kept in Azure Blob Storage instead of PATH"),
) -> None:
    """Index a folder of rulebook PDFs into the knowledge store (incremental)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from config.settings import get_settings
    from indexing.pipeline import run_index

    err = Console(stderr=True)
    if (path is None) == (from_blob is None):
        raise typer.BadParameter("give a folder PATH or --from-blob CONTAINER (one of the two)")
    if from_blob is not None:
        from indexing.blob_source import BlobSourceError, download_release

        try:
            path = download_release(get_settings(), from_blob)
        except BlobSourceError as exc:
            err.print(f"[red]{exc}[/red]")
            raise typer.Exit(2) from exc
    if from_blob is None and not _has_pdf(path):
        err.print(f"[red]error:[/red] no PDF found in {path} (looked for *.pdf in the folder itself); "
                  "nothing was indexed.")
        raise typer.Exit(1)
    from adapters.commands.cli_faults import writable_data_dir

    writable_data_dir(get_settings().data_dir)  # a read-only data dir: the clear message, before any work
    with Progress(TextColumn("[bold]indexing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("{task.description}"), console=err, transient=True) as bar:
        task = bar.add_task("", total=None)

        def progress(done: int, total: int, what: str) -> None:
            bar.update(task, completed=done, total=total, description=what)

        from adapters.index_webhook_client import index_through_server

        try:  # a running `rulebook serve` owns the store: the job runs inside it
            data = index_through_server(get_settings(), path, progress, err.print)
        except RuntimeError as exc:
            err.print(f"[red]{exc}[/red]")
            raise typer.Exit(2) from exc
        if data is None:
            from knowledge.store import StoreBusyError

            try:
                data = run_index(path, get_settings(), progress).to_dict()
            except StoreBusyError as exc:
                err.print(f"[red]error: {exc}[/red]")
                raise typer.Exit(2) from exc
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False))
    else:
        _print_summary(data)
    nothing = data["documents_indexed"] == 0 and (data["documents_failed"] > 0 or data["documents_skipped"] > 0)
    if nothing or (strict and data["documents_failed"]):
        raise typer.Exit(1)


def _has_pdf(folder: Path) -> bool:
    return any(p.is_file() and p.suffix.lower() == ".pdf" for p in folder.iterdir())


def _print_summary(data: dict) -> None:
    if data["note"]:
        typer.echo(data["note"])
    for doc in data["documents"]:
        figures = (f"{doc['pages']} pages, {doc['chunks']} chunks, {doc['tables']} tables, "
                   f"{doc['re_embedded']} re-embedded") if doc["outcome"] in ("indexed", "unchanged") else ""
        reason = f" - {doc['reason']}" if doc["reason"] else ""
        typer.echo(f"{doc['outcome']:>9}  {doc['file']} [{doc['rulebook_id']}] {figures}{reason}")
    if data.get("searchable_seconds") is not None:  # before the totals, which stay the last line
        typer.echo(_dense_line(data))
    typer.echo(
        f"documents indexed {data['documents_indexed']} (unchanged {data['documents_unchanged']}), "
        f"skipped {data['documents_skipped']}, failed {data['documents_failed']}, "
        f"removed {data['documents_removed']}; pages {data['pages']}, chunks {data['chunks']}, "
        f"tables {data['tables']}, chunks re-embedded {data['chunks_re_embedded']}; "
        f"flagged {data['documents_with_active_content']} document(s) with active content, "
        f"{data['chunks_with_instruction_text']} chunk(s) with instruction text; "
        f"{data['seconds']} s")


def _dense_line(data: dict) -> str:
    """The progressive index (indexing/dense_fill.py): when it was searchable, how complete it is."""
    done, total, pending = data.get("dense_chunks", 0), data.get("index_chunks", 0), data.get("dense_pending", 0)
    line = (f"searchable after {data['searchable_seconds']} s; dense vectors {done} of {total} chunks"
            f" ({data.get('dense_filled', 0)} filled in this run)")
    if pending:
        line += (f"; {pending} still to fill: answers use the BM25 leg for those until `rulebook serve` "
                 "or the next `rulebook index` fills them")
    return line


def inventory(
    path: Path = typer.Argument(..., exists=True, file_okay=False, help="Folder of PDFs (catalog.yaml optional)"),
    as_json: bool = typer.Option(False, "--json", help="Print the buckets as one JSON object"),
) -> None:
    """Sort a folder's PDFs into the five lifecycle buckets (nothing is indexed)."""
    from indexing.document_flags import inventory_flags, print_inventory_flags
    from indexing.lifecycle import BUCKETS, take_inventory

    inventory = take_inventory(path)
    data = inventory.to_dict()
    data["flags"] = inventory_flags([(item.path, item.rulebook_id) for item in inventory.items])
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False))
        return
    if not data["catalog"]:
        typer.echo("no catalog.yaml: every PDF counts as vetted & active, id = file name without extension")
    for name in BUCKETS:
        bucket = data["buckets"][name]
        typer.echo(f"{bucket['label']}: {bucket['count']}")
        for item in bucket["files"]:
            note = f"  ({item['note']})" if item["note"] else ""
            typer.echo(f"    {item['file']}  [{item['rulebook_id']}]{note}")
    typer.echo(f"did not survive the audit: {data['excluded_share']:.0%} of {data['total']} files")
    print_inventory_flags(data["flags"], typer.echo)
    typer.echo(_index_status())


def _index_status() -> str:
    """How complete the index is (the dense fill), or why that cannot be read now."""
    from config.settings import get_settings
    from indexing.dense_fill import dense_coverage
    from indexing.index_jobs import running_server
    from knowledge.store import StoreBusyError, open_store

    settings = get_settings()
    if running_server(settings.data_dir):
        return "index: held by the running `rulebook serve` (it fills missing dense vectors itself)"
    try:
        store = open_store(settings)
    except (StoreBusyError, OSError) as exc:
        return f"index: not readable now ({exc})"
    try:
        coverage = dense_coverage(store)
    finally:
        store.close()
    if coverage is None or coverage[1] == 0:
        return "index: empty"
    done, total = coverage
    return (f"index: {total} chunks searchable, dense vectors {done} ({done / total:.0%})"
            + ("" if done == total else "; the rest is filled by `rulebook serve` or the next `rulebook index`"))


def export_chunks(file: Path = typer.Argument(..., dir_okay=False, help="Output .jsonl")) -> None:
    """Write every stored chunk's payload (no vectors), one JSON object per line."""
    from config.settings import get_settings
    from knowledge.store import open_store

    store = open_store(get_settings())
    count = 0
    try:
        with file.open("w", encoding="utf-8") as out:
            for payload in sorted(store.scroll(None), key=lambda p: (p.rulebook_id, p.chunk_index)):
                out.write(payload.model_dump_json() + "\n")
                count += 1
    finally:
        store.close()
    typer.echo(f"{count} chunks written to {file}")
