"""Documents a question names by title ("the QR-bill 2.3 change document", "the SIX QR-IID and QR-IBAN
technical guide"), and whether a rulebook the tools showed is that document.

A question that names its document asks what that document says. When none of the rulebooks shown
carries the name on its title page, the document is not one the caller can consult, and quotes from
a sibling document (the QR-IID guide for a question about the QR-bill change document, the Request
To Pay report for one about the E&I messages) answer a question nobody asked: the offline model
refuses, naming the document, as it does for a name no passage mentions.

What counts as naming a document, on purpose narrow (an English question; other languages are not
checked):
- "the" + up to `MAX_QUALIFIERS` words + a document noun (document, documentation, guide,
  guidelines, rulebook, addendum, handbook, manual, specification), where a qualifier carries a
  capital or a digit: a title has a name in it ("QR-bill", "SIX", "2.3", "ABN AMRO"). "A referred
  document", "the document type" and "the rulebook's amount attribute" name no document;
- "the" + acronyms (and numbers) + messages/report ("the E&I messages", "the ISO 20022 E&I report"),
  since "the debtor activation status report" is a message, not a document;
- not where the noun may be a verb or a verb's object ("how should the MLRO document …", "does the
  ADGM provide guidelines"), nor several documents ("the FSMR and AML Rulebooks"), nor a possessive.

A rulebook's title is what its first page says, with its id and indexed title (`TitlePages`, read by
the corpus vocabulary). A qualifier matches by its stem, by its parts ("2019-2020"), joined with the
next one ("ABN AMRO" = "ABNAMRO"), or as an acronym of consecutive title words ("E&I" = Exceptions
and Investigations, "IG" = Implementation Guidelines). Every qualifier but the generic ones
(`GENERIC`) must match one title.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from knowledge.bm25 import tokenize
from knowledge.payload import ChunkPayload

MAX_QUALIFIERS = 8
MAX_TITLE_CHARS = 1500  # of the first page: title block, version, publisher
MAX_ACRONYM_WORDS = 5
MAX_TITLE_GAP = 2  # words a passage may write between two words of a title the question shortens
# the language a document is written in names it too: "the German HHD-UC specification"
LANGUAGE_WORDS = {"en": "English", "de": "German Deutsch", "fr": "French français", "nl": "Dutch Nederlands"}

# matched against a whole word of the question (`_WORD` keeps "rulebook's" one word: a possessive is none)
_DOCUMENT_NOUN = re.compile(
    r"documents?|documentation|guides?|guidelines?|rulebooks?|addend(?:um|a)|handbooks?|manuals?|specifications?",
    re.I)
_ACRONYM_NOUN = re.compile(r"messages|reports?", re.I)
# the word after the noun that makes it a field or a kind, not a document ("document type", "guide line")
_NOT_A_TITLE_AFTER = {"type", "types", "line", "lines", "number", "numbers", "identification", "format",
                      "reference", "references", "amount", "date", "id", "code", "codes", "level"}
# a qualifier that tells nothing about which document: "the latest QR-bill guidelines"
GENERIC = {"the", "a", "an", "this", "that", "these", "those", "its", "their", "our", "your", "my", "new", "current",
           "latest", "whole", "official", "relevant", "respective", "same", "above", "following", "mentioned",
           "said", "entire", "full", "corresponding", "underlying", "public", "published", "and", "or", "to", "of",
           "for", "on"}
# a word that ends the run of qualifiers, read backwards from the noun: an article, a preposition (a title's
# qualifiers come before its noun), an asking word, or a verb whose object the noun is ("does the ADGM
# provide guidelines", "the FSRA have guidelines"); "to" only between numbers ("QR-bill 2.2 to 2.3")
_BOUNDARY = {"the", "a", "an", "in", "according", "from", "by", "under", "per", "with", "what", "which", "does",
             "do", "is", "are", "was", "were", "about", "at", "into", "as", "than", "if", "when", "where", "how",
             "who", "whom", "whose", "why", "can", "may", "must", "should", "will", "would", "did", "for", "of", "on",
             "over", "between", "within", "regarding", "provide", "provides", "provided", "have", "has", "had",
             "require", "requires", "required", "outline", "outlines", "outlined", "issue", "issues", "issued",
             "publish", "publishes", "give", "gives", "set", "sets", "use", "uses", "used", "apply", "applies",
             "follow", "follows", "meet", "meets", "review", "reviews", "reviewed", "update", "updated", "prepare",
             "prepared", "submit", "submitted", "maintain", "maintains", "keep", "keeps", "say", "says", "list",
             "lists", "state", "states", "describe", "describes", "contain", "contains", "mention", "mentions"}
_AUXILIARY = {"does", "do", "did", "should", "can", "could", "may", "might", "must", "will", "would", "shall",
              "has", "have", "is", "are"}
_WORD = re.compile(r"[\w&.\-’']+")
_ACRONYM = re.compile(r"^(?=(?:.*[A-Z]){2})[A-Z][A-Za-z]*(?:&[A-Z][A-Za-z]*)*$|^[A-Z]&[A-Z]$")
_TITLE_STOP = {"and", "of", "the", "for", "to", "on", "in", "a", "und", "der", "die", "das", "et", "de", "la", "le",
               "en", "van", "het"}


@dataclass(frozen=True)
class Reference:
    """A document the question names: the words as written, and those a title must hold."""

    text: str
    qualifiers: tuple[str, ...]


@dataclass(frozen=True)
class DocumentTitle:
    """What a rulebook's title page holds: its terms (stems), adjacent terms joined, and the initials of
    runs of consecutive title words."""

    terms: frozenset[str]
    initials: frozenset[str]

    def holds(self, qualifiers: tuple[str, ...]) -> bool:
        wanted = [q for q in qualifiers if q.casefold() not in GENERIC]
        index = 0
        while index < len(wanted):
            word = wanted[index]
            if self._holds_word(word):
                index += 1
                continue
            # "ABN AMRO" against "ABNAMRO": the word joined with the next
            if index + 1 < len(wanted) and _joined(word, wanted[index + 1]) in self.terms:
                index += 2
                continue
            return False
        return True

    def _holds_word(self, word: str) -> bool:
        if _ACRONYM.match(word):
            # "E&I", "RTP", "IG": the initials of title words, or written as such ("(RTP)")
            return _letters(word) in self.initials or word.casefold() in self.terms
        stems = tokenize(word, "en")
        if not stems:
            return True  # a stop word or punctuation: nothing to hold
        return all(s in self.terms or all(p in self.terms for p in re.split(r"[-–]", s) if p) for s in stems)


@dataclass
class TitlePages:
    """Each rulebook's title page, gathered chunk by chunk as the vocabulary reads the index."""

    _pages: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    _names: dict[str, tuple[str, str, str]] = field(default_factory=dict)

    def add(self, chunk: ChunkPayload) -> None:
        self._names.setdefault(chunk.rulebook_id, (chunk.rulebook_id, chunk.rulebook_title, chunk.language))
        if chunk.page_start <= 1:
            end = chunk.page_breaks[0] if chunk.page_breaks else len(chunk.text)
            self._pages.setdefault(chunk.rulebook_id, []).append((chunk.chunk_index, chunk.text[:end]))

    def freeze(self) -> dict[str, DocumentTitle]:
        titles: dict[str, DocumentTitle] = {}
        for rulebook_id, (own_id, title, language) in self._names.items():
            page = " ".join(text for _, text in sorted(self._pages.get(rulebook_id, [])))[:MAX_TITLE_CHARS]
            text = f"{own_id.replace('_', ' ')} {title} {page}"
            titles[rulebook_id] = title_of(text, language)
        return titles


