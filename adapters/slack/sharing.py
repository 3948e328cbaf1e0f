"""May a private answer be shared into a conversation? Not when it cites a rulebook that the
destination's roles cannot see (`adapters.role_directory`'s place policy).

The answer was made with the asker's roles, so a destination that holds all of them can read
everything the answer can cite: nothing to look up. Otherwise every citation is checked against
the index with the destination's roles, through the same access filter a search there would use
(a cited chunk the destination may not fetch, or no longer exists, counts as unreadable). With no
index to ask, an answer with any citation is held back: not knowing is not permission. An answer
citing nothing (a refusal, "no grounded answer") carries nothing restricted and is shared as before.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

from bot.answer import Answer, Citation

# (citation, destination roles) -> may they read it; blocking (it reads the index)
CitationAccess = Callable[[Citation, tuple[str, ...]], bool]


def index_access(knowledge: Callable[[], Any]) -> CitationAccess:
    """Citations checked against the index (`knowledge.knowledge_base.KnowledgeBase`, opened when first needed)."""
    def readable(citation: Citation, roles: tuple[str, ...]) -> bool:
        index = knowledge()
        if citation.chunk_id:
            chunk = index.chunk(citation.chunk_id, roles)
            return chunk is not None and chunk.rulebook_id == citation.rulebook_id
        return any(info.rulebook_id == citation.rulebook_id
                   for info in index.list_rulebooks(roles, include_archived=True))

    return readable


def service_index_access(service: Any) -> CitationAccess | None:
    """The assistant's own index, when it exposes one (the embedded store opens once a process)."""
    knowledge = getattr(service, "knowledge", None)
    if knowledge is None or not (hasattr(knowledge, "chunk") and hasattr(knowledge, "list_rulebooks")):
        return None
    return index_access(lambda: knowledge)


def _unreadable(citations: Sequence[Citation], roles: tuple[str, ...], access: CitationAccess
                ) -> list[Citation]:
    verdicts: dict[tuple[str, str], bool] = {}
    hidden = []
    for citation in citations:
        key = (citation.rulebook_id, citation.chunk_id)
        if key not in verdicts:
            verdicts[key] = access(citation, roles)
        if not verdicts[key]:
            hidden.append(citation)
    return hidden


async def unshareable_rulebooks(answer: Answer, asker_roles: Sequence[str],
                                destination_roles: Sequence[str], access: CitationAccess | None
                                ) -> list[str]:
    """The cited rulebooks the destination may not read, in citation order; empty: share."""
    if not answer.citations or set(asker_roles) <= set(destination_roles):
        return []
    roles = tuple(sorted(set(destination_roles)))
    if access is None:
        hidden = list(answer.citations)
    else:
        hidden = await asyncio.to_thread(_unreadable, answer.citations, roles, access)
    return list(dict.fromkeys(c.rulebook_id for c in hidden))
