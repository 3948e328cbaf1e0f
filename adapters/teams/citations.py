"""An answer's citations as Teams' native citation claims (the pop-ups behind the [n] markers).

Teams enforces limits on the claim fields (name 80 characters, abstract 160, at most three
keywords of 28 characters, at most 20 citations per message) and answers 400 to a message that
breaks them, so every field is cut here rather than trusted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.answer import Answer, Citation

MAX_CITATIONS = 20
NAME_LIMIT = 80
ABSTRACT_LIMIT = 160
KEYWORD_LIMIT = 28


def shorten(text: str, limit: int) -> str:
    """Cut at a word boundary and mark the cut with an ellipsis; never longer than `limit`."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1]
    if " " in cut[limit // 2:]:
        cut = cut[: cut.rfind(" ")]
    return cut.rstrip(" ,;:") + "…"


def section_label(citation: Citation) -> str:
    number = citation.section_path[-1] if citation.section_path else ""
    parts = [p for p in (number, citation.section_title) if p]
    return " ".join(parts)


def citation_name(citation: Citation) -> str:
    section = section_label(citation)
    name = f"{citation.title}, {section}" if section else citation.title
    return shorten(name or citation.rulebook_id, NAME_LIMIT)


def citation_claim(citation: Citation, url: str) -> dict[str, Any]:
    keywords = [f"page {citation.page}"]
    if citation.section_path:
        keywords.append(f"section {citation.section_path[-1]}")
    keywords.append(citation.rulebook_id)
    appearance: dict[str, Any] = {
        "@type": "DigitalDocument",
        "name": citation_name(citation),
        "abstract": shorten(citation.quote, ABSTRACT_LIMIT),
        "keywords": [shorten(k, KEYWORD_LIMIT) for k in keywords[:3]],
        "image": {"@type": "ImageObject", "name": "PDF"},
    }
    if url:
        appearance["url"] = url
    return {"@type": "Claim", "position": citation.n, "appearance": appearance}


def teams_citations(answer: Answer, link_for: Callable[[Citation], str]) -> list[dict[str, Any]]:
    """One claim per cited source, numbered as the [n] markers in the answer text."""
    seen: set[int] = set()
    claims = []
    for citation in sorted(answer.citations, key=lambda c: c.n):
        if citation.n in seen:
            continue
        seen.add(citation.n)
        claims.append(citation_claim(citation, link_for(citation)))
    return claims[:MAX_CITATIONS]
