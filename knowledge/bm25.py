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
- Run-together names ("ServiceDescriptionLink", "UnableToApplyIncorrectInformation4Code"):
  kept whole; in a QUERY their words are searched too, at a lower weight (`query_weights`).
- Words: accents folded (so "remuneration" finds "rémunération"; folding happens before stemming
  so that a query typed without accents stems the same way as the accented document text), stop
  words of the text's language dropped, then the Snowball stemmer of that language.

Document values: BM25's term-frequency part, tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl)),
k1 = 1.2, b = 0.75 (a sweep on our ObliQA dev half found k1 2 / b 0.9 +1.5 points of R@10
there, but ObliQA passages average 37 tokens against our chunks' ~95 and on real2 dev the same
values cost 3 points of MRR: evals/baselines/retrieval_sweep.json). avgdl is a FIXED assumed average (ASSUMED_AVGDL tokens), not a collection
statistic: a statistic changes whenever a rulebook is added or withdrawn and would make every
stored vector stale, which defeats incremental re-indexing (only changed chunks are re-encoded).
Chunks are packed to ~2,000 characters, which after stop-word removal is ~150-200 tokens; an
error in avgdl only shifts how strongly length is normalised, never the order of two chunks of
equal length. The query vector is each unique query term with weight 1 (words inside run-together names
less, words that only frame a question left out: `query_weights`; a Dutch, French or German
question also carries the English words of its payment terms: `knowledge.payment_terms`): Qdrant
multiplies by the IDF it keeps per term (the `bm25` sparse vector's IDF modifier), which completes BM25.

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
from knowledge.word_forms import QUESTION_FRAME_WORDS, STOP_WORDS, fold_accents

K1 = 1.2
B = 0.75
ASSUMED_AVGDL = 160.0
# The weight of a word found inside a run-together name in a query (whole terms weigh 1).
# Swept on the real2 dev half (`python -m evals.obliqa_sweep --real2-data-dir ...`; curve in
# evals/baselines/retrieval_sweep.png): BM25 alone, right page in the top 10 0.890 -> 0.936
# (0.5) -> 0.945 (1.0); the hybrid search's 0.954 -> 0.963 only at 1.0. Splitting the names in
# the DOCUMENTS as well lost 3 points on BM25 alone and none gained hybrid: not done.
COMPOUND_PART_WEIGHT = 1.0
# The weight of the English word of a payment term a non-English question uses (knowledge.payment_terms): a
# translation is the same term, so it weighs as the question's own words do
GLOSS_WEIGHT = 1.0
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


# A run-together name ("ServiceDescriptionLink", "UnableToApplyIncorrectInformation4Code",
# "XMLTag"): split where the case turns from lower to upper, or a capital run ends before a
# capitalised word; digits separate too.
_COMPOUND = re.compile(r"[^\W\d_]*[a-z][A-Z][^\W_]*|[^\W\d_]*[A-Z]{2}[a-z][^\W_]*|[^\W\d_]+\d+[^\W\d_][^\W_]*")
_COMPOUND_PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")


def compound_parts(text: str) -> list[str]:
    """The words inside run-together names, lower-cased, in order ("ServiceDescriptionLink" ->
    service, description, link); the whole name is a term of its own already."""
    parts: list[str] = []
    for match in _COMPOUND.finditer(fold_accents(unicodedata.normalize("NFKC", text))):
        pieces = _COMPOUND_PART.findall(match.group(0))
        if len(pieces) > 1:
            parts.extend(p.lower() for p in pieces)
    return parts


def query_weights(text: str, language: str | None, part_weight: float | None = None,
                  drop_frame: bool = True) -> dict[str, float]:
    """A question's BM25 terms and their weights. `tokenize`'s terms weigh 1, less the words
    that only frame the question ("can you provide specific examples of ...", "pourriez-vous
    préciser ..."): they say how to answer, not what about, and in regulatory text they match
    everywhere. A question made only of such words keeps them. The words inside a run-together
    name are searched too, at COMPOUND_PART_WEIGHT: "ServiceDescriptionLink" also finds a page
    that spells the name out ("service description link").
    Documents are encoded from `tokenize` alone, so neither rule needs a re-index."""
    terms = tokenize(text, language)
    frame = _frame_stems(language) if drop_frame else frozenset()
    kept = [t for t in terms if t not in frame] or terms
    weights = dict.fromkeys(kept, 1.0)
    part_weight = COMPOUND_PART_WEIGHT if part_weight is None else part_weight
    if part_weight > 0:
        for part in _stem_words(compound_parts(text), language):
            if part not in frame:
                weights.setdefault(part, part_weight)
    return weights


@lru_cache(maxsize=8)
def _frame_stems(language: str | None) -> frozenset[str]:
    languages = [language] if language in _STEMMER_NAMES else list(SUPPORTED_LANGUAGES)
    stems: set[str] = set()
    for lang in languages:
        stems.update(_stem(lang, w) for w in QUESTION_FRAME_WORDS[lang])  # type: ignore[index]
    return frozenset(stems)


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

    def __init__(self, k1: float = K1, b: float = B, avgdl: float = ASSUMED_AVGDL,
                 compound_part_weight: float = COMPOUND_PART_WEIGHT, drop_frame_words: bool = True,
                 gloss_weight: float = GLOSS_WEIGHT) -> None:
        self.k1, self.b, self.avgdl = k1, b, avgdl
        self.gloss_weight = gloss_weight
        # query side only (sweeps compare them; the product uses the defaults)
        self.compound_part_weight, self.drop_frame_words = compound_part_weight, drop_frame_words

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
        weights = self.query_term_weights(text, language)
        by_id: dict[int, float] = {}
        for term, weight in weights.items():
            tid = term_id(term)
            by_id[tid] = max(by_id.get(tid, 0.0), weight)
        indices = sorted(by_id)
        return SparseVector(indices=indices, values=[by_id[i] for i in indices])

    def query_term_weights(self, text: str, language: str | None = None) -> dict[str, float]:
        """term -> weight of a query (an unknown language: every supported language's stems, a
        term's highest weight kept)."""
        lang = _document_language(language, text)
        options = {"part_weight": self.compound_part_weight, "drop_frame": self.drop_frame_words}
        if lang is not None:
            weights = query_weights(text, lang, **options)  # type: ignore[arg-type]
            if self.gloss_weight > 0:
                # a Dutch, French or German question also searches the English words of its payment terms:
                # the rulebooks are mostly English, and "afgewezen" shares no term with "rejected"
                from knowledge.payment_terms import english_terms  # (it stems with this module's tokenize)
                for term in english_terms(text, lang):
                    weights.setdefault(term, self.gloss_weight)
            return weights
        merged: dict[str, float] = {}
        for candidate in SUPPORTED_LANGUAGES:
            for term, weight in query_weights(text, candidate, **options).items():  # type: ignore[arg-type]
                merged[term] = max(merged.get(term, 0.0), weight)
        return merged

    def query_terms(self, text: str, language: str | None = None) -> list[str]:
        """The terms a query is encoded from (also for diagnostics and tests)."""
        return sorted(self.query_term_weights(text, language))
