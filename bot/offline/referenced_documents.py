"""Documents the passages refer to by name that the caller cannot consult, and the questions about them.

A rulebook names its sibling documents: the SEPA Credit Transfer rulebook says that direct debits
are "set out in the SEPA Core Direct Debit Scheme Rulebook", and that its messages follow "the SEPA
Credit Transfer Scheme Inter-PSP Implementation Guidelines". A question about such a document is
not always outside the corpus: what the referring rulebook says about it (its document number,
who oversees the scheme) is its own text, and `named_documents` lets such questions through. But a
VALUE of the other document's rules (how many days before a collection, the maximum length of a
mandate reference, a fee, a count) is stated in that document, and the passages that merely name
it quote something else: the referring rulebook's own deadlines or its one-line definition of the
other scheme. The offline model refuses such a question, and the refusal says which document the
rulebooks refer to for it (`bot.gate.refusal`).

What counts as a reference, on purpose narrow:
- "the" (or an opening quote) + two to eight words, each capitalised, an acronym or a number, with
  "to", "of", "and" or "for" allowed between two of them + a document noun (`_NOUN`: Rulebook,
  Implementation Guidelines, Guidelines, Guide, Specification, Addendum, Handbook, Manual, each
  after an optional "Scheme"), all on one line: "the SEPA Core Direct Debit Scheme Rulebook";
  a heading or a contents line ("4.2 Process for Major Rulebook Changes") has no article and names
  no document;
- the NAME is those words without a trailing "Scheme" or "Implementation" ("SEPA Core Direct Debit");
- it counts only where no rulebook the tools showed is that document: a title page holding every
  word of the name (`named_documents.DocumentTitle.holds`: "SEPA Credit Transfer" is the SCT
  rulebook's own name). Only the rulebooks shown, never the whole corpus: a document the caller may
  not consult reads exactly like one the corpus does not hold.

A question refers to the document when it writes the name's words in order (case and accents
aside, whole words). English names only: the references are read from English passages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from bot.offline.named_documents import DocumentTitle, shown_titles
from knowledge.payload import ChunkPayload
from knowledge.word_forms import fold_accents

__all__ = ["documents_elsewhere", "references"]

MIN_NAME_WORDS = 2  # "the Rulebook", "the SCT Rulebook" as a lone acronym: too short to tell documents apart
MAX_NAME_WORDS = 8

_NOUN = (r"(?:Scheme[ ]+)?(?:Rulebooks?|Implementation[ ]+Guidelines|Guidelines|Guide|Specifications?|"
         r"Addendum|Handbook|Manual)")
_NAME_WORD = r"(?:[A-Z][\w\-&]*|\d[\w.\-]*)"
_JOINING = r"(?:to|of|and|for)"
# one line only ([ ]: not \s), so that a table's or a page's next line never joins a name
_REFERENCE = re.compile(
    rf"(?:\b[Tt]he[ ]+|[\"“])(?P<name>{_NAME_WORD}(?:[ ]+(?:{_JOINING}[ ]+)?{_NAME_WORD}){{0,{MAX_NAME_WORDS - 1}}})"
    rf"[ ]+(?P<noun>{_NOUN})\b")
_TRAILING = re.compile(r"(?:[ ]+(?:Scheme|Implementation))+$")


def references(text: str) -> dict[str, str]:
    """The documents a text refers to: each name (see the module docstring) with the reference as the
    text writes it ("SEPA Core Direct Debit": "SEPA Core Direct Debit Scheme Rulebook")."""
    found: dict[str, str] = {}
    for m in _REFERENCE.finditer(text):
        name = _TRAILING.sub("", m.group("name"))
        if len(name.split()) >= MIN_NAME_WORDS:
            found.setdefault(name, f"{m.group('name')} {m.group('noun')}")
    return found


def documents_elsewhere(question: str, chunks: Sequence[ChunkPayload],
                        titles: Mapping[str, DocumentTitle | None]) -> list[str]:
    """The documents the passages of `chunks` refer to whose names the question writes, when none of
    the chunks' rulebooks is that document (their title pages, `titles` by rulebook id); each as the
    passage writes the reference. Empty when a shown rulebook's title page is unknown: then nothing
    can be told."""
    shown = shown_titles(dict.fromkeys(c.rulebook_id for c in chunks), titles)
    if not shown:
        return []
    asked = _searchable(question)
    found: dict[str, str] = {}
    for chunk in chunks:
        for name, written in references(chunk.text).items():
            if name not in found and _written_in(name, asked):
                found[name] = written
    return [written for name, written in found.items()
            if not any(t.holds(tuple(name.split())) for t in shown.values())]


def _searchable(text: str) -> str:
    return " ".join(fold_accents(text).casefold().split())


def _written_in(name: str, asked: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(_searchable(name))}(?![\w-])", asked) is not None

