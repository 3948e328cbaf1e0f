"""The phrases a question names, and whether the evidence an answer would quote uses them.

A subject is often named by two words together rather than by either alone: "account reporting",
"euro sign", "cover cancellation", "activation data". Each word may be common in a corpus of
payment guides, so the word-level subject check (`subject_terms`) finds them all in a document about
something else; the two words in a row are rare, and a document that never puts them together is
seldom about what they name. A question phrase is two content terms in a row (the BM25 tokenizer's
stems, as `subject_terms` compares them; "the", "of" and the other stop words drop out, so "the
cancellation of the cover" and "cancel the cover" are one phrase). Only a phrase the corpus holds
somewhere counts (a question's own wording that no chunk repeats says nothing about any document),
and only when rare: in at most `PHRASE_MAX_SHARE` of the chunks.

When the evidence's rulebook (its document as the tools showed it, `subject_terms.evidence_scopes`,
or its whole text as the vocabulary read it: `PHRASE_SCOPE`) misses `MIN_MISSING_PHRASES` or more
of the question's rare phrases, the words the two share do not show that it is about the question:
the answer then needs evidence close in meaning, a best span with dense similarity of at least
`MIN_DENSE_PHRASE` (bot.offline.offline_model.OfflineRulebookModel.answers); lexical overlap or a
span in another language alone no longer answers. Both bars are calibrated on dev questions
(`evals.calibration`, `Bar.min_dense_phrase`). Like `subject_terms`, the check compares one
language with itself: evidence in another language is not checked (None).

A phrase is held by the evidence as written ("account reporting"), in another form of its words
("reported on the account" does not count, "accounts reporting" does: `subject_terms._held`'s stem
family), or run together in one identifier ("PaymentInformationIdentification" holds "payment
information" and "information identification").

Phrase counts are kept in a fixed table of hashed buckets (`PhraseCounts`): bounded memory for any
corpus (ObliQA's 13,012 passages hold about half a million distinct phrases); two phrases sharing a
bucket only make a phrase look more common, which makes the check fire less, never more.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from cachetools import LRUCache, cached

from knowledge.bm25 import tokenize

# the check's bars (calibrated by the dev sweep, evals/baselines/calibration_offline.json; None: no check).
# Dev sweep (436 cases, on the span ranker's scores), the bars calibrated before kept, with the
# neutral-term check (bot.offline.neutral_terms) and no dev set answering fewer questions than before:
# F1 0.834 -> 0.851, refused with the gold hidden 0.881 -> 0.933, answered 0.908 unchanged, at a dense
# bar of 0.875 when half or more of the question's phrases found in at most 2% of the chunks are in
# neither the evidence's documents as shown nor its rulebook's whole text. Test halves (not used to
# choose): F1 0.783 -> 0.790, refused with the gold hidden 0.868 -> 0.911, answered 0.910 -> 0.900
# (real2 0.888 -> 0.869: 2 of 107): the dev/test gap of this check.
# Session 12 (723 dev cases: the blind sets e2e_real2_set4 and e2e_real_set2 added, and exclusion over real):
# the sweep would move the bar to 0.88 (with the neutral-term check on, which is taken), refusing 2 more dev
# answers, both wrong; it is not taken: at 0.88 the sample corpus's "What is the cut-off time for submitting
# credit transfers to the CSM?", whose right answer tests/bot/test_offline_model.py pins, is refused too, and
# two dev cases are the least evidence a bar may move on. (Test halves, for the record: it refuses one right answer.)
PHRASE_MAX_SHARE = 0.02
MIN_DENSE_PHRASE: float | None = 0.875
PHRASE_SCOPE = "rulebook"
MIN_MISSING_PHRASES = 0.5  # the share of the question's rare phrases missing that raises the bar
# The disagreeing signals' bar (span_scoring.MIN_DENSE_DISAGREE) guards against evidence that is close in
# meaning in one chunk and shares the question's words in another: often neither is about the question.
# When the passages shown hold the question's rarest phrases (in at most HELD_PHRASE_SHARE of the chunks;
# no more than HELD_MAX_MISSING of them missing), the evidence names what the question does and the two
# signals only disagree on which of its passages is best: the usual dense bar applies
# (`phrases_held`; None: no such relief). Calibrated by the dev sweep (`Bar.held_phrase_share`), session 22,
# 971 dev cases: F1 0.8473 -> 0.8597, answered 0.901 -> 0.932, must-contain 0.783 -> 0.813, refused with
# the gold hidden 0.903 -> 0.900, refused unanswerable 0.896 -> 0.880 (real2: 91 -> 90 of 100). Test halves,
# read after choosing: F1 0.8003 -> 0.8063, answered 0.862 -> 0.879, refused unanswerable 0.838 unchanged.
HELD_PHRASE_SHARE: float | None = 0.005
HELD_MAX_MISSING = 0.5
# a phrase does not run across a clause: "the changes, and when were they dated" has no "change date"
_CONJUNCTIONS = {"en": "and|or", "de": "und|oder", "fr": "et|ou", "nl": "en|of"}
_CLAUSES = {lang: re.compile(rf"[,;:?!()]|\b(?:{words})\b", re.IGNORECASE) for lang, words in _CONJUNCTIONS.items()}
BUCKETS = 1 << 22  # 16 MiB of counts
COMPOUND_MIN = 10  # a token this long may hold a phrase run together ("endtoendidentif")

Phrase = tuple[str, str]


def phrases_of(terms: Sequence[str]) -> set[Phrase]:
    """Two terms in a row, neither a number, not the same word twice."""
    return {(a, b) for a, b in zip(terms, terms[1:], strict=False)
            if a != b and not a.isdigit() and not b.isdigit()}


def phrase_key(phrase: Phrase) -> int:
    """A phrase's 64-bit key, the same in every process and on every machine. Python's hash() of a
    string is salted per process: which phrases shared a bucket, and so a phrase's count and the
    answer/refuse decision that reads it, changed from one run (or server restart) to the next."""
    digest = hashlib.blake2b("\x1f".join(phrase).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class PhraseCounts:
    """How many chunks hold each phrase, in hashed buckets (see the module docstring), and which
    phrases each rulebook's text holds anywhere (64-bit hashes, sorted: a false "held" only makes
    the check fire less). Built once by one thread (`add`, then `freeze`), then only read."""

    def __init__(self, buckets: int = BUCKETS) -> None:
        self._mask = buckets - 1
        self._counts = np.zeros(buckets, dtype=np.uint32)
        self._parts: dict[str, list[Any]] = {}
        self._books: dict[str, Any] = {}

    def _bucket(self, phrase: Phrase) -> int:
        return phrase_key(phrase) & self._mask

    def add(self, phrases: Iterable[Phrase], rulebook_id: str | None = None) -> None:
        """One chunk's phrases: each bucket counted once per chunk."""
        hashes = np.fromiter({phrase_key(p) for p in phrases}, dtype=np.int64)
        buckets = np.unique(hashes & self._mask)
        if buckets.size:
            self._counts[buckets] += 1
        if rulebook_id is not None and hashes.size:
            self._parts.setdefault(rulebook_id, []).append(hashes)

    def freeze(self) -> PhraseCounts:
        self._books = {r: np.unique(np.concatenate(parts)) for r, parts in self._parts.items()}
        self._parts = {}
        return self

    def count(self, phrase: Phrase) -> int:
        return int(self._counts[self._bucket(phrase)])

    def in_rulebook(self, rulebook_id: str, phrase: Phrase) -> bool:
        held = self._books.get(rulebook_id)
        if held is None or not held.size:
            return False
        key = phrase_key(phrase)
        at = int(np.searchsorted(held, key))
        return at < held.size and int(held[at]) == key


