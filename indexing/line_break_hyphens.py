"""Hyphens pdfium met at a line break: a word split between its syllables is joined again, a hyphen
that belongs to the words is kept.

pdfium gives a hyphen at the end of a line as U+FFFE with the next line's first word after it
("pro\\ufffevided", "QR\\ufffeIID", "non\\ufffefinancial"). Read as a plain hyphen, a split word is two
words to BM25 and to the dense model, and an odd one in a quote ("Ver-wendung", "pro-vided"); our
public PDFs hold ~300 such breaks, half of them in one German specification. Which hyphen is which
is the document's own usage, since it writes its words elsewhere whole:

1. a name, code or number after the break ("QR-IID", "DS-02", "Start-Code") keeps its hyphen, as
   does a part of one letter ("e-invoice");
2. otherwise the spelling the document uses more often elsewhere wins: "non-financial" written so
   19 times keeps its hyphen, "werden" written whole 62 times is joined;
3. a pair the document writes neither way keeps its hyphen when both parts are words it uses on
   their own ("value-added", "three-party", "in-depth") and is joined when not ("comple-teness",
   "Ge-währleistung", "Zahlungs-ausgänge").

Words that touch a break are not counted as usage. One document's lines are resolved against that
document's words only: a rulebook's usage is no evidence about another's.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

LINE_BREAK_HYPHEN = "\ufffe"

_LETTERS = r"[^\W\d_]"
_BREAK = re.compile(rf"({_LETTERS}*){LINE_BREAK_HYPHEN}(\w*)")
_WORD = re.compile(rf"(?<![\w\-{LINE_BREAK_HYPHEN}]){_LETTERS}+(?![\w\-{LINE_BREAK_HYPHEN}])")
_HYPHENATED = re.compile(rf"(?<![\w\-{LINE_BREAK_HYPHEN}])({_LETTERS}+)-({_LETTERS}+)(?![\w\-{LINE_BREAK_HYPHEN}])")


class BreakHyphens:
    """One document's usage (whole words, hyphenated pairs), and the rule above applied to its lines."""

    def __init__(self, texts: Iterable[str]) -> None:
        self._words: Counter[str] = Counter()
        self._pairs: Counter[str] = Counter()
        for text in texts:
            if not text:
                continue
            self._words.update(word.casefold() for word in _WORD.findall(text))
            self._pairs.update(f"{left}-{right}".casefold() for left, right in _HYPHENATED.findall(text))

    def resolve(self, text: str) -> str:
        """The text with every line-break hyphen either joined or made a plain hyphen."""
        if LINE_BREAK_HYPHEN not in text:
            return text
        return _BREAK.sub(self._decide, text)

    def _decide(self, match: re.Match[str]) -> str:
        left, right = match.group(1), match.group(2)
        return f"{left}{right}" if self.joins(left, right) else f"{left}-{right}"

    def joins(self, left: str, right: str) -> bool:
        """Whether `left` + `right`, split by a hyphen at a line break, is one word."""
        if len(left) < 2 or len(right) < 2 or not right[0].islower() or not right.isalpha():
            return False
        whole = self._words[f"{left}{right}".casefold()]
        hyphenated = self._pairs[f"{left}-{right}".casefold()]
        if whole != hyphenated:
            return whole > hyphenated
        return not (self._words[left.casefold()] and self._words[right.casefold()])
