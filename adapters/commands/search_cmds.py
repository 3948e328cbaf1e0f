"""`rulebook search`: the hybrid search from the command line."""

from __future__ import annotations

import json
from typing import Annotated

import typer

MODES = ("hybrid", "dense", "bm25", "fused")


def hit_record(hit) -> dict[str, object]:  # type: ignore[no-untyped-def]
    p = hit.payload
    return {"rulebook_id": p.rulebook_id, "title": p.rulebook_title, "section_path": p.section_path,
            "section_title": p.section_title, "page_start": p.page_start, "page_end": p.page_end,
            "chunk_index": p.chunk_index, "chunk_id": p.chunk_id, "status": p.status, "text": p.text,
            "score": round(hit.score, 6)}


def search(
    query: Annotated[str, typer.Argument(help="What to look for.")],
    role: Annotated[list[str] | None, typer.Option("--role", help="A role of the caller (repeatable).")] = None,
    k: Annotated[int, typer.Option("--k", min=1, max=50, help="How many hits.")] = 10,
    mode: Annotated[str, typer.Option("--mode", help="hybrid | dense | bm25 (| fused: RRF without rerank)")] = "hybrid",
    rulebook: Annotated[list[str] | None, typer.Option("--rulebook", help="Only these rulebook ids.")] = None,
    archived: Annotated[bool, typer.Option("--archived", help="Include archived versions.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object with a `hits` list.")] = False,
) -> None:
    """Search the indexed rulebooks (roles filter inside the query)."""
    if mode not in MODES:
        raise typer.BadParameter(f"--mode must be one of {', '.join(MODES)}", param_hint="--mode")
    from config.settings import get_settings
    from knowledge.knowledge_base import KnowledgeBase
    from knowledge.store import StoreBusyError

    settings = get_settings()
    try:
        knowledge = KnowledgeBase.from_settings(settings)
    except StoreBusyError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    try:
        if knowledge.store.count() == 0:
            typer.echo(f"error: the index in {settings.data_dir} is empty; run `rulebook index PATH` first",
                       err=True)
            raise typer.Exit(2)
        from adapters.commands.role_names import check_cli_roles

        check_cli_roles(list(role or ()), knowledge.store, settings)
        hits = knowledge.search(query, tuple(role or ()), k=k, mode=mode,  # type: ignore[arg-type]
                                rulebook_ids=tuple(rulebook or ()), include_archived=archived)
    finally:
        knowledge.close()
    if as_json:
        typer.echo(json.dumps({"query": query, "mode": mode, "roles": list(role or ()),
                               "hits": [hit_record(h) for h in hits]}, ensure_ascii=False))
        return
    if not hits:
        typer.echo("No hits.")
        return
    for n, hit in enumerate(hits, start=1):
        p = hit.payload
        section = " ".join(x for x in (p.section_path[-1] if p.section_path else "", p.section_title) if x)
        pages = f"p. {p.page_start}" if p.page_start == p.page_end else f"pp. {p.page_start}-{p.page_end}"
        flag = "" if p.status == "vetted_active" else f"  [archived {p.withdrawn_on or ''}]"
        typer.echo(f"{n:2}. {p.rulebook_id} — {p.rulebook_title} · {section or 'front matter'} · {pages} "
                   f"· score {hit.score:.4f}{flag}")
        snippet = " ".join(p.text.split())
        typer.echo(f"    {snippet[:300]}{'…' if len(snippet) > 300 else ''}")


def register(app: typer.Typer, eval_app: typer.Typer) -> None:
    app.command("search")(search)
