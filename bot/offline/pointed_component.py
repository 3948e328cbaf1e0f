"""The component an element's record points to, and the row of it a question asks about.

A message definition report details an element that holds other elements in a section of its own,
and the element's record in the message's chapter only points there: 'CancellationReason <CxlRsn>
contains the following elements (see "DebtorActivationCancellationReason2" on page 65 for
details)'. A question about an element *inside* it ("once a CancellationReason is given, is the
Reason inside it mandatory?") is answered by the component's structure table ("Reason <Rsn> |
[1..1]"), which shares few words with the question and is rarely what a search shows: the question
names the element it is inside, not the component. The assistant reads the component's section when
a quoted record points to it (`OfflineRulebookModel._section_to_read`, with `pointed_components`); the row is shown when it names an element the question
names that is not the pointing element itself (`inner_row`), so a question about the element whose
record points ("is CancellationReason mandatory?") keeps its own answer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.offline.component_sections import WORD, SectionKey, in_section, tagged_name
from bot.offline.cross_reference import type_references
from bot.offline.span_scoring import POINTS_ON, Span, element_names, row_key, spelled_element_names


def pointed_components(quoted: Iterable[Span], spans: Sequence[Span], sections: object
                       ) -> list[tuple[Span, SectionKey]]:
    """(pointing span, section of the component it points to) for each quoted span that opens a
    component's elements ('… contains the following elements (see "X" on page N …)'), or that is the
    record right before such a span (the record's last line), where the guide details X in a section of
    its own (`component_sections.FrozenComponentSections.sections`)."""
    index = getattr(sections, "sections", {})
    following = {(s.chunk.chunk_id, s.position): s for s in spans if s.table is None}
    found: list[tuple[Span, SectionKey]] = []
    for quote in quoted:
        span = quote
        if quote.table is None and not POINTS_ON.search(quote.text):
            span = following.get((quote.chunk.chunk_id, quote.position + 1), quote)
        if span.table is not None or not POINTS_ON.search(span.text):
            continue
        for ref in type_references(span.text):
            section = index.get((span.chunk.rulebook_id, ref.name.casefold()))
            if section is not None and (span.chunk.rulebook_id, section) not in [s for _, s in found]:
                found.append((span, (span.chunk.rulebook_id, section)))
    return found


def _asked_names(question: str) -> set[str]:
    """The folded element names a question may mean: its words, its run-together names and the names
    its words spell ("additional information" -> additionalinformation)."""
    return ({w.casefold() for w in WORD.findall(question)} | element_names(question)
            | spelled_element_names(question))


def inner_row(question: str, spans: Sequence[Span], pointing: Span, section: SectionKey) -> Span | None:
    """The best-scored row of the pointed component's tables that is keyed by an element the question
    names, other than the pointing element; None when the question names none of its elements."""
    rulebook_id, key = section
    own = tagged_name(pointing.text)
    asked = _asked_names(question) - ({own.casefold()} if own else set())
    for span in spans:  # best first
        if span.table is None or span.chunk.rulebook_id != rulebook_id or not in_section(span.chunk, key):
            continue
        name = row_key(span)
        if name is not None and name.casefold() in asked:
            return span
    return None


def holds_table_of(spans: Sequence[Span], section: SectionKey) -> bool:
    """Did a tool show a table row of the component's section?"""
    rulebook_id, key = section
    return any(s.table is not None and s.chunk.rulebook_id == rulebook_id and in_section(s.chunk, key) for s in spans)
