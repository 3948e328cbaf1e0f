"""Section headers by regular expressions, checked against the document's own numbering.

Recognised headers:
- numbered: "4", "4.2", "4.2.1 Title" (up to six levels; the first part at most two digits, the
  others at most three: a national addendum numbers its message items 2.1 … 2.99, 2.100 … 2.140, and
  with two digits every item after 2.99 ran on inside "2.99 Unstructured", cited under its number);
- chapters: "Chapter 3 Title" (also Hoofdstuk / Chapitre / Kapitel), path ["3"];
- annexes: "Annex II Title" (Bijlage / Annexe / Anhang / Appendix); numbering restarts inside, so
  an annex's sections carry its name: ["Annex II", "Annex II 4", "Annex II 4.1"];
- lettered parts: "A. Einleitung", "B. Generelle Festlegungen" (A, B, C… in order), numbered
  inside by letter: "B.1 Standardabläufe" -> ["B", "B.1"], "B.1.1 …" -> ["B", "B.1", "B.1.1"];
- rule ids: "AT-R3 Title", a child of the numbered section it appears in;
- a message guide's constraints ("C26 PartialOrRejectedCancellationRule": a number and one run-together
  name), each a child of the "Constraints" section it stands in, keyed with that section's number
  ("5.3 C26"), since every message numbers its constraints from C1 again. Read as one section, a
  message's thirty rules were packed into chunks by size, so no chunk was about one rule;
- in key information documents, the PRIIPs section titles in English, Dutch, French and German
  (a document with three or more of them is read as a KID and chunked on those sections only).

A regular expression alone finds too much: footnotes ("4 Please refer to…"), numbered list items,
amounts, dates, table-of-contents lines. So a candidate must also
- not be a contents line: a header pattern ending in a page number next to another such line, or
  with dot leaders ("4.2 Title .......... 17");
- be set at least as large as the body text (footnotes are smaller), and look like a title
  (starts with a capital, not too long, does not end like a sentence fragment);
- follow the current number plausibly: a child (4.2 -> 4.2.1), a next sibling or an ancestor's
  next sibling, allowing a few skipped numbers (4.2.1 -> 4.3, 4.2 -> 5) but never going back.
Table cells never reach this module: their text is taken out of the flow before.

A document in which these patterns find fewer than `MIN_PATTERN_HEADINGS` headings (a briefing
or report whose headings carry no numbers) is read by type size instead (font_headings.py),
when that finds more.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field

from indexing.font_headings import FontHeadings
from indexing.pdf_text import Line

MAX_TITLE_CHARS = 120
MAX_SKIP = 3
HEIGHT_TOLERANCE = 0.9
MIN_PATTERN_HEADINGS = 3
LETTER_PART_MIN_RATIO = 1.15  # of the body text's size, for a lettered part not set in bold

_NUMBERED = re.compile(r"^(\d{1,2}(?:\.\d{1,3}){0,5})\.?\s+(\S.*)$")
_LETTERED = re.compile(r"^([A-Z])\.(\d{1,2}(?:\.\d{1,3}){0,4})\.?\s+(\S.*)$")
_LETTER_PART = re.compile(r"^([A-Z])\.\s+(\S.*)$")
_CHAPTER = re.compile(r"(?i)^(?:chapter|hoofdstuk|chapitre|kapitel)\s+(\d{1,2}|[IVXL]{1,6})\b[\s.:\-–—]*(.*)$")
_ANNEX = re.compile(r"(?i)^(annex|annexe|bijlage|anhang|appendix)\s+([IVXL]{1,6}|\d{1,2}|[A-Z])\b[\s.:\-–—]*(.*)$")
_RULE_ID = re.compile(r"^([A-Z]{2,5}-[A-Z]{0,2}\d{1,4})\b[\s.:\-–—]+(\S.*)$")
_CONSTRAINT = re.compile(r"^(C\d{1,3})\s+([A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+)$")
_CONSTRAINTS_TITLE = "constraints"
_CONTENTS_END = re.compile(r"(?:\.{3,}|…{2,}|\s)\s*\d{1,3}$")
_DATE_START = re.compile(
    r"(?i)^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|januari|februari|maart|mei|juni|juli|"
    r"augustus|oktober|janvier|f[ée]vrier|mars|avril|mai|juin|juillet|ao[uû]t|octobre|d[ée]cembre|"
    r"januar|februar|m[äa]rz|dezember)[a-z]*\.?\s+\d{2,4}\b")
_SENTENCE_INSIDE = re.compile(r"[a-z]{2}[.;] [A-Z]")
_LEADERS = re.compile(r"\.{4,}|…{2,}|(?:\. ){4,}")

# PRIIPs KID section titles (Regulation (EU) 2017/653 and its official translations)
PRIIPS_SECTIONS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("purpose", "Purpose", ("purpose", "doel", "objectif", "zweck")),
    ("product", "What is this product?", (
        "what is this product", "wat is dit voor een product", "wat is dit product",
        "en quoi consiste ce produit", "um welche art von produkt handelt es sich")),
    ("risks", "What are the risks and what could I get in return?", (
        "what are the risks and what could i get in return", "wat zijn de risico",
        "quels sont les risques et qu", "welche risiken bestehen und was konnte ich")),
    ("default", "What happens if the manufacturer is unable to pay out?", (
        "what happens if", "wat gebeurt er als", "wat gebeurt er indien", "que se passe-t-il si",
        "was geschieht, wenn", "was geschieht wenn")),
    ("costs", "What are the costs?", (
        "what are the costs", "wat zijn de kosten", "que va me couter cet investissement",
        "quels sont les couts", "welche kosten entstehen")),
    ("holding", "How long should I hold it and can I take money out early?", (
        "how long should i hold it", "hoe lang moet ik", "combien de temps dois-je le conserver",
        "wie lange sollte ich die anlage halten")),
    ("complaints", "How can I complain?", (
        "how can i complain", "hoe kan ik een klacht indienen", "comment puis-je formuler une reclamation",
        "wie kann ich mich beschweren")),
    ("other", "Other relevant information", (
        "other relevant information", "andere nuttige informatie", "autres informations pertinentes",
        "sonstige zweckdienliche angaben")),
)
KID_MIN_SECTIONS = 3


@dataclass
class Heading:
    path: list[str]
    title: str

    @property
    def key(self) -> str:
        return self.path[-1] if self.path else ""


@dataclass
class _State:
    annex: str | None = None
    number: tuple[int, ...] | None = None
    rule_id: str | None = None
    title: str = ""  # of the numbered section the state is in
    seen_annexes: set[str] = field(default_factory=set)


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.lower().replace("’", "'"))
    return "".join(ch for ch in text if not unicodedata.combining(ch)).strip()


def priips_section(text: str) -> tuple[str, str] | None:
    """(key, canonical title) when the line is a PRIIPs section title in any of our languages."""
    folded = _fold(text)
    if len(folded) > 140:
        return None
    for key, title, starts in PRIIPS_SECTIONS:
        for start in starts:
            if folded.startswith(start) and (key != "purpose" or len(folded) <= len(start) + 1):
                return key, title
    return None


def body_height(lines: list[Line]) -> float:
    heights = Counter(line.height for line in lines if len(line.text) > 30)
    if not heights:
        heights = Counter(line.height for line in lines)
    return heights.most_common(1)[0][0] if heights else 0.0


def contents_lines(lines: list[Line]) -> set[int]:
    """Indices of table-of-contents lines: they must never open a section."""
    def toc_like(text: str) -> bool:
        return bool(_LEADERS.search(text)) or (
            bool(_CONTENTS_END.search(text))
            and any(p.match(text) for p in (_NUMBERED, _LETTERED, _LETTER_PART, _CHAPTER, _ANNEX, _RULE_ID)))

    like = [toc_like(line.text) for line in lines]
    found: set[int] = set()
    for i, is_like in enumerate(like):
        if not is_like:
            continue
        neighbours = (i > 0 and like[i - 1]) or (i + 1 < len(like) and like[i + 1])
        if _LEADERS.search(lines[i].text) or neighbours:
            found.add(i)
    return found


def rule_list_lines(lines: list[Line]) -> set[int]:
    """Rule-id lines next to other rule-id lines are a list of ids (an index), not headers."""
    like = [bool(_RULE_ID.match(line.text) or _CONSTRAINT.match(line.text)) for line in lines]
    return {i for i, is_like in enumerate(like)
            if is_like and ((i > 0 and like[i - 1]) or (i + 1 < len(like) and like[i + 1]))}


def is_kid(lines: list[Line]) -> bool:
    keys = {hit[0] for line in lines if (hit := priips_section(line.text))}
    return len(keys - {"purpose"}) >= KID_MIN_SECTIONS


class SectionDetector:
    """Feed lines in reading order; `detect` returns the heading a line opens, if any."""

    def __init__(self, lines: list[Line], kid: bool | None = None) -> None:
        self.kid = is_kid(lines) if kid is None else kid
        self.body = body_height(lines)
        self._contents = {id(lines[i]) for i in contents_lines(lines)}
        self._rule_lists = {id(lines[i]) for i in rule_list_lines(lines)}
        self._state = _State()
        # a header line is not continued by a lower-case line: that is a wrapped list item
        self._continued = {id(a) for a, b in zip(lines, lines[1:], strict=False)
                           if b.text[:1].islower() and a.page == b.page}
        self._by_font: FontHeadings | None = None
        if not self.kid:
            by_pattern = sum(1 for line in lines if self._by_pattern(line))
            if by_pattern < MIN_PATTERN_HEADINGS:
                by_font = FontHeadings([line for line in lines if id(line) not in self._contents], self.body)
                self._by_font = by_font if by_font.found > by_pattern else None
            self._state = _State()

    @property
    def mode(self) -> str:
        return "kid" if self.kid else ("font" if self._by_font is not None else "pattern")

    def detect(self, line: Line) -> Heading | None:
        if id(line) in self._contents:
            return None
        if self.kid:
            hit = priips_section(line.text)
            return Heading(path=[hit[0]], title=line.text.rstrip(" :")) if hit else None
        if self._by_font is not None:
            found = self._by_font.detect(line)
            return Heading(path=found[0], title=found[1]) if found else None
        return self._by_pattern(line)

    def _by_pattern(self, line: Line) -> Heading | None:
        if id(line) in self._contents:
            return None
        text = line.text
        if (self.body and line.height < self.body * HEIGHT_TOLERANCE) or id(line) in self._continued:
            return None
        return (self._annex(text) or self._chapter(text) or self._letter_part(line) or self._numbered(text)
                or self._rule(line))

    # -- the four kinds of header -------------------------------------------------------------
    def _annex(self, text: str) -> Heading | None:
        match = _ANNEX.match(text)
        if not match:
            return None
        word, label, title = match.groups()
        if title and not _title_like(title):
            return None
        name = f"{word.capitalize()} {label.upper()}"
        if name in self._state.seen_annexes:  # the annex's cover and first page both name it
            return None
        self._state = _State(annex=name, seen_annexes=self._state.seen_annexes | {name})
        return Heading(path=[name], title=title.strip() or name)

    def _chapter(self, text: str) -> Heading | None:
        match = _CHAPTER.match(text)
        if not match:
            return None
        label, title = match.groups()
        number = int(label) if label.isdigit() else _roman(label.upper())
        if number is None or (title and not _title_like(title)) or not self._follows((number,)):
            return None
        return self._enter((number,), title.strip() or text)

    def _numbered(self, text: str) -> Heading | None:
        lettered = _LETTERED.match(text)
        if lettered:
            return self._lettered(*lettered.groups())
        match = _NUMBERED.match(text)
        if not match:
            return None
        label, title = match.groups()
        number = tuple(int(part) for part in label.split("."))
        if not _title_like(title) or not self._follows(number):
            return None
        return self._enter(number, title.strip())

    def _letter_part(self, line: Line) -> Heading | None:
        """"B. Generelle Festlegungen": parts lettered in order, set in bold or clearly larger than
        the body (a list item "A. The applicant…", or a message guide's outline "A. Header",
        is set at about body size)."""
        match = _LETTER_PART.match(line.text)
        if not match or not _title_like(match.group(2)):
            return None
        if self.body and line.height < self.body * LETTER_PART_MIN_RATIO and not line.bold:
            return None
        letter, title = match.groups()
        parts = sorted(a for a in self._state.seen_annexes if len(a) == 1)
        expected = chr(ord(parts[-1]) + 1) if parts else "A"
        if not (expected <= letter <= chr(ord(expected) + MAX_SKIP - 1)):
            return None
        self._state = _State(annex=letter, seen_annexes=self._state.seen_annexes | {letter})
        return Heading(path=[letter], title=title.strip())

    def _lettered(self, letter: str, label: str, title: str) -> Heading | None:
        """Annex-style numbers ("A.1 Registratie"): numbered inside the annex lettered so."""
        if not _title_like(title):
            return None
        number = tuple(int(part) for part in label.split("."))
        annex = self._state.annex or ""
        if annex != letter and not annex.endswith(f" {letter}"):
            if number != (1,):
                return None
            annex = letter  # an annex we did not see announced: its letter names it
            self._state = _State(annex=annex, seen_annexes=self._state.seen_annexes | {annex})
        if not self._follows(number):
            return None
        self._state.number = number
        self._state.rule_id = None
        self._state.title = title.strip()
        labels = [f"{letter}." + ".".join(str(n) for n in number[:i]) for i in range(1, len(number) + 1)]
        return Heading(path=[annex, *labels], title=title.strip())

    def _rule(self, line: Line) -> Heading | None:
        text = line.text
        if id(line) in self._rule_lists:
            return None
        match = _RULE_ID.match(text)
        if match is None:
            return self._constraint(text)
        if not match.group(2)[0].isalpha() or not _title_like(match.group(2)):
            return None
        return self._rule_heading(match.group(1), match.group(2).strip())

    def _constraint(self, text: str) -> Heading | None:
        match = _CONSTRAINT.match(text)
        path = self._path(self._state.number)
        if match is None or not path or not self._state.title.casefold().endswith(_CONSTRAINTS_TITLE):
            return None
        return self._rule_heading(f"{path[-1]} {match.group(1)}", match.group(2))

    def _rule_heading(self, rule_id: str, title: str) -> Heading | None:
        if rule_id == self._state.rule_id:
            return None
        self._state.rule_id = rule_id
        return Heading(path=[*self._path(self._state.number), rule_id], title=title)

    # -- numbering ----------------------------------------------------------------------------
    def _follows(self, number: tuple[int, ...]) -> bool:
        current = self._state.number
        if current is None:
            return len(number) == 1 and number[0] <= MAX_SKIP or number in ((1, 1), (0, 1))
        depth = len(number)
        if depth > len(current) + 1 or number[:depth - 1] != current[:depth - 1]:
            return False
        if depth == len(current) + 1:
            return number[-1] <= MAX_SKIP
        return current[depth - 1] < number[-1] <= current[depth - 1] + MAX_SKIP

    def _enter(self, number: tuple[int, ...], title: str) -> Heading:
        self._state.number = number
        self._state.rule_id = None
        self._state.title = title
        return Heading(path=self._path(number), title=title)

    def _path(self, number: tuple[int, ...] | None) -> list[str]:
        prefix = [self._state.annex] if self._state.annex else []
        if number is None:
            return prefix
        labels = [".".join(str(n) for n in number[:i]) for i in range(1, len(number) + 1)]
        if self._state.annex:
            labels = [f"{self._state.annex} {label}" for label in labels]
        return prefix + labels


def _title_like(title: str) -> bool:
    title = title.strip()
    if not title or len(title) > MAX_TITLE_CHARS or len(title.split()) > 18:
        return False
    first = title[0]
    identifier = any(ch.isdigit() for ch in title.split()[0])  # "pain.001.001.09 Customer …"
    if not (first.isupper() or first.isdigit() or identifier or first in "\"'‘“(«"):
        return False
    if _DATE_START.match(title) or _SENTENCE_INSIDE.search(title):
        return False
    # a header does not end like a sentence; numbered clauses ("2.1 The Applicant has…") whose
    # first line happens to end a sentence are left to the enclosing section
    return not title.endswith((",", ";", "."))


def _roman(label: str) -> int | None:
    values = {"I": 1, "V": 5, "X": 10, "L": 50}
    total = 0
    for i, ch in enumerate(label):
        value = values.get(ch)
        if value is None:
            return None
        nxt = values.get(label[i + 1], 0) if i + 1 < len(label) else 0
        total += -value if value < nxt else value
    return total
