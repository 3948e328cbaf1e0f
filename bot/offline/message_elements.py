"""Whether the message a question names has the element it asks about.

A message definition report documents every message in a chapter of its own: its structure table
lists each element the message carries ("InterbankSettlementAmount <IntrBkSttlmAmt> | [0..1] |
Amount"), and the element's record follows. An element recurs across messages, so a question about
an element that the named message does not have ("What does the element InterbankSettlementAmount
of camt.033 hold?", when only camt.056 and camt.087 carry it) finds that element's rows and records in
the other messages' chapters, close in meaning and exact in name. Quoting them answers for the wrong
message: the guide's answer is that camt.033 has no such element, and the assistant refuses saying so.

The check needs the whole chapter, not what a search showed of it: `MessageWords` holds, per
(rulebook, message id), every word the chapter's chunks hold and the words of the components the
chapter details elsewhere (built with the corpus vocabulary, `subject_terms.CorpusVocabulary`). An
element is missing from a named message when neither writes the element's name, while another
message of the guides does (so the name is a message element, not a word the question uses for
something else). Only messages of rulebooks the search showed the caller are named: a chapter the
caller cannot see decides nothing.

An element spelled out in words ("the interbank settlement amount") is not checked. Matching the
question's runs of words against the names the guides write run together refused every such
generated question right, but the only golden questions it flagged were answerable ones: users'
words run into names that are not the element asked (a message's name spelled out holds another
message's element, CreditorEnrolment in "creditor enrolment cancellation request"; a message's name
beside the element's near-miss spelling, where the message writes ClaimNonReceiptRejectReason1Choice).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from bot.offline.span_scoring import (
    asks_about_element,
    asks_for_condition,
    capitalised_names,
    element_names,
    message_chapter,
    with_unversioned,
)
from knowledge.payload import ChunkPayload

# "camt.033", "camt.033.001.05": a message's id as questions write it (its version parts optional)
_MESSAGE_ID = re.compile(r"(?<![\w.])([a-z]{4}\.\d{3})(?:\.\d{3}\.\d{2})?(?![\w.])", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]+")
# "(see "CaseAssignment5" on page 229 for details)": the component that details an element
_SEE = re.compile(r"\bsee\s+[\"“]?([A-Z][A-Za-z0-9]+)[\"”]?\s+on\s+page\b")
_COMPONENT = re.compile(r"^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$")

MessageKey = tuple[str, str]  # (rulebook_id, message id "camt.033")


def _words(chunk: ChunkPayload) -> frozenset[str]:
    """The folded words of the chunk's text and tables."""
    return frozenset(w.casefold() for w in _WORD.findall(" ".join([chunk.text, *chunk.tables_csv])))


def _component(chunk: ChunkPayload) -> str | None:
    """The message component whose section the chunk is in ("CaseAssignment5", the deepest heading
    that is one run-together name; an element's record, "Code <Cd>", is part of its component)."""
    for title in reversed([*chunk.parent_titles, chunk.section_title]):
        name = re.sub(r"^[\d.]+\s+", "", title or "").strip()
        if _COMPONENT.match(name):
            return name.casefold()
    return None


class MessageWords:
    """Every word of each message's chapter and of the components it details elsewhere ("contains the
    following elements (see "CaseAssignment5" on page 229 for details)": the guides describe shared
    components once, in a chapter of their own), and each message's name; built once per vocabulary."""

    def __init__(self) -> None:
        self._words: dict[MessageKey, set[str]] = {}
        self._names: dict[MessageKey, str] = {}
        self._refs: dict[MessageKey, set[str]] = {}
        self._component_words: dict[tuple[str, str], set[str]] = {}
        self._component_refs: dict[tuple[str, str], set[str]] = {}

    def add(self, chunk: ChunkPayload) -> None:
        refs = {r.casefold() for r in _SEE.findall(chunk.text)}
        if (message := message_chapter(chunk)) is not None:
            key = (chunk.rulebook_id, message.message_id)
            self._words.setdefault(key, set()).update(_words(chunk))
            self._refs.setdefault(key, set()).update(refs)
            self._names[key] = message.name
        elif (component := _component(chunk)) is not None:
            self._component_words.setdefault((chunk.rulebook_id, component), set()).update(_words(chunk))
            self._component_refs.setdefault((chunk.rulebook_id, component), set()).update(refs)

    def freeze(self) -> FrozenMessageWords:
        words: dict[MessageKey, frozenset[str]] = {}
        for key, own in self._words.items():
            held, seen, todo = set(own), set(), list(self._refs.get(key, ()))
            while todo:
                component = (key[0], todo.pop())
                if component in seen:
                    continue
                seen.add(component)
                held |= self._component_words.get(component, set())
                todo += self._component_refs.get(component, ())
            words[key] = frozenset(held)
        return FrozenMessageWords(words, dict(self._names))


class FrozenMessageWords:
    """The read-only index questions share across threads."""

    def __init__(self, words: Mapping[MessageKey, frozenset[str]], names: Mapping[MessageKey, str]) -> None:
        self.words = words
        self.names = names

    def named(self, question: str, rulebooks: Iterable[str]) -> list[MessageKey]:
        """The messages of these rulebooks the question names, by id ("camt.033") or by name
        ("RequestForDuplicate", versioned or not)."""
        ids = {m.casefold() for m in _MESSAGE_ID.findall(question)}
        folded = with_unversioned({w.casefold() for w in _WORD.findall(question)})
        shown = set(rulebooks)
        return [key for key, name in self.names.items()
                if key[0] in shown and (key[1] in ids or name.casefold() in folded)]


def elements_outside_messages(question: str, hits: Sequence[tuple[str, ChunkPayload]],
                              index: FrozenMessageWords | None) -> list[str]:
    """"<element> in <message id> (<name>)" for each element the question asks about that no message it
    names has, when another message does; [] when the question names no known message or asks about
    no element."""
    if index is None or not asks_about_element(question) or asks_for_condition(question):
        return []
    messages = index.named(question, {chunk.rulebook_id for _, chunk in hits})
    if not messages:
        return []
    message_names = {index.names[key].casefold() for key in messages}
    asked = element_names(question) - message_names
    if not asked:
        # a one-word element the question capitalises ("Is Assignee mandatory in camt.039?")
        asked = capitalised_names(question) - message_names
    missing = []
    for element in sorted(asked):
        if any(element in index.words[key] for key in messages):
            continue
        elsewhere = any(element in words for key, words in index.words.items() if key not in messages)
        if elsewhere:
            where = " / ".join(f"{key[1]} ({index.names[key]})" for key in messages)
            missing.append(f"{_as_written(element, question)} in {where}")
    return missing


def _as_written(folded: str, question: str) -> str:
    """The question's own spelling of a folded name ("InterbankSettlementAmount")."""
    return next((w for w in _WORD.findall(question) if w.casefold() == folded), folded)