def title_of(text: str, language: str | None) -> DocumentTitle:
    terms = set(tokenize(text, language)) | set(tokenize(text, "en"))
    terms |= set(tokenize(LANGUAGE_WORDS.get((language or "")[:2], ""), "en"))
    ordered = tokenize(text, None)
    terms |= {_joined(a, b) for a, b in zip(ordered, ordered[1:], strict=False)}
    words = re.findall(r"[^\W\d_]+", text)
    initials: set[str] = set()
    for kept in (words, [w for w in words if w.casefold() not in _TITLE_STOP]):
        for start in range(len(kept)):
            for size in range(2, MAX_ACRONYM_WORDS + 1):
                run = kept[start:start + size]
                if len(run) == size:
                    initials.add("".join(w[0] for w in run).upper())
    return DocumentTitle(frozenset(terms), frozenset(initials))


def document_references(question: str, language: str) -> list[Reference]:
    """The documents an English question names by title (see the module docstring)."""
    if language[:2] != "en":
        return []
    words = [(m.group(0), m.start(), m.end()) for m in _WORD.finditer(question)]
    references: list[Reference] = []
    for index, (word, _, end) in enumerate(words):
        noun = word.rstrip(".,;:?!")
        acronym_noun = _ACRONYM_NOUN.fullmatch(noun)
        if not acronym_noun and not _DOCUMENT_NOUN.fullmatch(noun):
            continue
        after = words[index + 1][0].casefold().strip(".,;:?!") if index + 1 < len(words) else ""
        if after in _NOT_A_TITLE_AFTER:
            continue
        qualifiers: list[str] = []
        position = index - 1
        while position >= 0 and len(qualifiers) < MAX_QUALIFIERS:
            previous = words[position][0].strip(".,;:?!'’\"()")
            if _ends_run(previous, words, position, question):
                break
            qualifiers.insert(0, previous)
            position -= 1
        if position < 0 or words[position][0].casefold() != "the" or not qualifiers:
            continue  # "a referred document", a run with no article before it
        if position > 0 and words[position - 1][0].casefold() in _AUXILIARY:
            continue  # "how should the MLRO document …", "does the ADGM offer guidelines": the noun may be a verb's
        if noun.casefold().endswith("s") and {"and", "or"} & {q.casefold() for q in qualifiers}:
            continue  # "the FSMR and AML Rulebooks": several documents, any of which may be the one meant
        named = [q for q in qualifiers if q.casefold() not in GENERIC]
        if not any(any(ch.isupper() or ch.isdigit() for ch in q) for q in named):
            continue
        if acronym_noun and not all(_ACRONYM.match(q) or re.fullmatch(r"[\d.\-]+", q) for q in named):
            continue
        if acronym_noun and not any(_ACRONYM.match(q) for q in named):
            continue
        start = words[position][1]
        references.append(Reference(question[start:end], tuple(qualifiers)))
    return references


