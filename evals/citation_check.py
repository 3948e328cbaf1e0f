"""Independent checks of what reached the user: is each cited span really on the cited page, and
is each released sentence supported by the span it cites?

These checks deliberately do not import the bot's citation gate: they re-derive the verdict from
the stored chunks and the PDF pages themselves, so that a gate bug shows up here as a number. They
do cut the answer into sentences exactly as the gate does (`knowledge.sentences`), so that a
sentence here is the unit the gate judged.
Text is compared in a "squashed" form (case-folded, NFKC, whitespace and hyphens removed) so that
line breaks, pdfium's hyphen markers and CSV commas in tables do not hide a real match.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from knowledge import sentences

_DROP = re.compile(r"[\s\-\u00ad\ufffe\u2010\u2011\u2012\u2013\u2014\u2212\"'`’‘“”«»*_|,;]+")
_MARKER = re.compile(r"\[(\d{1,3})\]")
_WORD = re.compile(r"[^\W\d_]{4,}", re.UNICODE)
# A "fact token": anything holding a digit (amounts, dates, pages, codes such as AT-R004, MD06,
# pain.001.001.09, XS1914695009), plus hyphenated upper-case identifiers such as QR-IBAN.
_FACT_TOKEN = re.compile(r"(?<![\w€$£])[€$£]?[\w./:%€-]*\d[\w./:%€-]*|\b[A-Z]{2,}(?:-[A-Z0-9]+)+\b")

# Words that carry no claim; kept short and language-spread on purpose (en, nl, fr, de).
_STOPWORD_TEXT = """
that this with from have been were will shall would could should must which their there they them
what when where while into than then also only such each other more most some these those does
about under over between after before within without upon your yours ours according rulebook
rulebooks section page says state states stated source sources following says answer question
voor zijn wordt worden door naar niet maar deze onder over heeft hebben kunnen moet moeten
volgens welke waar tussen binnen zonder ook alleen andere meer
pour dans avec sont être cette selon sans leur leurs plus moins aussi doit doivent entre après
avant vous nous elle elles ceux celle quel quelle quels quelles
und oder nicht eine einer eines dass wird werden sind beim auch nach über unter ohne zwischen
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def squash(text: str) -> str:
    """Case-folded, NFKC, without whitespace, hyphens, quotes and list/CSV punctuation."""
    text = unicodedata.normalize("NFKC", text).replace("\ufffe", "")
    return _DROP.sub("", text).casefold()


def contains(haystack: str, needle: str) -> bool:
    n = squash(needle)
    return bool(n) and n in squash(haystack)


def strip_markers(text: str) -> str:
    return _MARKER.sub("", text)


def markers(text: str) -> list[int]:
    return [int(m) for m in _MARKER.findall(text)]


def fact_tokens(text: str) -> list[str]:
    """Numbers, amounts, dates, codes and identifiers of a sentence, citation markers removed."""
    tokens = []
    for raw in _FACT_TOKEN.findall(strip_markers(text)):
        token = raw.strip(".,:;/-")
        if token and any(ch.isalnum() for ch in token):
            tokens.append(token)
    return tokens


def content_words(text: str) -> list[str]:
    return [w for w in (m.casefold() for m in _WORD.findall(strip_markers(text))) if w not in STOPWORDS]


def word_coverage(text: str, span: str) -> float:
    """Share of `text`'s content words that occur (as squashed substrings) in `span`."""
    words = content_words(text)
    if not words:
        return 1.0
    target = squash(span)
    return sum(1 for w in words if squash(w) in target) / len(words)


def token_coverage(text: str, page: str) -> float:
    """Share of `text`'s words and numbers found on `page`: a table row quoted as CSV still scores
    high against the laid-out page, where a plain substring test fails on the commas."""
    tokens = [t for t in re.findall(r"\w+", strip_markers(text)) if len(t) > 1 or t.isdigit()]
    if not tokens:
        return 1.0
    target = squash(page)
    return sum(1 for t in tokens if squash(t) in target) / len(tokens)


# ---------------------------------------------------------------------------------------------
# The released answer, sentence by sentence


