"""A question in a personal chat streams natively (streaminfo typing activities) and ends in one
final message carrying the answer, native citations, the AI label, feedback and the sources card."""

from __future__ import annotations

import re

import aiohttp

from tests.teams import activities
from tests.teams.conftest import UPDATE_INTERVAL, start_server
from tests.teams.connector_standin import ConnectorCall

QUESTION = "Can I pay with my fridge?"


def _final_message(calls: list[ConnectorCall]) -> ConnectorCall | None:
    for call in calls:
        info = call.stream_info()
        if call.type == "message" and info and info.get("streamType") == "final":
            return call
    return None


async def test_personal_question_streams_then_ends_in_one_cited_final_message(tmp_path, sample_index,
                                                                              sample_knowledge, connector):
    # the final answer one interval after the last text, as a hosted model still writing: text whose
    # final answer follows at once is not streamed (tests/load/test_final_settles.py)
    server, runner = await start_server(tmp_path, sample_index, sample_knowledge, final_delay=UPDATE_INTERVAL)
    try:
        inbound = activities.message(connector.url, QUESTION)
        status, _ = await server.post(inbound)
        assert status in (200, 201, 202)
        calls = await connector.wait_for(lambda cs: _final_message(cs) is not None)
    finally:
        await runner.cleanup()
        server.event_log.close()
    typing = [c for c in calls if c.type == "typing"]
    messages = [c for c in calls if c.type == "message"]
    assert len(messages) == 1, "exactly one message: the final one"
    final = messages[0]

    # every call replies to the question, in the question's conversation
    assert {c.conversation_id for c in calls} == {inbound["conversation"]["id"]}
    assert {c.activity_id for c in calls} == {inbound["id"]}

    # informative first, then streaming text; sequence 1, 2, 3 …; the first response id is the stream id
    kinds = [c.stream_info()["streamType"] for c in typing]
    assert kinds[0] == "informative"
    assert "streaming" in kinds
    assert kinds.index("streaming") > 0 and "informative" not in kinds[kinds.index("streaming"):]
    assert [c.stream_info()["streamSequence"] for c in typing] == list(range(1, len(typing) + 1))
    stream_id = typing[0].returned_id
    assert stream_id and "streamId" not in typing[0].stream_info()
    assert all(c.stream_info()["streamId"] == stream_id for c in typing[1:])

    # streamed text only grows (each update starts with the previous one)
    streamed = [c.body["text"] for c in typing if c.stream_info()["streamType"] == "streaming"]
    assert all(later.startswith(earlier) for earlier, later in zip(streamed, streamed[1:], strict=False))

    # at most one update per interval, the final one included
    times = [c.at for c in typing] + [final.at]
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert min(gaps) >= UPDATE_INTERVAL * 0.5, gaps

    # the final message closes the stream: streamType final, the stream id, no sequence
    info = final.stream_info()
    assert info["streamId"] == stream_id and "streamSequence" not in info
    assert final.body["channelData"]["feedbackLoop"] == {"type": "default"}  # the SDK's feedback buttons

    # citations: one claim per source, positions = the [n] markers in the text
    [answer] = server.service.answers
    assert answer.outcome == "answered" and answer.citations
    entity = final.message_entity()
    assert entity["additionalType"] == ["AIGeneratedContent"]
    markers = {int(n) for n in re.findall(r"\[(\d+)\]", final.body["text"])}
    claims = entity["citation"]
    assert {c["position"] for c in claims} == markers
    for claim in claims:
        appearance = claim["appearance"]
        assert claim["@type"] == "Claim" and appearance["@type"] == "DigitalDocument"
        assert len(appearance["name"]) <= 80 and len(appearance["abstract"]) <= 160
        assert appearance["url"].startswith(f"{server.url}/sources/")
        assert f"page={_page_of(appearance['url'])}" in appearance["url"]
    assert final.body["text"] == answer.text
    assert {c["position"] for c in claims} == {c.n for c in answer.citations}
    by_n = {c.n: c for c in answer.citations}
    for claim in claims:
        cited = by_n[claim["position"]]
        assert f"/sources/{cited.rulebook_id}/view?" in claim["appearance"]["url"]
        assert _page_of(claim["appearance"]["url"]) == cited.page
        assert claim["appearance"]["name"].startswith(cited.title[:40])

    # the question reached the assistant as typed, with the Teams user and a per-conversation id
    [(question, user, conversation_id)] = server.service.questions
    assert question == QUESTION and user.platform == "teams" and user.id == "aad-anna-0001"
    assert conversation_id == "teams:a:personal-anna"

    # the sources card is attached
    [attachment] = final.body["attachments"]
    assert attachment["contentType"] == "application/vnd.microsoft.card.adaptive"
    card_text = str(attachment["content"])
    for claim in claims:
        assert f"Open at page {_page_of(claim['appearance']['url'])}" in card_text


async def test_a_citation_link_opens_the_pdf_at_the_cited_page(server, connector):
    await server.post(activities.message(connector.url, QUESTION))
    calls = await connector.wait_for(lambda cs: _final_message(cs) is not None)
    claim = _final_message(calls).message_entity()["citation"][0]
    url = claim["appearance"]["url"]
    async with aiohttp.ClientSession() as session:
        async with session.get(url, allow_redirects=False) as response:  # the page view (issue 16)
            assert response.status == 200 and "Open the PDF at this page" in await response.text()
        async with session.get(url.replace("/view?", "?"), allow_redirects=False) as response:
            assert response.status == 302
            location = response.headers["Location"]
        assert location.endswith(f"#page={_page_of(url)}")
        async with session.get(server.url + location.split("#")[0]) as response:
            assert response.status == 200 and response.headers["Content-Type"] == "application/pdf"
            assert (await response.read()).startswith(b"%PDF")
    [answer] = server.service.answers
    click = server.events("source_click")[0]  # the page view's; opening the PDF from it is logged too
    assert click.platform == "teams" and click.message_id == answer.message_id and click.data["view"]
    assert click.data["page"] == _page_of(url)


def _page_of(url: str) -> int:
    return int(re.search(r"[?&]page=(\d+)", url).group(1))
