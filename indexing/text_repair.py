"""Text repair before anything else looks at the words: mojibake, pdfium's markers, spacing.

PDFs made from text that went through a Windows-1252 <-> UTF-8 round trip carry mojibake
("rÃ©munÃ©ration"); ftfy undoes it, also where correct and broken text are mixed in one line.
pdfium marks a hyphen it met at a line break with U+FFFE. A line alone cannot tell a word split
between its syllables ("pro-vided") from a hyphen that belongs ("inter-PSP"): the document's prose
keeps the marker for `indexing.line_break_hyphens`, which decides with the whole document's words;
everything else reads it as a plain hyphen.
"""

from __future__ import annotations

import re

import ftfy

_SPACES = re.compile(r"[ \t\u00a0\u2000-\u200a\u202f]+")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufeff\ufffd\u200b]")
_FTFY_CONFIG = ftfy.TextFixerConfig(unescape_html=False, normalization="NFC", explain=False)


def repair_line(text: str, keep_break_hyphens: bool = False) -> str:
    """One extracted line, repaired and with its whitespace tidied (no newlines inside);
    `keep_break_hyphens` leaves pdfium's line-break hyphens (U+FFFE) for the document to resolve."""
    if not keep_break_hyphens:
        text = text.replace("\ufffe", "-")
    text = text.replace("\u00ad", "")
    if not text.isascii():
        text = ftfy.fix_text(text, config=_FTFY_CONFIG)
    text = _CONTROL.sub("", text)
    return _SPACES.sub(" ", text).strip()
