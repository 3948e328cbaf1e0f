"""Text repair before anything else looks at the words: mojibake, pdfium's markers, spacing.

PDFs made from text that went through a Windows-1252 <-> UTF-8 round trip carry mojibake
("rÃ©munÃ©ration"); ftfy undoes it, also where correct and broken text are mixed in one line.
pdfium marks a hyphen it met at a line break with U+FFFE; we keep it as a plain hyphen because
most such hyphens in rulebooks are real ("inter-PSP"), and a word split by a syllable hyphen
still reads fine.
"""

from __future__ import annotations

import re

import ftfy

_SPACES = re.compile(r"[ \t\u00a0\u2000-\u200a\u202f]+")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufeff\ufffd\u200b]")
_FTFY_CONFIG = ftfy.TextFixerConfig(unescape_html=False, normalization="NFC", explain=False)


def repair_line(text: str) -> str:
    """One extracted line, repaired and with its whitespace tidied (no newlines inside)."""
    text = text.replace("\ufffe", "-").replace("\u00ad", "")
    if not text.isascii():
        text = ftfy.fix_text(text, config=_FTFY_CONFIG)
    text = _CONTROL.sub("", text)
    return _SPACES.sub(" ", text).strip()
