"""Section references the offline model follows: in the question ("Summarise section 2.2 …") and
in a quoted passage ("… as set out in Rulebook PS-08, section 3.3").

A reference is (rulebook id or None for "this rulebook", section number). Only numbered
sections are recognised; the section tool itself answers a reference that does not exist with
the sections that do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SECTION_WORD = r"(?:section|sectie|hoofdstuk|abschnitt|kapitel|paragraphe|paragraaf|article|artikel|§)"
_NUMBER = r"(?P<section>(?:[A-Z]\.)?\d+(?:\.\d+)*)"
_RULEBOOK_ID = r"(?P<rulebook>[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d+[A-Z0-9-]*)"
_RULEBOOK_WORD = r"(?:rulebook|regelboek|r[eè]glement|regelwerk|specification|schedule|document)"
# "Rulebook PS-08, section 3.3", "PS-06 section 3.2"
_ID_THEN_SECTION = re.compile(rf"(?:{_RULEBOOK_WORD}\s+)?{_RULEBOOK_ID}\s*,?\s+{_SECTION_WORD}\s*{_NUMBER}",
                              re.IGNORECASE)
# "section 3.3 of Rulebook PS-08", "sectie 4.2 van PS-05-NL"
_SECTION_THEN_ID = re.compile(rf"{_SECTION_WORD}\s*{_NUMBER}\s+(?:of|van|de|du|des|von|der)\s+(?:the\s+)?"
                              rf"(?:{_RULEBOOK_WORD}\s+)?{_RULEBOOK_ID}", re.IGNORECASE)
_SECTION_ONLY = re.compile(rf"\b{_SECTION_WORD}\s*{_NUMBER}(?![\d.]*\d)", re.IGNORECASE)
_SUMMARY = re.compile(
    r"\b(summari[sz]e|summary|outline|overview|what\s+does\s+(?:the\s+)?section|what\s+is\s+in\s+section|"
    r"vat\s+.{0,20}samen|samenvatting|wat\s+staat\s+er\s+in|wat\s+zegt\s+(?:de\s+)?sectie|"
    r"r[ée]sum|que\s+dit\s+la\s+section|zusammenfass|was\s+steht\s+in|was\s+sagt\s+(?:der\s+)?abschnitt)",
    re.IGNORECASE)


@dataclass(frozen=True)
class SectionReference:
    rulebook_id: str | None  # None: the rulebook the text is from
    section: str

    def resolved(self, own_rulebook: str) -> tuple[str, str]:
        return (self.rulebook_id or own_rulebook, self.section.rstrip("."))


def references(text: str) -> list[SectionReference]:
    """The section references a passage makes, in order of appearance."""
    found: list[tuple[int, SectionReference]] = []
    covered: list[tuple[int, int]] = []
    for pattern in (_ID_THEN_SECTION, _SECTION_THEN_ID):
        for m in pattern.finditer(text):
            found.append((m.start(), SectionReference(m.group("rulebook").upper(), m.group("section"))))
            covered.append(m.span())
    for m in _SECTION_ONLY.finditer(text):
        if not any(a <= m.start() < b for a, b in covered):
            found.append((m.start(), SectionReference(None, m.group("section"))))
    return [ref for _, ref in sorted(found, key=lambda item: item[0])]


def asked_section(question: str) -> SectionReference | None:
    """The section the question names, if it names one."""
    refs = references(question)
    return refs[0] if refs else None


def wants_whole_section(question: str) -> bool:
    """Does the question ask what a named section says as a whole (a summary), not one fact in it?"""
    return asked_section(question) is not None and bool(_SUMMARY.search(question))
