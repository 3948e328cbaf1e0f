"""Every citation link goes to the page view, built in one place (`bot.source_links`), and the
web chat's markdown is rendered safely."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from adapters.page_view.highlight import fold
from adapters.source_server_links import SourceLinks
from adapters.web.answer_html import answer_html
from bot.answer import Citation, FinalEvent, User
from bot.source_links import read_cite_handle, served_source_link, with_cite_handles
from evals.e2e_golden import load_golden
from evals.highlight_check import check_citation

SECRET = "test-key"


def _citation(**changes) -> Citation:
    values = dict(n=1, rulebook_id="PS-04", title="Card and Device Acceptance Rulebook", section_path=["3", "3.1"],
                  section_title="Accepted payment devices", page=4, uri="", quote="So yes: a customer can pay",
                  language="en", chunk_id="PS-04:9")
    values.update(changes)
    return Citation(**values)


def test_adapters_links_delegate_to_the_one_builder():
    links = SourceLinks("http://bot.example", SECRET)
    url = links.for_citation(_citation(), roles=("risk-officer",), platform="teams", message_id="m-1")
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    assert parts.path == "/sources/PS-04/view" and query["page"] == ["4"] and query["via"] == ["teams"]
    assert links.granted_roles("PS-04", query["roles"][0], query["sig"][0]) == ("risk-officer",)
    assert read_cite_handle(SECRET, "PS-04", query["cite"][0]).quote == "So yes: a customer can pay"
    assert links.url("PS-04", 4).endswith("/sources/PS-04?page=4")  # the PDF itself, for the view's button


def test_service_links_for_the_terminal_open_the_view_with_the_highlight():
    from knowledge.payload import ChunkPayload

    chunk = ChunkPayload(chunk_id="PS-04:9", rulebook_id="PS-04", rulebook_title="t", page_start=4, page_end=4,
                         chunk_index=9, text="x", content_hash="h")
    uri = served_source_link("http://127.0.0.1:3978")(chunk, 4)
    assert uri == "http://127.0.0.1:3978/sources/PS-04/view?page=4"
    [cited] = with_cite_handles([_citation(uri=uri)], SECRET)
    assert read_cite_handle(SECRET, "PS-04", parse_qs(urlsplit(cited.uri).query)["cite"][0]).chunk_id == "PS-04:9"
    blob = "https://store.blob.core.windows.net/pdfs/PS-04.pdf?sig=abc#page=4"
    assert with_cite_handles([_citation(uri=blob)], SECRET)[0].uri == blob  # other links are left alone


async def test_answers_carry_view_links_and_their_highlights_hold_the_quotes(sample_index, sample_knowledge):
    """The fast form of `python -m evals.highlight_check`: a few golden questions, prose and tables."""
    from bot.memory.history import InMemoryHistoryStore
    from bot.service import AssistantService
    from events.usage_sinks import NullSink

    service = AssistantService.from_settings(sample_index, knowledge=sample_knowledge, events=NullSink(),
                                             history=InMemoryHistoryStore())
    golden = {q.id: q for q in load_golden()}
    checks = []
    for question_id in ("s-ps04-01", "s-ps03-03", "s-ps08-01", "s-x-02"):
        question = golden[question_id]
        async for event in service.ask(question.question, User("eval", platform="eval"), question_id):
            if isinstance(event, FinalEvent):
                assert event.answer.citations, question_id
                for citation in event.answer.citations:
                    assert "/view?" in citation.uri and "cite=" in citation.uri
                    checks.append(check_citation(citation, sample_knowledge, (), question_id))
    assert {c.kind for c in checks} == {"text", "table"}
    assert all(c.correct for c in checks), [c for c in checks if not c.correct]


def test_markdown_is_rendered_with_raw_html_escaped():
    rendered = answer_html("<script>alert(1)</script> **bold** [x](javascript:alert(1)) [1]\n\n| a | b |\n|---|---|\n| 1 | 2 |",
                           {1: "/sources/PS-04/view?page=4&cite=x"}.get)
    assert "<script>" not in rendered and "&lt;script&gt;" in rendered
    assert 'href="javascript:' not in rendered
    assert "<strong>bold</strong>" in rendered and "<table>" in rendered
    assert '<a href="/sources/PS-04/view?page=4&amp;cite=x"' in rendered
    assert fold("ﬁnancial")[0] == "financial"
