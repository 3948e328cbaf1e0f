"""The sources card: valid Adaptive Card 1.5 (Microsoft's JSON schema, vendored), and rendered by
Microsoft's own `adaptivecards` JavaScript renderer in headless Chromium."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import jsonschema
import pytest

from bot.answer import Answer, AnswerTable, Citation
from cards.adaptive_card import answer_card, copy_dialog_card
from tests.teams import activities
from tests.teams.conftest import skip_or_fail

SCHEMAS = Path(__file__).parent / "schemas"
REPO = Path(__file__).resolve().parents[2]
RENDERER = REPO / ".ci" / "node" / "node_modules" / "adaptivecards" / "dist" / "adaptivecards.min.js"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run",
                  "--allow-file-access-from-files"]


@pytest.fixture(scope="module")
def card_schema() -> jsonschema.Draft6Validator:
    schema = json.loads((SCHEMAS / "adaptive-card.1.5.schema.json").read_text(encoding="utf-8"))
    return jsonschema.Draft6Validator(schema)


def _answer() -> Answer:
    quote = "Fees for instant credit transfers are charged per transaction as set out in Table 3 " * 3
    return Answer(
        text="An instant payment must complete within **10 seconds** [1]. The fees are in the table [2].",
        outcome="answered",
        citations=[
            Citation(1, "PS-04", "Instant Payments Rulebook", ["4", "4.2"], "Execution time", 12,
                     "http://127.0.0.1:3978/sources/PS-04?page=12#page=12",
                     "The maximum execution time shall be 10 seconds.", "en", "PS-04:7"),
            Citation(2, "PS-04", "Instant Payments Rulebook", ["5"], "Fees", 14,
                     "http://127.0.0.1:3978/sources/PS-04?page=14#page=14", quote, "en", "PS-04:9",
                     translation_note="Quoted in English; the rulebook's Dutch version governs."),
        ],
        tables=[AnswerTable(["Scheme", "Fee per payment"], [["Instant", "EUR 0.20"], ["Batch", "EUR 0.10"]],
                            citation_n=2, caption="Fees")],
        message_id="ans-42", conversation_id="teams:a:1",
    )


def _errors(validator, instance) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:160]}" for e in validator.iter_errors(instance)]


def test_answer_card_is_valid_adaptive_card_1_5(card_schema):
    card = answer_card(_answer())
    assert card["version"] == "1.5"
    assert _errors(card_schema, card) == []
    assert any(e["type"] == "Table" for e in card["body"])
    assert _errors(card_schema, copy_dialog_card("plain text")) == []


def test_schema_check_catches_a_broken_card(card_schema):
    card = answer_card(_answer())
    card["body"].append({"type": "TableCell", "items": "not a list"})
    assert _errors(card_schema, card)


async def test_card_sent_to_teams_is_valid(server, connector, card_schema):
    await server.post(activities.message(connector.url, "Can I pay with my fridge?"))
    calls = await connector.wait_for(lambda cs: any(c.type == "message" for c in cs))
    final = [c for c in calls if c.type == "message"][-1]
    cards = [a["content"] for a in final.body.get("attachments") or []]
    assert cards, "the final answer carries the sources card"
    for card in cards:
        assert _errors(card_schema, card) == []


def _render(card: dict, tmp_path: Path) -> str:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        skip_or_fail("Chromium is not installed (Debian: apt-get install -y chromium)")
    if not RENDERER.is_file():
        skip_or_fail("the adaptivecards renderer is not installed (npm install --prefix .ci/node adaptivecards)")
    page = tmp_path / "card.html"
    page.write_text(f"""<!doctype html><html><head><meta charset="utf-8">
<script src="{RENDERER.as_uri()}"></script></head><body><div id="card"></div><script>
try {{
  const card = new AdaptiveCards.AdaptiveCard();
  card.parse({json.dumps(card)});
  document.getElementById("card").appendChild(card.render());
  document.body.setAttribute("data-rendered", "yes");
}} catch (error) {{
  document.body.setAttribute("data-rendered", "error: " + error);
}}
</script></body></html>""", encoding="utf-8")
    result = subprocess.run(
        [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def _visible_text(dom: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "\n", dom))


def test_card_renders_in_chromium_with_microsofts_renderer(tmp_path):
    dom = _render(answer_card(_answer()), tmp_path)
    assert 'data-rendered="yes"' in dom, dom[-2000:]
    text = _visible_text(dom)
    assert "[1] Instant Payments Rulebook" in text
    assert "Section 4.2 Execution time · page 12" in text
    assert "Section 5 Fees · page 14" in text
    buttons = re.findall(r"<button[^>]*aria-label=\"([^\"]+)\"", dom)
    assert "Open at page 12" in buttons and "Open at page 14" in buttons and "Copy answer" in buttons
    assert 'role="table"' in dom and "EUR 0.20" in text


def test_broken_card_does_not_render_its_content(tmp_path):
    # the check above can fail: a card the renderer cannot read shows none of the sources
    dom = _render({"type": "AdaptiveCard", "version": "1.5", "body": "nonsense"}, tmp_path)
    assert "Open at page" not in dom
