"""What a sentence claims, in the terms the lexical support check compares with a source span.

- Facts: numbers and amounts (compared by their digit groups, so "2,50" matches "2.50" and a
  date's day, month and year are each looked for), codes and identifiers (anything mixing
  letters and digits, upper-case abbreviations such as "SEPA" or "EUR", dotted message names),
  and proper names (a capitalised word that does not open the sentence, e.g. "Visa") — a name
  is a fact because another scheme's rules must never slip in under our citation. German
  capitalises every noun, so names are not treated as facts in German sentences.
- Content words: the BM25 tokeniser's stems (stop words dropped, accents folded) of the words.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from dataclasses import dataclass, field

from cachetools import LRUCache, cached

from knowledge.bm25 import tokenize
from knowledge.word_forms import fold_accents

_NUMBER = re.compile(r"(?<![\w.,])\d+(?:[.,:/\-]\d+)*")
_WORD = re.compile(r"[^\W_]+(?:[.\-/_'’][^\W_]+)*")
_MARKDOWN = re.compile(r"[*_`~>#]|\[(?:\s*\^?\d+\s*)\]")
# Capitalised words at these positions are not names: the sentence's first word and any word
# after an opening quote, bracket, colon or list bullet.
_COMMON_CAPITALISED_WORDS = """i a an the this that these those it its in on at for from to of and or but if when where
    what which who how why yes no not note see here there our your we you they he she
    le la les un une des ce cette ces il elle nous vous si dans pour par sur avec selon voici
    de het een dit deze die dat er hier volgens u wij zij
    der die das ein eine dies diese hier laut sie wir
    english dutch french german engels nederlands frans duits anglais néerlandais français allemand
    englisch niederländisch französisch deutsch"""
_COMMON_CAPITALISED = frozenset(_COMMON_CAPITALISED_WORDS.split())
# everyday words written in capitals ("Our client is OK with the debit"): no code or abbreviation a
# rulebook would define, so neither a fact to support nor a name the question's sources must mention
_EVERYDAY_CAPITALS = frozenset({"OK", "ASAP", "FYI", "BTW", "AKA", "TBD"})


@dataclass
class Claims:
    numbers: list[str] = field(default_factory=list)  # digit groups of each number, "2.50" -> "2 50"
    identifiers: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    content_terms: set[str] = field(default_factory=set)

    @property
    def facts(self) -> list[str]:
        return [*self.numbers, *self.identifiers, *self.names]

    @property
    def has_facts(self) -> bool:
        return bool(self.numbers or self.identifiers or self.names)


def plain(text: str) -> str:
    """Text without markdown emphasis, quotes' styling or list bullets, NFKC-normalised."""
    text = unicodedata.normalize("NFKC", text)
    text = re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", text)
    return _MARKDOWN.sub("", text).strip()


def _is_identifier(token: str) -> bool:
    has_digit = any(ch.isdigit() for ch in token)
    has_alpha = any(ch.isalpha() for ch in token)
    if has_digit and has_alpha:
        return True
    letters = [ch for ch in token if ch.isalpha()]
    return len(letters) >= 2 and all(ch.isupper() for ch in letters)


def extract_claims(sentence: str, language: str) -> Claims:
    """A fresh `Claims` (callers may change it) from the remembered parts of this sentence."""
    numbers, identifiers, names, terms = _claim_parts(sentence, language)
    return Claims(list(numbers), list(identifiers), list(names), set(terms))


@cached(LRUCache(maxsize=20_000), lock=threading.Lock())
def _claim_parts(sentence: str, language: str
                 ) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], frozenset[str]]:
    """Remembered by text: the offline model extracts the facts of the same passage sentences on
    every turn and for every question that reads them (~0.1-0.3 ms a sentence). Immutable, so
    safe to share between threads; the lock guards only the LRU's bookkeeping."""
    text = plain(sentence)
    numbers: list[str] = []
    identifiers: list[str] = []
    names: list[str] = []
    for match in _NUMBER.finditer(text):
        numbers.append(" ".join(re.findall(r"\d+", match.group(0))))
    tokens = list(_WORD.finditer(text))
    for index, match in enumerate(tokens):
        token = match.group(0)
        if token in _EVERYDAY_CAPITALS:
            continue
        if _is_identifier(token):
            if not token.isdigit() and not re.fullmatch(r"[\d.,:/\-]+", token):
                identifiers.append(token)
            continue
        if token[0].islower() and token.isalpha() and any(ch.isupper() for ch in token[1:]):
            names.append(token)  # a brand written in mixed case ("iDEAL", "eBay"), in any language or place
            continue
        if language == "de" or index == 0 or not token[0].isupper() or len(token) < 2:
            # (a lone capital is no name: "E&I" is "E" and "I" to the word pattern); an acronym joined to a
            # word ("EBICS-Auftragsart", "SEPA-Überweisungen") is one even where capitals name nothing
            identifiers += [p for p in token.split("-")[:-1] if len(p) >= 2 and p.isalpha() and p.isupper()]
            continue
        preceding = text[:match.start()].rstrip()
        if not preceding or preceding[-1] in "\"'“‘«(:;.!?":
            continue
        if token.lower() in _COMMON_CAPITALISED:
            continue
        names.append(token)
    terms = frozenset(t for t in tokenize(text, language) if not any(ch.isdigit() for ch in t))
    return tuple(numbers), tuple(identifiers), tuple(names), terms


@dataclass
class SpanIndex:
    """A source span prepared for the checks: its folded text, number groups and stems."""

    folded: str
    number_groups: set[str]
    numbers: set[str]
    terms: set[str]

    @classmethod
    def build(cls, text: str, language: str) -> SpanIndex:
        normal = unicodedata.normalize("NFKC", text)
        numbers = {" ".join(re.findall(r"\d+", m.group(0))) for m in _NUMBER.finditer(normal)}
        groups = {g for n in numbers for g in n.split()}
        return cls(folded=fold_accents(normal).casefold(), number_groups=groups, numbers=numbers,
                   terms=set(tokenize(normal, language)))

    def has_number(self, number: str) -> bool:
        return number in self.numbers or all(g in self.number_groups for g in number.split())

    def has_token(self, token: str) -> bool:
        needle = fold_accents(token).casefold()
        if re.search(r"(?<![^\W_])" + re.escape(needle) + r"(?![^\W_])", self.folded):
            return True
        # "AT-R3" written "ATR3", "pain.001" inside "pain.001.001.09"
        squashed = re.sub(r"[.\-/_]", "", needle)
        return bool(squashed) and squashed in re.sub(r"[.\-/_]", "", self.folded)

    def missing_facts(self, claims: Claims) -> list[str]:
        missing = [n.replace(" ", ".") for n in claims.numbers if not self.has_number(n)]
        missing += [t for t in (*claims.identifiers, *claims.names) if not self.has_token(t)]
        return missing

    def overlap(self, claims: Claims) -> float:
        if not claims.content_terms:
            return 1.0
        return len(claims.content_terms & self.terms) / len(claims.content_terms)
