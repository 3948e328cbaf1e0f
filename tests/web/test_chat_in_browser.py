"""The web chat and the page view in real headless Chromium: a question typed into /chat streams,
its sources appear, and clicking one opens the page view with the quoted span highlighted where
the quoted characters are on the page."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from adapters.page_view.highlight import Rect, fold, read_back
from adapters.page_view.pdf_pages import page_chars
from bot.source_links import read_cite_handle
from tests.web.conftest import drive_browser

QUESTION = "Can I pay with my fridge?"
FOLLOW_UP = "And what is the limit per transaction for a connected fridge?"


def _quoted_char_boxes(chars, quote: str) -> list[tuple[float, float, float, float]]:
    """Boxes of the quote's first sentence, found in the page's own text independently of the
    highlighter (plain search of the words, white space normalised)."""
    words = quote.split()[:8]
    found = re.search(r"\s+".join(map(re.escape, words)), chars.text)
    assert found, f"the quote's opening {' '.join(words)!r} is not on the page"
    return [chars.boxes[i] for i in range(found.start(), found.end()) if not chars.text[i].isspace()]


async def test_question_streams_sources_appear_and_open_the_highlighted_page(web_server, tmp_path):
    seen = await drive_browser({"chat_url": f"{web_server.base_url}/chat", "question": QUESTION,
                                "followup": FOLLOW_UP, "out_dir": str(tmp_path)})
    (tmp_path / "seen.json").write_text(json.dumps(seen, indent=1), encoding="utf-8")  # for a look afterwards
    assert seen["chat_status"] == 200 and "script-src 'self'" in seen["chat_csp"]
    assert not [m for m in seen["console"] if m.startswith(("error", "pageerror"))], seen["console"]

    # streamed: the answer grew in several steps before it was final, and the agent's steps showed
    assert len(set(seen["lengths"])) >= 2, seen["lengths"]
    assert seen["steps"] and seen["steps"][0].startswith("Searching")
    assert "fridge" in seen["answer_text"].lower()
    assert seen["sources"], "source cards under the answer"
    first = seen["sources"][0]
    assert "/sources/PS-04/view?" in first["href"] and "cite=" in first["href"]
    assert seen["markers"] and seen["markers"][0] == first["href"]  # [1] links to the same view
    assert seen["thumbnails"] and all(0 < width <= 480 for width in seen["thumbnails"])  # the cited region

    # follow-up in the same conversation, and the usage events Teams and Slack log
    assert seen["followup_text"]
    conversations = {conversation for _, _, conversation in web_server.service.asked}
    assert len(web_server.service.asked) == 2 and len(conversations) == 1
    assert web_server.service.asked[0][1].platform == "web"
    feedback = web_server.of_kind("feedback")
    assert [(e.platform, e.data["value"], e.data["via"]) for e in feedback] == [("web", "positive", "button")]
    answer_events = [e for e in web_server.of_kind("answer")]
    assert feedback[0].message_id == answer_events[0].message_id
    assert [e.platform for e in web_server.of_kind("copy")] == ["web"]
    assert "Copied" in seen["copy_status"]

    # the page view: the page image, and the highlight where the quoted characters are
    assert seen["image_status"] == 200
    view = seen["view"]
    assert view["scripts"] == 0
    assert view["title"] == "Card and Device Acceptance Rulebook"
    assert "version 2025.1" in view["meta"] and "3.1" in view["section"]
    assert any(n["text"] == "Open the PDF at this page" for n in view["nav"])
    assert view["rects"], "the cited span is highlighted"
    query = parse_qs(urlsplit(seen["view_url"]).query)
    page = int(query["page"][0])
    span = read_cite_handle(web_server.settings.user_hash_key, "PS-04", query["cite"][0])
    assert span is not None
    from tests.conftest import SAMPLE_CORPUS

    chars = page_chars(SAMPLE_CORPUS / "PS-04_card_and_device_acceptance_rulebook.pdf", page)
    assert view["viewBox"][2:] == [round(chars.width, 2), round(chars.height, 2)]
    # from screen pixels back to PDF points, through the rendered size of the page
    scale = view["svg"]["width"] / chars.width
    rects = [Rect(left=(r["client"]["x"] - view["svg"]["x"]) / scale,
                  top=chars.height - (r["client"]["y"] - view["svg"]["y"]) / scale,
                  right=(r["client"]["x"] - view["svg"]["x"] + r["client"]["width"]) / scale,
                  bottom=chars.height - (r["client"]["y"] - view["svg"]["y"] + r["client"]["height"]) / scale)
             for r in view["rects"]]
    boxes = _quoted_char_boxes(chars, span.quote)
    assert all(any(r.contains_centre(box) for r in rects) for box in boxes)
    # and nothing far from the quote: the highlighted text is the quote (letters and digits)
    assert fold(read_back(chars, rects))[0] == fold(span.quote)[0]
    assert (Path(tmp_path) / "page-view.png").stat().st_size > 10_000
    assert (Path(tmp_path) / "chat.png").stat().st_size > 10_000
    clicks = [e for e in web_server.of_kind("source_click") if e.data.get("view")]
    assert clicks and clicks[0].platform == "web" and clicks[0].message_id == answer_events[0].message_id
