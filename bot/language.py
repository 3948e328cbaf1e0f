"""Which language a question or sentence is in, and the few phrases the bot itself says in it.

Detection is `knowledge.language_id.supported_language` (clear function words,
else py3langid restricted to English, Dutch, French and German), the same the index uses, so the
bot and the index agree on what "the language of a text" means. A text without letters counts
as English, the corpus' main language.
"""

from __future__ import annotations

from knowledge.language_id import supported_language

SUPPORTED = ("en", "nl", "fr", "de")
DEFAULT_LANGUAGE = "en"

LANGUAGE_NAMES: dict[str, dict[str, str]] = {
    # answer language -> {source language -> its name in the answer language}
    "en": {"en": "English", "nl": "Dutch", "fr": "French", "de": "German"},
    "nl": {"en": "Engels", "nl": "Nederlands", "fr": "Frans", "de": "Duits"},
    "fr": {"en": "anglais", "nl": "néerlandais", "fr": "français", "de": "allemand"},
    "de": {"en": "Englisch", "nl": "Niederländisch", "fr": "Französisch", "de": "Deutsch"},
}


def detect_language(text: str, default: str = DEFAULT_LANGUAGE) -> str:
    return supported_language(text) or default


def normalise_language(code: str | None) -> str:
    short = (code or "").lower()[:2]
    return short if short in SUPPORTED else DEFAULT_LANGUAGE


def language_name(source_language: str, in_language: str) -> str:
    names = LANGUAGE_NAMES.get(normalise_language(in_language), LANGUAGE_NAMES["en"])
    return names.get(normalise_language(source_language), source_language)


_TRANSLATION_NOTE = {
    "en": "Quoted in {src}; the answer is in {dst}, so its wording around the quote is a translation.",
    "nl": "Geciteerd in het {src}; het antwoord is in het {dst}, dus de tekst rond het citaat is een vertaling.",
    "fr": "Cité en {src} ; la réponse est en {dst}, son texte autour de la citation est donc une traduction.",
    "de": "Zitiert auf {src}; die Antwort ist auf {dst}, der Text um das Zitat ist also eine Übersetzung.",
}


def translation_note(source_language: str, answer_language: str) -> str | None:
    """The note a citation carries when its source is in another language than the answer."""
    src, dst = normalise_language(source_language), normalise_language(answer_language)
    if src == dst:
        return None
    return _TRANSLATION_NOTE[dst].format(src=language_name(src, dst), dst=language_name(dst, dst))
