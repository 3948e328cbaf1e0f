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


def clear_by_stop_words(text: str) -> str | None:
    """The language whose function words the text uses clearly most (at least two, and twice as many
    as any other language's), else None: the model is asked only when this does not decide."""
    from knowledge.bm25 import STOP_WORDS, _split  # the tokeniser's own words: one notion of a word

    words, _ = _split(text)
    hits = sorted(((sum(1 for w in words if w in STOP_WORDS[lang]), lang) for lang in SUPPORTED), reverse=True)
    (best, lang), (runner_up, _) = hits[0], hits[1]
    return lang if best >= 2 and best >= 2 * runner_up else None


def supported_language(text: str) -> str | None:
    """The most likely of en / nl / fr / de, or None for a text without letters."""
    if not _has_letters(text):
        return None
    clear = clear_by_stop_words(text)
    if clear is not None:
        return clear
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
