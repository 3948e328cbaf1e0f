"""GET /sources/{rulebook_id}?page=N on the real index: logs the click, redirects to the PDF with
#page=N, serves the bytes as application/pdf; a rulebook the link does not grant, or that does
not exist, is a 404 either way."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import aiohttp

from adapters.source_server_links import SourceLinks


async def _get(url: str, follow: bool = False) -> tuple[int, dict, bytes]:
    async with aiohttp.ClientSession() as session, session.get(url, allow_redirects=follow) as response:
        return response.status, dict(response.headers), await response.read()


def _links(server) -> SourceLinks:
    return SourceLinks(server.settings.public_base_url, server.settings.user_hash_key)


async def test_public_rulebook_opens_at_the_page_and_the_click_is_logged(server):
    url = _links(server).url("PS-04", 4, platform="teams", message_id="ans-9")
    status, headers, _ = await _get(url)
    assert status == 302
    location = headers["Location"]
    assert location.endswith("#page=4")
    assert urlsplit(location).path.startswith("/sources/PS-04/") and ".pdf" in location

    status, headers, body = await _get(server.url + location.split("#")[0])
    assert status == 200
    assert headers["Content-Type"] == "application/pdf"
    assert body.startswith(b"%PDF")

    [click] = server.events("source_click")
    assert click.data == {"rulebook_id": "PS-04", "page": 4}
    assert click.platform == "teams" and click.message_id == "ans-9"


async def test_restricted_rulebook_needs_a_link_signed_for_its_role(server):
    links = _links(server)
    unsigned = links.url("PS-07", 2)
    assert (await _get(unsigned))[0] == 404

    signed = links.url("PS-07", 2, roles=("risk-officer",))
    status, headers, _ = await _get(signed)
    assert status == 302
    # the file link carries the grant on; a copy without it opens nothing
    file_url = server.url + headers["Location"].split("#")[0]
    assert parse_qs(urlsplit(file_url).query)["roles"] == ["risk-officer"]
    status, headers, body = await _get(file_url)
    assert status == 200 and body.startswith(b"%PDF")
    assert (await _get(file_url.split("?")[0]))[0] == 404

    tampered = signed.replace("risk-officer", "risk-officer,operations")
    assert (await _get(tampered))[0] == 404
    wrong_role = links.url("PS-07", 2, roles=("operations",))
    assert (await _get(wrong_role))[0] == 404


async def test_unknown_rulebook_reads_like_a_hidden_one(server):
    links = _links(server)
    missing = await _get(links.url("PS-99", 1))
    hidden = await _get(links.url("PS-07", 1))
    assert missing[0] == hidden[0] == 404
    assert missing[2] == hidden[2]
    assert server.events("source_click") == []


async def test_bad_page_is_a_clear_400(server):
    status, _, body = await _get(f"{server.url}/sources/PS-04?page=four")
    assert status == 400 and b"page" in body


async def test_healthz(server):
    status, _, body = await _get(f"{server.url}/healthz")
    assert status == 200 and b'"status": "ok"' in body
