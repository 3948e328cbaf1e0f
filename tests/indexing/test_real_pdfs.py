"""Real documents from ../shared/corpora/real-pdfs: section paths and pages on named passages of
the EPC SEPA Credit Transfer rulebook, chunk bounds, reassembly; no embedding (parsing only)."""

from __future__ import annotations

import pytest

from indexing.chunker import MAX_CHUNK_CHARS, chunk_sections, reassemble
from indexing.document_parser import ParsedDocument, parse_document
from indexing.page_furniture import strip_page_furniture
from indexing.pdf_text import open_pdf, read_pages
from indexing.section_builder import Section
from tests.conftest import EPC_RULEBOOK, SHARED_CORPORA, real_pdf

pytestmark = pytest.mark.real_pdfs


@pytest.fixture(scope="module")
def epc() -> ParsedDocument:
    return parse_document(real_pdf(EPC_RULEBOOK))  # ~7 s of CPU: camelot on ~70 candidate pages


@pytest.fixture(scope="module")
def epc_chunks(epc):
    return chunk_sections(epc.sections)


def _chunk_with(chunks, phrase: str):
    """The body chunk holding the phrase (the table of contents on pages 2-4 names it too)."""
    hits = [c for c in chunks if phrase in c.text and c.page_start > 4
            and not (c.section.path and c.section.path[0].startswith("Annex"))]  # Annex V repeats 2.2
    assert len(hits) == 1, (phrase, [(c.section.path, c.page_start) for c in hits])
    return hits[0]


@pytest.mark.parametrize(("phrase", "section_key", "page"), [
    ("2.2 Description of Scope of the Scheme", "2.2", 20),
    ("4.2.3 Maximum Execution Time", "4.2.3", 27),
    ("5.9.3 Force majeure", "5.9.3", 77),
    ("1.1 Vision", "1.1", 15),
])
def test_named_passages_have_their_section_path_and_page(epc_chunks, phrase, section_key, page):
    chunk = _chunk_with(epc_chunks, phrase)
    assert chunk.section.path[-1] == section_key
    assert chunk.section.path == [section_key[:i] for i in range(1, len(section_key) + 1)
                                  if i == len(section_key) or section_key[i] == "."]
    assert chunk.page_start == page


def test_scope_passage_sits_in_section_2_2_on_page_20(epc_chunks):
    chunk = _chunk_with(epc_chunks, "Description of Scope of the Scheme")
    assert chunk.section.path[-1] == "2.2" and chunk.section.title == "Description of Scope of the Scheme"
    assert chunk.page_start == 20


def test_table_of_contents_opens_no_section_and_footnotes_neither(epc):
    assert all(s.blocks[0].page_start > 4 for s in epc.sections if s.path)
    keys = [s.key for s in epc.sections]
    assert "2.2" in keys and "5.9.3" in keys and "Annex II" in keys
    assert keys.count("3") == 1  # "3. There should be transparency…" (a list item) is not chapter 3


def test_chunks_are_bounded_do_not_overlap_and_reassemble_each_section(epc, epc_chunks):
    for chunk in epc_chunks:
        if len(chunk.text) > MAX_CHUNK_CHARS:
            assert len(chunk.pieces) == 1 and chunk.tables_csv, "only a single big table may exceed"
    for section in epc.sections:
        assert reassemble([c.text for c in epc_chunks if c.section is section]) == section.text
    assert epc.table_count >= 60
    assert sum(1 for c in epc_chunks if c.tables_csv) >= 40


def test_running_headers_and_page_numbers_are_stripped(epc):
    text = epc.text
    assert "www.epc-cep.eu" not in text
    assert "Date issued: 28 November 2024" not in text.split("Table of Contents")[-1]


def test_owner_password_pdf_opens_without_a_password():
    path = real_pdf("de_tan_hhd_uc_v14.pdf")
    document = open_pdf(path)
    pages = read_pages(document)
    assert len(pages) == 28 and sum(len(p.lines) for p in pages) > 500


def test_key_information_document_is_chunked_on_priips_sections():
    parsed = parse_document(real_pdf("kid_XS1914695009-EN.pdf"))
    keys = [s.key for s in parsed.sections]
    assert keys[1:] == ["purpose", "product", "risks", "default", "costs", "holding", "complaints", "other"]


