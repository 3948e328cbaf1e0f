"""A question about a section, chapter or annex its documents do not have is refused, naming it;
one they number or mention is answered as before (bot/offline/document_parts.py,
OfflineRulebookModel._missing_parts)."""

from __future__ import annotations

import pytest

from bot.offline.document_parts import chunk_parts, missing_parts, named_parts
from bot.offline.offline_model import OfflineRulebookModel
from bot.offline.subject_terms import CorpusVocabulary
from knowledge.payload import ChunkPayload
from tests.bot.test_subject_terms import _Store


@pytest.mark.parametrize(("question", "parts"), [
    ("What does Annex D of the QR-IID document contain?", [("annex", "d", "Annex D")]),
    ("Was enthält der neue Anhang G der Implementation Guidelines?", [("annex", "g", "Anhang G")]),
    ("What does Annex VI of the SCT rulebook say?", [("annex", "vi", "Annex VI")]),
    ("Was regelt Kapitel D der HHDUC-Spezifikation?", [("section", "d", "Kapitel D")]),
    ("Wat staat er in hoofdstuk 4 van het addendum?", [("section", "4", "hoofdstuk 4")]),
    ("Que prévoit la section 6 du guide ?", [("section", "6", "section 6")]),
    ("How is section 5.7 classified in Annex IV?", [("section", "5.7", "section 5.7"), ("annex", "iv", "Annex IV")]),
    # a part word without a label after it names no part; a lower-case letter is a word, not a label
    ("What minimum height should the acceptance point section of the receipt have?", []),
    ("Is there a chapter a bank must read first?", []),
])
def test_the_parts_a_question_names(question, parts):
    assert [(p.kind, p.label, p.text) for p in named_parts(question)] == parts


def _chunk(key: str, title: str, text: str, parents: list[str] | None = None, index: int = 0,
           rulebook: str = "IG") -> ChunkPayload:
    return ChunkPayload(chunk_id=f"{rulebook}:{index}", rulebook_id=rulebook, rulebook_title="Implementation guide",
                        page_start=1, page_end=1, section_path=[key], section_key=key, section_title=title,
                        parent_titles=parents or [], chunk_index=index, text=text, content_hash=f"h{index}")


def test_a_chunk_shows_the_parts_its_headings_number_and_its_text_names():
    assert chunk_parts(_chunk("C.4.2", "Anhang", "Die Tabelle zeigt die Werte.")) == {
        ("section", "c"), ("section", "c.4"), ("section", "c.4.2")}
    assert ("annex", "iii") in chunk_parts(_chunk("Annex III 6", "Risks", "…", ["Annex III Risk Management"]))
    named = chunk_parts(_chunk("2", "Changes", "New chapter 5: 'Debtors'. See also Annex B for examples."))
    assert {("section", "5"), ("annex", "b"), ("section", "2")} <= named
    assert missing_parts(named_parts("What do Annex B and Annex D say?"), named) == ["Annex D"]


GUIDE = [
    _chunk("1", "Scope", "This guide sets out how the QR reference is formed and checked; Annex A gives examples.",
           index=0),
    _chunk("2", "QR reference", "The QR reference has 27 numerical characters, the last being a check digit.",
           index=1),
    _chunk("Annex A", "Annex A Examples", "Example of a QR reference: 21 00000 00003 13947 14300 09017.",
           ["Annex A Examples"], index=2),
    _chunk("Annex B", "Annex B Check digit", "The check digit is computed modulo 10, recursively.",
           ["Annex B Check digit"], index=3),
]


def test_a_question_about_an_annex_the_guide_lacks_is_refused_naming_it():
    model = OfflineRulebookModel(min_lexical=0.0, vocabulary=CorpusVocabulary(_Store(GUIDE)))
    hits = [(f"S{i}", c) for i, c in enumerate(GUIDE[:2])]
    text = model.compose("What does Annex D of the guide say about the QR reference?", "en", hits)
    assert text.startswith("[not covered]") and "Annex D" in text, text
    # Annex B exists, though no chunk shown names it: the vocabulary read the whole guide
    text = model.compose("What does Annex B of the guide say about the QR reference?", "en", hits)
    assert not text.startswith("[not covered]"), text
    text = model.compose("What does section 2 of the guide say about the QR reference?", "en", hits)
    assert not text.startswith("[not covered]"), text
    text = model.compose("What does section 7 of the guide say about the QR reference?", "en", hits)
    assert text.startswith("[not covered]") and "section 7" in text, text


def test_without_a_vocabulary_no_part_is_judged_missing():
    hits = [(f"S{i}", c) for i, c in enumerate(GUIDE[:2])]
    text = OfflineRulebookModel(min_lexical=0.0).compose(
        "What does Annex D of the guide say about the QR reference?", "en", hits)
    assert not text.startswith("[not covered]"), text
