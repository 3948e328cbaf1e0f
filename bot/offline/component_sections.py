"""The section of a message guide that details a message component a question names.

A message definition report describes each shared building block once, in a section of its own
("19.1.9.3 BranchData3": its structure table, then one record per element), and the messages point
there ("see "BranchData3" on page 206 for details"). An element recurs across components ("Name
<Nm>" is in BranchData3, PartyIdentification135, Contact4 and a dozen more), each with its own
multiplicity and type, so a question about an element of a named component ("How long may the name
of a branch be in BranchData3?") finds the records of every component alike, close in meaning and
exact in name. Only the named component's section says which applies: the assistant reads it whole.

A component is known by its heading, anywhere in the guide, not by what a search showed: the index
maps each heading name to its section, built once with the corpus vocabulary
(`subject_terms.CorpusVocabulary`). A name counts when it cannot be a word of a sentence: a
versioned name ("Charges8", "Contact4") or one run together from words ("GarnishmentRemittance"),
heading a section that lists elements with their XML tags ("Name <Nm>"), as a guide details a
component: a "JavaScript" heading in a specification is a section about JavaScript, not a component.
A heading a guide repeats per message ("Structure", "Constraints") names no one section and is
dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from knowledge.payload import ChunkPayload

_NUMBER = re.compile(r"^[\d.]+\s+")  # a heading's number: "19.1.9.3 "
# "Charges8", "BranchData3", "GarnishmentRemittance": a digit after letters, or a capital after a small letter
RUN_TOGETHER_NAME = r"[A-Z][A-Za-z0-9]*?[a-z](?:[A-Z]|\d)[A-Za-z0-9]*"
_NAME = re.compile(RUN_TOGETHER_NAME)
WORD = re.compile(r"[A-Za-z][A-Za-z0-9]+")  # a word or run-together name of a question or a guide
# an element as structure tables and records list it, with its XML tag ("CreditorAgent <CdtrAgt>")
_TAGGED = re.compile(r"\b(?P<name>[A-Z][A-Za-z0-9]*)\s*<[A-Za-z0-9]+>")

SectionKey = tuple[str, str]  # (rulebook_id, section path element "19.1.9.3")


def tagged_name(text: str) -> str | None:
    """The first element a text names with its XML tag, as written ("Reason <Rsn> | [1..1]" -> Reason)."""
    match = _TAGGED.search(text)
    return match.group("name") if match else None


def in_section(chunk: ChunkPayload, section: str) -> bool:
    """Does the chunk stand in this section (a path element, "19.1.9.3"), at any depth?"""
    return any(p.casefold() == section.casefold() for p in chunk.section_path)


def heading_title(title: str | None) -> str:
    """A heading without its number ("19.1.9.3 BranchData3" -> "BranchData3")."""
    return _NUMBER.sub("", title or "").strip()


def _heading_name(title: str) -> str | None:
    """The component name a heading is, folded ("19.1.9.3 BranchData3" -> branchdata3); None for a
    heading of words or an element's record ("Name <Nm>")."""
    name = heading_title(title)
    return name.casefold() if _NAME.fullmatch(name) else None


class ComponentSections:
    """Collects every heading that names a component, with the sections it heads."""

    def __init__(self) -> None:
        self._sections: dict[tuple[str, str], set[str]] = {}
        self._tagged: set[tuple[str, str]] = set()  # (rulebook, section) holding a tagged element

    def add(self, chunk: ChunkPayload) -> None:
        named = [(key, name) for key, title in zip(chunk.section_path, [*chunk.parent_titles, chunk.section_title],
                                                   strict=False) if (name := _heading_name(title))]
        if not named:
            return  # most chunks stand under no component: their text is not searched for tags
        tagged = any(_TAGGED.search(text) for text in [chunk.text, *chunk.tables_csv])
        for key, name in named:
            self._sections.setdefault((chunk.rulebook_id, name), set()).add(key)
            if tagged:
                self._tagged.add((chunk.rulebook_id, key))

    def freeze(self) -> FrozenComponentSections:
        return FrozenComponentSections({(rulebook_id, name): key
                                        for (rulebook_id, name), keys in self._sections.items()
                                        if len(keys) == 1 and (rulebook_id, key := next(iter(keys))) in self._tagged})


class FrozenComponentSections:
    """The read-only index questions share across threads: (rulebook, folded name) -> its section."""

    def __init__(self, sections: Mapping[tuple[str, str], str]) -> None:
        self.sections = sections

    def named(self, question: str, rulebooks: Iterable[str]) -> list[SectionKey]:
        """The section of each component the question names, in these rulebooks (in their order), in
        the order the question names them."""
        order = list(dict.fromkeys(rulebooks))
        found: list[SectionKey] = []
        for word in WORD.findall(question):
            if not _NAME.fullmatch(word):
                continue
            for rulebook_id in order:
                section = self.sections.get((rulebook_id, word.casefold()))
                if section is not None and (rulebook_id, section) not in found:
                    found.append((rulebook_id, section))
        return found
