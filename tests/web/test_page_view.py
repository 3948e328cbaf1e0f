"""The page view over HTTP: access rules of /sources/, headers, highlight across a page break,
tables, and handles that do not verify."""

from __future__ import annotations

import re

import aiohttp
import pytest

from adapters.page_view.highlight import fold, highlight, read_back
from adapters.page_view.pdf_pages import page_chars
from adapters.source_server_links import SourceLinks
from bot.answer import Citation
from bot.source_links import cite_handle, read_cite_handle
from tests.conftest import SAMPLE_CORPUS

KID_FR = SAMPLE_CORPUS / "KID-01-FR_aurora_protection_du_capital_2030.pdf"
# KID-01-FR:7 runs from page 2 onto page 3 in the middle of this sentence
ACROSS = ("Si vous n'obtenez pas de réponse satisfaisante dans les 30 jours, vous pouvez vous adresser à "
          "l'Ombudsman en conflits financiers (Ombudsfin), www.ombudsfin.be.")


def _links(server) -> SourceLinks:
    return SourceLinks(server.settings.public_base_url, server.settings.user_hash_key)


def _citation(rulebook_id: str, page: int, quote: str, chunk_id: str = "") -> Citation:
    return Citation(1, rulebook_id, "", [], "", page, "", quote, "en", chunk_id)


async def _get(url: str) -> tuple[int, dict[str, str], str]:
    async with aiohttp.ClientSession() as session, session.get(url, allow_redirects=False) as response:
        return response.status, dict(response.headers), await response.text(errors="replace")


def _rects(body: str) -> list[tuple[float, ...]]:
    return [tuple(map(float, m)) for m in re.findall(
        r'<rect class="highlight" x="([\d.-]+)" y="([\d.-]+)" width="([\d.-]+)" height="([\d.-]+)"', body)]


async def test_restricted_rulebook_view_is_404_without_the_role(web_server):
    links = _links(web_server)
    quote = "Risk"
    unsigned = links.for_citation(_citation("PS-07", 2, quote, "PS-07:3"))
    wrong_role = links.for_citation(_citation("PS-07", 2, quote, "PS-07:3"), roles=("operations",))
    missing = links.for_citation(_citation("PS-99", 2, quote, "PS-99:3"))
    forged = unsigned.replace("page=2", "page=2&roles=risk-officer&sig=" + "0" * 32)
    bodies = []
    for url in (unsigned, wrong_role, missing, forged):
        status, headers, body = await _get(url)
        assert status == 404, url
        bodies.append(body)
    assert len(set(bodies)) == 1  # "no access" reads exactly like "not found"
    image = unsigned.replace("/view?", "/view/image?")
    assert (await _get(image))[0] == 404
    status, headers, body = await _get(links.for_citation(_citation("PS-07", 2, quote, "PS-07:3"),
                                                          roles=("risk-officer",)))
    assert status == 200 and headers["Cache-Control"].startswith("private")
    assert "Fraud" in body


async def test_view_headers_forbid_scripts_and_public_pages_cache_publicly(web_server):
    url = _links(web_server).for_citation(_citation("PS-04", 4, "Rule AT-R3: every payment device model"))
    status, headers, body = await _get(url)
    assert status == 200
    csp = headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "script-src" not in csp  # scripts fall back to 'none'
    assert headers["Cache-Control"].startswith("public")
    assert headers["Referrer-Policy"] == "no-referrer" and headers["X-Frame-Options"] == "DENY"
    assert "<script" not in body.lower()
    image = re.search(r'<image href="([^"]+)"', body).group(1).replace("&amp;", "&")
    async with aiohttp.ClientSession() as session, session.get(web_server.base_url + image) as response:
        assert response.status == 200 and response.content_type == "image/png"
        assert (await response.read())[:8] == b"\x89PNG\r\n\x1a\n"
    pdf = re.search(r'<a class="pdf" href="([^"]+)"', body).group(1).replace("&amp;", "&")
    assert pdf.startswith("/sources/PS-04?page=4")
    status, headers, _ = await _get(web_server.base_url + pdf)
    assert status == 302 and headers["Location"].endswith("#page=4")


async def test_page_out_of_range_and_bad_page_are_client_errors(web_server):
    base = web_server.base_url + "/sources/PS-04/view"
    assert (await _get(base + "?page=99"))[0] == 404
    assert (await _get(base + "?page=two"))[0] == 400


