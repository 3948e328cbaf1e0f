"""A Dutch, French or German question finds the English rulebook's words for its payment terms: the BM25
leg searches them (a real embedded store, no dense vectors) and the offline model's lexical signal counts
them for an English sentence."""

from __future__ import annotations

from pathlib import Path

from bot.offline.span_scoring import SpanScorer
from knowledge.bm25 import Bm25Encoder, tokenize
from knowledge.payload import ChunkPayload
from knowledge.payment_terms import _ROWS, english_terms

REJECTED = "A case that was rejected before is reported with the CaseStatusCode Unknown."
ACCEPTED = "The status of a case that is still open is reported as the case status code InProgress."
CANCELLED = "The CaseStatusReport message gives the status of a case to the case creator."


def _chunk(index: int, text: str) -> ChunkPayload:
    return ChunkPayload(chunk_id=f"guide:{index}", rulebook_id="guide", rulebook_title="Investigations guide",
                        page_start=index + 1, page_end=index + 1, section_path=[], section_title="",
                        chunk_index=index, text=text, content_hash=str(index), language="en", source_uri="x")


def test_a_question_s_payment_terms_are_given_their_english_words():
    assert {"reject", "payment", "beneficiari", "paye"} <= english_terms(
        "Waarom wordt een betaling door de bank van de begunstigde afgewezen?", "nl")
    assert {"amount", "maximum", "instant", "transfer"} <= english_terms(
        "Quel est le montant maximal d'un virement instantané ?", "fr")
    assert {"fee", "charg", "remitt", "inform"} <= english_terms(
        "Darf der Zahlungsempfänger die Gebühren im Verwendungszweck angeben?", "de")
    # several words count only together: "jour" alone is a day, "jour ouvrable" a business day
    assert "busi" not in english_terms("Quel jour ?", "fr") and "busi" in english_terms("Quel jour ouvrable ?", "fr")
    # an English question, or one in a language the table does not hold, gets nothing
    assert english_terms("Why was the payment rejected?", "en") == frozenset()
    assert english_terms("¿Por qué se rechazó el pago?", "es") == frozenset()
    # a compound is a term of its own ("redencode": a reason code)
    assert {"reason", "code", "reject"} <= english_terms("Welke redencode heeft een afgewezen betaling?", "nl")


def test_every_row_names_each_language_and_every_word_is_a_term():
    for row in _ROWS:
        cells = row.split("|")
        assert len(cells) == 4, row
        for cell, language in zip(cells, ("en", "nl", "fr", "de"), strict=True):
            for word in cell.split("/"):
                assert tokenize(word.strip(), language), (row, word)


def test_the_lexical_leg_finds_the_english_sentence_for_a_dutch_question(tmp_path: Path):
    from knowledge.edge_store import EdgeStore
    from knowledge.store import AccessFilter, StoredChunk

    question = "Met welke status wordt een eerder afgewezen zaak gemeld?"
    texts = [CANCELLED, ACCEPTED, REJECTED]
    store = EdgeStore(tmp_path / "store")
    store.ensure_collection(2)
    plain = Bm25Encoder(gloss_weight=0.0)
    store.upsert([StoredChunk(_chunk(i, t), [1.0, 0.0], plain.encode_document(t, "en")) for i, t in enumerate(texts)])
    glossed = store.query_hybrid(None, Bm25Encoder().encode_query(question), AccessFilter(), fused_limit=3)
    unglossed = store.query_hybrid(None, plain.encode_query(question), AccessFilter(), fused_limit=3)
    store.close()
    assert glossed[0].payload.text == REJECTED
    # without the English words the Dutch question shares only "status" with the passages
    assert not unglossed or unglossed[0].payload.text != REJECTED


def test_an_english_sentence_s_overlap_with_a_french_question_counts_the_translated_terms():
    hits = [("S1", _chunk(0, f"{CANCELLED} {ACCEPTED} {REJECTED}"))]
    question = "Avec quel statut un dossier rejeté auparavant est-il signalé ?"
    spans = SpanScorer(None, None).score(question, hits, set(), language="fr")
    by_text = {s.text: s for s in spans}
    assert by_text[REJECTED].lexical > by_text[ACCEPTED].lexical
    assert spans[0].text == REJECTED
    # told no language, the scorer cannot translate, and the rejected case has no lead
    untold = {s.text: s for s in SpanScorer(None, None).score(question, hits, set())}
    assert untold[REJECTED].lexical == untold[ACCEPTED].lexical
