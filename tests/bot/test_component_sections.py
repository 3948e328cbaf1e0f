"""A question about an element of a message component it names ("How long may the name of a branch be in
BranchData3?") reads the section detailing that component, found by its heading anywhere in the guide,
and quotes its record, not the same element's record in another component
(bot/offline/component_sections.py, OfflineRulebookModel._section_to_read)."""

from __future__ import annotations

from bot.offline.component_sections import ComponentSections
from bot.offline.offline_model import OfflineRulebookModel, Reading
from bot.offline.subject_terms import CorpusVocabulary
from knowledge.payload import ChunkPayload
from tests.bot.test_subject_terms import _Store

ITEMS = "19 Message Items Types"
COMPONENTS = "19.1 MessageComponents"


def _chunk(index: int, path: list[str], titles: list[str], text: str, tables: list[str] | None = None,
           rulebook: str = "EI") -> ChunkPayload:
    return ChunkPayload(chunk_id=f"{rulebook}:{index}", rulebook_id=rulebook, rulebook_title="E&I guide",
                        page_start=200 + index, page_end=200 + index, section_path=path, section_key=path[-1],
                        section_title=titles[-1], parent_titles=titles[:-1], chunk_index=index, text=text,
                        tables_csv=tables or [], content_hash=f"h{rulebook}{index}")


def _record(name: str, definition: str, datatype: str) -> str:
    return f"{name}\n\nPresence: [0..1]\n\nDefinition: {definition}\n\nDatatype: \"{datatype}\" on page 387"


PARTY = _chunk(1, ["19", "19.1", "19.1.5", "19.1.5.2", "19.1.5.2.1"],
               [ITEMS, COMPONENTS, "19.1.5 Party Identification", "19.1.5.2 PartyIdentification135", "Name <Nm>"],
               _record("19.1.5.2.1 Name <Nm>", "Name by which a party is known.", "Max140Text"))
BRANCH = _chunk(2, ["19", "19.1", "19.1.9", "19.1.9.3"],
                [ITEMS, COMPONENTS, "19.1.9 Financial Institution Identification", "BranchData3"],
                "19.1.9.3 BranchData3\n\nDefinition: Information that locates and identifies a specific branch.",
                ["Or,MessageElement<XML Tag>,Mult.,Type,Constr. No.,Page\n,Identification <Id>,[0..1],Text,,206\n"
                 ",Name <Nm>,[0..1],Text,,206\n"])
BRANCH_NAME = _chunk(3, ["19", "19.1", "19.1.9", "19.1.9.3", "19.1.9.3.3"],
                     [ITEMS, COMPONENTS, "19.1.9 Financial Institution Identification", "19.1.9.3 BranchData3",
                      "Name <Nm>"],
                     _record("19.1.9.3.3 Name <Nm>", "Name by which an agent is known.", "Max70Text"))
CONTACT_NAME = _chunk(4, ["19", "19.1", "19.1.18", "19.1.18.2", "19.1.18.2.2"],
                      [ITEMS, COMPONENTS, "19.1.18 Contact", "19.1.18.2 Contact4", "Name <Nm>"],
                      _record("19.1.18.2.2 Name <Nm>", "Name by which a contact person is known.", "Max140Text"))
# a message's chapter repeats its "Structure" heading: the heading names no one section
STRUCTURE = _chunk(5, ["2", "2.2"], ["2 camt.026.001.08 UnableToApplyV08", "Structure"], "Structure",
                   ["Or,MessageElement<XML Tag>,Mult.,Type,Constr. No.,Page\n,Assignment <Assgnmt>,[1..1],±,,30\n"])
STRUCTURE_2 = _chunk(6, ["3", "3.2"], ["3 camt.027.001.08 ClaimNonReceiptV08", "Structure"], "Structure",
                     ["Or,MessageElement<XML Tag>,Mult.,Type,Constr. No.,Page\n,Case <Case>,[0..1],±,,40\n"])