def question_phrases(question: str, language: str) -> list[Phrase]:
    """The question's phrases, from its content terms in order (asking words and numbers left out)."""
    from bot.offline.span_scoring import ASKING_WORDS, _fold
    from bot.offline.subject_terms import _PUNCTUATION

    phrases: list[Phrase] = []
    for clause in _CLAUSES.get(language[:2], _CLAUSES["en"]).split(question):
        # an asking word, a number or a code breaks a phrase rather than vanishing from between
        # two words: "code MM26 used for" has no phrase "code use", "ISO 20022 message" no "iso
        # message", "use it to ask its bank" no "use bank" (the tokenizer would also move a code
        # to the end of its terms, joining words that were never neighbours)
        run: list[str] = []
        for word in [*clause.split(), ""]:
            bare = _fold(word).strip(_PUNCTUATION)
            if word and bare not in ASKING_WORDS and not any(ch.isdigit() for ch in bare):
                run.append(word)
                continue
            terms = tokenize(" ".join(run), language)
            phrases += [p for p in zip(terms, terms[1:], strict=False) if p[0] != p[1]]
            run = []
    return list(dict.fromkeys(phrases))


def phrase_coverage(question: str, language: str, spans: Sequence[Any], vocabulary: Any
                    ) -> list[tuple[str, float, bool, bool, bool]] | None:
    """[("first second", chunk share, held by the evidence's passages, by their sections, by their
    documents as shown, by their rulebooks' whole text)] for each phrase of the question that the
    corpus holds (the first three scopes as `subject_terms.subject_coverage`); None when there is no
    vocabulary, no evidence, or the evidence is in another language."""
    from bot.offline.subject_terms import evidence_scopes

    if vocabulary is None or not hasattr(vocabulary, "phrase_shares"):
        return None
    scopes = evidence_scopes(language, spans)
    if scopes is None:
        return None
    phrases = question_phrases(question, language)
    shares = vocabulary.phrase_shares(phrases)
    phrases = [p for p in phrases if shares[p] > 0]
    if not phrases:
        return []
    held = [_Held(group) for group in scopes]
    rulebooks = {c.rulebook_id for c in scopes[0]}
    rows = []
    for p in phrases:
        in_scopes = [h.holds(p) for h in held]
        whole = in_scopes[-1] or any(vocabulary.phrase_in_rulebook(r, p) for r in rulebooks)
        rows.append((" ".join(p), round(shares[p], 5), *in_scopes, whole))
    return rows


