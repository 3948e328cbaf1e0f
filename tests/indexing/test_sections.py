"""Section headers: what must open a section and what must not."""

from __future__ import annotations

from indexing.pdf_text import Line, PageLines
from indexing.section_builder import build_sections
from indexing.section_detector import SectionDetector, contents_lines, priips_section


def _lines(specs: list[tuple[str, float]], page: int = 1) -> list[Line]:
    out, top = [], 800.0
    for text, height in specs:
        out.append(Line(text=text, page=page, top=top, bottom=top - height, x0=50, x1=300, height=height))
        top -= height + 2
    return out


def _detect(specs: list[tuple[str, float]]) -> list[list[str] | None]:
    lines = _lines(specs)
    detector = SectionDetector(lines, kid=False)
    return [(h.path if (h := detector.detect(line)) else None) for line in lines]


BODY = "This is a long enough line of body text to set the typical body size of the page."


def test_numbered_chapters_sections_and_subsections():
    paths = _detect([("Chapter 3 Settlement", 14), (BODY, 10), ("3.1 Accounts", 12), (BODY, 10),
                     ("3.2 Settlement cycles", 12), ("3.2.1 Cut-off", 11), (BODY, 10), ("4 Liquidity", 14)])
    assert paths == [["3"], None, ["3", "3.1"], None, ["3", "3.2"], ["3", "3.2", "3.2.1"], None, ["4"]]


def test_footnotes_list_items_dates_amounts_and_going_back_are_not_sections():
    paths = _detect([
        ("2 Scope", 12), (BODY, 10), ("2.1 Application", 12), (BODY, 10),
        ("3 Please refer to the list of countries.", 7),        # footnote: smaller type
        ("1. All services must not compromise interoperability", 10),  # list item: goes back
        ("12.5 EUR per transaction is charged", 10),          # amount: not a successor
        ("28 November 2024", 10),                              # a date
        ("2.2 the participant shall ensure that", 10),         # lower case: a sentence
        (BODY, 10), ("2.2 Description of the scheme", 12),
    ])
    assert paths == [["2"], None, ["2", "2.1"], None, None, None, None, None, None, None, ["2", "2.2"]]


def test_a_hundredth_item_follows_the_ninety_ninth_and_thousands_are_no_sections():
    # the ABN AMRO addendum numbers its message items 2.1 … 2.99, 2.100, 2.101 …
    items = [(f"2.{n} Message item {chr(65 + n % 26)}", 11) for n in range(1, 102)]
    paths = _detect([
        ("2 Message items", 14), *items, (BODY, 10),
        ("1.000 Transactions a day are the limit for a batch", 10),  # an amount: goes back
        ("2.250 Payments are grouped per day", 10),                   # not a successor of 2.101
        ("2.102 Type", 11),
    ])
    assert paths[98:] == [["2", "2.98"], ["2", "2.99"], ["2", "2.100"], ["2", "2.101"], None, None, None,
                          ["2", "2.102"]]
    assert all(p is not None for p in paths[:102])


def test_table_of_contents_lines_do_not_open_sections():
    specs = [("Table of Contents", 12), ("1 Vision and Objectives 15", 10), ("1.1 Vision 15", 10),
             ("2 Scope of the Scheme .......... 20", 10), (BODY, 10), ("1 Vision and Objectives", 12)]
    lines = _lines(specs)
    assert contents_lines(lines) == {1, 2, 3}
    detector = SectionDetector(lines, kid=False)
    assert [bool(detector.detect(line)) for line in lines] == [False] * 5 + [True]


def test_annexes_restart_numbering_under_their_own_name():
    paths = _detect([("1 Rules", 12), (BODY, 10), ("Annex II Management Rules", 14), (BODY, 10),
                     ("1.1 The Council", 12), (BODY, 10), ("Bijlage A Nederland", 14), ("A.1 Registratie", 12)])
    assert paths[2] == ["Annex II"] and paths[4] == ["Annex II", "Annex II 1", "Annex II 1.1"]
    assert paths[6] == ["Bijlage A"] and paths[7] == ["Bijlage A", "A.1"]


def test_rule_id_headers_but_not_lists_of_rule_ids():
    paths = _detect([("1 Acceptance", 12), (BODY, 10), ("AT-R3 Honour all devices", 11), (BODY, 10),
                     ("AT-P001 The name of the Originator", 10), ("AT-P002 The address", 10), (BODY, 10)])
    assert paths[2] == ["1", "AT-R3"]
    assert paths[4] is None and paths[5] is None


def test_each_constraint_of_a_message_opens_its_own_section_keyed_by_its_message():
    rule = "If Status/Confirmation is present and equal to PECR or RJCR then CancellationDetails must be present."
    paths = _detect([("2 camt.029.001.10 ResolutionOfInvestigationV10", 14), (BODY, 10), ("2.3 Constraints", 12),
                     ("C1 AnyBIC", 10), (rule, 10), ("C26 PartialOrRejectedCancellationRule", 10), (rule, 10),
                     ("3 camt.030.001.05 NotificationOfCaseAssignmentV05", 14), ("3.3 Constraints", 12),
                     ("C1 AnyBIC", 10), (rule, 10)])
    assert paths[3] == ["2", "2.3", "2.3 C1"]
    assert paths[5] == ["2", "2.3", "2.3 C26"]
    assert paths[9] == ["3", "3.3", "3.3 C1"]  # every message numbers its rules from C1 again
    assert [p for i, p in enumerate(paths) if i in (4, 6, 10)] == [None, None, None]