async def test_tampered_or_foreign_cite_handle_highlights_nothing(web_server):
    secret = web_server.settings.user_hash_key
    handle = cite_handle(secret, "PS-04", "PS-04:9", "Rule AT-R3: every payment device model")
    assert read_cite_handle(secret, "PS-04", handle).quote.startswith("Rule AT-R3")
    assert read_cite_handle(secret, "PS-03", handle) is None  # bound to its rulebook
    forged = handle[:-2] + ("AA" if not handle.endswith("AA") else "BB")
    assert read_cite_handle(secret, "PS-04", forged) is None
    status, _, body = await _get(f"{web_server.base_url}/sources/PS-04/view?page=4&cite={forged}")
    assert status == 200 and _rects(body) == []
    status, _, body = await _get(f"{web_server.base_url}/sources/PS-04/view?page=4&cite={handle}")
    assert status == 200 and _rects(body)


async def test_span_across_a_page_break_highlights_on_both_pages(web_server):
    links = _links(web_server)
    url = links.for_citation(_citation("KID-01-FR", 2, ACROSS, "KID-01-FR:7"))
    status, _, first = await _get(url)
    assert status == 200 and "continues on" in first
    status, _, second = await _get(url.replace("page=2", "page=3"))
    assert status == 200 and "begins on" in second
    read = ""
    for page, body in ((2, first), (3, second)):
        chars = page_chars(KID_FR, page)
        rects = _rects(body)
        assert rects, f"page {page} highlights its part of the span"
        from adapters.page_view.highlight import Rect

        as_pdf = [Rect(x + 1.5, chars.height - (y + h) + 1.5, x + w - 1.5, chars.height - y - 1.5)
                  for x, y, w, h in rects]
        read += read_back(chars, as_pdf)
    assert fold(read)[0] == fold(ACROSS)[0]


def test_table_citation_boxes_the_cited_rows_cells(sample_knowledge):
    chunk = sample_knowledge.chunk("PS-03:17")
    assert chunk is not None and chunk.has_table
    quote = ("Authorised collection, no questions asked, MD06, 8 weeks after the debit date, Amount plus "
             "compensation at the Euro Short-Term Rate")
    chars = page_chars(SAMPLE_CORPUS / "PS-03_direct_debit_rulebook.pdf", 6)
    marked = highlight(chars, quote, chunk.tables_csv)
    assert marked.kind == "table" and len(marked.rects) == 4  # one box per cell of the row
    cells = ["Authorised collection, no questions asked", "MD06", "8 weeks after the debit date",
             "Amount plus compensation at the Euro Short-Term Rate"]
    read = [fold(read_back(chars, [r]))[0] for r in marked.rects]
    for cell in cells:  # a wrapped cell is read back whole from its own box
        assert any(fold(cell)[0] in text for text in read), cell
    assert not any("unauthorised" in text for text in read)  # not the next row


@pytest.mark.parametrize("hostile", ["<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>"])
async def test_quoted_text_is_escaped_in_the_view(web_server, hostile):
    url = _links(web_server).for_citation(_citation("PS-04", 4, hostile))
    status, _, body = await _get(url)
    assert status == 200 and hostile not in body and "&lt;" in body


async def test_thumbnail_shows_the_highlighted_region_only_to_those_entitled(web_server):
    from io import BytesIO

    from PIL import Image

    links = _links(web_server)
    public = links.builder.thumbnail(_citation("PS-04", 4, "Rule AT-R3: every payment device model", "PS-04:9"),
                                     local=True)
    assert "/view/thumbnail?" in public
    async with aiohttp.ClientSession() as session, session.get(public) as response:
        assert response.status == 200 and response.content_type == "image/png"
        image = Image.open(BytesIO(await response.read()))
    assert image.width == 480 and image.height < 300  # a strip of the page, not the page
    restricted = _citation("PS-07", 2, "Risk", "PS-07:3")
    assert (await _get(links.builder.thumbnail(restricted, local=True)))[0] == 404
    assert (await _get(links.builder.thumbnail(restricted, roles=("risk-officer",), local=True)))[0] == 200
    # Teams and Slack fetch card images themselves: no thumbnail while the server is not public
    assert links.thumbnail_for(restricted) == ""
    assert SourceLinks("https://bot.example.com", "k").thumbnail_for(restricted).startswith("https://bot.example.com/")
