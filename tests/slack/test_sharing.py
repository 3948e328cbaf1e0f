"""Which cited rulebooks a share destination may not read, checked against the indexed sample
corpus (PS-07 is for risk-officer only; PS-01 is public)."""

from __future__ import annotations

from typing import Any

from adapters.slack.sharing import index_access, unshareable_rulebooks
from bot.answer import Answer, Citation

OFFICER = ("employee", "risk-officer")
EVERYONE = ("employee",)


def citation_of(knowledge: Any, question: str, rulebook_id: str, roles: tuple[str, ...], n: int,
                with_chunk_id: bool = True) -> Citation:
    hit = next(h.payload for h in knowledge.search(question, roles=roles, k=10, rulebook_ids=[rulebook_id]))
    return Citation(n=n, rulebook_id=hit.rulebook_id, title=hit.rulebook_title,
                    section_path=list(hit.section_path), section_title=hit.section_title,
                    page=hit.page_start, uri="", quote=hit.text[:80], language=hit.language,
                    chunk_id=hit.chunk_id if with_chunk_id else "")


def answer_citing(*citations: Citation) -> Answer:
    return Answer(text="…", outcome="answered", citations=list(citations))


async def test_a_restricted_citation_is_named_and_a_public_one_is_not(sample_knowledge):
    access = index_access(lambda: sample_knowledge)
    restricted = citation_of(sample_knowledge, "mule account indicators", "PS-07", OFFICER, 1)
    public = citation_of(sample_knowledge, "payment devices merchants accept", "PS-01", OFFICER, 2)

    assert await unshareable_rulebooks(answer_citing(public, restricted), OFFICER, EVERYONE, access) == ["PS-07"]
    assert await unshareable_rulebooks(answer_citing(public), OFFICER, EVERYONE, access) == []
    # a destination holding the role may read it
    assert await unshareable_rulebooks(answer_citing(restricted), OFFICER, ("risk-officer",), access) == []


async def test_without_a_chunk_id_the_rulebook_decides(sample_knowledge):
    access = index_access(lambda: sample_knowledge)
    restricted = citation_of(sample_knowledge, "mule account indicators", "PS-07", OFFICER, 1,
                             with_chunk_id=False)
    assert await unshareable_rulebooks(answer_citing(restricted), OFFICER, EVERYONE, access) == ["PS-07"]


async def test_a_cited_chunk_that_no_longer_exists_is_not_shared(sample_knowledge):
    access = index_access(lambda: sample_knowledge)
    public = citation_of(sample_knowledge, "payment devices merchants accept", "PS-01", OFFICER, 1)
    public.chunk_id = "PS-01:999999"
    assert await unshareable_rulebooks(answer_citing(public), OFFICER, EVERYONE, access) == ["PS-01"]


async def test_without_an_index_only_answers_citing_nothing_or_fully_readable_are_shared():
    cited = Citation(n=1, rulebook_id="PS-01", title="", section_path=[], section_title="", page=1,
                     uri="", quote="", language="en")
    assert await unshareable_rulebooks(answer_citing(cited), OFFICER, EVERYONE, None) == ["PS-01"]
    assert await unshareable_rulebooks(answer_citing(), OFFICER, EVERYONE, None) == []
    # the destination holds every role the answer was made with: it can read all it cites
    assert await unshareable_rulebooks(answer_citing(cited), EVERYONE, OFFICER, None) == []
