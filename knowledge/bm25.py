"""Our BM25 sparse encoder: the lexical leg of hybrid search (Qdrant applies the IDF).

Why our own: rulebook questions hinge on exact identifiers ("pain.001.001.09", "AT-R3", "MD06",
ISINs, IBANs, section numbers) that generic tokenisers split into noise, and the corpus is in
English, Dutch, French and German.

Tokens
- Identifiers (anything with a digit, joined by . - / _) are kept whole, lower-cased:
  "pain.001.001.09", "at-r3", "md06", "4.2.1", "nl91abna0417164300" (an IBAN written in groups of
  four is joined first). Where useful their parts are emitted too: alphabetic parts as words
  ("pain"), the separator-free form of a lettered code ("atr3", so "ATR3" finds "AT-R3") and the
  dotted prefixes of a lettered message name ("pain.001", so "pain.001" finds "pain.001.001.09").
- Words: accents folded (so "remuneration" finds "rémunération"; folding happens before stemming
  so that a query typed without accents stems the same way as the accented document text), stop
  words of the text's language dropped, then the Snowball stemmer of that language.

Document values: BM25's term-frequency part, tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl)),
k1 = 1.2, b = 0.75. avgdl is a FIXED assumed average (ASSUMED_AVGDL tokens), not a collection
statistic: a statistic changes whenever a rulebook is added or withdrawn and would make every
stored vector stale, which defeats incremental re-indexing (only changed chunks are re-encoded).
Chunks are packed to ~2,000 characters, which after stop-word removal is ~150-200 tokens; an
error in avgdl only shifts how strongly length is normalised, never the order of two chunks of
equal length. The query vector is each unique query term with weight 1: Qdrant multiplies by
the IDF it keeps per term (the `bm25` sparse vector's IDF modifier), which completes BM25.

Term ids: the first 4 bytes of blake2b(term) masked to 31 bits, deterministic across processes
and machines (Python's hash() is salted per process). Collisions are rare (~1 in 2^31 per pair)
and merely merge two terms' counts.

Concurrency: `Bm25Encoder` holds no mutable state and is shared by every thread; the only
stateful objects are the Snowball stemmers, which are kept one per thread (see `_stemmer`).
Stems are memoised in a bounded, thread-safe `lru_cache` (a pure function of language and
word), and so are a text's terms (`_terms_of`, a locked cachetools LRU of immutable tuples).
The stop-word sets are frozen and the compiled regexes are safe to share.

Queries of unknown language: the language is guessed from stop words; when no language stands
out (a short keyword query), the query carries the stems of every supported language, so a
query written in English still matches Dutch or French stems of the same word, and identifiers
match regardless of language.
"""

from __future__ import annotations

import hashlib
import re
import threading
import unicodedata
from collections import Counter
from functools import lru_cache

import snowballstemmer
from cachetools import LRUCache, cached

from knowledge.language_id import supported_language
from knowledge.store import SparseVector
from knowledge.word_forms import STOP_WORDS, fold_accents

K1 = 1.2
B = 0.75
ASSUMED_AVGDL = 160.0
_TERMS_MEMO = 20_000  # texts whose terms are remembered (~0.4 KB each: a few MB)

SUPPORTED_LANGUAGES = ("en", "nl", "fr", "de")
_STEMMER_NAMES = {"en": "english", "nl": "dutch", "fr": "french", "de": "german"}

# An IBAN written in groups of four ("NL91 ABNA 0417 1643 00"): joined before tokenising.
_GROUPED_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,3})?\b")
# A run of letters/digits, possibly joined by . - / _ between alphanumerics.
_RAW_TOKEN = re.compile(r"[^\W_]+(?:[.\-/_][^\W_]+)*")
_SEPARATORS = re.compile(r"[.\-/_]")


# A Snowball stemmer keeps its working word in instance fields (cursor, limit, buffer), so one
# instance used by two threads at once returns wrong stems or raises IndexError/AssertionError.
# Each thread gets its own (the answer path stems in the event loop, in `asyncio.to_thread`
# workers and in the indexer's threads); a stemmer is cheap (~20 µs) and tiny.
_stemmers = threading.local()


def _stemmer(language: str) -> snowballstemmer.Stemmer:
    """This thread's Snowball stemmer for `language`."""
    own: dict[str, snowballstemmer.Stemmer] | None = getattr(_stemmers, "by_language", None)
    if own is None:
        own = _stemmers.by_language = {}
    stemmer = own.get(language)
    if stemmer is None:
        stemmer = own[language] = snowballstemmer.stemmer(_STEMMER_NAMES[language])
    return stemmer


def _normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    text = _GROUPED_IBAN.sub(lambda m: m.group(0).replace(" ", ""), text)
    return fold_accents(text).lower()