def test_lettered_parts_of_the_german_tan_specification():
    parsed = parse_document(real_pdf("de_tan_hhd_uc_v14.pdf"))
    by_key = {s.key: s for s in parsed.sections}
    assert by_key["A"].title == "EINLEITUNG" and by_key["A"].blocks[0].page_start == 6
    assert by_key["B.1.1"].path == ["B", "B.1", "B.1.1"] and by_key["B.1.1"].blocks[0].page_start == 7
    assert by_key["C.4.1"].path == ["C", "C.4", "C.4.1"] and by_key["C.4.1"].title == "Beispiel für die Prüfsummenbildung"
    assert all(s.blocks[0].page_start >= 6 for s in parsed.sections if s.path)  # contents pages open nothing
    assert len([s for s in parsed.sections if s.path]) >= 25


def test_briefing_without_numbers_is_sectioned_by_heading_size():
    parsed = parse_document(real_pdf("eprs_bri_2023_747447_en.pdf"))
    titled = [s for s in parsed.sections if s.path]
    assert len(titled) >= 15
    by_title = {s.title: s for s in titled}
    assert by_title["Background"].path == ["Background"] and by_title["Background"].blocks[0].page_start == 1
    fraud = by_title["Fraud prevention"]
    assert fraud.path[0] == "European Parliament" and len(fraud.path) == 3 and fraud.blocks[0].page_start == 8
    ebA = by_title["European Banking Authority (EBA)"]
    assert ebA.path == ["Position of advisory bodies", "European Banking Authority (EBA)"]


def test_the_tan_specifications_header_table_goes_on_every_page():
    """Each page opens with a header laid out as a table row ("HandHeld-Device (HHD) zur
    TAN-Erzeugung", "Version:", "Kapitel:", then "Dokument: …", "V 1.4", the chapter letter)."""
    document = open_pdf(real_pdf("de_tan_hhd_uc_v14.pdf"))
    pages = read_pages(document)
    strip_page_furniture(pages)
    texts = [line.text for page in pages for line in page.lines]
    assert not [t for t in texts if t.startswith("Kapitel:")]
    assert sum("HHD-Erweiterung für unidirektionale Kopplung" in t for t in texts) <= 2  # the title page's


def test_a_message_guides_header_block_goes_and_no_record_line_with_it():
    """The RTP message guide writes its header block ("Approved by Payments SEG on … reda.067.001.01"
    over the message's wrapped name) after the footer in the text stream; element records
    ("Presence: [1..*]") often open a page right under it, and every one of them stays."""
    path = SHARED_CORPORA / "real-pdfs-2" / "iso20022_mdr2_request_to_pay_v1.pdf"
    if not path.is_file():
        pytest.skip(f"needs {path} (absent on this machine)")
    document = open_pdf(path)
    pages = read_pages(document)
    presence = sum(line.text.startswith("Presence: [") for page in pages for line in page.lines)
    strip_page_furniture(pages)
    assert sum(line.text.startswith("Presence: [") for page in pages for line in page.lines) == presence > 200
    assert sum(any(line.text.startswith("Approved by Payments SEG") for line in page.lines) for page in pages) < 10


@pytest.fixture(scope="module")
def exceptions_guide_sections() -> dict[str, Section]:
    path = SHARED_CORPORA / "real-pdfs-2" / "iso20022_mdr2_exceptions_investigations_2019_2020.pdf"
    if not path.is_file():
        pytest.skip(f"needs {path} (absent on this machine)")
    return {s.key: s for s in parse_document(path).sections}


def test_a_message_guides_data_types_each_open_their_own_section(exceptions_guide_sections):
    """The E&I guide sets each data type as text columns ("Format" over "totalDigits | 18"); read as one
    table they ran on into the next types' headings ("19.2.8.2 Number"), which then opened no section."""
    sections = exceptions_guide_sections
    assert sections["19.2.8.1"].title == "DecimalNumber" and "fractionDigits 17" in sections["19.2.8.1"].text
    assert sections["19.2.8.2"].title == "Number" and "fractionDigits 0" in sections["19.2.8.2"].text
    assert "maxLength 128" in sections["19.2.10.5"].text and "19.2.10.6" not in sections["19.2.10.5"].text


def test_each_constraint_of_a_message_guide_is_a_section_of_its_own(exceptions_guide_sections):
    """A message's thirty rules were one "Constraints" section, packed into chunks by size."""
    sections = exceptions_guide_sections
    rule = sections["5.3 C26"]
    assert rule.title == "PartialOrRejectedCancellationRule" and rule.path == ["5", "5.3", "5.3 C26"]
    assert "then CancellationDetails must be present" in rule.text and "C27" not in rule.text
    assert rule.parent_titles[-1] == "5.3 Constraints"
    # every message numbers its rules from C1 again, each under its own constraints
    firsts = [key for key in sections if key.endswith(" C1")]
    assert len(firsts) == len(set(firsts)) > 10