# a specification's section about a technique whose name is written run together lists no elements
SCRIPT = _chunk(1, ["C", "C.1"], ["C Optical coupling", "JavaScript"],
                "JavaScript must be enabled in the customer's browser.", rulebook="HHD")
GUIDE = [PARTY, BRANCH, BRANCH_NAME, CONTACT_NAME, STRUCTURE, STRUCTURE_2, SCRIPT]


def _index():
    sections = ComponentSections()
    for chunk in GUIDE:
        sections.add(chunk)
    return sections.freeze()


def test_a_component_is_found_by_its_heading_with_the_section_it_heads():
    index = _index()
    question = "How long may the name of a branch be in BranchData3?"
    assert index.named(question, ["EI"]) == [("EI", "19.1.9.3")]
    assert index.named("Is Name mandatory in Contact4 and in PartyIdentification135?", ["EI"]) \
        == [("EI", "19.1.18.2"), ("EI", "19.1.5.2")]
    # only in the rulebooks the caller was shown
    assert index.named(question, ["QR"]) == []


def test_repeated_headings_words_records_and_sections_listing_no_elements_are_no_components():
    index = _index()
    assert index.named("What is the Structure of camt.026?", ["EI"]) == []
    assert index.named("What does the name Name mean?", ["EI"]) == []
    assert index.named("What does the JavaScript variant require?", ["HHD"]) == []
    assert ("HHD", "javascript") not in index.sections


def test_the_named_components_section_is_read_and_its_own_record_quoted():
    model = OfflineRulebookModel(min_lexical=0.0, vocabulary=CorpusVocabulary(_Store(GUIDE)))
    question = "How long may the name of a branch be in BranchData3?"
    # the search showed the Name records of the other components, which name no branch
    shown = [("S1", PARTY), ("S2", CONTACT_NAME)]
    reading = Reading(hits=shown, search_hits=shown, section_ids=set(), read=[])
    assert model._section_to_read(question, question, reading) == ("EI", "19.1.9.3")
    read = [*shown, ("S3", BRANCH), ("S4", BRANCH_NAME)]
    text = model.compose(question, "en", read, {BRANCH.chunk_id, BRANCH_NAME.chunk_id},
                         read=[("EI", "19.1.9.3")])
    quotes = [line for line in text.splitlines() if line.startswith("- ")]
    assert quotes and "Max70Text" in quotes[0] and "[S4]" in quotes[0], text
    # once read, it is not read again
    done = Reading(hits=read, search_hits=shown, section_ids={BRANCH.chunk_id}, read=[("EI", "19.1.9.3")])
    assert model._section_to_read(question, question, done) != ("EI", "19.1.9.3")



def test_the_read_components_structure_table_answers_a_question_about_its_elements():
    """"Are the identification and the name mandatory in BranchData3?": its structure table gives each
    element's multiplicity; a record gives one element's only. Only once its section was read, and not for
    a "list all" question (the list has its own rules)."""
    from bot.offline.span_scoring import SpanScorer

    model = OfflineRulebookModel(min_lexical=0.0, vocabulary=CorpusVocabulary(_Store(GUIDE)))
    question = "In BranchData3, are the Identification and the Name mandatory?"
    hits = [("S1", PARTY), ("S2", CONTACT_NAME), ("S3", BRANCH_NAME), ("S4", BRANCH)]
    spans = SpanScorer(None, None).score(question, hits, {BRANCH.chunk_id, BRANCH_NAME.chunk_id})
    row = model._component_structure(question, spans, [("EI", "19.1.9.3")])
    assert row is not None and row.chunk is BRANCH and row.table == 0
    assert model._component_structure(question, spans, []) is None
    assert model._component_structure("List all the elements of BranchData3.", spans, [("EI", "19.1.9.3")]) is None
    text = model.compose(question, "en", hits, {BRANCH.chunk_id, BRANCH_NAME.chunk_id}, read=[("EI", "19.1.9.3")])
    assert "From the table in the rulebook [S4]" in text and "| Identification <Id> | [0..1] |" in text, text
