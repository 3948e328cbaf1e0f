"""Headings by type size, for documents without numbered headings (briefings, reports).

Such documents mark a heading by setting it larger than the body text (or in bold) on a short
line of its own. A heading style is one type size used for several headings in the document;
a size used once (the cover's title, the "BRIEFING" banner) is front matter, not a level. The
larger the size, the higher the level; a section's path is the titles of its open headings,
e.g. ["European Parliament", "Selected parliamentary questions", "Fraud prevention"].
A heading that wraps onto a second line of the same size opens one section, not two.
"""

from __future__ import annotations

from collections import Counter

from indexing.pdf_text import Line

MIN_SIZE_RATIO = 1.15  # of the body text's size
MIN_STYLE_USES = 2
MAX_HEADING_CHARS = 100
MAX_BOLD_HEADING_CHARS = 60
_SIZE_STEP = 0.5  # sizes within half a point are one style


class FontHeadings:
    def __init__(self, lines: list[Line], body: float) -> None:
        self.body = body
        self._lines = lines
        runs = self._runs(lines)
        uses = Counter(style for style, _ in runs)
        styles = sorted({style for style, count in uses.items() if count >= MIN_STYLE_USES},
                        key=lambda s: (-s[0], not s[1]))
        self._level = {style: level for level, style in enumerate(styles)}
        self._opens = {id(first) for style, first in runs if style in self._level}
        self._stack: list[tuple[int, str]] = []

    @property
    def found(self) -> int:
        return len(self._opens)

    def _style(self, line: Line) -> tuple[float, bool] | None:
        text = line.text.strip()
        if not text or not (text[0].isalpha() or text[0] in "\"'‘“(«") or text.endswith((",", ";")):
            return None
        size = round(line.height / _SIZE_STEP) * _SIZE_STEP
        if self.body and line.height >= self.body * MIN_SIZE_RATIO and len(text) <= MAX_HEADING_CHARS:
            return size, False
        if line.bold and self.body and line.height >= self.body * 0.95 and len(text) <= MAX_BOLD_HEADING_CHARS:
            return size, True
        return None

    def _runs(self, lines: list[Line]) -> list[tuple[tuple[float, bool], Line]]:
        """(style, first line) of each run of consecutive lines in one heading style."""
        runs: list[tuple[tuple[float, bool], Line]] = []
        previous: tuple[float, bool] | None = None
        for line in lines:
            style = self._style(line)
            if style is not None and style != previous:
                runs.append((style, line))
            previous = style
        return runs

    def detect(self, line: Line) -> tuple[list[str], str] | None:
        """(path, title) when the line opens a heading."""
        if id(line) not in self._opens:
            return None
        style = self._style(line)
        if style is None:
            return None
        level, title = self._level[style], line.text.strip()
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()
        self._stack.append((level, title))
        return [label for _, label in self._stack], title
