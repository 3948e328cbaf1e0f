"""The multiplicity of a message's building blocks, from its structure table.

A message definition report opens each message's chapter with the blocks it is made of ("The
RequestToModifyPaymentV07 MessageDefinition is composed of 6 MessageBuildingBlocks: A. Assignment
Identifies … D. Modification Identifies the list of modifications requested …") and then prints the
message's structure table ("Modification <Mod> | [1..1]"). The sentence names the blocks and says
what each is for; only the table says which are mandatory and how often each may occur. A question
about a block's presence or count ("which building block carries the changes, and is it
mandatory?") finds the sentence, close in words; the table's rows share only the block's name with it.
So when a quote lists a message's blocks and the question asks about an element's presence, type or
count, the rows of that message's structure table keyed by those blocks are shown with it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.offline.span_scoring import Span, row_key

MAX_LIST_SENTENCES = 12  # sentences after the opening one that may carry the list's later blocks
_COMPOSED = re.compile(r"\bis\s+composed\s+of\s+\d+\s+MessageBuildingBlocks?\s*:", re.IGNORECASE)
# "A. Assignment Identifies …", "B. Case …": a letter in order, then the block's name
_ITEM = re.compile(r"(?:^|\s)(?P<letter>[A-Z])\.\s+(?P<name>[A-Z][A-Za-z0-9]+)\b")


def listed_blocks(text: str) -> list[str]:
    """The building blocks a sentence lists, in order ("… composed of 3 MessageBuildingBlocks: A. Header
    … B. OriginalEnrolmentAndStatus … C. SupplementaryData …" -> those three); [] for another sentence."""
    found = _COMPOSED.search(text)
    if found is None:
        return []
    names: list[str] = []
    for item in _ITEM.finditer(text, found.end()):
        if ord(item.group("letter")) - ord("A") != len(names):
            break  # the letters run A, B, C …: anything else is no longer the list
        names.append(item.group("name"))
    return names


def block_rows(quote: Span, spans: Sequence[Span]) -> list[Span]:
    """The rows keyed by the blocks `quote` lists, from the one table of the same message's chapter (its
    rulebook and top section) that keys the most of them, each block's first row in table order; []
    when the quote lists no blocks or no table shown keys two of them."""
    if quote.table is not None or not _COMPOSED.search(quote.text):
        return []
    # the list often runs on past the sentence that opens it ("A. Assignment Identifies …. Usage: ….
    # B. Case …"): the sentences after it in its chunk carry the later letters
    after = sorted((s for s in spans if s.table is None and s.chunk.chunk_id == quote.chunk.chunk_id
                    and quote.position < s.position <= quote.position + MAX_LIST_SENTENCES), key=lambda s: s.position)
    blocks = listed_blocks(" ".join([quote.text, *(s.text for s in after)]))
    if not blocks:
        return []
    chapter = quote.chunk.section_path[:1]
    keyed: dict[tuple[str, int], dict[str, Span]] = {}
    for span in spans:
        if span.table is None or span.chunk.rulebook_id != quote.chunk.rulebook_id \
                or span.chunk.section_path[:1] != chapter:
            continue
        name = row_key(span)
        if name in blocks:
            rows = keyed.setdefault((span.chunk.chunk_id, span.table), {})
            earlier = rows.get(name)
            if earlier is None or span.position < earlier.position:
                rows[name] = span
    if not keyed:
        return []
    best = max(keyed.values(), key=len)
    if len(best) < min(2, len(blocks)):
        return []
    return sorted(best.values(), key=lambda span: span.position)  # the table's order

