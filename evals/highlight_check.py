"""Highlight correctness: does the page view's highlight hold the words each citation quotes?

For every citation of the answers to the e2e golden questions (asked with the configured model,
by default the offline one, over the indexed corpora), the page view's highlight is computed as
the view computes it (`adapters.page_view.highlight`), the text of the characters inside the
rectangles is read back from pdfium's character boxes, and the citation counts as correct when
that text contains the quoted span: every quoted segment (letters and digits, folded as the
indexer's text repair leaves them) for prose, every quoted cell for a table. A span that runs over
a page break is read back from both pages.

    python -m evals.highlight_check                 # sample corpus (+ real PDFs when present)
    python -m evals.highlight_check --corpus sample --out highlight.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import uuid
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from adapters.page_view.highlight import (
    SEGMENT_SEPARATOR,
    Highlight,
    fold,
    fold_page,
    highlight,
    read_back,
    table_rows,
)
from adapters.page_view.pdf_pages import PageOutOfRange, page_chars, pdf_info
from bot.answer import Citation

TARGET = 0.98


@dataclass
class CitationCheck:
    question_id: str
    rulebook_id: str
    page: int
    kind: str  # text | table | missing
    correct: bool
    pages_read: list[int] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # quoted segments / cells not read back
    reason: str = ""


def _source_path(source_uri: str) -> Path | None:
    if not source_uri or "://" in source_uri and not source_uri.startswith("file://"):
        return None
    return Path(source_uri.removeprefix("file://"))


def check_citation(citation: Citation, knowledge: Any, roles: Sequence[str] = (), question_id: str = ""
                   ) -> CitationCheck:
    """The page view's highlight of one citation, read back and compared with its quote."""
    result = CitationCheck(question_id, citation.rulebook_id, citation.page, "missing", False)
    chunk = knowledge.chunk(citation.chunk_id, tuple(roles)) if citation.chunk_id else None
    if chunk is None:
        result.reason = "cited chunk not in the index"
        return result
    path = _source_path(chunk.source_uri)
    if path is None or not path.is_file():
        result.reason = f"PDF not found at {chunk.source_uri}"
        return result
    pages = pdf_info(path).pages
    texts: list[str] = []
    cell_texts: list[str] = []  # one per rectangle: a table's cells are checked one by one
    marks: list[Highlight] = []
    page = citation.page
    while page <= pages:
        try:
            chars = page_chars(path, page)
        except PageOutOfRange:
            break
        mark = highlight(chars, citation.quote, chunk.tables_csv)
        marks.append(mark)
        result.pages_read.append(page)
        texts.append(read_back(chars, mark.rects))
        cell_texts += [fold_page(read_back(chars, [rect]))[0] for rect in mark.rects]
        if not mark.continues_after or page - citation.page >= 2:
            break
        page += 1
    found = [m for m in marks if m.found]
    result.kind = found[0].kind if found else "missing"
    got = fold_page("".join(texts))[0]
    if result.kind == "table":
        rows, prose = table_rows(citation.quote, chunk.tables_csv)
        wanted = [c for row in rows for c in row] + prose
    else:
        wanted = [s for s in citation.quote.split(SEGMENT_SEPARATOR) if s.strip()]
    # a prose segment runs over several line rectangles; a cell sits inside one rectangle
    result.missing = [w for w in wanted
                      if fold(w)[0] and fold(w)[0] not in got and not any(fold(w)[0] in t for t in cell_texts)]
    result.correct = bool(found) and not result.missing
    if not found:
        result.reason = "no highlight"
    elif result.missing:
        result.reason = f"{len(result.missing)} of {len(wanted)} quoted parts not inside the highlight"
    return result


async def _answer_citations(service: Any, question: Any) -> list[Citation]:
    from bot.answer import FinalEvent, User
    from evals.e2e_runner import seed_history
    from evals.personas import roles_for

    user = User(id="highlight-check", roles=roles_for(question), platform="eval")
    conversation = f"highlight-{question.id}-{uuid.uuid4().hex[:8]}"
    await seed_history(service, conversation, question, user)
    citations: list[Citation] = []
    async for event in service.ask(question.question, user, conversation):
        if isinstance(event, FinalEvent):
            citations = list(event.answer.citations)
    return citations


async def run(corpora: Sequence[str], golden: Sequence[Path] | None = None, settings: Any = None,
              limit: int | None = None, progress: bool = True) -> dict[str, Any]:
    from config.settings import get_settings
    from evals.e2e_corpus import prepare_contexts
    from evals.e2e_golden import load_golden
    from evals.personas import roles_for

    settings = settings or get_settings()
    questions = load_golden(list(golden) if golden else None)
    checks: list[CitationCheck] = []
    async with prepare_contexts(settings, corpora, None, None) as (contexts, skipped):
        for corpus, ctx in contexts.items():
            group = [q for q in questions if q.corpus == corpus][:limit]
            for i, question in enumerate(group, 1):
                for citation in await _answer_citations(ctx.service, question):
                    checks.append(check_citation(citation, ctx.knowledge, roles_for(question), question.id))
                if progress:
                    print(f"{corpus}: {i}/{len(group)} questions, {len(checks)} citations",
                          file=sys.stderr, flush=True)
    correct = sum(c.correct for c in checks)
    return {"citations": len(checks), "correct": correct,
            "rate": round(correct / len(checks), 4) if checks else None, "target": TARGET,
            "by_kind": {k: sum(1 for c in checks if c.kind == k) for k in ("text", "table", "missing")},
            "skipped": skipped, "failures": [asdict(c) for c in checks if not c.correct]}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", action="append", choices=["sample", "real"],
                        help="which corpora (default: both; the real PDFs only where present)")
    parser.add_argument("--golden", action="append", type=Path, help="golden files (default: all e2e sets)")
    parser.add_argument("--limit", type=int, help="at most this many questions per corpus")
    parser.add_argument("--out", type=Path, help="write the report as JSON here")
    args = parser.parse_args(argv)
    report = asyncio.run(run(args.corpus or ["sample", "real"], args.golden, limit=args.limit))
    for failure in report["failures"]:
        print(f"  {failure['question_id']}: {failure['rulebook_id']} p.{failure['page']} — {failure['reason']}"
              f" {failure['missing'][:2]}")
    rate = report["rate"]
    print(f"highlight correctness: {report['correct']}/{report['citations']} citations"
          f" = {rate:.1%} (target {TARGET:.0%}); by kind {report['by_kind']}" if rate is not None
          else "no citations to check")
    for reason in report["skipped"]:
        print(f"  left out: {reason}")
    if args.out:
        args.out.write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
