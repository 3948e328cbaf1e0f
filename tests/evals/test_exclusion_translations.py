"""Refusal by exclusion: an answer from a translation of a hidden rulebook, cited on the page the
question expects of the original, is listed as answered elsewhere, not counted an error
(evals/exclusion.py `translations`, `cites_translation`)."""

from __future__ import annotations

from types import SimpleNamespace

from evals.exclusion import ExclusionCase, cites_translation, summarise, translations
from knowledge.payload import ChunkPayload


def _chunk(rulebook: str, page: int, text: str, language: str, **extra) -> ChunkPayload:
    return ChunkPayload(chunk_id=f"{rulebook}:{page}", rulebook_id=rulebook, rulebook_title=rulebook,
                        language=language, page_start=page, page_end=page, chunk_index=page, text=text,
                        content_hash=f"{rulebook}{page}", **extra)


EN = [_chunk("GUIDE-EN", 1, "QR-IIDs are published on 30.06.2020 in the Bank Master (SIC, euroSIC).", "en"),
      _chunk("GUIDE-EN", 2, "The range 30000-31999 is reserved for QR-IIDs; IBAN CH44 3199 9123 0008 8901 2.", "en")]
DE = [_chunk("GUIDE-DE", 1, "QR-IIDs werden am 30.06.2020 im Bankenstamm publiziert (SIC, euroSIC).", "de"),
      _chunk("GUIDE-DE", 2, "Der Bereich 30000-31999 ist für QR-IIDs reserviert; IBAN CH44 3199 9123 0008 8901 2.", "de")]
OTHER = [_chunk("ISO-EN", p, f"Message camt.0{p}5.001.08 uses ISODateTime and BIC {p}.", "en") for p in (1, 2)]
# same neutral text in another language, but a different length: a summary, not a translation
SHORT = [_chunk("SUMMARY-FR", 1, "QR-IIDs 30.06.2020 SIC euroSIC 30000-31999 IBAN CH44 3199 9123 0008 8901 2", "fr")]


class _Store:
    def __init__(self, chunks):
        self.chunks = chunks

    def scroll(self, access=None):
        yield from self.chunks


def test_a_translation_is_found_by_its_language_neutral_text_or_its_catalog_series():
    found = translations(SimpleNamespace(store=_Store([*EN, *DE, *OTHER])))
    assert found == {"GUIDE-EN": {"GUIDE-DE"}, "GUIDE-DE": {"GUIDE-EN"}}
    pages = [*[c.model_copy(update={"page_end": 9}) for c in EN], *SHORT]
    assert translations(SimpleNamespace(store=_Store(pages))) == {}  # 1 page against 9
    # the catalog says so: one series in two languages (a version in the same language is no translation)
    series = [_chunk("PS-05-NL", 1, "Tekst.", "nl", series="PS-05"), _chunk("PS-05-FR", 1, "Texte.", "fr", series="PS-05"),
              _chunk("PS-05-2024", 1, "Text.", "nl", series="PS-05")]
    assert translations(SimpleNamespace(store=_Store(series))) == {
        "PS-05-NL": {"PS-05-FR"}, "PS-05-FR": {"PS-05-NL", "PS-05-2024"}, "PS-05-2024": {"PS-05-FR"}}
    assert translations(SimpleNamespace()) == {}


def test_an_answer_from_the_translation_counts_on_the_expected_page_only():
    found = {"GUIDE-EN": {"GUIDE-DE"}}
    q = SimpleNamespace(expected=[SimpleNamespace(rulebook_id="GUIDE-EN", pages=[8])])

    def answer(*cited):
        return SimpleNamespace(citations=[SimpleNamespace(rulebook_id=r, page=p) for r, p in cited])

    assert cites_translation(q, answer(("GUIDE-DE", 8), ("ISO-EN", 3)), found)
    assert cites_translation(q, answer(("GUIDE-DE", 9)), found)  # the German text runs a page longer
    assert not cites_translation(q, answer(("GUIDE-DE", 12)), found)  # the translation, but another page
    assert not cites_translation(q, answer(("ISO-EN", 8)), found)
    anywhere = SimpleNamespace(expected=[SimpleNamespace(rulebook_id="GUIDE-EN", pages=[])])
    assert cites_translation(anywhere, answer(("GUIDE-DE", 12)), found)


def test_the_summary_lists_each_answer_elsewhere_with_why():
    cases = [ExclusionCase("a", "dev", ["GUIDE-EN"], "answered", cited=["GUIDE-DE p.8"], elsewhere=True,
                           elsewhere_by="translation"),
             ExclusionCase("b", "dev", ["ISO-EN"], "answered", cited=["RTP p.3"], elsewhere=True, elsewhere_by="facts"),
             ExclusionCase("c", "dev", ["ISO-EN"], "answered", cited=["QR p.3"]),
             ExclusionCase("d", "dev", ["ISO-EN"], "refused")]
    dev = summarise(cases)["dev"]
    assert dev["refused_share"] == 0.25 and dev["refused_or_answered_elsewhere_share"] == 0.75
    assert dev["answered_elsewhere_by"] == {"a": "translation", "b": "facts"}
    assert dev["answered_elsewhere"]["a"] == ["GUIDE-DE p.8"]


def _pages_as_chunks(path, rulebook_id: str, language: str) -> list[ChunkPayload]:
    from indexing.pdf_text import open_pdf, read_pages

    document = open_pdf(path)
    try:
        return [_chunk(rulebook_id, page.number, " ".join(line.text for line in page.lines), language)
                for page in read_pages(document)]
    finally:
        document.close()


def test_the_german_qr_iid_guide_is_found_as_the_translation_of_the_english_one():
    """Real documents (../shared/corpora): the SIX QR-IID guide in English and German carry no
    catalog series; their numbers, codes and acronyms make them one document, and the QR-bill delta
    guide, on the same subject and with many of the same codes, is not its translation."""
    import pytest

    from tests.conftest import SHARED_CORPORA

    names = {"six_qr-iid_qr-iban-en": SHARED_CORPORA / "real-pdfs" / "six_qr-iid_qr-iban-en.pdf",
             "six_qr-iid_qr-iban-de": SHARED_CORPORA / "real-pdfs" / "six_qr-iid_qr-iban-de.pdf",
             "six_ig-qr-bill-delta-guide-v2.3-en": SHARED_CORPORA / "real-pdfs-2" / "six_ig-qr-bill-delta-guide-v2.3-en.pdf",
             "nl_addendum_xml_sct_initiation_6-0": SHARED_CORPORA / "real-pdfs-2" / "nl_addendum_xml_sct_initiation_6-0.pdf"}
    missing = [str(p) for p in names.values() if not p.is_file()]
    if missing:
        pytest.skip(f"public PDFs not found: {', '.join(missing)}")
    chunks = [c for rulebook_id, path in names.items()
              for c in _pages_as_chunks(path, rulebook_id, "de" if rulebook_id.endswith("-de") else "en")]
    # the Dutch addendum, tagged as another language, shares codes with the others but is no translation
    chunks = [c.model_copy(update={"language": "nl"}) if c.rulebook_id.startswith("nl_") else c for c in chunks]
    assert translations(SimpleNamespace(store=_Store(chunks))) == {
        "six_qr-iid_qr-iban-en": {"six_qr-iid_qr-iban-de"}, "six_qr-iid_qr-iban-de": {"six_qr-iid_qr-iban-en"}}
