"""The parts of a document a question names ("Annex D", "section 6", "Kapitel D", "hoofdstuk 4") and
whether the documents it is about have them.

A question about a part that does not exist ("What does Annex D of the QR-IID document contain?",
when the document has no annexes) must be refused: the passages a search finds for it are about
the same topic and would be quoted as if they were that part. A part exists in a rulebook when its
headings number one like it (section keys "6", "6.2", "Annex II 3", "C.4.2"; titles "Annex III
Risk Management") or its text names one ("New chapter 5: …" in a change document, "see Annex IV").

Labels are compared by kind, whatever the language's word for the part: a number or a letter for a
section or chapter (rulebooks number chapters and sections alike), a letter, a Roman numeral or a
number for an annex or appendix. Only a part followed by its label counts ("section 5.7", not "the
information section of the receipt").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from knowledge.payload import ChunkPayload

_SECTION_WORDS = r"section|sectie|abschnitt|paragraphe|paragraaf|§|chapter|chapitre|kapitel|hoofdstuk"
_ANNEX_WORDS = r"annex|annexe|anhang|anlage|bijlage|appendix|appendice"
_ROMAN = r"(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})"
_LABEL = rf"(?P<label>\d+(?:\.\d+)*|{_ROMAN}|[A-Z])(?![\w-])"
# "Annex D", "section 5.7", "Kapitel D", "hoofdstuk 4"; the label must follow the word (a letter label
# in capitals: "chapter a" is no chapter A)
_PART = re.compile(rf"(?<![\w-])(?P<word>{_SECTION_WORDS}|{_ANNEX_WORDS})\.?\s+{_LABEL}", re.IGNORECASE)
_ANNEX = re.compile(rf"^(?:{_ANNEX_WORDS})$", re.IGNORECASE)
# a heading's key or title that numbers an annex: "Annex II 3", "Annex III Risk Management"
_ANNEX_HEADING = re.compile(rf"^(?:{_ANNEX_WORDS})\s+(?P<label>{_ROMAN}|[A-Z]|\d+)(?![\w-])", re.IGNORECASE)
# a section key: "6", "4.3.2", "C.4.2", "A"
_SECTION_KEY = re.compile(r"^(?P<label>(?:[A-Z]\.)?\d+(?:\.\d+)*|[A-Z])\.?$")


@dataclass(frozen=True)
class Part:
    kind: str  # "section" (a section or chapter) or "annex" (an annex or appendix)
    label: str  # folded: "6", "5.7", "d", "iv"
    text: str  # as the question writes it: "Anhang G"

    @property
    def key(self) -> tuple[str, str]:
        return self.kind, self.label


def _kind(word: str) -> str:
    return "annex" if _ANNEX.match(word) else "section"


def named_parts(question: str) -> list[Part]:
    """The document parts the question names, in order."""
    parts: list[Part] = []
    for m in _PART.finditer(question):
        label = m.group("label")
        if not label or (not label[0].isdigit() and label != label.upper()):
            continue  # "chapter a", "section i": words, not labels
        part = Part(_kind(m.group("word")), label.casefold(), m.group(0))
        if part.key not in {p.key for p in parts}:
            parts.append(part)
    return parts


def chunk_parts(chunk: ChunkPayload) -> set[tuple[str, str]]:
    """The parts a chunk shows exist: by its headings (section keys and the annex titles above it)
    and by what its text names."""
    found: set[tuple[str, str]] = set()
    for key in [*chunk.section_path, chunk.section_key]:
        found |= _key_parts(key)
    for title in [*chunk.parent_titles, chunk.section_title or ""]:
        if m := _ANNEX_HEADING.match(title.strip()):
            found.add(("annex", m.group("label").casefold()))
    for text in (chunk.text, *chunk.tables_csv):
        for m in _PART.finditer(text):
            kind, label = _kind(m.group("word")), m.group("label").casefold()
            found |= _prefixes(label) if kind == "section" else {(kind, label)}
    return found


def _key_parts(key: str) -> set[tuple[str, str]]:
    key = key.strip()
    if m := _ANNEX_HEADING.match(key):
        return {("annex", m.group("label").casefold())}
    if m := _SECTION_KEY.match(key):
        return _prefixes(m.group("label").casefold())
    return set()


def _prefixes(label: str) -> set[tuple[str, str]]:
    """"c.4.2" -> section c.4.2, c.4, c (a chapter C has a section C.4.2); "4.3" -> 4.3 and 4."""
    pieces = label.split(".")
    return {("section", ".".join(pieces[:n])) for n in range(1, len(pieces) + 1)}


def missing_parts(parts: Iterable[Part], held: Iterable[tuple[str, str]]) -> list[str]:
    """The parts (`named_parts` of a question) that `held` (the parts of the documents it is about)
    lacks, as the question writes them."""
    have = set(held)
    return [p.text for p in parts if p.key not in have]
