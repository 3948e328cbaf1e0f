"""The one sentence splitter: a streamed draft (or any text) cut into sentences, lines and table rows.

The citation gate judges a draft by these units as they stream (`SentenceStream`); everything
else that needs sentences — the support check's quotes, the summary's opening sentences, the
eval that scores the gate's citations, the personas' leak check, Teams' message parts — splits
whole texts the same way (`split_sentences`), so they all agree with the gate.

Rules (the offline model writes its answers so that each quoted source sentence is one unit):
- A line that starts with "|" is a table row; it ends at the newline, never at a full stop.
- Otherwise a unit ends at a newline, or at ".", "!" or "?" followed by whitespace — with any
  citation markers right after the stop ("… is accepted. [PS-04:12]") kept with the sentence.
  While the text after a stop is still only whitespace, the unit is not yet complete: a citation
  may be on its way, or the next word may show that the stop was not an end.
- A full stop is not an end:
  - after a known abbreviation of English, Dutch, French or German ("e.g.", "i.e.", "bzw.",
    "z.B.", "d.h.", "bijv.", "p.ex.", "r. f. u."): a single letter followed by a stop is an
    abbreviation or an initial as well;
  - after a word that introduces a number ("No.", "Nr.", "Art.", "p.", "Abs.") when a number follows;
  - when the next word starts in lower case ("etc. and", "usw. und", "2 Hz bzw. 20 Hz" is caught
    by the list) — a new sentence starts with a capital, a digit or a symbol;
  - after a bare enumerator at the start of a unit ("1.", "4.2.1.", "a.").
  Times, decimals and section numbers ("15:30", "2.50", "4.2.1") never contain a stop followed
  by white space, so they are not cut.
- The text between units (spaces, blank lines) is kept, so that releasing every unit in order
  gives back the draft exactly.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

_CITATION_RUN = re.compile(r"(?:[ \t]*\[[^\[\]\n]{1,80}\](?!\())+")
# Abbreviations that never end a sentence, by language (lower case, inner stops kept, final dropped).
_ABBREVIATIONS_BY_LANGUAGE = {
    "en": "e.g i.e cf vs approx incl excl resp esp viz mr mrs ms dr st jr ltd inc corp dept min max "
          "jan feb mar apr jun jul aug sep sept oct nov dec",
    "nl": "bijv bv o.a m.b.t t.a.v d.w.z m.a.w i.p.v i.v.m e.d e.a zgn evt ca dhr mevr mr drs ir ing "
          "jl vnl resp",
    "fr": "p.ex ex env cf mme mlle mm av apr c.-à-d c.à.d càd cad resp",
    "de": "z.b d.h u.a bzw ca ggf inkl evtl vgl bspw sog u.u z.t i.d.r o.g u.v.m r.f.u dgl usf zzgl "
          "abzgl ggü zb dh",
}
_ABBREVIATIONS = frozenset(w for words in _ABBREVIATIONS_BY_LANGUAGE.values() for w in words.split())
# Words that introduce a number: an abbreviation only when a number follows ("No. 5", "Art. 3").
_NUMBER_WORD_LIST = "no nr nos art arts p pp para paras fig figs sec ch chap vol abs s blz n°"
_NUMBER_WORDS = frozenset(_NUMBER_WORD_LIST.split())
_LAST_WORD = re.compile(r"([^\W\d_]+(?:\.\s?[^\W\d_]+)*)$")
_ENUMERATOR = re.compile(r"^\s*(?:[-*•]\s+)?(?:\d+(?:\.\d+)*|[a-zA-Z]|[ivxIVX]{1,4})$")


def _last_word(text: str) -> str:
    match = _LAST_WORD.search(text)
    return re.sub(r"\s", "", match.group(1)).lower() if match else ""


def _not_an_end(unit_before_stop: str, following: str) -> bool:
    """Is the full stop at the end of `unit_before_stop` part of the sentence (see the rules)?
    `following` is the first non-space text after the stop (and after any citations)."""
    if _ENUMERATOR.match(unit_before_stop):
        return True
    word = _last_word(unit_before_stop)
    if word:
        if word in _ABBREVIATIONS:
            return True
        if len(word) == 1 and word.isalpha():
            return True  # an initial, or one letter of "d. h." / "r. f. u."
        if "." in word and all(len(part) <= 2 for part in word.split(".")):
            return True  # "z.B", "u.a", "p.ex" style abbreviations not in the lists
        if word in _NUMBER_WORDS and following[:1].isdigit():
            return True
    first = following[:1]
    return first.isalpha() and first.islower()


class SentenceStream:
    def __init__(self) -> None:
        self._buffer = ""

    def feed(self, text: str) -> Iterator[str]:
        """Complete units (each with the whitespace that preceded it), as soon as they are complete."""
        self._buffer += text
        while True:
            end = self._unit_end(self._buffer, final=False)
            if end is None:
                return
            unit, self._buffer = self._buffer[:end], self._buffer[end:]
            yield unit

    def flush(self) -> Iterator[str]:
        """What is left when the draft is complete (still cut into sentences)."""
        while self._buffer:
            end = self._unit_end(self._buffer, final=True)
            if end is None or end >= len(self._buffer):
                unit, self._buffer = self._buffer, ""
            else:
                unit, self._buffer = self._buffer[:end], self._buffer[end:]
            yield unit

    @staticmethod
    def _unit_end(buffer: str, final: bool) -> int | None:
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
            if re.match(r"[ \t]*\[[^\]\n]*$", buffer[p:]) and not final:
                return None  # a citation has begun after the stop and is not closed yet
            citations = _CITATION_RUN.match(buffer, p)
            if citations:
                p = citations.end()
                # a citation run reaching the end of what has arrived may still be growing
                if p == len(buffer) and not final:
                    return None
                if p < len(buffer) and buffer[p] == ".":
                    p += 1
            rest = buffer[p:limit]
            following = rest.lstrip()
            if not following and newline < 0 and not final:
                return None  # only whitespace so far: the next word decides
            if stop.group(0) == "." and _not_an_end(buffer[start:start + stop.start()], following):
                continue
            if rest[:1].isspace() or p == limit:
                return p
        if newline >= 0:
            return newline + 1
        return None


def split_sentences(text: str) -> list[str]:
    """A whole text's units by the gate's rules, stripped, blank ones left out."""
    stream = SentenceStream()
    units = [*stream.feed(text), *stream.flush()]
    return [unit.strip() for unit in units if unit.strip()]
