"""Cut a streamed draft into units the citation gate can judge: sentences, lines and table rows.

Rules (the offline model writes its answers so that each quoted source sentence is one unit):
- A line that starts with "|" is a table row; it ends at the newline, never at a full stop.
- Otherwise a unit ends at a newline, or at ".", "!" or "?" followed by whitespace — with any
  citation markers right after the stop ("… is accepted. [PS-04:12]") kept with the sentence.
  While the text after a stop is still only whitespace, the unit is not yet complete: a citation
  may be on its way.
- A stop after a known abbreviation ("e.g.", "art.", "nr.") does not end a sentence.
- The text between units (spaces, blank lines) is kept, so that releasing every unit in order
  gives back the draft exactly.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_CITATION_RUN = re.compile(r"(?:[ \t]*\[[^\[\]\n]{1,80}\](?!\())+")
_ABBREVIATION_WORDS = (
    "e.g i.e etc cf vs no nr art p pp para fig incl approx resp bijv z.b d.h u.a ca mr mrs dr st"
)
_ABBREVIATIONS = frozenset(_ABBREVIATION_WORDS.split())


def _is_abbreviation(text: str, stop: int) -> bool:
    word = re.search(r"([^\W\d_]+(?:\.[^\W\d_]+)*)$", text[:stop])
    return bool(word) and word.group(1).lower() in _ABBREVIATIONS


class SentenceStream:
    def __init__(self) -> None:
        self._buffer = ""

    def feed(self, text: str) -> Iterator[str]:
        """Complete units (each with the whitespace that preceded it), as soon as they are complete."""
        self._buffer += text
        while True:
            end = self._unit_end(self._buffer)
            if end is None:
                return
            unit, self._buffer = self._buffer[:end], self._buffer[end:]
            yield unit

    def flush(self) -> Iterator[str]:
        """What is left when the draft is complete."""
        if self._buffer:
            unit, self._buffer = self._buffer, ""
            yield unit

    @staticmethod
    def _unit_end(buffer: str) -> int | None:
        start = len(buffer) - len(buffer.lstrip())
        if start == len(buffer):
            return None
        newline = buffer.find("\n", start)
        if buffer[start] == "|":
            return newline + 1 if newline >= 0 else None
        limit = newline if newline >= 0 else len(buffer)
        for stop in re.finditer(r"[.!?](?=[\s\"'”’»)\]]|$)", buffer[start:limit]):
            p = start + stop.end()
            while p < limit and buffer[p] in "\"'”’»)":
                p += 1
            if stop.group(0) == "." and _is_abbreviation(buffer, start + stop.start()):
                continue
            if re.match(r"[ \t]*\[[^\]\n]*$", buffer[p:]):
                return None  # a citation has begun after the stop and is not closed yet
            citations = _CITATION_RUN.match(buffer, p)
            if citations:
                p = citations.end()
                # a citation run reaching the end of what has arrived may still be growing
                if p == len(buffer):
                    return None
                if buffer[p] == ".":
                    p += 1
            rest = buffer[p:limit]
            if p == len(buffer) or (not rest.strip() and newline < 0):
                return None  # only whitespace so far: a citation may still follow the stop
            if rest[:1].isspace() or p == limit:
                return p
        if newline >= 0:
            return newline + 1
        return None
