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

An element spelled out in words ("Is the interbank settlement amount mandatory in camt.033?") is
checked too, more warily, because users' words run into names that are not the element asked:
- the words must spell, whole, the name of an element some message lists with its XML tag
  ("InterbankSettlementAmount <IntrBkSttlmAmt>"), the longest such run only: message, type and
  component names are not elements a user asks about;
- the named message has it when any name its chapter or components write holds the element's words
  in a row, stem by stem ("rejection reason" in ClaimNonReceiptRejectReason1Choice, "creditor
  enrolment" in CreditorEnrolmentCancellationRequest): a user who spells an element rarely spells
  it as the guide does, and a near miss must not refuse a question the guide answers.
A name written run together is matched exactly, as the guide writes it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from bot.offline.component_sections import WORD, heading_title
from bot.offline.span_scoring import (
    MESSAGE_ID,
    asks_about_element,
    asks_for_condition,
    capitalised_names,
    element_names,
    message_chapter,
    spelled_element_names,
    with_unversioned,
)
from knowledge.bm25 import compound_parts, tokenize
from knowledge.payload import ChunkPayload

# "(see "CaseAssignment5" on page 229 for details)": the component that details an element
_SEE = re.compile(r"\bsee\s+[\"“]?([A-Z][A-Za-z0-9]+)[\"”]?\s+on\s+page\b")
_COMPONENT = re.compile(r"^[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*$")

# an element as the structure tables and records list it, with its XML tag ("CreditorAgent <CdtrAgt>")
_TAGGED = re.compile(r"\b([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)\s*<[A-Za-z0-9]+>")
MessageKey = tuple[str, str]  # (rulebook_id, message id "camt.033")
# the words of the longest element names ("NumberOfTransactionsPerCancellationStatus": 6): a shorter
# run inside one ("cancellation status") is another element. Longer than the span scorer's runs,
# because here a run counts only when it spells a tagged element's name whole
MAX_NAME_WORDS = 8


def _words(chunk: ChunkPayload) -> frozenset[str]:
    """The folded words of the chunk's text and tables."""
    return frozenset(w.casefold() for w in WORD.findall(" ".join([chunk.text, *chunk.tables_csv])))


def _stemmed_name(name: str) -> str:
    """A run-together name as its words' stems (ClaimNonReceiptRejectReason1Choice -> " claim non
    receipt reject reason choic "), space-padded so that a name's words in a row are a substring;
    "" for a word that is no run-together name."""
    parts = compound_parts(name)
    stems = tokenize(" ".join(parts), "en") if len(parts) > 1 else []
    return f" {' '.join(stems)} " if stems else ""


def _name_stems(text: str, memo: dict[str, str]) -> set[str]:
    """The run-together names of a text, each as `_stemmed_name` (remembered per word in `memo`)."""
    stems = set()
    for word in WORD.findall(text):
        if word not in memo:
            memo[word] = _stemmed_name(word)
        if memo[word]:
            stems.add(memo[word])
    return stems


def constraints_section(chunk: ChunkPayload) -> str | None:
    """The key of the message's "Constraints" section (the rules saying when an element must be present)
    the chunk is in: its own section, or the one above it when the chunk is one rule's ("5.3 C26")."""
    titles = [*chunk.parent_titles, chunk.section_title]
    if len(titles) != len(chunk.section_path):
        return None
    for key, title in list(zip(chunk.section_path, titles, strict=True))[-2:][::-1]:
        if (title or "").rstrip().endswith("Constraints"):
            return key
    return None


def _component(chunk: ChunkPayload) -> str | None:
    """The message component whose section the chunk is in ("CaseAssignment5", the deepest heading
    that is one run-together name; an element's record, "Code <Cd>", is part of its component)."""
    for title in reversed([*chunk.parent_titles, chunk.section_title]):
        name = heading_title(title)
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
        self._stems: dict[tuple[str, str], set[str]] = {}  # by message key or (rulebook, component)
        self._elements: dict[str, str] = {}  # folded -> as listed ("CreditorAgent")
        self._memo: dict[str, str] = {}
        self._constraints: dict[MessageKey, tuple[str, set[str]]] = {}  # section key, its words

    def add(self, chunk: ChunkPayload) -> None:
        refs = {r.casefold() for r in _SEE.findall(chunk.text)}
        if (message := message_chapter(chunk)) is not None:
            key = (chunk.rulebook_id, message.message_id)
            self._words.setdefault(key, set()).update(_words(chunk))
            self._refs.setdefault(key, set()).update(refs)
            self._names[key] = message.name
            if (constraints := constraints_section(chunk)) is not None:
                section, held = self._constraints.setdefault(key, (constraints, set()))
                if section == constraints:
                    held.update(_words(chunk))
        elif (component := _component(chunk)) is not None:
            key = (chunk.rulebook_id, component)
            self._component_words.setdefault(key, set()).update(_words(chunk))
            self._component_refs.setdefault(key, set()).update(refs)
        else:
            return
        # ... and a message's own name, which its heading writes ("the creditor enrolment cancellation request")
        written = " ".join([chunk.text, *chunk.tables_csv, message.name if message is not None else ""])
        self._stems.setdefault(key, set()).update(_name_stems(written, self._memo))
        for table_or_text in [chunk.text, *chunk.tables_csv]:
            self._elements.update((name.casefold(), name) for name in _TAGGED.findall(table_or_text))

    def freeze(self) -> FrozenMessageWords:
        words: dict[MessageKey, frozenset[str]] = {}
        stems: dict[MessageKey, frozenset[str]] = {}
        for key, own in self._words.items():
            held, named, seen, todo = set(own), set(self._stems.get(key, ())), set(), list(self._refs.get(key, ()))
            while todo:
                component = (key[0], todo.pop())
                if component in seen:
                    continue
                seen.add(component)
                held |= self._component_words.get(component, set())
                named |= self._stems.get(component, set())
                todo += self._component_refs.get(component, ())
            words[key], stems[key] = frozenset(held), frozenset(named)
        constraints = {key: (section, frozenset(held)) for key, (section, held) in self._constraints.items()}
        return FrozenMessageWords(words, dict(self._names), stems, dict(self._elements), constraints)


class FrozenMessageWords:
    """The read-only index questions share across threads."""

    def __init__(self, words: Mapping[MessageKey, frozenset[str]], names: Mapping[MessageKey, str],
                 name_stems: Mapping[MessageKey, frozenset[str]] | None = None,
                 elements: Mapping[str, str] | None = None,
                 constraints: Mapping[MessageKey, tuple[str, frozenset[str]]] | None = None) -> None:
        self.words = words
        self.names = names
        self.name_stems = name_stems or {}
        self.elements = elements or {}
        # each message's "Constraints" section ("5.3") and its words: the rules saying when an element
        # must be present or may not be ("If AmendmentIndicator is false, then AmendmentInformationDetails
        # is not allowed.")
        self.constraints = constraints or {}

    def constraints_naming(self, question: str, rulebooks: Iterable[str]) -> list[tuple[str, str]]:
        """(rulebook, section) of the constraints of each message the question names whose rules name an
        element the question names ("When must CancellationDetails be present in a
        ResolutionOfInvestigation?"): an element recurs in many messages, and so do their rules, each
        message with its own."""
        asked = element_names(question) | capitalised_names(question)
        found = []
        for key in self.named(question, rulebooks):
            section, held = self.constraints.get(key, ("", frozenset()))
            if section and (asked - {self.names[key].casefold()}) & held:
                found.append((key[0], section))
        return found

    def spelled_elements(self, question: str) -> set[str]:
        """The tagged element names the question spells out in words ("the interbank settlement amount"
        -> interbanksettlementamount), the longest only ("settlementamount" is part of that one)."""
        known = {run for run in spelled_element_names(question, MAX_NAME_WORDS) if run in self.elements}
        return {run for run in known if not any(run != other and run in other for other in known)}

    def holds_words_of(self, key: MessageKey, element: str) -> bool:
        """Does a name the message's chapter or components write hold the element's words in a row,
        stem by stem ("RejectionReason" in ClaimNonReceiptRejectReason1Choice)?"""
        wanted = _stemmed_name(self.elements.get(element, element))
        return wanted != "" and any(wanted in name for name in self.name_stems.get(key, ()))

    def named(self, question: str, rulebooks: Iterable[str]) -> list[MessageKey]:
        """The messages of these rulebooks the question names, by id ("camt.033") or by name
        ("RequestForDuplicate", versioned or not)."""
        ids = {m.casefold() for m in MESSAGE_ID.findall(question)}
        folded = with_unversioned({w.casefold() for w in WORD.findall(question)})
        shown = set(rulebooks)
        return [key for key, name in self.names.items()
                if key[0] in shown and (key[1] in ids or name.casefold() in folded)]


class MissingElement(NamedTuple):
    """An element the question asks about that the messages it names lack while another message has it."""

    element: str  # as the guides list it ("ClearingSystem"), else the question's word, which a guide writes
    as_written: str  # the question's own words for it ("clearing system")
    messages: tuple[tuple[str, str], ...]  # (message id, name) of each message the question names


def missing_elements(question: str, hits: Sequence[tuple[str, ChunkPayload]],
                     index: FrozenMessageWords | None) -> list[MissingElement]:
    """Each element the question asks about that no message it names has, when another message does; []
    when the question names no known message of the rulebooks shown or asks about no element."""
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
    spelled = set()
    if not asked:
        # ... or one it spells out in words (see the module docstring for why this is read warily)
        asked = spelled = index.spelled_elements(question) - message_names
    missing = []
    for element in sorted(asked):
        if any(element in index.words[key] for key in messages):
            continue
        if element in spelled and any(index.holds_words_of(key, element) for key in messages):
            continue
        if any(element in words for key, words in index.words.items() if key not in messages):
            as_written = _as_written(element, question, index.elements.get(element, element))
            missing.append(MissingElement(index.elements.get(element, as_written), as_written,
                                          tuple((key[1], index.names[key]) for key in messages)))
    return missing


def elements_outside_messages(question: str, hits: Sequence[tuple[str, ChunkPayload]],
                              index: FrozenMessageWords | None) -> list[str]:
    """"<element> in <message id> (<name>)" for each of `missing_elements`, in the question's words."""
    return [f"{m.as_written} in {describe_messages(m.messages)}" for m in missing_elements(question, hits, index)]


def describe_messages(messages: Sequence[tuple[str, str]]) -> str:
    """"camt.039 (CaseStatusReport)", several joined by " / "."""
    return " / ".join(f"{message_id} ({name})" for message_id, name in messages)


def _as_written(folded: str, question: str, listed: str) -> str:
    """The question's own spelling of a folded name: one word ("InterbankSettlementAmount") or the
    words it spelled it in ("interbank settlement amount"); else the name as the guide lists it."""
    words = list(WORD.finditer(question))
    for start in range(len(words)):
        joined = ""
        for end in range(start, len(words)):
            joined += words[end].group().casefold()
            if joined == folded:
                return question[words[start].start():words[end].end()]
            if not folded.startswith(joined):
                break
    return listed
