"""An answer's citations as Teams' native citation claims (the pop-ups behind the [n] markers).

Teams enforces limits on the claim fields (name 80 characters, abstract 160, at most three
keywords of 28 characters, at most 20 citations per message) and answers 400 to a message that
breaks them, so every field is cut here rather than trusted. (The SDK's own
`StreamingResponse.set_citations` cuts abstracts at 480 characters and numbers citations by list
order, so we build its `ClientCitation` models ourselves, numbered as the answer's [n] markers.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from microsoft_agents.activity import ClientCitation, ClientCitationAppearance, ClientCitationImage

from bot.answer import Answer, Citation

MAX_CITATIONS = 20
NAME_LIMIT = 80
ABSTRACT_LIMIT = 160
KEYWORD_LIMIT = 28
MAX_KEYWORDS = 3


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


def client_citation(citation: Citation, url: str) -> ClientCitation:
    keywords = [f"page {citation.page}"]
    if citation.section_path:
        keywords.append(f"section {citation.section_path[-1]}")
    keywords.append(citation.rulebook_id)
    return ClientCitation(position=citation.n, appearance=ClientCitationAppearance(
        name=citation_name(citation),
        abstract=shorten(citation.quote, ABSTRACT_LIMIT),
        keywords=[shorten(k, KEYWORD_LIMIT) for k in keywords[:MAX_KEYWORDS]],
        image=ClientCitationImage(type="ImageObject", name="PDF"),
        url=url or None,
    ))


def citation_claim(citation: Citation, url: str) -> dict[str, Any]:
    """The claim as it goes over the wire."""
    return client_citation(citation, url).model_dump(by_alias=True, exclude_none=True, mode="json")


def teams_citations(answer: Answer, link_for: Callable[[Citation], str]) -> list[ClientCitation]:
    """One claim per cited source, numbered as the [n] markers in the answer text (at most 20)."""
    seen: set[int] = set()
    claims = []
    for citation in sorted(answer.citations, key=lambda c: c.n):
        if citation.n in seen:
            continue
        seen.add(citation.n)
        claims.append(client_citation(citation, link_for(citation)))
    return claims[:MAX_CITATIONS]
