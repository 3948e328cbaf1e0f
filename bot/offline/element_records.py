"""A message guide's structure table points to where each element is defined.

ISO 20022 message definition reports list a message's elements in a table ("Or | MessageElement
<XML Tag> | Mult. | Type | Constr. No. | Page": "ServiceDescriptionLink <SvcDescLk> | [0..1] | Text |
| 63") and define each one in a record on the page that table names ("ServiceDescriptionLink
<SvcDescLk> Presence: [0..1] Definition: … Datatype: "Max2048Text" on page 116"). The row answers
whether the element is mandatory and how often it occurs; its type, length, format or meaning is in
the record. A question about those is answered from the record, with the row: the offline model
searches the record's rulebook for it when no chunk shown holds it (`row_pointer`, `record_of`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.offline.span_scoring import Span, parse_table
from knowledge.word_forms import fold_accents

_PAGE_COLUMN = {"page", "pagina", "seite"}
_ELEMENT_CELL = re.compile(r"^\s*([A-Z][A-Za-z0-9]+)\s*<\w+>")
_ASKS_DEFINITION = re.compile(
    r"\b(?:data\s*type|datatype|type|format|length|long|characters|definition|defined|define|mean|means|meaning|"
    r"values?|code\s*list|pattern|digits|lengte|formaat|betekent|longueur|signifie|länge|bedeutet)\b",
    re.IGNORECASE)
_ASKS_MULTIPLICITY = re.compile(
    r"\b(?:mandatory|optional|required|multiplicity|presence|occurrences?|occur|how\s+many|how\s+often|repeat\w*|"
    r"verplicht|optioneel|obligatoire|facultatif|pflicht\w*)\b", re.IGNORECASE)


def asks_element_definition(question: str) -> bool:
    """Does the question ask for an element's type, length, format or meaning (not whether it is
    mandatory or how often it occurs, which the structure row says)?"""
    return bool(_ASKS_DEFINITION.search(question)) and not _ASKS_MULTIPLICITY.search(question)


def row_pointer(span: Span) -> tuple[str, int] | None:
    """(element name, page of its record) of a structure-table row, or None when the span is no such row."""
    if span.table is None or span.row is None or not span.chunk.tables_csv:
        return None
    header, _ = parse_table(span.chunk.tables_csv[span.table])
    column = next((i for i, h in enumerate(header) if h.strip().casefold() in _PAGE_COLUMN), None)
    if column is None or column >= len(span.row) or not span.row[column].strip().isdigit():
        return None
    name = next((m.group(1) for cell in span.row if (m := _ELEMENT_CELL.match(cell))), None)
    return (name, int(span.row[column])) if name else None


def record_of(name: str, page: int, rulebook_id: str, spans: Sequence[Span]) -> Span | None:
    """The record of element `name` on `page` of that rulebook, among the spans shown."""
    folded = fold_accents(name).casefold()
    for span in spans:
        if span.table is None and span.chunk.rulebook_id == rulebook_id \
                and span.chunk.page_start <= page <= span.chunk.page_end \
                and fold_accents(span.text).casefold().startswith(folded + " "):
            return span
    return None
