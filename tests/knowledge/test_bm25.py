from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from knowledge.bm25 import Bm25Encoder, term_id, tokenize
from knowledge.language_id import supported_language

BM25 = Bm25Encoder()


def test_identifiers_are_kept_whole_with_useful_parts() -> None:
    terms = tokenize("Send pain.001.001.09 under AT-R3 (section 4.2.1), reason MD06, ISIN NL0000009165, "
                     "IBAN NL91 ABNA 0417 1643 00.", "en")
    for expected in ("pain.001.001.09", "pain.001", "pain", "at-r3", "atr3", "4.2.1", "md06",
                     "nl0000009165", "nl91abna0417164300"):
        assert expected in terms
    assert "001" not in terms and "4" not in terms  # bare fragments of identifiers are noise


def test_language_aware_stemming_stop_words_and_accent_folding() -> None:
    assert tokenize("The payments are refunded", "en") == ["payment", "refund"]
    assert tokenize("de betalingen worden terugbetaald", "nl") == ["betaal", "terugbetaald"]
    # a query typed without accents meets the accented document text
    assert set(tokenize("rémunération", "fr")) == set(tokenize("remuneration", "fr"))
    assert tokenize("Überweisungen", "de") == tokenize("uberweisungen", "de")


def test_supported_language() -> None:
    assert supported_language("what is the fee for a refund") == "en"
    assert supported_language("wat zijn de kosten van een overschrijving") == "nl"
    assert supported_language("MD06") is None


def test_term_ids_are_stable_across_processes() -> None:
    repo = Path(__file__).resolve().parents[2]
    other = subprocess.run([sys.executable, "-c", "from knowledge.bm25 import term_id; print(term_id('md06'))"],
                           cwd=repo, capture_output=True, text=True, check=True).stdout.strip()
    assert int(other) == term_id("md06") and 0 <= term_id("md06") < 2**31


def test_document_values_saturate_and_normalise_length() -> None:
    once = BM25.encode_document("refund", "en")
    thrice = BM25.encode_document("refund refund refund", "en")
    assert once.indices == thrice.indices
    assert once.values[0] < thrice.values[0] < 3 * once.values[0]  # saturation
    assert thrice.values[0] < BM25.k1 + 1
    short = BM25.encode_document("refund fee", "en")
    long = BM25.encode_document("refund " + " ".join(f"word{i}x" for i in range(300)), "en")
    rid = term_id("refund")
    assert dict(zip(short.indices, short.values, strict=True))[rid] > dict(
        zip(long.indices, long.values, strict=True))[rid]


def test_query_vector_is_unique_terms_with_weight_one() -> None:
    vec = BM25.encode_query("refund refund MD06", "en")
    assert len(vec.indices) == len(set(vec.indices)) == 2 and set(vec.values) == {1.0}


def test_query_of_unknown_language_carries_every_stemmer() -> None:
    terms = BM25.query_terms("betalingen")
    assert "betaal" in terms  # the Dutch stem
    assert "betalingen" in terms or "betal" in terms  # another language's form


def test_words_that_only_frame_a_question_are_left_out_of_the_query() -> None:
    terms = BM25.query_terms("Can you provide specific examples of how a bank should explain its refund fee?", "en")
    assert {"refund", "fee", "bank"} <= set(terms)
    assert not {"provid", "specif", "exampl", "explain"} & set(terms)
    # documents keep every word, and a question made only of framing words keeps them
    assert "specif" in tokenize("specific examples", "en")
    assert BM25.query_terms("explain", "en") == ["explain"]
    # the other languages' framing words go too
    assert "pourriez" not in BM25.query_terms("Pourriez-vous préciser le délai de remboursement ?", "fr")
    assert "bitt" not in BM25.query_terms("Bitte erklären Sie die Frist für Erstattungen", "de")


def test_a_run_together_name_in_a_query_also_searches_its_words() -> None:
    weights = BM25.query_term_weights("What is the maximum length of the ServiceDescriptionLink?", "en")
    assert weights["servicedescriptionlink"] == 1.0
    assert {"servic", "descript", "link"} <= set(weights)
    assert set(tokenize("ServiceDescriptionLink", "en")) == {"servicedescriptionlink"}  # documents: the name only
    codes = BM25.query_terms("What does MM20 mean in UnableToApplyIncorrectInformation4Code?", "en")
    assert {"mm20", "unabletoapplyincorrectinformation4code", "incorrect", "inform"} <= set(codes)
    assert "XML" not in BM25.query_terms("ADGM XML", "en") and "adgm" in BM25.query_terms("ADGM XML", "en")


def test_a_spelled_out_name_is_found_by_the_run_together_query(tmp_path: Path) -> None:
    from knowledge.edge_store import EdgeStore
    from knowledge.payload import ChunkPayload
    from knowledge.store import AccessFilter, StoredChunk

    texts = ["The service description link is the web page of the creditor, at most 2048 characters.",
             "The maximum length of a remittance line is 140 characters.",
             "The creditor activation link is a web page."]
    store = EdgeStore(tmp_path / "store")
    store.ensure_collection(2)
    store.upsert([StoredChunk(ChunkPayload(chunk_id=f"d:{i}", rulebook_id="d", rulebook_title="Guide", page_start=i + 1,
                                           page_end=i + 1, section_path=[], section_title="", chunk_index=i, text=t,
                                           content_hash=str(i), language="en", source_uri="x"),
                              [1.0, 0.0], BM25.encode_document(t, "en")) for i, t in enumerate(texts)])
    hits = store.query_hybrid(None, BM25.encode_query("What is the maximum length of the ServiceDescriptionLink?"),
                              AccessFilter(), fused_limit=3)
    store.close()
    assert hits[0].payload.chunk_id == "d:0"


def test_accent_folding_is_the_same_with_its_ascii_shortcuts():
    import unicodedata

    from knowledge.word_forms import fold_accents

    def reference(text: str) -> str:
        return "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))

    texts = ["plain ASCII, pacs.008.001.08 and EUR 0.25", "rémunération", "Überweisung", "ﬁnal ½ №",
             "", "Zahlungsempfänger: straße", "\u00a0non-breaking\u2009space", "ĳ ŀ Ǆ", "日本"]
    every_char = "".join(chr(c) for c in range(0x20, 0x2500))
    for text in [*texts, every_char]:
        assert fold_accents(text) == reference(text)
    assert fold_accents("rémunération") == "remuneration"
