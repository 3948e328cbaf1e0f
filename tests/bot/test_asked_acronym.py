"""An acronym whose meaning the question asks is its subject, even where a document's name holds it:
"What is an IID in Swiss payments?" over the QR-IID guide (rulebook id six_qr-iid_qr-iban-en) is about
the IID, not about "Swiss payments" (no encoder: lexical scoring only)."""

from __future__ import annotations

from bot.offline.span_scoring import SpanScorer, asked_acronym
from knowledge.payload import ChunkPayload

GUIDE = "six_qr-iid_qr-iban-en"
DEFINITION = ("The IID (institution identification) is used in Switzerland and Liechtenstein to identify financial "
              "institutions as participants in the Swiss RTGS systems.")
LINKS = "Organisation,Link\nHarmonization of Swiss payments,www.paymentstandards.ch\nSIX,www.six-group.com\n"


def _chunk(index: int, title: str, text: str, tables: list[str] | None = None) -> ChunkPayload:
    return ChunkPayload(chunk_id=f"{GUIDE}:{index}", rulebook_id=GUIDE, rulebook_title="QR-IID and QR-IBAN",
                        page_start=index, page_end=index, section_path=["1", f"1.{index}"], section_key=f"1.{index}",
                        section_title=title, chunk_index=index, text=text, tables_csv=tables or [],
                        content_hash=f"h{index}")


def test_the_acronym_asked_about():
    assert asked_acronym("What is an IID in Swiss payments?") == {"iid"}
    assert asked_acronym("What does SIC stand for?") == {"sic"}
    assert asked_acronym("Qu'est-ce que l'IID ?") == {"iid"}
    assert asked_acronym("Was ist die IID?") == {"iid"}
    assert asked_acronym("What are IIDs used for?") == {"iid"}
    # a name with more to it, or a letter the question asks about inside a longer subject, is no acronym asked
    assert asked_acronym("What is the QR-IBAN?") == set()
    assert asked_acronym('What does address type "C" mean for the creditor address in the Swiss QR Code?') == set()
    assert asked_acronym("What is code MS01?") == set()


def test_the_definition_of_an_acronym_a_document_is_named_after_outranks_rows_sharing_the_other_words():
    hits = [("S1", _chunk(2, "Links", LINKS, [LINKS])), ("S2", _chunk(3, "IID", DEFINITION))]
    spans = SpanScorer(None, None).score("What is an IID in Swiss payments?", hits, set())
    assert spans[0].text == DEFINITION
    assert spans[0].signals.get("acronyms") == 1.0