def test_constraint_lines_outside_a_constraints_section_or_in_a_list_open_nothing():
    paths = _detect([("1 Message items", 14), (BODY, 10), ("1.1 Currency", 12), ("C1 ActiveOrHistoricCurrency", 10),
                     (BODY, 10), ("1.2 Constraints", 12), ("C1 AnyBIC", 10), ("C2 AmountRule", 10), (BODY, 10),
                     ("C3 Two words", 10), (BODY, 10)])
    assert paths[3] is None  # only a "Constraints" section holds rules
    assert paths[6] is None and paths[7] is None  # rule names one after the other: an index
    assert paths[9] is None  # a rule's name is one run-together word


def test_priips_titles_in_four_languages():
    assert priips_section("What are the costs?")[0] == "costs"
    assert priips_section("Wat zijn de kosten?")[0] == "costs"
    assert priips_section("Que va me coûter cet investissement ?")[0] == "costs"
    assert priips_section("Welche Kosten entstehen?")[0] == "costs"
    assert priips_section("Hoe lang moet ik het houden en kan ik er eerder geld uithalen?")[0] == "holding"
    assert priips_section("The costs are shown below.") is None


def test_a_kid_is_chunked_on_its_priips_sections_only():
    specs = [("Purpose", 12), (BODY, 10), ("What is this product?", 12), ("1. Type: a note", 10),
             ("What are the risks and what could I get in return?", 12), (BODY, 10),
             ("What are the costs?", 12), ("2.1 Entry costs", 10), ("How can I complain?", 12), (BODY, 10)]
    page = PageLines(number=1, width=595, height=842, items=list(_lines(specs)))
    sections = build_sections([page], {})
    assert [s.key for s in sections] == ["purpose", "product", "risks", "costs", "complaints"]


def test_lettered_parts_and_their_numbered_sections():
    paths = _detect([("A. Einleitung", 16), (BODY, 10), ("A. The applicant shall register.", 10),
                     ("B. Generelle Festlegungen", 16), ("B.1 Standardabläufe", 14), (BODY, 10),
                     ("B.1.1 Ablauf zur manuellen Eingabe", 12), (BODY, 10), ("B.2 Datenübertragung", 14),
                     ("F. Too far ahead", 16), ("C. Spezielle Festlegungen", 16), ("C.1 Rahmen", 14)])
    assert paths == [["A"], None, None, ["B"], ["B", "B.1"], None, ["B", "B.1", "B.1.1"], None,
                     ["B", "B.2"], None, ["C"], ["C", "C.1"]]


def test_a_document_without_numbered_headings_is_sectioned_by_type_size():
    specs = [("BRIEFING", 20), ("A title used once on the cover", 30), (BODY, 10), (BODY, 10),
             ("Background", 18), (BODY, 10), ("The revised directive", 18), (BODY, 10),
             ("Proposals", 16), (BODY, 10), ("Evaluation report", 16), (BODY, 10),
             ("European Parliament", 18), ("Resolutions of the", 16), ("current term", 16), (BODY, 10),
             ("4 In both cases the directive applies.", 10)]
    lines = _lines(specs)
    detector = SectionDetector(lines, kid=False)
    assert detector.mode == "font"
    paths = [(h.path if (h := detector.detect(line)) else None) for line in lines]
    assert [p for p in paths if p] == [
        ["Background"], ["The revised directive"], ["The revised directive", "Proposals"],
        ["The revised directive", "Evaluation report"], ["European Parliament"],
        ["European Parliament", "Resolutions of the"]]  # a wrapped heading opens one section


def test_numbered_documents_keep_pattern_headings():
    lines = _lines([("1 Scope", 12), (BODY, 10), ("2 Fees", 12), (BODY, 10), ("3 Settlement", 12),
                    ("Big banner", 18), (BODY, 10), ("Big banner two", 18)])
    assert SectionDetector(lines, kid=False).mode == "pattern"


def test_a_message_guides_outline_at_body_size_is_no_lettered_part():
    """"A. Header" … "D. SupplementaryData" list a message's building blocks at about body size:
    taken as parts, they prefixed every later section ("D 3.4.2")."""
    paths = _detect([("2 reda.066.001.01", 22), ("2.1 MessageDefinition Functionality", 20), (BODY, 10),
                     ("A. Header", 11.1), (BODY, 10), ("B. CreditorEnrolment", 11.1), (BODY, 10),
                     ("3 reda.067.001.01", 22), ("3.1 MessageDefinition Functionality", 20)])
    assert [p for p in paths if p] == [["2"], ["2", "2.1"], ["3"], ["3", "3.1"]]


def _page(number: int, specs: list[tuple[str, float]]) -> PageLines:
    return PageLines(number=number, width=600, height=800, items=list(_lines(specs, page=number)))


def test_a_display_heading_wrapped_onto_two_lines_is_one_title_and_names_its_subsections():
    pages = [_page(1, [("1 camt.026.001.07", 22), ("UnableToApplyV07", 22), ("1.1 Scope", 16), (BODY, 10),
                       ("1.2 Usage", 16), ("Usage notes.", 10), (BODY, 10)]),
             _page(2, [("2 camt.087.001.07", 22), ("RequestToModifyPaymentV07", 22), (BODY, 10),
                       ("2.1 Rules", 16), ("The currency must never be modified.", 10), (BODY, 10)])]
    sections = build_sections(pages, {}, kid=False)
    by_key = {s.key: s for s in sections}
    assert by_key["1"].title == "camt.026.001.07 UnableToApplyV07"
    assert by_key["2"].title == "camt.087.001.07 RequestToModifyPaymentV07"
    assert by_key["2.1"].parent_titles == ["2 camt.087.001.07 RequestToModifyPaymentV07"]
    assert by_key["1.2"].parent_titles == ["1 camt.026.001.07 UnableToApplyV07"]
    # a body-size line after a body-size heading stays body text
    assert by_key["1.2"].title == "Usage"
    assert "Usage notes." in by_key["1.2"].text

