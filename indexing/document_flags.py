"""What the index summary and the inventory say about a document beyond "indexed": it runs code
(JavaScript, launch actions), it addresses the reader as instructions, it is in a language the
bot does not speak. Such a document is indexed all the same; these are warnings for its owner.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from indexing.instruction_text import find_instruction_spans
from knowledge.language_id import SUPPORTED, document_language
from knowledge.payload import ChunkPayload
from knowledge.pdf_actions import active_content


@dataclass
class DocumentFlags:
    active_content: list[str] = field(default_factory=list)
    instruction_chunks: int = 0  # chunks (in the inventory: passages) holding instruction text
    language: str | None = None  # set only when it is not one the bot speaks
    unit: str = "chunk"

    def warnings(self) -> list[str]:
        out = []
        if self.active_content:
            out.append(f"holds active content ({', '.join(self.active_content)}): indexed, "
                       "but /sources/ serves it as a download, never opened in the browser")
        if self.instruction_chunks:
            out.append(f"{self.instruction_chunks} {self.unit}(s) hold text addressed to the reader or an AI as "
                       "instructions: marked, never quoted as fact")
        if self.language:
            out.append(f"language '{self.language}' is not one the assistant speaks (en, nl, fr, de): "
                       "indexed for keyword search without stemming; answers will quote it as written")
        return out


def flag_indexed(path: Path, payloads: Sequence[ChunkPayload]) -> DocumentFlags:
    language = payloads[0].language if payloads else None
    return DocumentFlags(active_content=active_content(path),
                         instruction_chunks=sum(1 for p in payloads if p.has_instruction_text),
                         language=language if language and language[:2] not in SUPPORTED else None)


def flag_file(path: Path) -> DocumentFlags:
    """The same flags from the PDF alone (for the inventory, which indexes nothing)."""
    import pypdfium2 as pdfium

    from indexing.pdf_text import plain_text

    flags = DocumentFlags(active_content=active_content(path), unit="passage")
    try:
        document = pdfium.PdfDocument(str(path))
    except Exception:  # noqa: BLE001 — corrupt / password: the inventory reports the file as it is
        return flags
    try:
        text = plain_text(document)
    finally:
        document.close()
    flags.instruction_chunks = len(find_instruction_spans(text))
    language = document_language(text[:5000]) if text.strip() else None
    flags.language = language if language and language not in SUPPORTED else None
    return flags


def inventory_flags(items: Sequence[tuple[Path, str]]) -> dict[str, list[dict[str, object]]]:
    """The flags of the inventory's files ((path, rulebook_id) each), as the inventory prints them."""
    out: dict[str, list[dict[str, object]]] = {"active_content": [], "instruction_text": [],
                                                 "unsupported_language": []}
    for path, rulebook_id in items:
        flags = flag_file(path)
        base = {"file": path.name, "rulebook_id": rulebook_id}
        if flags.active_content:
            out["active_content"].append({**base, "kinds": flags.active_content})
        if flags.instruction_chunks:
            out["instruction_text"].append({**base, "passages": flags.instruction_chunks})
        if flags.language:
            out["unsupported_language"].append({**base, "language": flags.language})
    return out


def print_inventory_flags(flags: dict[str, list[dict[str, object]]], echo: Callable[[str], None]) -> None:
    labels = {"active_content": "active content (JavaScript / launch actions; served as a download)",
              "instruction_text": "text addressed to the reader or an AI as instructions (marked, never quoted)",
              "unsupported_language": "language the assistant does not speak (keyword search only)"}
    for key, label in labels.items():
        echo(f"{label}: {len(flags[key])}")
        for entry in flags[key]:
            detail = entry.get("kinds") or entry.get("passages") or entry.get("language")
            detail = ", ".join(detail) if isinstance(detail, list) else detail
            echo(f"    {entry['file']}  [{entry['rulebook_id']}]  ({detail})")