def unnamed_documents(question: str, language: str, rulebook_ids: Iterable[str],
                      titles: Mapping[str, DocumentTitle | None], passages: str) -> list[str]:
    """The documents the question names that none of these rulebooks' titles is and the passages shown
    never name as the question writes it ("the NVB Implementation Guidelines" the addendum is based on:
    a document the rulebooks write about is one a question may ask them about). None when a rulebook
    has no title page read: then nothing can be told."""
    shown = shown_titles(rulebook_ids, titles)
    if not shown:
        return []
    return [r.text for r in document_references(question, language)
            if not any(t.holds(r.qualifiers) for t in shown.values()) and not _written(r, passages)]


def shown_titles(rulebook_ids: Iterable[str], titles: Mapping[str, DocumentTitle | None]
                 ) -> dict[str, DocumentTitle]:
    """The title page of each of these rulebooks, by id; empty when there are none or one has no title
    page read (then nothing can be told about which documents were shown)."""
    shown: dict[str, DocumentTitle] = {}
    for rulebook_id in rulebook_ids:
        title = titles.get(rulebook_id)
        if title is None:
            return {}
        shown[rulebook_id] = title
    return shown


def _written(reference: Reference, passages: str) -> bool:
    """The passages write the reference's qualifiers and noun in order (any case, any inflection of the
    noun), with at most `MAX_TITLE_GAP` words between two of them: a user shortens a title ("the SCT
    Implementation Guidelines" for the rulebook's "SCT Inter-PSP Implementation Guidelines")."""
    noun = re.sub(r"(s|a|um)$", "", reference.text.split()[-1].strip(".,;:?!"), flags=re.I)
    gap = rf"\s+(?:\S+\s+){{0,{MAX_TITLE_GAP}}}"
    pattern = r"(?<![\w-])" + gap.join([*(_spelled(w) for w in reference.qualifiers), re.escape(noun) + r"\w*"])
    return re.search(pattern, passages, re.I) is not None


def _spelled(qualifier: str) -> str:
    """A title word as a passage may write it: an acronym also spelled out ("SCT": "SEPA Credit Transfer",
    "E&I": "Exceptions and Investigations"), as a title's initials are read (`DocumentTitle`)."""
    if not _ACRONYM.match(qualifier):  # (an acronym has two capitals at least: two words to spell out)
        return re.escape(qualifier)
    words = r"\s+(?:(?:and|of|for|the|&)\s+)?".join(rf"{letter}\w*" for letter in _letters(qualifier))
    return rf"(?:{re.escape(qualifier)}|(?-i:{words}))"  # the spelled-out words capitalised, as a title's are


def _ends_run(word: str, words: list[tuple[str, int, int]], position: int, question: str) -> bool:
    """The word ends the qualifiers read backwards: a boundary word, punctuation after it, a possessive
    ("the Fund's prospectus"), a lower-case -ing word ("for securing … documentation"), or "to" not
    between two numbers."""
    folded = word.casefold()
    if folded in _BOUNDARY or re.search(r"[,;:?!()]", question[words[position][2]:words[position + 1][1]]):
        return True
    if re.search(r"['’]s$", word) or (word.islower() and folded.endswith("ing")):
        return True
    if folded == "to":
        before = words[position - 1][0] if position > 0 else ""
        after = words[position + 1][0]
        return not (re.fullmatch(r"[\d.]+", before) and re.fullmatch(r"[\d.]+", after))
    return False


def _letters(acronym: str) -> str:
    return "".join(ch for ch in acronym if ch.isupper())


def _joined(first: str, second: str) -> str:
    return f"{first}{second}".casefold()