@dataclass
class Sentence:
    text: str
    cites: list[int]
    is_table_row: bool = False


def split_sentences(answer_text: str) -> list[Sentence]:
    """Markdown answer -> sentences (and table rows), each with the [n] markers it carries.

    A marker standing alone after the sentence's full stop ("... day. [2]") belongs to that
    sentence, which is how most models place them."""
    out: list[Sentence] = []
    for line in answer_text.splitlines():
        stripped = line.strip()
        if not stripped or set(stripped) <= set("|-: "):
            continue
        if stripped.startswith("|"):
            out.append(Sentence(stripped, markers(stripped), is_table_row=True))
            continue
        stripped = re.sub(r"^(#+|[-*•>]|\d+[.)])\s+", "", stripped)
        for piece in sentences.split_sentences(stripped):
            piece = piece.strip()
            if not piece:
                continue
            if out and not out[-1].is_table_row and markers(piece) \
                    and not strip_markers(piece).strip(" .,;"):
                out[-1].cites.extend(markers(piece))
                out[-1].text += " " + piece
                continue
            out.append(Sentence(piece, markers(piece)))
    return out


def is_claim(sentence: Sentence) -> bool:
    """A sentence that states something checkable: it holds a fact token or enough content words.
    Connectives such as "The rulebook says:" are not claims."""
    if fact_tokens(sentence.text):
        return True
    return len(content_words(sentence.text)) >= 5


@dataclass
class SupportVerdict:
    sentence: str
    supported: bool
    reason: str = ""


def sentence_support(sentence: Sentence, spans: Sequence[str], cross_language: bool,
                     min_overlap: float = 0.5) -> SupportVerdict:
    """Supported when every fact token is in one of the cited spans and, unless the span is in
    another language than the sentence, enough content words are too."""
    text = sentence.text
    if not spans:
        return SupportVerdict(text, False, "no cited span")
    joined = "\n".join(spans)
    missing = [t for t in fact_tokens(text) if not contains(joined, t)]
    if missing:
        return SupportVerdict(text, False, f"not in the cited span: {', '.join(missing[:5])}")
    if not cross_language:
        coverage = max(word_coverage(text, s) for s in spans)
        combined = word_coverage(text, joined)
        if max(coverage, combined) < min_overlap:
            return SupportVerdict(text, False, f"content-word overlap {combined:.2f} < {min_overlap}")
    return SupportVerdict(text, True)


# ---------------------------------------------------------------------------------------------
# Cited pages


@dataclass
class PageTexts:
    """The text of PDF pages by (source path, 1-based page), read with pdfium and cached."""

    roots: list[Path] = field(default_factory=list)  # where to look when a source_uri is relative

    def resolve(self, source_uri: str) -> Path | None:
        if not source_uri:
            return None
        uri = source_uri.removeprefix("file://")
        path = Path(uri)
        if path.is_file():
            return path
        for root in self.roots:
            for candidate in (root / uri, root / path.name):
                if candidate.is_file():
                    return candidate
        return None

    def page(self, source_uri: str, page: int) -> str | None:
        path = self.resolve(source_uri)
        if path is None:
            return None
        pages = _pdf_pages(str(path.resolve()))
        if 1 <= page <= len(pages):
            return pages[page - 1]
        return None


@lru_cache(maxsize=64)
def _pdf_pages(path: str) -> tuple[str, ...]:
    import ftfy
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(path)
    try:
        # ftfy as the indexer does: a page whose text layer is mojibake must still be comparable
        return tuple(ftfy.fix_text(doc[i].get_textpage().get_text_range()) for i in range(len(doc)))
    finally:
        doc.close()


def quote_on_page(quote: str, page_text: str, min_token_coverage: float = 0.9) -> bool:
    if not quote.strip():
        return False
    if contains(page_text, quote):
        return True
    return token_coverage(quote, page_text) >= min_token_coverage


def quote_in_chunk(quote: str, chunk_text: str, tables_csv: Iterable[str] = ()) -> bool:
    if not quote.strip():
        return False
    body = "\n".join([chunk_text, *tables_csv])
    return contains(body, quote) or token_coverage(quote, body) >= 0.95
