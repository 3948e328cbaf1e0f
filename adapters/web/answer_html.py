"""An answer's markdown as safe HTML for the web chat, with its [n] markers linked to their sources.

markdown-it with raw HTML switched off escapes every tag in the text (the answer quotes PDFs,
which anyone can write), and its link check refuses `javascript:` and similar URLs. Tables are
rendered as tables.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from markdown_it import MarkdownIt

_MARKDOWN = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")
_MARKER = re.compile(r"\[(\d{1,3})\]")


def markdown_html(text: str) -> str:
    return _MARKDOWN.render(text or "")


def answer_html(text: str, source_href: Callable[[int], str | None] | None = None) -> str:
    """The rendered answer; each [n] whose source is known becomes a link to its page view."""
    rendered = markdown_html(text)
    if source_href is None:
        return rendered

    def link(match: re.Match[str]) -> str:
        n = int(match.group(1))
        href = source_href(n)
        if not href:
            return match.group(0)
        return (f'<sup class="cite"><a href="{html.escape(href)}" target="_blank" rel="noopener noreferrer" '
                f'data-n="{n}">[{n}]</a></sup>')

    # only outside tags: a marker never sits inside an attribute of markdown-it's own output
    parts = re.split(r"(<[^>]+>)", rendered)
    return "".join(p if p.startswith("<") else _MARKER.sub(link, p) for p in parts)