SCOPES = ("passage", "section", "document", "rulebook")


def missing_phrases(coverage: Sequence[Sequence[Any]] | None, max_share: float, scope: str = "document") -> list[str]:
    """The rare phrases (in at most `max_share` of the chunks) the evidence does not hold within `scope`."""
    if not coverage:
        return []
    at = 2 + SCOPES.index(scope)
    return [row[0] for row in coverage if row[1] <= max_share and not row[min(at, len(row) - 1)]]


def missing_phrase_share(coverage: Sequence[Sequence[Any]] | None, max_share: float, scope: str = "document") -> float:
    """The share of the question's rare phrases the evidence does not hold within `scope` (0: none
    missing, no rare phrase, or not measured)."""
    rare = [row for row in coverage or () if row[1] <= max_share]
    return round(len(missing_phrases(rare, max_share, scope)) / len(rare), 4) if rare else 0.0


def phrases_held(coverage: Sequence[Sequence[Any]] | None, max_share: float | None, max_missing: float) -> bool:
    """The question has phrases in at most `max_share` of the chunks, and the passages shown miss no more
    than `max_missing` of them (False: no such phrase, not measured, or no check)."""
    if max_share is None:
        return False
    rare = [row for row in coverage or () if row[1] <= max_share]
    return bool(rare) and missing_phrase_share(rare, max_share, "passage") <= max_missing


def phrase_missing(coverage: Sequence[Sequence[Any]] | None, max_share: float, scope: str, min_missing: float) -> bool:
    """At least `min_missing` of the question's rare phrases (and at least one) are missing from the evidence."""
    share = missing_phrase_share(coverage, max_share, scope)
    return share > 0 and share >= min_missing


class _Held:
    """The phrases and long tokens of a group of chunks, for `holds`."""

    def __init__(self, chunks: Sequence[Any]) -> None:
        from bot.offline.subject_terms import body_text, heading_text

        self.phrases: set[Phrase] = set()
        self.compounds: set[str] = set()
        for chunk in chunks:
            phrases, compounds = _chunk_phrases(heading_text(chunk), body_text(chunk), chunk.language)
            self.phrases |= phrases
            self.compounds |= compounds
        self._by_start: dict[str, list[Phrase]] | None = None

    def holds(self, phrase: Phrase) -> bool:
        from bot.offline.subject_terms import MIN_PREFIX, _held

        if phrase in self.phrases:
            return True
        a, b = phrase
        if any(a in token and b in token[token.index(a) + len(a):] for token in self.compounds):
            return True  # run together in one identifier
        if len(a) < MIN_PREFIX:
            return any(p[0] == a and _held(b, {p[1]}) for p in self.phrases)
        if self._by_start is None:
            self._by_start = {}
            for p in self.phrases:
                self._by_start.setdefault(p[0][:MIN_PREFIX], []).append(p)
        return any(_held(a, {p[0]}) and _held(b, {p[1]}) for p in self._by_start.get(a[:MIN_PREFIX], ()))


@cached(LRUCache(maxsize=8192), lock=threading.Lock())
def _chunk_phrases(heading: str, body: str, language: str) -> tuple[frozenset[Phrase], frozenset[str]]:
    """A shown chunk's phrases (its headings and its text apart, as the vocabulary counts them) and
    long tokens, remembered by its text (as `subject_terms._chunk_terms`)."""
    heading_terms, body_terms = tokenize(heading, language), tokenize(body, language)
    return (frozenset(phrases_of(heading_terms) | phrases_of(body_terms)),
            frozenset(t for t in [*heading_terms, *body_terms] if len(t) >= COMPOUND_MIN))
