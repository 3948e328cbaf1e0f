"""A short summary of each rulebook, attached to every one of its chunks.

Offline (the default): extractive, from the title, the top-level headings and the opening
sentences of the first prose. With a chat model configured (settings.chat_model other than
"offline"), that model writes it from the same material; any failure falls back to extractive.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from indexing.section_builder import Section
from knowledge.sentences import split_sentences

if TYPE_CHECKING:
    from config.settings import Settings

log = logging.getLogger(__name__)

MAX_SUMMARY_CHARS = 700
# the material follows the prompt after a blank line
_PROMPT = (Path(__file__).parent / "prompts" / "summary.md").read_text(encoding="utf-8").strip() + "\n\n"


def extractive_summary(title: str, sections: list[Section]) -> str:
    headings = [s.title for s in sections if len(s.path) == 1 and s.title][:12]
    opening = ""
    for section in sections:
        prose = [b.text for b in section.blocks[1 if section.path else 0:] if not b.is_table and len(b.text) > 80]
        if prose:
            opening = " ".join(split_sentences(prose[0])[:2])
            break
    parts = [title.strip()]
    if headings:
        parts.append("Sections: " + "; ".join(headings) + ".")
    if opening:
        parts.append(opening)
    summary = " ".join(p for p in parts if p)
    return summary if len(summary) <= MAX_SUMMARY_CHARS else summary[:MAX_SUMMARY_CHARS - 1].rstrip() + "…"


def summarise(title: str, sections: list[Section], settings: Settings) -> str:
    extractive = extractive_summary(title, sections)
    if settings.chat_model == "offline":
        return extractive
    try:
        from langchain.chat_models import init_chat_model

        model = init_chat_model(settings.chat_model)
        material = extractive + "\n\n" + "\n\n".join(s.text for s in sections)[:6000]
        reply = model.invoke(_PROMPT + material)
        text = str(getattr(reply, "content", reply)).strip()
        return text[:MAX_SUMMARY_CHARS] or extractive
    except Exception as exc:  # noqa: BLE001 — a summary is a nicety; the index must not fail for it
        log.warning("summary by %s failed (%s); using the extractive summary", settings.chat_model, exc)
        return extractive
