"""A question about an element inside the component an element's record points to ("once a
CancellationReason is given, is the Reason inside it mandatory?") reads that component's section and
shows the inner element's row of its structure table (bot/offline/pointed_component.py,
OfflineRulebookModel._section_to_read and _quote)."""

from __future__ import annotations

from bot.offline.component_sections import ComponentSections
from bot.offline.offline_model import OfflineRulebookModel, Reading
from bot.offline.pointed_component import inner_row, pointed_components
from bot.offline.span_scoring import SpanScorer
from bot.offline.subject_terms import CorpusVocabulary
from knowledge.payload import ChunkPayload
from tests.bot.test_subject_terms import _Store

MESSAGE = "4 reda.065.001.01 RequestToPayDebtorActivationCancellationRequestV01"
COMPONENTS = "8.1 MessageComponents"


def _chunk(index: int, path: list[str], titles: list[str], text: str, tables: list[str] | None = None
           ) -> ChunkPayload:
    return ChunkPayload(chunk_id=f"RTP:{index}", rulebook_id="RTP", rulebook_title="Request To Pay guide",
                        page_start=30 + index, page_end=30 + index, section_path=path, section_key=path[-1],
                        section_title=titles[-1], parent_titles=titles[:-1], chunk_index=index, text=text,
                        tables_csv=tables or [], content_hash=f"h{index}")


RECORD = _chunk(1, ["4", "4.4", "4.4.3"], [MESSAGE, "4.4 CancellationData", "CancellationReason <CxlRsn>"],
                "4.4.3 CancellationReason <CxlRsn>\n\nPresence: [0..1]\n\nDefinition: Provides detailed information "
                "on the cancellation reason.\n\nCancellationReason <CxlRsn> contains the following elements (see "
                "\"DebtorActivationCancellationReason2\" on page 65 for details)")
STRUCTURE = _chunk(2, ["8", "8.1", "8.1.4"], ["8 Message Items Types", COMPONENTS,
                                             "DebtorActivationCancellationReason2"],
                   "8.1.4 DebtorActivationCancellationReason2\n\nDefinition: Reason for the cancellation of a "
                   "debtor activation.",
                   ["Or,MessageElement<XML Tag>,Mult.,Type,Constr. No.,Page\n,Originator <Orgtr>,[0..1],±,,66\n"
                    ",Reason <Rsn>,[1..1],,,66\n,AdditionalInformation <AddtlInf>,[0..*],Text,,66\n"])
ORIGINATOR = _chunk(3, ["8", "8.1", "8.1.4", "8.1.4.1"],
                    ["8 Message Items Types", COMPONENTS, "8.1.4 DebtorActivationCancellationReason2",
                     "Originator <Orgtr>"],
                    "8.1.4.1 Originator <Orgtr>\n\nPresence: [0..1]\n\nDefinition: Party that issues the "
                    "cancellation request.")
GUIDE = [RECORD, STRUCTURE, ORIGINATOR]
INNER = "In a debtor activation cancellation request, once a CancellationReason is given, is the Reason inside it " \
        "mandatory?"


def _sections():
    sections = ComponentSections()
    for chunk in GUIDE:
        sections.add(chunk)
    return sections.freeze()


def test_a_record_opening_a_components_elements_points_to_its_section():
    spans = SpanScorer(None, None).score(INNER, [("S1", RECORD)], set())
    pointing = [s for s in spans if "contains the following elements" in s.text]
    record = [s for s in spans if s not in pointing]
    assert [section for _, section in pointed_components(pointing, spans, _sections())] == [("RTP", "8.1.4")]
    # the record right before the pointer points too (the pointer is its last line) ...
    assert [(p.text, section) for p, section in pointed_components(record, spans, _sections())] \
        == [(pointing[0].text, ("RTP", "8.1.4"))]
    # ... but only when the guide details the component in a section of its own
    assert pointed_components(pointing, spans, ComponentSections().freeze()) == []


def test_the_pointed_components_section_is_read_when_no_tool_showed_its_table():
    model = OfflineRulebookModel(min_lexical=0.0, vocabulary=CorpusVocabulary(_Store(GUIDE)))
    shown = [("S1", RECORD)]
    reading = Reading(hits=shown, search_hits=shown, section_ids=set(), read=[])
    assert model._section_to_read(INNER, INNER, reading) == ("RTP", "8.1.4")
    # a question that asks for no element's type or multiplicity follows no pointer
    rule = "Why would a debtor send a debtor activation cancellation request with a CancellationReason?"
    assert model._section_to_read(rule, rule, reading) is None
    # nor when the table was shown already
    both = [("S1", RECORD), ("S2", STRUCTURE)]
    assert model._section_to_read(INNER, INNER, Reading(hits=both, search_hits=both, section_ids=set(),
                                                        read=[])) is None


def test_the_inner_elements_row_is_shown_and_the_pointing_elements_own_question_keeps_its_answer():
    model = OfflineRulebookModel(min_lexical=0.0, vocabulary=CorpusVocabulary(_Store(GUIDE)))
    hits = [("S1", RECORD), ("S2", STRUCTURE), ("S3", ORIGINATOR)]
    read = [("RTP", "8.1.4")]
    text = model.compose(INNER, "en", hits, {STRUCTURE.chunk_id, ORIGINATOR.chunk_id}, read=read)
    assert "| Reason <Rsn> | [1..1] |" in text and "[S2]" in text, text
    spans = SpanScorer(None, None).score(INNER, hits, {STRUCTURE.chunk_id})
    pointing = next(s for s in spans if "contains the following elements" in s.text)
    row = inner_row(INNER, spans, pointing, ("RTP", "8.1.4"))
    assert row is not None and row.row is not None and "Reason <Rsn>" in row.row
    # "is the CancellationReason mandatory?" asks about the pointing element: no inner row answers it
    own = "In a debtor activation cancellation request, is the CancellationReason mandatory?"
    own_spans = SpanScorer(None, None).score(own, hits, {STRUCTURE.chunk_id})
    assert inner_row(own, own_spans, pointing, ("RTP", "8.1.4")) is None
    # an element spelled in words is named too
    spelled = "Once a CancellationReason is given, must the additional information inside it be present?"
    spelled_spans = SpanScorer(None, None).score(spelled, hits, {STRUCTURE.chunk_id})
    row = inner_row(spelled, spelled_spans, pointing, ("RTP", "8.1.4"))
    assert row is not None and row.row is not None and "AdditionalInformation <AddtlInf>" in row.row