def _split(text: str) -> tuple[list[str], list[str]]:
    """(words, identifier terms) of a text, before stop words and stemming."""
    words: list[str] = []
    identifiers: list[str] = []
    for match in _RAW_TOKEN.finditer(_normalise(text)):
        token = match.group(0)
        if not any(ch.isdigit() for ch in token):
            words.extend(_SEPARATORS.split(token))  # "cross-border" -> cross, border
            continue
        identifiers.append(token)
        parts = _SEPARATORS.split(token)
        if len(parts) == 1:
            continue
        lettered = any(ch.isalpha() for ch in token)
        words.extend(p for p in parts if p.isalpha() and len(p) > 1)
        if lettered and re.search(r"[-/_]", token):
            identifiers.append("".join(parts))  # at-r3 -> atr3
        if lettered and parts[0].isalpha() and "." in token and len(parts) > 2:
            for end in range(2, len(parts)):  # pain.001.001.09 -> pain.001, pain.001.001
                identifiers.append(".".join(parts[:end]))
    return words, identifiers


def _stem_words(words: list[str], language: str | None) -> list[str]:
    if language not in _STEMMER_NAMES:
        return [w for w in words if len(w) > 1]
    stop = STOP_WORDS[language]
    kept = [w for w in words if len(w) > 1 and w not in stop]
    return [_stem(language, w) for w in kept]


@lru_cache(maxsize=65_536)
def _stem(language: str, word: str) -> str:
    """One word's stem, remembered: Snowball in pure Python costs ~0.1-0.5 ms a word, and the
    answer path stems the same words over and over (queries, candidate sentences, the gate's
    support check). lru_cache is thread-safe; a miss uses this thread's own stemmer."""
    return _stemmer(language).stemWord(word)


def tokenize(text: str, language: str | None) -> list[str]:
    """Index terms of a text in one language (None: no stemming, no stop words)."""
    return list(_terms_of(text, language))


@cached(LRUCache(maxsize=_TERMS_MEMO), lock=threading.Lock())
def _terms_of(text: str, language: str | None) -> tuple[str, ...]:
    """A text's terms, remembered (immutable, so shared safely; the lock guards only the LRU
    bookkeeping, the tokenising runs outside it). One answer tokenises the same passage
    sentences in every turn of the offline model, in the gate's support check and in the next
    question that reads the same chunks; ~0.05-0.5 ms each time. Keys are texts, so the memo
    is of passage content (and the odd question, whose tokenising costs ~0.1 ms)."""
    words, identifiers = _split(text)
    return (*_stem_words(words, language), *identifiers)


def term_id(term: str) -> int:
    return int.from_bytes(hashlib.blake2b(term.encode("utf-8"), digest_size=4).digest(), "big") & 0x7FFFFFFF


def _document_language(language: str | None, text: str) -> str | None:
    if language:
        short = language.lower()[:2]
        if short in _STEMMER_NAMES:
            return short
        if len(short) == 2 and short.isalpha():  # a language we do not stem ("es"): words as written
            return None
    return supported_language(text)


class Bm25Encoder:
    """Stateless: the same text and language always give the same vector, in any process."""

    def __init__(self, k1: float = K1, b: float = B, avgdl: float = ASSUMED_AVGDL) -> None:
        self.k1, self.b, self.avgdl = k1, b, avgdl

    def encode_document(self, text: str, language: str | None = "en") -> SparseVector:
        terms = tokenize(text, _document_language(language, text))
        if not terms:
            return SparseVector(indices=[], values=[])
        norm = self.k1 * (1 - self.b + self.b * len(terms) / self.avgdl)
        counts: Counter[int] = Counter(term_id(t) for t in terms)
        indices = sorted(counts)
        values = [counts[i] * (self.k1 + 1) / (counts[i] + norm) for i in indices]
        return SparseVector(indices=indices, values=values)

    def encode_query(self, text: str, language: str | None = None) -> SparseVector:
        lang = _document_language(language, text)
        if lang is not None:
            terms = set(tokenize(text, lang))
        else:
            terms = set()
            for candidate in SUPPORTED_LANGUAGES:
                terms.update(tokenize(text, candidate))
        indices = sorted({term_id(t) for t in terms})
        return SparseVector(indices=indices, values=[1.0] * len(indices))

    def query_terms(self, text: str, language: str | None = None) -> list[str]:
        """The terms a query is encoded from (for diagnostics and tests)."""
        lang = _document_language(language, text)
        if lang is not None:
            return sorted(set(tokenize(text, lang)))
        return sorted({t for candidate in SUPPORTED_LANGUAGES for t in tokenize(text, candidate)})
