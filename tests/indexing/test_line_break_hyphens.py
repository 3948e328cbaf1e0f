"""Line-break hyphens: a word split between syllables is joined, a hyphen that belongs is kept,
decided by the document's own usage (indexing.line_break_hyphens)."""

from __future__ import annotations

import pytest

from indexing.line_break_hyphens import LINE_BREAK_HYPHEN as BREAK
from indexing.line_break_hyphens import BreakHyphens
from indexing.pdf_text import open_pdf, read_pages
from indexing.text_repair import repair_line
from tests.conftest import real_pdf


def test_usage_elsewhere_decides_between_joining_and_keeping():
    document = BreakHyphens([
        "Non-financial messages are exchanged.", "The non-financial part.", "It must be provided.",
        "Data are provided by the bank.",
    ])
    assert document.resolve(f"the details pro{BREAK}vided by the non{BREAK}financial part") \
        == "the details provided by the non-financial part"


def test_the_more_frequent_spelling_wins_when_the_document_uses_both():
    document = BreakHyphens(["reassigning a case", "reassigning again", "re-assigning once"])
    assert document.resolve(f"re{BREAK}assigning") == "reassigning"
    document = BreakHyphens(["co-operation with", "the co-operation", "cooperation"])
    assert document.resolve(f"in co{BREAK}operation") == "in co-operation"


@pytest.mark.parametrize("text", [f"QR{BREAK}IID", f"Start{BREAK}Code", f"DS{BREAK}02", f"AT{BREAK}R051",
                                  f"e{BREAK}invoice"])
def test_names_codes_numbers_and_one_letter_parts_keep_their_hyphen(text):
    assert BreakHyphens(["QRIID startcode einvoice"]).resolve(text) == text.replace(BREAK, "-")


def test_an_unknown_pair_is_joined_unless_both_parts_are_words_of_the_document():
    document = BreakHyphens(["value and added", "three or a party", "Gewähr ist gegeben"])
    assert document.resolve(f"value{BREAK}added three{BREAK}party") == "value-added three-party"
    assert document.resolve(f"comple{BREAK}teness Ge{BREAK}währleistung") == "completeness Gewährleistung"


def test_words_next_to_a_break_are_not_usage():
    """A break is no evidence for itself: two breaks of one pair still count as written neither way."""
    document = BreakHyphens([f"comple{BREAK}teness here", f"and comple{BREAK}teness there"])
    assert document.resolve(f"comple{BREAK}teness") == "completeness"


def test_text_without_breaks_is_returned_unchanged_and_other_readers_see_a_plain_hyphen():
    assert BreakHyphens(["whatever"]).resolve("inter-PSP pro-vided") == "inter-PSP pro-vided"
    assert repair_line(f"pro{BREAK}vided") == "pro-vided"
    assert repair_line(f"pro{BREAK}vided", keep_break_hyphens=True) == f"pro{BREAK}vided"


@pytest.mark.real_pdfs
def test_real_documents_read_whole_words_and_keep_their_compounds():
    """The SIX QR-IID guide breaks "pro-vided" and "QR-IID" at line ends; the German chipTAN
    specification breaks ~150 words, "Ver-wendung" among them, and "Start-Code"."""
    english = [line.text for page in read_pages(open_pdf(real_pdf("six_qr-iid_qr-iban-en.pdf"))) for line in page.lines]
    assert any("own QR-IBAN, provided they comply" in t for t in english)
    assert not any("pro-vided" in t for t in english)
    german = " ".join(line.text for page in read_pages(open_pdf(real_pdf("six_qr-iid_qr-iban-de.pdf")))
                      for line in page.lines)
    assert "unter Verwendung der QR-IID" in german and "Ver-wendung" not in german
    assert BREAK not in german and "QR-Rechnung" in german
    tan = " ".join(line.text for page in read_pages(open_pdf(real_pdf("de_tan_hhd_uc_v14.pdf"))) for line in page.lines)
    assert "Start-Code" in tan and "Prüfsumme" in tan and "Prüf-summe" not in tan
