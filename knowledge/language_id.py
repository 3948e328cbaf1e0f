"""Which language a text is in: py3langid's model (numpy only, shipped in the wheel, BSD).

`supported_language(text)` answers among the four languages the bot speaks (English, Dutch,
French, German), or None for a text with no letters. `document_language(text)` may also answer
another language ("es") when the text is long enough to tell and clearly not one of the four:
such a document is labelled with it and indexed for BM25 without stemming or stop words.

Measured against the stop-word guess this replaces on a labelled set of questions, sentences
and document passages (`python -m evals.language_id`). One identifier is loaded once per
process and only read afterwards (`rank` does not mutate it), so it is safe across threads.
"""

from __future__ import annotations

import threading
from typing import Any

SUPPORTED = ("en", "nl", "fr", "de")
# A document is labelled with an unsupported language only when it says so clearly.
MIN_CHARS_FOR_OTHER = 200
MIN_CONFIDENCE_FOR_OTHER = 0.9
# Fewer words than this are a keyword query: no language is guessed (the model guesses wildly on
# one or two words, and BM25 then searches the query in every language's stems).
MIN_WORDS = 3

_identifier: Any = None
_lock = threading.Lock()


def _model() -> Any:
    global _identifier
    if _identifier is None:
        with _lock:
            if _identifier is None:
                from py3langid.langid import MODEL_FILE, LanguageIdentifier

                _identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    return _identifier


def _ranking(text: str) -> list[tuple[str, float]]:
    return [(str(lang), float(p)) for lang, p in _model().rank(text)]


def _has_letters(text: str) -> bool:
    return any(ch.isalpha() for ch in text)


def _stop_word_votes(words: list[str]) -> list[tuple[int, str]]:
    from knowledge.word_forms import STOP_WORDS

    return sorted(((sum(1 for w in words if w in STOP_WORDS[lang]), lang) for lang in SUPPORTED), reverse=True)


def supported_language(text: str) -> str | None:
    """The most likely of en / nl / fr / de, or None when the text cannot tell ("MD06", "refund fee"),
    which callers read as "any" (BM25 then searches every language's stems).

    Function words decide when they are clear (at least two, and twice as many as any other
    language's); a text of fewer than MIN_WORDS words goes by its function words alone, as the
    model guesses wildly on one or two words; otherwise the model decides."""
    from knowledge.bm25 import _split  # the tokeniser's own words: one notion of a word

    words, _ = _split(text)
    if not words:
        return None
    (best, lang), (runner_up, _) = _stop_word_votes(words)[:2]
    if best >= 2 and best >= 2 * runner_up:
        return lang
    if len(words) < MIN_WORDS:
        return lang if best > runner_up else None
    return next((lang for lang, _ in _ranking(text) if lang in SUPPORTED), None)


def document_language(text: str) -> str | None:
    """The document's language: one of the four, or another ISO 639-1 code when it is clearly
    something else (see the constants), or None for a text without letters."""
    if not _has_letters(text):
        return None
    ranking = _ranking(text)
    top, confidence = ranking[0]
    if top not in SUPPORTED and len(text) >= MIN_CHARS_FOR_OTHER and confidence >= MIN_CONFIDENCE_FOR_OTHER:
        return top
    return next((lang for lang, _ in ranking if lang in SUPPORTED), None)
