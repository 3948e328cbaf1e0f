"""What a named thing is for: the opening of the section its heading names.

A message guide gives each message a section headed by its identifier ("2 camt.026.001.08
UnableToApplyV08") and says what the message is for in the first sentences under it ("2.1
MessageDefinition Functionality" / "Scope" / "The UnableToApply message is sent by … This message is
used to …"); a rulebook does the same for a scheme or a form under a heading naming it. A question
asking what that thing is, is for, or does ("What is camt.026 used for?", "What does a
RejectInvestigation message (camt.031) do?") is answered by those opening sentences, not by the
constraints and element records further down that merely share its words ("This component may not be
used …"). The opening is known only where the tools showed it: the section's own first chunk
(its text starts with its heading), the chunk right after the heading's chunk, or the first chunk
of its first subsection ("2.1" under "2"); otherwise the model reads the section (`to_read`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from knowledge.bm25 import tokenize
from knowledge.payload import ChunkPayload
from knowledge.word_forms import fold_accents

OPENING_SPANS = 2  # the first sentences of the opening chunk: who sends the message to whom, and what for

# "What are the fees for camt.056?" asks about something of it, not what it is
_RELATION = r"(?:of|for|in|on|under|to|with|by|at|per|from|van|voor|bij|de|du|des|pour|dans|von|für|bei|im)"
_NAME = r"(?:(?!" + _RELATION + r"\b)[\w.\-]+\s*){1,3}\?\s*$"  # "camt.026?", "the camt.026 message?"
_ASKS_PURPOSE = re.compile(
    r"\b(?:purpose|meaning|role|function|definition|aim|doel|betekenis|bedoeling|objet|but|r[ôo]le|fonction|"
    r"zweck|bedeutung|funktion)\s+(?:of|van|de|du|des|der|von)\b|"
    r"\bused\s+for\b|\bfor\s*\?\s*$|\bgebruikt\s+voor\b|\bwaarvoor\b|\bà\s+quoi\s+sert\b|\bsert\s+à\b|"
    r"\bwof[üu]r\b|\bwozu\b|"
    r"^\W{0,3}(?:what|wat|que|was)\s+(?:does|do|doet|fait|macht)\s.{1,80}?\s(?:do|mean|request|serve|stand\s+for|"
    r"doen|betekenen|faire|signifier|tun|bedeuten)\s*\?\s*$|"
    r"^\W{0,3}(?:what|wat|was)\s+(?:is|are|ist|sind)\s+(?:an?\s+|the\s+|een\s+|de\s+|het\s+|der\s+|die\s+|das\s+)?"
    + _NAME + r"|^\W{0,3}qu['’]est-ce\s+(?:que\s+|qu['’])(?:c['’]est\s+)?(?:les?\s+|la\s+|l['’])?" + _NAME,
    re.IGNORECASE)


def asks_purpose(question: str) -> bool:
    """"What is camt.026 used for?", "What is the purpose of reda.072?", "What does a
    RejectInvestigation message (camt.031) do?", "What is camt.032 CancelCaseAssignment for?": the
    question asks what a thing is or is for, not about one of its parts or rules."""
    return bool(_ASKS_PURPOSE.search(" ".join(question.split())))


def _title_terms(title: str, language: str) -> set[str]:
    return set(tokenize(fold_accents(title), language))


def headed_section(chunk: ChunkPayload, identifiers: set[str]) -> str | None:
    """The key of the outermost section above (or of) the chunk whose heading holds one of these folded
    identifiers ("2" for a chunk under "2 camt.026.001.08 UnableToApplyV08" and "camt.026"; the
    heading's identifier also counts by its leading parts, as the version-less name a question uses);
    None when no heading does."""
    if not identifiers or not chunk.section_path:
        return None
    titles = [*chunk.parent_titles, chunk.section_title]
    if len(titles) != len(chunk.section_path):
        return None  # an index older than parent_titles: the headings are not known
    language = chunk.language[:2]
    for key, title in zip(chunk.section_path, titles, strict=True):
        if identifiers & _title_terms(title, language):
            return key
    return None


def _first_children(path: Sequence[str], key: str) -> bool:
    """Is every section below `key` on this path its parent's first subsection ("2" > "2.1" > "2.1.1")?"""
    if key not in path:
        return False
    parent = key
    for child in path[path.index(key) + 1:]:
        if child != f"{parent}.1":
            return False
        parent = child
    return True


def _starts_with_heading(chunk: ChunkPayload) -> bool:
    """Does the chunk's text open with its own section's heading (its section's first chunk)?"""
    head = " ".join(chunk.text.split()[:3]).casefold()
    return bool(chunk.section_key) and bool(re.match(re.escape(chunk.section_key.casefold()) + r"(?:\s|$)", head))


def opening_chunks(chunks: Sequence[ChunkPayload], rulebook_id: str, key: str) -> list[ChunkPayload]:
    """The chunks shown that open section `key` of the rulebook with prose: the section's own first
    chunk, the chunk right after its heading's chunk (a heading with no prose of its own), or the first
    chunk of its first subsection."""
    inside = [c for c in chunks if c.rulebook_id == rulebook_id and key in c.section_path]
    headings = {c.chunk_index for c in inside
                if c.section_path[-1] == key and _starts_with_heading(c) and not _has_prose(c)}
    return [c for c in inside if _has_prose(c) and (
        c.chunk_index - 1 in headings or (_first_children(c.section_path, key) and _starts_with_heading(c)))]


def to_read(identifiers: set[str], hits: Sequence[tuple[str, ChunkPayload]]) -> tuple[str, str] | None:
    """The (rulebook, section) to read for a question asking what these identifiers are for
    (`span_scoring.purpose_identifiers`): the section the best shown chunk stands under whose heading
    names one, when no chunk shown opens that section with prose; None otherwise."""
    if not identifiers:
        return None
    chunks = [c for _, c in hits]
    for chunk in chunks:
        key = headed_section(chunk, identifiers)
        if key is None:
            continue
        if opening_chunks(chunks, chunk.rulebook_id, key):
            return None
        return chunk.rulebook_id, key
    return None


def opening_chunk_ids(chunks: Sequence[ChunkPayload], identifiers: set[str]) -> set[str]:
    """The ids of the chunks shown that open a section whose heading names one of these identifiers."""
    sections = {(c.rulebook_id, key) for c in chunks if (key := headed_section(c, identifiers)) is not None}
    return {c.chunk_id for rulebook_id, key in sections for c in opening_chunks(chunks, rulebook_id, key)}


# four words or more ending in a stop ("… to a case assignee."), not a heading's "camt.026.001.08"
_SENTENCE = re.compile(r"(?:[^\W\d_]{2,}[^\w\n]+){3,}\S*[.!?:](?=\s|$)")


def _has_prose(chunk: ChunkPayload) -> bool:
    """More than the heading: the chunk holds a sentence."""
    return bool(_SENTENCE.search(chunk.text))
